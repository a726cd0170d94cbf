// Deterministic replay of config.json files through the model reader, for ctest: each file
// must load or be rejected with ModelConfigError and a one-line message starting with the
// path and the field (model_config_check.h), as expected, and within a time limit.
//
//   ckptlab_model_config_replay [--limit-ms N] [--reject|--load] [--dir] PATH ...
//
// Options apply to the paths after them. --dir: the next PATH is a folder whose *.json files
// are replayed (sorted by name); otherwise PATH itself goes to loadModel, so a folder or a
// missing file can be a case of its own.
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "model_config_check.h"

namespace fs = std::filesystem;
using namespace ckptlab;

namespace {

struct Totals {
    int files = 0, loaded = 0, rejected = 0, failures = 0;
    double slowestMs = 0;
    std::string slowest;
};

// The process's CPU time in ms: what reading costs, which a loaded machine does not stretch as
// it stretches the wall clock (a limit on the wall clock fails by chance under load).
double cpuMs() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

void replay(const std::string& path, bool expectLoad, double limitMs, Totals& totals) {
    ++totals.files;
    fuzz::currentInput() = path;
    const double start = cpuMs();
    bool loaded = false;
    std::string message, failure;
    try {
        try {
            fuzz::checkModel(loadModel(path));
            loaded = true;
        } catch (const ModelConfigError& e) {
            message = e.what();
            // The file's own errors start with its path and field; "--model" ones (no such
            // file, a folder, too big) name the path, and the CLI puts "--model: " before them.
            if (e.field() == "--model")
                fuzz::checkMessage(message);
            else
                fuzz::checkModelError(e, path + ": ");
            if (message.find(path) == std::string::npos) failure = "the message does not name it";
        }
        // And as text, with the fuzz target's checks, for what is small enough to read.
        std::error_code ec;
        if (fs::is_regular_file(path, ec) && fs::file_size(path, ec) <= (4u << 20)) {
            std::ifstream in(path, std::ios::binary);
            std::ostringstream text;
            text << in.rdbuf();
            const bool textLoaded = fuzz::checkModelText(text.str()) == fuzz::ModelOutcome::Loaded;
            if (textLoaded != loaded) failure = "loadModel and parseModelConfig disagree";
        }
    } catch (const std::exception& e) {
        failure = std::string("threw something other than ModelConfigError: ") + e.what();
    } catch (...) {
        failure = "threw something that is not a std::exception";
    }
    const double ms = cpuMs() - start;
    if (failure.empty() && loaded != expectLoad)
        failure = expectLoad ? "expected it to load" : "expected it to be rejected";
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
                message.empty() ? "" : "\n         ", message.substr(0, 300).c_str());
    if (!failure.empty()) std::printf("         FAILURE: %s\n", failure.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    bool expectLoad = false;
    double limitMs = 1000;
    bool nextIsDir = false;
    Totals totals;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--reject") {
            expectLoad = false;
        } else if (arg == "--load") {
            expectLoad = true;
        } else if (arg == "--dir") {
            nextIsDir = true;
        } else if (arg == "--limit-ms" && i + 1 < argc) {
            limitMs = std::stod(argv[++i]);
        } else if (nextIsDir) {
            nextIsDir = false;
            std::vector<std::string> files;
            std::error_code ec;
            for (const auto& entry : fs::directory_iterator(arg, ec))
                if (entry.path().extension() == ".json") files.push_back(entry.path().string());
            if (ec || files.empty()) {
                std::printf("FAIL no *.json files in %s\n", arg.c_str());
                ++totals.failures;
            }
            std::sort(files.begin(), files.end());
            for (const std::string& file : files) replay(file, expectLoad, limitMs, totals);
        } else {
            replay(arg, expectLoad, limitMs, totals);
        }
    }
    std::printf("%d files: %d loaded, %d rejected, %d failures; slowest %.1f ms (%s)\n",
                totals.files, totals.loaded, totals.rejected, totals.failures, totals.slowestMs,
                totals.slowest.c_str());
    return totals.failures == 0 && totals.files > 0 ? 0 : 1;
}
