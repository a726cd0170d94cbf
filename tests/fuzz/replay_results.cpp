// Deterministic replay of results files through the loader, for ctest: each file must load or
// be rejected with ResultsFileError and a one-line message (results_check.h), as expected, and
// within a time limit. No other exception, no crash.
//
//   ckptlab_fuzz_replay [--limit-ms N] [--reject|--load|--any] [--dir] PATH ...
//
// Options apply to the paths after them. --reject: every file must be rejected; --load: every
// file must load; --any: either (the fuzz corpus). --dir: the next PATH is a folder whose
// regular files are replayed (sorted by name); otherwise PATH itself goes to loadResults, so a
// folder or a missing file can be given as a case of its own.
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "results_check.h"

namespace fs = std::filesystem;
using namespace ckptlab;

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

void replay(const std::string& path, Expect expect, double limitMs, Totals& totals) {
    ++totals.files;
    fuzz::currentInput() = path;
    const double start = cpuMs();
    double ms = 0;  // loadResults alone: what a user waits for
    bool loaded = false;
    std::string message;
    std::string failure;
    try {
        // Through the file, as the CLI and the app open it.
        try {
            const ResultSet results = loadResults(path);
            loaded = true;
        } catch (const ResultsFileError& e) {
            message = e.what();
        }
        ms = cpuMs() - start;
        if (!loaded) {
            fuzz::checkMessage(message);
            if (message.find(path) == std::string::npos)
                failure = "the message does not name the file";
        }
        // And as text, with the fuzz target's checks (round trip, summary, CSV, trace); not for
        // the generated giants, whose every part a small file covers, to keep ctest quick.
        std::error_code ec;
        if (fs::is_regular_file(path, ec) && fs::file_size(path, ec) <= (64u << 20)) {
            std::ifstream in(path, std::ios::binary);
            std::ostringstream text;
            text << in.rdbuf();
            const bool textLoaded = fuzz::checkResultsText(text.str()) == fuzz::Outcome::Loaded;
            if (textLoaded != loaded)
                failure = "loadResults and resultsFromJson disagree on this file";
        }
    } catch (const std::exception& e) {
        failure = std::string("threw something other than ResultsFileError: ") + e.what();
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

int main(int argc, char** argv) {
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
            for (const auto& entry : fs::directory_iterator(arg, ec))
                if (entry.is_regular_file()) files.push_back(entry.path().string());
            if (ec || files.empty()) {
                std::printf("FAIL no files in %s\n", arg.c_str());
                ++totals.failures;
            }
            std::sort(files.begin(), files.end());
            for (const std::string& file : files) replay(file, expect, limitMs, totals);
        } else {
            replay(arg, expect, limitMs, totals);
        }
    }
    std::printf("%d files: %d loaded, %d rejected, %d failures; slowest %.1f ms (%s)\n",
                totals.files, totals.loaded, totals.rejected, totals.failures, totals.slowestMs,
                totals.slowest.c_str());
    return totals.failures == 0 && totals.files > 0 ? 0 : 1;
}
