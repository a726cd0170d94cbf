#pragma once
// Private file helpers of ckptlab_formats; both throw ResultsFileError on failure.

#include <string>

namespace ckptlab::detail {

// Writes a temporary file beside FILE and renames it over FILE: through a symbolic link to
// its target (the link stays a link), keeping a replaced file's permission bits; a new file
// honours the umask. Used by the JSON, CSV, comparison and Chrome trace savers.
void writeFileAtomically(const std::string& path, const std::string& text);

// Reads a whole file; refuses directories, devices and files over 1 GiB (a regular file
// over the limit before reading any of it).
std::string readFile(const std::string& path);

}  // namespace ckptlab::detail
