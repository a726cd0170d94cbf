#pragma once
// Parsing the results file's text (private to ckptlab_formats): stricter than JSON itself, with
// the byte, line and column of what is wrong in the ResultsFileError.

#include <string>

#include "formats/json_values.h"

namespace ckptlab::detail {

// Only spaces, tabs and line breaks (or nothing).
bool isBlank(const std::string& text);

// Checks that need no parsing: no NUL byte, and a text that starts with '{' ends with '}'.
void checkText(const std::string& text);

// Parses like nlohmann's DOM parser, but refuses duplicate keys and more than kMaxRuns runs.
Json parseStrict(const std::string& text);

}  // namespace ckptlab::detail
