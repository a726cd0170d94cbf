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
    // Whether `e` is the target's error; if so, what is wrong with its message ("" if nothing).
    std::function<bool(const std::exception& e, const std::string& path, std::string& failure)>
        rejection;
    // After the timed load, the same file through the fuzz target's own checks: what is wrong
    // ("" if nothing), given whether the load accepted it.
    std::function<std::string(const std::string& path, bool loaded)> crossCheck;
};

int replayMain(int argc, char** argv, const ReplayTarget& target);

}  // namespace ckptlab::fuzz
