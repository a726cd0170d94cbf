#pragma once
// The files of a sweep's shards (ckptlab/planning/sweep_shard.h) joined into one file of the whole
// sweep (ckptlab-cli merge). Plain C++ in the formats room; the CLI only loads, calls and writes.
//
// The merged file holds the runs in the unsharded sweep's order, each naming its shard's
// machine (RunResult::machine, an index into ResultSet::machines: one environment per shard,
// always in a merged file, even when every shard ran on one host, since each shard timed its
// runs in a process of its own). `environment` is the first merged shard's, so a reader that
// knows nothing of machines still finds a valid one. Memory, gradient checks, schedules, forward
// counts and the predicted peaks do not depend on the process and compare across shards; step
// times do, so each run's time is compared with the `none` of its own shard: the shards whose
// `none` is not the one kept in `runs` keep theirs in `machine_baselines` (baselineFor).

#include <stdexcept>
#include <string>
#include <vector>

#include "ckptlab/model/result.h"

namespace ckptlab {

// One shard's file as loaded.
struct ShardFile {
    std::string path;  // as given: messages name it
    ResultSet results;
};

// What the merge refuses, naming the files: a file that is no shard's or already merged, shards
// of different sweeps, of different counts or different work lists, the same shard twice, and,
// unless allowed, missing or interrupted shards (`missing` then lists the missing indices).
struct MergeError : std::invalid_argument {
    MergeError(const std::string& message, std::vector<int> missing = {})
        : std::invalid_argument(message), missing(std::move(missing)) {}
    std::vector<int> missing;
};

struct MergeOptions {
    // Merge what is there: missing and interrupted shards leave their runs out, and the merged
    // file says so (MergedShards::missing, `cancelled`, a note).
    bool allow_partial = false;
};

// Throws MergeError. The inputs may come in any order.
ResultSet mergeShards(const std::vector<ShardFile>& shards, const MergeOptions& options = {});

// The machine of each run of a merged file (parallel to `results.runs`, by machineName in
// comparison.h) when its runs ran on machines of more than one name; empty otherwise, also for
// a file that is not merged. The app labels such runs "<strategy> · <machine>".
std::vector<std::string> runMachineNames(const ResultSet& results);

}  // namespace ckptlab
