#pragma once
// One driver for the deterministic replays of the fuzz targets' inputs, for ctest: each file
// must load or be rejected with the target's own error and a one-line message naming it, as
// expected, within a limit on the CPU time of the load. No other exception, no crash.
//
//   PROGRAM [--limit-ms N] [--reject|--load|--any] [--dir] PATH ...
//
// Options apply to the paths after them. --reject: every file must be rejected; --load: every
// file must load; --any: either (a fuzz corpus). --dir: the next PATH is a folder whose files
// (those the target takes, sorted by name) are replayed; otherwise PATH itself goes to the
// loader, so a folder or a missing file can be given as a case of its own.

#include <cstdint>
#include <exception>
#include <filesystem>
#include <functional>
#include <string>

namespace ckptlab::fuzz {

struct ReplayTarget {
    std::string error;  // the one exception a bad file may throw, as messages name it
    // Which files of a --dir folder are replayed.
    std::function<bool(const std::filesystem::path& file)> inFolder;
    // Opens `path` as the front ends do; throws the target's error to reject it.
    std::function<void(const std::string& path)> load;
    // Whether `e` is the target's error (its message checked, a violation aborts).
    std::function<bool(const std::exception& e, const std::string& path)> rejection;
    // After the timed load, a regular file up to `textLimit` bytes goes as text through the fuzz
    // target's own checks, which must accept it exactly when the load did (`disagree` says so).
    std::uintmax_t textLimit = 0;
    std::function<bool(const std::string& text)> loadsAsText;
    std::string disagree;
};

int replayMain(int argc, char** argv, const ReplayTarget& target);

}  // namespace ckptlab::fuzz
