// Numbers as text in the classic locale (number_text.h): std::to_chars and std::from_chars
// never look at the locale, and their formats are printf's.
#include "ckptlab/model/number_text.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace ckptlab {
namespace {

template <typename... Format>
std::string toChars(double value, Format... format) {
    // Fixed notation of 1e308 has 309 digits before the point.
    std::string text(400, '\0');
    for (;;) {
        const auto result = std::to_chars(text.data(), text.data() + text.size(), value, format...);
        if (result.ec == std::errc()) {
            text.resize(static_cast<std::size_t>(result.ptr - text.data()));
            return text;
        }
        text.resize(text.size() * 2);
    }
}

// A leading '+' is accepted as std::stod accepted it; from_chars itself takes only '-'.
// Returns the text without it, or nullopt when the text does not start like a number.
std::optional<std::string_view> unsignedStart(std::string_view text) {
    const bool plus = !text.empty() && text.front() == '+';
    if (plus) text.remove_prefix(1);
    const bool minus = !plus && !text.empty() && text.front() == '-';
    const std::string_view digits = minus ? text.substr(1) : text;
    if (digits.empty()) return std::nullopt;
    const auto first = static_cast<unsigned char>(digits.front());
    if (!std::isdigit(first) && first != '.') return std::nullopt;  // no "inf", "nan", blanks
    return text;
}

}  // namespace

std::string formatShortest(double value) { return toChars(value); }

std::string formatFixed(double value, int decimals) {
    return toChars(value, std::chars_format::fixed, std::max(0, decimals));
}

std::string formatFixedSigned(double value, int decimals) {
    std::string text = formatFixed(value, decimals);
    if (text.front() != '-') text.insert(text.begin(), '+');
    return text;
}

std::string formatScientific(double value, int decimals) {
    return toChars(value, std::chars_format::scientific, std::max(0, decimals));
}

std::string formatGeneral(double value, int significant) {
    return toChars(value, std::chars_format::general, std::max(1, significant));
}

std::optional<double> parseDecimal(std::string_view text) {
    const auto number = unsignedStart(text);
    if (!number) return std::nullopt;
    const char* end = number->data() + number->size();
    double value = 0;
    const auto result = std::from_chars(number->data(), end, value, std::chars_format::general);
    if (result.ec != std::errc() || result.ptr != end) return std::nullopt;
    return value;
}

std::optional<long long> parseInteger(std::string_view text) {
    const auto number = unsignedStart(text);
    if (!number) return std::nullopt;
    const char* end = number->data() + number->size();
    long long value = 0;
    const auto result = std::from_chars(number->data(), end, value);
    if (result.ec != std::errc() || result.ptr != end) return std::nullopt;
    return value;
}

}  // namespace ckptlab
