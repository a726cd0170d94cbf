#pragma once
// One sweep spread over several processes (a Slurm job array, a Kubernetes Indexed Job): which
// runs a shard makes, and the identity of the sweep its files belong to. Planning room: plain
// C++, no LibTorch. The runner deals the work (Runner::useShard), the formats room merges the
// shards' files (results_merge.h), the CLI reads the shard from its options or the scheduler's
// environment (app/cli/cli_shard.cpp).
//
// The deal: the whole sweep's work list (sweepWork: each size's strategies in order, sizes in
// order) is dealt round robin, position p to shard p % count, so each shard gets a share within
// one run of the others'. What correctness needs runs in every shard anyway: the reference
// gradients of the gradient check and the cost model are every sweep's own (the runner builds
// them per size), and a shard runs the `none` of each size it measures even when another shard
// owns it (ShardItem::owned false), so each shard's times have a baseline of its own process.

#include <string>
#include <string_view>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/sweep_check.h"

namespace ckptlab {

// At most this many shards: more processes than runs a results file holds would be waste.
inline constexpr int kShardMaxCount = 1024;

// Shard `index` (0-based) of `count`.
struct ShardSpec {
    int index = 0;
    int count = 1;
};
// 0 <= index < count and 1 <= count <= kShardMaxCount.
bool validShard(const ShardSpec& shard);

// One item of a sweep's work list: a strategy at one size (the index of a scaling value; 0 for
// a sweep and a Pareto sweep).
struct WorkItem {
    int size = 0;
    Strategy strategy;
};
// The work list of `sizes` sizes of `strategies` each: size-major, in the order the unsharded
// sweep runs them.
std::vector<WorkItem> sweepWork(const std::vector<Strategy>& strategies, int sizes = 1);

// A work item a shard runs: its position in the list, and whether the shard owns it.
struct ShardItem {
    int position = 0;
    bool owned = true;
};
// The items shard `shard` runs, by position: those dealt to it (p % count == index), and at
// every size where it owns an item, that size's `none` (isBaseline) when another shard owns it.
// Throws std::invalid_argument for a shard that is not validShard.
std::vector<ShardItem> shardItems(const std::vector<WorkItem>& work, const ShardSpec& shard);

// The identity of a sweep: 16 hex digits of a 64-bit FNV-1a hash of everything that defines it
// (the Checkpoint Lab version, the kind, every config field by the registry, the strategies in
// order, a Pareto sweep's points, a scaling sweep's axis and values), never of the machine, the
// time or the shard. Not a cryptographic hash: it tells apart the sweeps of one project.
std::string sweepId(const SweepRequestData& request, std::string_view version);
// The work list as one shard resolved it (a Pareto sweep's budgets come from its own cost
// model): shards whose lists differ cannot be merged.
std::string workId(const std::vector<WorkItem>& work);

}  // namespace ckptlab
