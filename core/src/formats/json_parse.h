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

// Why parseStrictJson refused a text: `path` is the JSON path of what is wrong ("" for the
// text as a whole), a duplicate key's own ("rope_scaling.factor"); `message` says what, without
// the path.
struct StrictJsonError {
    std::string path;
    std::string message;
};

// Parses like parseStrict without its limit on runs, and refuses objects and lists nested more
// than `maxDepth` deep (a file of a million brackets fails at the first one too many). False
// with `error` set when refused.
bool parseStrictJson(const std::string& text, std::size_t maxDepth, Json& doc,
                     StrictJsonError& error);

}  // namespace ckptlab::detail
