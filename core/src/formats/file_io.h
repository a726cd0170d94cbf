#pragma once
// Private file helpers of ckptlab_formats; both throw ResultsFileError on failure.

#include <string>

namespace ckptlab::detail {

// Writes FILE.tmp and renames it over FILE. Used by the JSON, CSV and Chrome trace savers.
void writeFileAtomically(const std::string& path, const std::string& text);

// Reads a whole file; refuses directories, devices and files over 1 GiB (a regular file
// over the limit before reading any of it).
std::string readFile(const std::string& path);

}  // namespace ckptlab::detail
