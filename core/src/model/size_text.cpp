// Sizes that a message compares, with enough digits (size_text.h).
#include "ckptlab/model/size_text.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "ckptlab/model/number_text.h"

namespace ckptlab {

namespace {

constexpr int kMaxDecimals = 6;  // 1e-6 MiB is about a byte
constexpr double kBytesPerMiB = 1024.0 * 1024.0;

// Whether `decimals` show two significant digits of every non-zero size and tell unequal
// sizes apart.
bool enough(const std::vector<std::int64_t>& bytes, int decimals) {
    std::set<std::int64_t> values;
    std::set<std::string> texts;
    for (std::int64_t b : bytes) {
        const double mib = std::abs(static_cast<double>(b)) / kBytesPerMiB;
        if (b != 0 && mib * std::pow(10.0, decimals) < 10) return false;
        values.insert(b);
        texts.insert(formatFixed(static_cast<double>(b) / kBytesPerMiB, decimals));
    }
    return texts.size() == values.size();
}

}  // namespace

std::vector<std::string> mibTexts(const std::vector<std::int64_t>& bytes, int minDecimals) {
    int decimals = std::clamp(minDecimals, 0, kMaxDecimals);
    while (decimals < kMaxDecimals && !enough(bytes, decimals)) ++decimals;
    std::vector<std::string> texts;
    texts.reserve(bytes.size());
    for (std::int64_t b : bytes)
        texts.push_back(formatFixed(static_cast<double>(b) / kBytesPerMiB, decimals));
    return texts;
}

std::string mibText(std::int64_t bytes, int minDecimals) {
    return mibTexts({bytes}, minDecimals).front();
}

}  // namespace ckptlab
