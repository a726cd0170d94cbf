// ckptlab-cli merge A.json B.json ... --json all.json: the shards' files of one sweep as one file
// (results_merge.h), in the unsharded sweep's order, with each run's machine.
#include "cli_merge.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <system_error>

#include "ckptlab/formats/comparison.h"
#include "ckptlab/formats/output_paths.h"
#include "ckptlab/formats/results_io.h"
#include "ckptlab/formats/results_merge.h"
#include "cli_options.h"
#include "cli_table.h"

namespace ckptlab::cli {
namespace {

int badInput(const std::string& message) {
    std::cerr << "ckptlab-cli: " << message << "\n";
    return kBadInput;
}

bool sameFile(const std::string& a, const std::string& b) {
    std::error_code ec;
    return a == b || std::filesystem::equivalent(a, b, ec);
}

// Outputs writable and none of them an input; no input twice. Empty when fine.
std::string checkFiles(const MergeCommandOptions& o) {
    for (const auto& [path, field] : {std::pair{o.jsonPath, "--json"}, {o.csvPath, "--csv"}}) {
        if (path.empty()) continue;
        if (std::string error = checkOutputFile(path, field); !error.empty()) return error;
        for (const auto& file : o.files)
            if (sameFile(path, file))
                return std::string(field) + " " + path + " is the input " + file +
                       ": it would be overwritten";
    }
    for (std::size_t i = 0; i < o.files.size(); ++i)
        for (std::size_t j = i + 1; j < o.files.size(); ++j)
            if (sameFile(o.files[i], o.files[j]))
                return o.files[i] +
                       (o.files[i] == o.files[j] ? " is given twice"
                                                 : " and " + o.files[j] + " are the same file") +
                       ": give each shard's file once";
    return {};
}

}  // namespace

CLI::App* addMergeCommand(CLI::App& app, MergeCommandOptions& o) {
    auto* merge = app.add_subcommand(
        "merge",
        "Join the results files of a sweep's shards (sweep, pareto or scaling with --shard) into "
        "one file of the whole sweep, runs in the unsharded order, each with its machine");
    merge->add_option("files", o.files, "The shards' results JSON files, in any order")->required();
    merge->add_option("--json", o.jsonPath, "Write the merged results JSON (opens in the app)")
        ->check(CLI::Validator(
            [](std::string& v) { return v.empty() ? std::string("must not be empty") : ""; },
            "PATH"));
    merge->add_option("--csv", o.csvPath, "Write the merged summary table as CSV")
        ->check(CLI::Validator(
            [](std::string& v) { return v.empty() ? std::string("must not be empty") : ""; },
            "PATH"));
    merge->add_flag("--allow-partial", o.allowPartial,
                    "Merge even when shards are missing or were interrupted: their runs are left "
                    "out and the file says so");
    merge->add_flag("--quiet,-q", o.quiet, "No list of the shards' machines");
    return merge;
}

int runMerge(const MergeCommandOptions& o) {
    if (std::string error = checkFiles(o); !error.empty()) return badInput(error);
    std::vector<ShardFile> shards;
    for (const auto& file : o.files) {
        try {
            shards.push_back({file, loadResults(file)});
        } catch (const std::exception& e) {
            const std::string message = e.what();
            return badInput(message.find(file) == std::string::npos ? file + ": " + message
                                                                    : message);
        }
    }
    ResultSet merged;
    try {
        merged = mergeShards(shards, MergeOptions{o.allowPartial});
    } catch (const MergeError& e) {
        return badInput(std::string(e.what()) +
                        (e.missing.empty() ? ""
                                           : ": give every shard's file, or --allow-partial to "
                                             "merge what is there"));
    }
    if (!o.quiet) {  // which shard ran where; the table's notes say how it was merged
        std::vector<int> present;
        for (int k = 0; k < merged.merged->count; ++k)
            if (std::find(merged.merged->missing.begin(), merged.merged->missing.end(), k) ==
                merged.merged->missing.end())
                present.push_back(k);
        for (std::size_t m = 0; m < merged.machines.size(); ++m) {
            const Environment& env = merged.machines[m];
            std::cout << "shard " << present[m] << ": " << machineName(env) << ", " << env.threads
                      << " threads, Checkpoint Lab " << env.ckptlab_version << ", "
                      << env.created_utc << "\n";
        }
        std::cout << "\n";
    }
    std::cout << formatSummaryTable(merged) << std::flush;
    try {
        if (!o.jsonPath.empty()) saveResults(merged, o.jsonPath);
        if (!o.csvPath.empty()) saveSummaryCsv(merged, o.csvPath);
    } catch (const std::exception& e) {
        std::cerr << "ckptlab-cli: " << e.what() << "\n";
        return kRunFailed;
    }
    return kOk;
}

}  // namespace ckptlab::cli
