#pragma once
// ckptlab-cli merge: the results files of a sweep's shards (--shard) joined into the file of
// the whole sweep. The merge itself is core's (ckptlab/formats/results_merge.h); this checks the
// command line, loads, prints and writes.

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace ckptlab::cli {

struct MergeCommandOptions {
    std::vector<std::string> files;  // the shards' results JSON, in any order
    std::string jsonPath, csvPath;
    bool allowPartial = false;
    bool quiet = false;
};

// Adds the `merge` subcommand and its options to `app`.
CLI::App* addMergeCommand(CLI::App& app, MergeCommandOptions& options);

// Exit 0 when merged, 2 for bad input (a file twice or unreadable, shards of different sweeps,
// of different counts, the same shard twice, missing or interrupted shards without
// --allow-partial, an output that cannot be written or is an input), 1 when writing failed.
int runMerge(const MergeCommandOptions& options);

}  // namespace ckptlab::cli
