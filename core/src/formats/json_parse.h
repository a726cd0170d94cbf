#pragma once
// Parsing the results file's text (private to ckptlab_formats): stricter than JSON itself, with
// the byte, line and column of what is wrong in the ResultsFileError.

#include <string>

#include "formats/json_values.h"

namespace ckptlab::detail {

// Offset (from 0) of the first byte that breaks UTF-8 (overlong forms, surrogates and code
// points past U+10FFFF included), or npos.
std::size_t firstInvalidUtf8(const std::string& text);

// Only spaces, tabs and line breaks (or nothing).
bool isBlank(const std::string& text);

// Checks that need no parsing: no NUL byte, and a text that starts with '{' ends with '}'.
void checkText(const std::string& text);

// Parses like nlohmann's DOM parser, but refuses duplicate keys and more than kMaxRuns runs.
Json parseStrict(const std::string& text);

}  // namespace ckptlab::detail
