#pragma once
// Private CSV helpers of ckptlab_formats, shared by the summary CSV and the comparison CSV.

#include <string>
#include <vector>

namespace ckptlab::detail {

// RFC 4180: quotes cells with separators, quotes or line breaks, and those with edge spaces
// that some readers would trim.
std::string csvQuoted(const std::string& cell);

// Always a dot for the decimal point: Qt applications set the C locale from the environment.
std::string csvFixed(double value, int decimals);

// One line: the cells quoted, joined by commas, ended by a newline.
std::string csvLine(const std::vector<std::string>& cells);

}  // namespace ckptlab::detail
