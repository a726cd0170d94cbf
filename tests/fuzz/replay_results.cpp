// Deterministic replay of results files through the loader (replay_driver.h): each file loads
// or is rejected with ResultsFileError and a one-line message naming it (results_check.h).
//
//   ckptlab_fuzz_replay [--limit-ms N] [--reject|--load|--any] [--dir] PATH ...
#include <fstream>
#include <sstream>

#include "replay_driver.h"
#include "results_check.h"

using namespace ckptlab;
namespace fs = std::filesystem;

int main(int argc, char** argv) {
    fuzz::ReplayTarget target;
    target.error = "ResultsFileError";
    target.inFolder = [](const fs::path&) { return true; };
    // Through the file, as the CLI and the app open it.
    target.load = [](const std::string& path) { (void)loadResults(path); };
    target.rejection = [](const std::exception& e, const std::string&, std::string&) {
        if (!dynamic_cast<const ResultsFileError*>(&e)) return false;
        fuzz::checkMessage(e.what());
        return true;
    };
    // And as text, with the fuzz target's checks (round trip, summary, CSV, trace); not for the
    // generated giants, whose every part a small file covers, to keep ctest quick.
    target.crossCheck = [](const std::string& path, bool loaded) -> std::string {
        std::error_code ec;
        if (!fs::is_regular_file(path, ec) || fs::file_size(path, ec) > (64u << 20)) return "";
        std::ifstream in(path, std::ios::binary);
        std::ostringstream text;
        text << in.rdbuf();
        const bool textLoaded = fuzz::checkResultsText(text.str()) == fuzz::Outcome::Loaded;
        return textLoaded == loaded ? "" : "loadResults and resultsFromJson disagree on this file";
    };
    return fuzz::replayMain(argc, argv, target);
}
