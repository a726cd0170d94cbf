#pragma once
// Numbers as text, the same in every locale. printf, strtod, std::stod and iostreams follow
// the process locale, which Qt sets from the environment (setlocale(LC_ALL, "")), so under
// de_DE they write "1,5" and stop reading "1.5" at the point. Every number written to a file,
// every strategy name, every number in core's texts (messages, lessons, CSV, JSON, traces) and
// every number read from user text goes through these instead.

#include <optional>
#include <string>
#include <string_view>

namespace ckptlab {

// The shortest text that reads back to the same double: "1.5", "0.1", "1e-07". "nan", "inf",
// "-inf" for non-finite values.
std::string formatShortest(double value);

// printf's "%.<decimals>f": formatFixed(2.25, 1) is "2.2", formatFixed(-0.01, 1) is "-0.0".
std::string formatFixed(double value, int decimals);

// printf's "%+.<decimals>f": a sign always, "+1.8", "-4.0".
std::string formatFixedSigned(double value, int decimals);

// printf's "%.<decimals>e": formatScientific(0.000123, 2) is "1.23e-04".
std::string formatScientific(double value, int decimals);

// printf's "%.<significant>g": that many significant digits, trailing zeros dropped, an
// exponent for very small or large values ("1e-07", "1.5", "1e+308").
std::string formatGeneral(double value, int significant = 6);

// The whole text as one decimal number: an optional sign, digits with an optional point, an
// optional exponent ("1.5", "-2", ".5", "1e-3", "+64"). No blanks, no thousands separators, no
// decimal comma, no hex, no "inf" or "nan"; nullopt also when it is beyond a double's range.
std::optional<double> parseDecimal(std::string_view text);

// The whole text as one whole number in long long's range: an optional sign and decimal
// digits ("42", "-3", "+7"); nullopt otherwise.
std::optional<long long> parseInteger(std::string_view text);

}  // namespace ckptlab
