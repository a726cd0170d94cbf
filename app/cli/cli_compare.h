#pragma once
// ckptlab-cli compare: several results files side by side (cli_compare.cpp), printed as text
// (cli_compare_table.cpp).

#include <string>
#include <vector>

#include "ckptlab/formats/comparison.h"

namespace CLI {
class App;
}

namespace ckptlab::cli {

struct CompareOptions {
    std::vector<std::string> files;  // results JSON, in order: the first is the reference
    std::string jsonPath, csvPath;
    bool quiet = false;
};

// Adds the `compare` subcommand and its options to `app`.
CLI::App* addCompareCommand(CLI::App& app, CompareOptions& options);

// Exit 0 when compared, 2 for bad input (fewer than two files, a file twice, an unreadable
// file, an output that cannot be written), 1 when writing --json/--csv failed.
int runCompare(const CompareOptions& options);

// Sources (unless quiet), the config differences, the table strategy by strategy with each
// file's peak and step time and the ratios to the reference, and the notes.
std::string formatComparison(const Comparison& comparison, bool quiet);

}  // namespace ckptlab::cli
