#pragma once
// Checks that an output can be written before any work starts, so a typo in a path costs a
// second, not a finished sweep. Writing itself still goes through a temporary file and a
// rename (results_io.h), so a failed write never leaves half a file.

#include <string>

namespace ckptlab {

// Empty when `path` can be created or replaced: its folder exists and takes a new file, and
// `path` is not a folder. Otherwise the reason, prefixed with `field` (e.g. "--json").
std::string checkOutputFile(const std::string& path, const std::string& field);

// Empty when `dir` is a writable folder, or does not exist yet but its parent is one (the
// exporter creates it). Otherwise the reason, prefixed with `field` (e.g. "--png").
std::string checkOutputDir(const std::string& dir, const std::string& field);

// Whether `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF), as the results and model readers require: an output name that Qt writes (charts,
// the PDF handout) goes through QString, which holds only Unicode.
bool isUtf8(const std::string& text);

// Writes `text` to `path` as every saver does: a temporary file beside it renamed over it,
// through a symbolic link to its target (the link stays), keeping a replaced file's permission
// bits (a new file gets 0666 less the umask), the name byte for byte. Throws ResultsFileError
// (results_io.h) naming the path and the reason.
void writeTextFile(const std::string& path, const std::string& text);

}  // namespace ckptlab
