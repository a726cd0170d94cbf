#pragma once
// The results file's keys of a sweep spread over shards (ckptlab/planning/sweep_shard.h) and of a
// file merged from them (ckptlab/formats/results_merge.h), written and read in one place. All
// optional on reading, so older files load; written only when set, so other files keep their bytes:
// - a shard's file: "shard" {sweep_id, index, count, work_items, work_id, strategies (one
//   size's, in the work list's order)} at the top, and in each run "shard" {position, owned};
// - a merged file: "merged" {sweep_id, count, missing (only when some are)}, "machines" (one
//   environment per merged shard, in shard order), "machine_baselines" (the other shards'
//   `none` runs, without traces; only when there are some), and in each run "machine" (its
//   shard's index into "machines").
// The reader refuses what the program could not have written: both "shard" and "merged", a run
// without its place in a shard's file or without its machine in a merged file, a machine index
// past "machines", a position past "work_items", a sweep id that is not 16 hex digits.

#include <nlohmann/json.hpp>

#include "ckptlab/model/result.h"
#include "formats/json_values.h"

namespace ckptlab::detail {

using OrderedJson = nlohmann::ordered_json;

void writeRunShard(const RunResult& run, OrderedJson& json);
void writeShards(const ResultSet& results, OrderedJson& doc,
                 OrderedJson (*environmentJson)(const Environment&),
                 OrderedJson (*runJson)(const RunResult&));

// `f` reads runs[i]; `top` the document, whose runs are read already.
void readRunShard(const Fields& f, RunResult& run);
void readShards(const Fields& top, ResultSet& results,
                Environment (*readEnvironment)(const Json&, const Path&));

}  // namespace ckptlab::detail
