#pragma once
// Which shard of a sweep this process runs (sweep, pareto, scaling): --shard K/N, or --shard
// auto / --shard-count N with the index from the scheduler's environment. The deal and the
// sweep's identity are core's (ckptlab/planning/sweep_shard.h); this only reads the command line
// and the environment.
//
// Indices are 0-based, K from 0 to N-1, as Kubernetes' JOB_COMPLETION_INDEX is. A Slurm array
// may start anywhere (--array=0-3 or 1-4): K is SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN
// (SLURM_ARRAY_TASK_ID when there is no MIN) and N is SLURM_ARRAY_TASK_COUNT. Kubernetes
// exports no count, so an Indexed Job gives it with --shard-count. The environment is read only
// when asked for (--shard auto, --shard-count): a job array that runs other things per index
// does not split its sweeps unawares.

#include <functional>
#include <optional>
#include <string>

#include "ckptlab/planning/sweep_shard.h"

namespace ckptlab::cli {

struct ShardChoice {
    ShardSpec spec;
    std::string
        from;  // where it came from: "--shard 1/3", "JOB_COMPLETION_INDEX=2, --shard-count 4"
};

// The environment as getenv reads it (tests give their own).
using EnvironmentLookup = std::function<const char*(const char*)>;

// Nothing asked for: nullopt and `error` empty. Bad input: nullopt and `error` one line naming
// the option or the variable and what it takes (exit 2).
std::optional<ShardChoice> chooseShard(const std::string& shardText, const std::string& countText,
                                       const EnvironmentLookup& environment, std::string* error);

// "shard 1 of 3 (0-based), from --shard 1/3": the line a sharded run prints first.
std::string shardLine(const ShardChoice& choice);

// When no shard was asked for but the scheduler names a task (SLURM_ARRAY_TASK_ID,
// JOB_COMPLETION_INDEX): a note that the sweep runs whole; empty otherwise.
std::string unshardedNote(const EnvironmentLookup& environment);

}  // namespace ckptlab::cli
