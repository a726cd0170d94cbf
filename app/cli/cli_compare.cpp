// ckptlab-cli compare A.json B.json [C.json ...]: results files from several machines side by
// side. The comparison itself is core's (comparison.h); this checks the command line, loads
// the files, prints and writes.
#include "cli_compare.h"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>
#include <system_error>

#include "ckptlab/formats/output_paths.h"
#include "ckptlab/formats/results_io.h"
#include "cli_options.h"

namespace ckptlab::cli {

namespace {

// An output path given as "" is a mistake (an unset shell variable), not "no output".
CLI::Validator nonEmptyPath() {
    return CLI::Validator(
        [](std::string& value) { return value.empty() ? std::string("must not be empty") : ""; },
        "PATH");
}

int badInput(const std::string& message) {
    std::cerr << "ckptlab-cli: " << message << "\n";
    return kBadInput;
}

}  // namespace

CLI::App* addCompareCommand(CLI::App& app, CompareOptions& o) {
    auto* compare = app.add_subcommand(
        "compare",
        "Compare results files (e.g. this machine's and a GPU server's) strategy by strategy: "
        "peaks, step times and their ratios to the first file, and what is not comparable");
    compare
        ->add_option("files", o.files,
                     "Two or more results JSON files; ratios are against the first")
        ->required();
    compare->add_option("--json", o.jsonPath, "Write the comparison as JSON")
        ->check(nonEmptyPath());
    compare
        ->add_option("--csv", o.csvPath,
                     "Write the comparison as CSV, one line per strategy and file")
        ->check(nonEmptyPath());
    compare->add_flag("--quiet,-q", o.quiet, "No list of sources");
    return compare;
}

int runCompare(const CompareOptions& o) {
    // Outputs first: checking them costs nothing, loading large files does not.
    for (const auto& [path, field] : {std::pair{o.jsonPath, "--json"}, {o.csvPath, "--csv"}}) {
        if (path.empty()) continue;
        if (std::string error = checkOutputFile(path, field); !error.empty())
            return badInput(error);
    }
    if (std::string error = checkComparisonFiles(o.files); !error.empty()) return badInput(error);
    for (const auto& [path, field] : {std::pair{o.jsonPath, "--json"}, {o.csvPath, "--csv"}}) {
        for (const auto& file : o.files) {
            std::error_code ec;
            if (!path.empty() && (path == file || std::filesystem::equivalent(path, file, ec)))
                return badInput(std::string(field) + " " + path + " is the input " + file +
                                ": it would be overwritten");
        }
    }
    std::vector<ComparisonInput> inputs;
    for (const auto& file : o.files) {
        try {
            inputs.push_back({file, loadResults(file)});
        } catch (const std::exception& e) {
            const std::string message = e.what();
            // The loader's messages name the file; say which when one does not.
            return badInput(message.find(file) == std::string::npos ? file + ": " + message
                                                                    : message);
        }
    }
    const Comparison comparison = compareResults(inputs);
    std::cout << formatComparison(comparison, o.quiet) << std::flush;
    try {
        if (!o.jsonPath.empty()) saveComparisonJson(comparison, o.jsonPath);
        if (!o.csvPath.empty()) saveComparisonCsv(comparison, o.csvPath);
    } catch (const std::exception& e) {
        std::cerr << "ckptlab-cli: " << e.what() << "\n";
        return kRunFailed;
    }
    return kOk;
}

}  // namespace ckptlab::cli
