#include "replay_driver.h"

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include "results_check.h"

namespace fs = std::filesystem;

namespace ckptlab::fuzz {
namespace {

enum class Expect { Reject, Load, Any };

struct Totals {
    int files = 0, loaded = 0, rejected = 0, failures = 0;
    double slowestMs = 0;
    std::string slowest;
};

const char* name(Expect e) {
    return e == Expect::Reject ? "rejected" : e == Expect::Load ? "loaded" : "either";
}

std::string oneLine(std::string text) {
    for (char& c : text)
        if (c == '\n' || c == '\r') c = ' ';
    return text.size() > 300 ? text.substr(0, 300) + "..." : text;
}

// The process's CPU time in ms: what loading costs, which a loaded machine does not stretch as
// it stretches the wall clock (a limit on the wall clock fails by chance under load).
double cpuMs() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

std::string textOf(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void replay(const ReplayTarget& target, const std::string& path, Expect expect, double limitMs,
            Totals& totals) {
    ++totals.files;
    currentInput() = path;
    double ms = 0;  // the load alone: what a user waits for
    bool loaded = false;
    std::string message, failure;
    try {
        const double start = cpuMs();
        try {
            target.load(path);
            loaded = true;
        } catch (const std::exception& e) {
            ms = cpuMs() - start;
            if (!target.rejection(e, path)) throw;
            message = e.what();
            if (message.find(path) == std::string::npos)
                failure = "the message does not name the file";
        }
        if (loaded) ms = cpuMs() - start;
        std::error_code ec;
        if (failure.empty() && fs::is_regular_file(path, ec) &&
            fs::file_size(path, ec) <= target.textLimit &&
            target.loadsAsText(textOf(path)) != loaded)
            failure = target.disagree;
    } catch (const std::exception& e) {
        failure = "threw something other than " + target.error + ": " + e.what();
    } catch (...) {
        failure = "threw something that is not a std::exception";
    }
    if (failure.empty() && expect != Expect::Any && loaded != (expect == Expect::Load))
        failure = std::string("expected it to be ") + name(expect);
    if (failure.empty() && ms > limitMs)
        failure = "took " + std::to_string(ms) + " ms, over the limit of " +
                  std::to_string(limitMs) + " ms";
    if (ms > totals.slowestMs) {
        totals.slowestMs = ms;
        totals.slowest = path;
    }
    (loaded ? totals.loaded : totals.rejected)++;
    if (!failure.empty()) ++totals.failures;
    std::printf("%s %-8s %8.1f ms  %s%s%s\n", failure.empty() ? "ok  " : "FAIL",
                loaded ? "loaded" : "rejected", ms, path.c_str(),
                message.empty() ? "" : "\n         ", oneLine(message).c_str());
    if (!failure.empty()) std::printf("         FAILURE: %s\n", failure.c_str());
}

}  // namespace

int replayMain(int argc, char** argv, const ReplayTarget& target) {
    Expect expect = Expect::Any;
    double limitMs = 1000;
    bool nextIsDir = false;
    Totals totals;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--reject") {
            expect = Expect::Reject;
        } else if (arg == "--load") {
            expect = Expect::Load;
        } else if (arg == "--any") {
            expect = Expect::Any;
        } else if (arg == "--dir") {
            nextIsDir = true;
        } else if (arg == "--limit-ms" && i + 1 < argc) {
            limitMs = std::stod(argv[++i]);
        } else if (nextIsDir) {
            nextIsDir = false;
            std::vector<std::string> files;
            std::error_code ec;
            // Everything but folders: a dangling link or a link loop is a case of its own
            // (its status would throw, so it is asked without throwing).
            for (const auto& entry : fs::directory_iterator(arg, ec)) {
                std::error_code status;
                if (!entry.is_directory(status) && target.inFolder(entry.path()))
                    files.push_back(entry.path().string());
            }
            if (ec || files.empty()) {
                std::printf("FAIL no files to replay in %s\n", arg.c_str());
                ++totals.failures;
            }
            std::sort(files.begin(), files.end());
            for (const std::string& file : files) replay(target, file, expect, limitMs, totals);
        } else {
            replay(target, arg, expect, limitMs, totals);
        }
    }
    std::printf("%d files: %d loaded, %d rejected, %d failures; slowest %.1f ms (%s)\n",
                totals.files, totals.loaded, totals.rejected, totals.failures, totals.slowestMs,
                totals.slowest.c_str());
    return totals.failures == 0 && totals.files > 0 ? 0 : 1;
}

}  // namespace ckptlab::fuzz
