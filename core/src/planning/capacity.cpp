// GPU capacities by name and as typed: what --capacity and the app's picker take.
#include <cctype>
#include <cmath>
#include <stdexcept>

#include "ckptlab/full_size.h"
#include "ckptlab/number_text.h"

namespace ckptlab {

const std::vector<CapacityPreset>& capacityPresets() {
    // As the vendors sell them, in GB (10^9 bytes); the memory a program can allocate is a few
    // hundred MB less (the CUDA context).
    static const std::vector<CapacityPreset> presets = {
        {"24GB", 24'000'000'000LL, "RTX 4090, A10, L4"},
        {"40GB", 40'000'000'000LL, "A100 40GB"},
        {"48GB", 48'000'000'000LL, "L40S, RTX 6000 Ada, A40"},
        {"80GB", 80'000'000'000LL, "A100 80GB, H100 80GB"},
        {"94GB", 94'000'000'000LL, "H100 NVL"},
        {"141GB", 141'000'000'000LL, "H200"},
    };
    return presets;
}

std::int64_t parseCapacity(const std::string& text) {
    const std::string forms =
        "--capacity must be a size such as 80GB (10^9 bytes) or 79.5GiB (2^30 bytes), from 1 GB "
        "to 100000 GB (got \"" +
        text + "\")";
    std::string s;
    for (char c : text)
        if (c != ' ') s += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    double unit = 0;
    std::string number;
    if (s.size() > 3 && s.compare(s.size() - 3, 3, "gib") == 0) {
        unit = 1024.0 * 1024 * 1024;
        number = s.substr(0, s.size() - 3);
    } else if (s.size() > 2 && s.compare(s.size() - 2, 2, "gb") == 0) {
        unit = 1e9;
        number = s.substr(0, s.size() - 2);
    } else {
        throw std::invalid_argument(forms);
    }
    const std::optional<double> value = parseDecimal(number);
    if (!value || !std::isfinite(*value)) throw std::invalid_argument(forms);
    const double bytes = *value * unit;
    if (!(bytes >= 1e9) || bytes > 1e14) throw std::invalid_argument(forms);
    return static_cast<std::int64_t>(std::llround(bytes));
}

}  // namespace ckptlab
