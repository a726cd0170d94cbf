#include "ckptlab/model/statistics.h"

#include <algorithm>

namespace ckptlab {

double median(std::vector<double> samples) {
    if (samples.empty()) return 0;
    const std::size_t n = samples.size();
    auto middle = samples.begin() + static_cast<std::ptrdiff_t>(n / 2);
    std::nth_element(samples.begin(), middle, samples.end());
    if (n % 2) return *middle;
    const double upper = *middle;
    const double lower = *std::max_element(samples.begin(), middle);
    return 0.5 * (lower + upper);
}

}  // namespace ckptlab
