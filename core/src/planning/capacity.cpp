// GPU capacities by name, and sizes as typed and as printed: what --capacity and the app's
// picker take, and the one printer of a full-size plan's sizes, so that every size the program
// prints reads back as the same bytes.
#include <cmath>
#include <stdexcept>

#include "ckptlab/model/number_text.h"
#include "ckptlab/planning/full_size.h"

namespace ckptlab {
namespace {

constexpr std::int64_t kMinCapacity = 1;                    // a byte: smaller is no device
constexpr std::int64_t kMaxCapacity = 100'000'000'000'000;  // 100000 GB

// Each unit written once, as SI and IEC write it.
const std::vector<ByteUnit>& units() {
    static const std::vector<ByteUnit> table = {
        {"B", 1},
        {"kB", 1e3},
        {"MB", 1e6},
        {"GB", 1e9},
        {"TB", 1e12},
        {"KiB", 1024.0},
        {"MiB", 1024.0 * 1024},
        {"GiB", 1024.0 * 1024 * 1024},
        {"TiB", 1024.0 * 1024 * 1024 * 1024},
    };
    return table;
}

std::string lower(std::string s) {
    for (char& c : s)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return s;
}

// Why a unit that is none of the table's is refused, with the unit meant where one is.
std::string unitProblem(const std::string& unit, const std::string& number) {
    if (unit.empty()) return "no unit: GB or GiB?";
    if (unit == "KB") return "KB is 1000 or 1024 bytes: write kB (10^3) or KiB (2^10)";
    const std::string folded = lower(unit);
    for (const ByteUnit& u : units()) {
        if (lower(u.name) != folded) continue;
        if (unit.back() == 'b')
            return "a lowercase b is bits, and --capacity takes bytes: " + number + u.name + "?";
        return "units are case-sensitive: " + number + u.name + "?";
    }
    return "\"" + unit + "\" is not a unit";
}

// Digits with an optional point and digits: the numbers the printers write.
bool plainNumber(const std::string& s) {
    std::size_t digits = 0, points = 0;
    for (char c : s) {
        if (c == '.')
            ++points;
        else if (c >= '0' && c <= '9')
            ++digits;
        else
            return false;
    }
    return digits > 0 && points <= 1 && s.front() != '.' && s.back() != '.';
}

}  // namespace

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

const std::vector<ByteUnit>& byteUnits() { return units(); }

std::string byteSizeText(std::int64_t bytes, const std::string& unit, int decimals) {
    for (const ByteUnit& u : units())
        if (unit == u.name)
            return formatFixed(static_cast<double>(bytes) / u.bytes, decimals) + " " + u.name;
    throw std::invalid_argument("byteSizeText: no unit \"" + unit + "\"");
}

std::string readableSize(std::int64_t bytes, bool binary) {
    // The decimal unit whose two decimals read 1.00 or more; with `binary`, the binary unit of
    // its scale (1.00 GB is 0.93 GiB).
    const double magnitude = std::abs(static_cast<double>(bytes));
    const char* const decimal[] = {"GB", "MB", "kB"};
    const char* const power[] = {"GiB", "MiB", "KiB"};
    for (int i = 0; i < 3; ++i)
        for (const ByteUnit& u : units())
            if (decimal[i] == std::string(u.name) && magnitude / u.bytes >= 0.995)
                return byteSizeText(bytes, std::string(binary ? power[i] : decimal[i]));
    return std::to_string(bytes) + " B";
}

std::int64_t parseCapacity(const std::string& text) {
    const std::string forms =
        "--capacity must be a size such as 80GB (10^9 bytes) or 79.5GiB (2^30 bytes): a number, "
        "an optional space and one of B, kB, MB, GB, TB (powers of 1000) or KiB, MiB, GiB, TiB "
        "(powers of 1024), written in that case, from 1 B to 100000 GB (got \"" +
        text + "\"";
    auto refuse = [&](const std::string& why) {
        throw std::invalid_argument(forms + (why.empty() ? "" : ": " + why) + ")");
    };
    // Blanks around the whole are the shell's; inside, only between the number and the unit.
    const std::size_t first = text.find_first_not_of(' ');
    if (first == std::string::npos) refuse("");
    const std::string s = text.substr(first, text.find_last_not_of(' ') - first + 1);
    std::size_t split = 0;
    while (split < s.size() && ((s[split] >= '0' && s[split] <= '9') || s[split] == '.')) ++split;
    const std::string number = s.substr(0, split);
    std::size_t unitAt = split;
    while (unitAt < s.size() && s[unitAt] == ' ') ++unitAt;
    const std::string unit = s.substr(unitAt);
    if (!plainNumber(number))
        refuse(number.empty() ? "no number first" : "\"" + number + "\" is not a plain number");
    if (unit.find(' ') != std::string::npos || unit.find_first_of("0123456789.") == 0)
        refuse("blanks only between the number and the unit");
    const ByteUnit* found = nullptr;
    for (const ByteUnit& u : units())
        if (unit == u.name) found = &u;
    if (!found) refuse(unitProblem(unit, number));
    const std::size_t point = number.find('.');
    const int decimals = point == std::string::npos ? 0 : int(number.size() - point - 1);
    if (decimals > 0 && found->bytes == 1) refuse("a byte count is whole");
    const std::optional<double> value = parseDecimal(number);
    if (!value || !std::isfinite(*value)) refuse("");
    const long double bytes = static_cast<long double>(*value) * found->bytes;
    // A printed size is rounded: the largest is taken when it lies within the text's last digit
    // (100000 GB prints as 93132.26 GiB, a little more).
    const long double slack = 0.5L * std::pow(10.0L, -decimals) * found->bytes;
    if (bytes > kMaxCapacity && bytes - slack <= kMaxCapacity) return kMaxCapacity;
    if (bytes > kMaxCapacity) refuse("above 100000 GB");
    const std::int64_t whole = std::llround(bytes);
    if (whole < kMinCapacity) refuse("a device holds at least 1 B");
    return whole;
}

}  // namespace ckptlab
