// Deterministic replay of results files through the loader (replay_driver.h): each file loads
// or is rejected with ResultsFileError and a one-line message naming it (results_check.h).
//
//   ckptlab_fuzz_replay [--limit-ms N] [--reject|--load|--any] [--dir] PATH ...
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
    target.rejection = [](const std::exception& e, const std::string&) {
        if (!dynamic_cast<const ResultsFileError*>(&e)) return false;
        fuzz::checkMessage(e.what());
        return true;
    };
    // And as text, with the fuzz target's checks (round trip, summary, CSV, trace); not for the
    // generated giants, whose every part a small file covers, to keep ctest quick.
    target.textLimit = 64u << 20;
    target.loadsAsText = [](const std::string& text) {
        return fuzz::checkResultsText(text) == fuzz::Outcome::Loaded;
    };
    target.disagree = "loadResults and resultsFromJson disagree on this file";
    return fuzz::replayMain(argc, argv, target);
}
