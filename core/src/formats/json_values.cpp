#include "formats/json_values.h"

#include <algorithm>
#include <cmath>

#include "ckptlab/formats/results_io.h"

namespace ckptlab::detail {

std::string clip(const std::string& text, std::size_t max) {
    std::size_t end = std::min(text.size(), max);
    if (end < text.size()) {
        while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xc0) == 0x80) --end;
    }
    std::string out;
    out.reserve(end + 3);
    for (std::size_t i = 0; i < end; ++i) {
        const auto u = static_cast<unsigned char>(text[i]);
        if (u < 0x20 || u == 0x7f) {
            out += '?';
        } else if (u == 0xef && i + 2 < end && static_cast<unsigned char>(text[i + 1]) == 0xbf &&
                   static_cast<unsigned char>(text[i + 2]) >= 0xbe) {
            out += '?';  // U+FFFE, U+FFFF: not characters
            i += 2;
        } else {
            out += text[i];
        }
    }
    if (end < text.size()) out += "...";
    return out;
}

[[noreturn]] void fail(const Path& at, const std::string& message) {
    const std::string where = at.str();
    throw ResultsFileError(where.empty() ? message : where + ": " + message);
}

std::string describe(const Json& j) {
    switch (j.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::string: return "a string";
    case Json::value_t::array: return "an array";
    case Json::value_t::object: return "an object";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: return "an integer";
    case Json::value_t::number_float: return "a number with a fraction";
    default: return "an unsupported value";
    }
}

std::string numberText(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    return Json(value).dump();
}

const Json& objectAt(const Json& j, const Path& at) {
    if (!j.is_object()) fail(at, "expected an object, got " + describe(j));
    return j;
}

const Json& arrayAt(const Json& j, const Path& at) {
    if (!j.is_array()) fail(at, "expected an array, got " + describe(j));
    return j;
}

std::int64_t readInt64(const Json& j, const Path& at, std::int64_t min, std::int64_t max) {
    if (j.is_number_float()) {
        // JSON integers past 2^64 arrive as doubles: say what is wrong with them.
        const double v = j.get<double>();
        if (std::floor(v) == v && std::fabs(v) >= 9.2e18) {
            fail(at, "integer " + numberText(v) + " is too large");
        }
    }
    if (!j.is_number_integer()) fail(at, "expected an integer, got " + describe(j));
    std::int64_t value = 0;
    if (j.is_number_unsigned()) {
        const auto u = j.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(kInt64Max)) {
            fail(at, "integer " + std::to_string(u) + " is too large");
        }
        value = static_cast<std::int64_t>(u);
    } else {
        value = j.get<std::int64_t>();
    }
    if (value < min || value > max) {
        if (min == 0 && max == kInt64Max) {
            fail(at, "expected a non-negative integer, got " + std::to_string(value));
        }
        if (min == 0 && max == kMaxBytes && value >= 0) {
            fail(at, "expected at most 2^53 bytes (8 PiB), got " + std::to_string(value));
        }
        if (min == 0 && value < 0) {
            fail(at, "expected a non-negative integer, got " + std::to_string(value));
        }
        fail(at, "expected an integer from " + std::to_string(min) + " to " + std::to_string(max) +
                     ", got " + std::to_string(value));
    }
    return value;
}

int readInt(const Json& j, const Path& at, int min, int max) {
    return static_cast<int>(readInt64(j, at, min, max));
}

double readDouble(const Json& j, const Path& at) {
    if (j.is_number()) return j.get<double>();
    if (j.is_string()) {
        const auto& s = j.get_ref<const std::string&>();
        if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
        if (s == "inf") return std::numeric_limits<double>::infinity();
        if (s == "-inf") return -std::numeric_limits<double>::infinity();
        fail(at, "expected a number, got the string \"" + clip(s, 40) + "\"");
    }
    fail(at, "expected a number, got " + describe(j));
}

double readDuration(const Json& j, const Path& at) {
    const double value = readDouble(j, at);
    if (value < 0) fail(at, "expected a duration of 0 ms or more, got " + numberText(value));
    if (value > kMaxMs && !std::isinf(value)) {
        fail(at, "expected a duration of at most 1e12 ms, got " + numberText(value));
    }
    return value;
}

double readTime(const Json& j, const Path& at) {
    const double value = readDouble(j, at);
    if (!(std::fabs(value) <= kMaxMs)) {
        fail(at, "expected a time from -1e12 to 1e12 ms, got " + numberText(value));
    }
    return value;
}

std::string readString(const Json& j, const Path& at) {
    if (!j.is_string()) fail(at, "expected a string, got " + describe(j));
    return j.get<std::string>();
}

std::size_t unprintableAt(const std::string& text, std::size_t i, bool allowLineBreaks) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20) return allowLineBreaks && (c == '\t' || c == '\n' || c == '\r') ? 0 : 1;
    if (c == 0xef && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0xbf &&
        (static_cast<unsigned char>(text[i + 2]) == 0xbe ||
         static_cast<unsigned char>(text[i + 2]) == 0xbf)) {
        return 3;
    }
    return 0;
}

std::string readText(const Json& j, const Path& at) {
    std::string text = readString(j, at);
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (const std::size_t n = unprintableAt(text, i, true)) {
            text.replace(i, n, "\xEF\xBF\xBD");
            i += 2;
        }
    }
    return text;
}

Phase readPhase(const Json& j, const Path& at) {
    const std::string text = readString(j, at);
    const auto phase = parsePhase(text);
    if (!phase) {
        fail(at, "unknown phase \"" + clip(text, 40) +
                     "\" (expected idle, forward, loss, recompute, backward or optimizer)");
    }
    return *phase;
}

}  // namespace ckptlab::detail
