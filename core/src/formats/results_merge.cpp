// The shards' files of one sweep joined into one file (results_merge.h).
#include "ckptlab/formats/results_merge.h"

#include <algorithm>
#include <map>
#include <set>

#include "ckptlab/formats/comparison.h"
#include "ckptlab/model/config_fields.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/sweep_shard.h"

namespace ckptlab {
namespace {

std::string shardText(const SweepShard& shard) {
    return "shard " + std::to_string(shard.index) + " of " + std::to_string(shard.count);
}

// "1", "1 and 3", "1, 2 and 5".
std::string listText(const std::vector<int>& items) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + std::to_string(items[i]);
    return out;
}

// Each input is one shard's file, never a merged one.
void checkKinds(const std::vector<ShardFile>& shards) {
    if (shards.empty()) throw MergeError("merge needs the files of a sweep's shards (got none)");
    for (const ShardFile& file : shards) {
        if (file.results.merged)
            throw MergeError(file.path + " is merged already (sweep " +
                             file.results.merged->sweep_id + "): merge the shards' own files");
        if (!file.results.shard)
            throw MergeError(file.path + " is not a shard's file (it was written without --shard)");
    }
}

// "none, full, sqrt".
std::string strategiesText(const std::vector<Strategy>& strategies) {
    std::string out;
    for (const Strategy& s : strategies) out += (out.empty() ? "" : ", ") + s.name();
    return out;
}

// One version wrote every file: the sweep's identity includes it, and a run's numbers may
// differ between versions.
void checkSameVersion(const std::vector<ShardFile>& shards) {
    const ShardFile& first = shards.front();
    const std::string& a = first.results.environment.ckptlab_version;
    for (const ShardFile& file : shards) {
        const std::string& b = file.results.environment.ckptlab_version;
        if (b != a)
            throw MergeError(first.path + " was written by Checkpoint Lab " + a + " and " +
                             file.path + " by " + b +
                             ": run every shard of a sweep with one version");
    }
}

// The strategies and the number of sizes of a shard's work list (sweepWork).
struct WorkShape {
    std::vector<Strategy> strategies;
    int sizes = 0;
};

WorkShape shapeOf(const SweepShard& shard) {
    const int perSize = static_cast<int>(shard.strategies.size());
    return {shard.strategies, perSize > 0 ? shard.work_items / perSize : 0};
}

// The first run of `set` at size `size` of a list of `perSize` strategies; null when none.
const RunResult* runAtSize(const ResultSet& set, int size, int perSize) {
    for (const RunResult& run : set.runs)
        if (run.shard && perSize > 0 && run.shard->position / perSize == size) return &run;
    return nullptr;
}

// The first config field in which a and b differ, as "seq: 64 in A, 128 in B"; empty if none.
std::string configDifference(const ExperimentConfig& a, const std::string& aName,
                             const ExperimentConfig& b, const std::string& bName) {
    for (const ConfigField& field : configFields()) {
        const std::string x = valueText(field, a), y = valueText(field, b);
        if (x != y)
            return std::string(field.key) + ": " + x + " in " + aName + ", " + y + " in " + bName;
    }
    return {};
}

// What tells two sweeps apart, from what their files hold: the strategies, the number of
// sizes, or the config at a size both measured; else what a shard's file does not record.
std::string sweepDifference(const ShardFile& one, const ShardFile& two) {
    const WorkShape a = shapeOf(*one.results.shard), b = shapeOf(*two.results.shard);
    if (!a.strategies.empty() && !b.strategies.empty()) {
        if (strategiesText(a.strategies) != strategiesText(b.strategies))
            return "the strategies differ: " + strategiesText(a.strategies) + " in " + one.path +
                   ", " + strategiesText(b.strategies) + " in " + two.path;
        if (a.sizes != b.sizes)
            return "the number of sizes differs: " + std::to_string(a.sizes) + " in " + one.path +
                   ", " + std::to_string(b.sizes) + " in " + two.path;
        const int perSize = static_cast<int>(a.strategies.size());
        for (int size = 0; size < a.sizes; ++size) {
            const RunResult* x = runAtSize(one.results, size, perSize);
            const RunResult* y = runAtSize(two.results, size, perSize);
            if (!x || !y) continue;
            const std::string field = configDifference(x->config, one.path, y->config, two.path);
            if (!field.empty())
                return "the config differs" +
                       (a.sizes > 1 ? " at size " + std::to_string(size + 1) : std::string()) +
                       " in " + field;
        }
    }
    return "their configs, strategies and sizes are the same where both files have runs, so the "
           "sweep's kind, Pareto points or scaling values differ, which a shard's file does not "
           "record";
}

// One sweep, one count, one work list, each shard once.
void checkSameSweep(const std::vector<ShardFile>& shards) {
    const ShardFile& first = shards.front();
    const SweepShard& a = *first.results.shard;
    for (std::size_t i = 1; i < shards.size(); ++i) {
        const SweepShard& b = *shards[i].results.shard;
        const std::string both = first.path + " and " + shards[i].path;
        if (b.sweep_id != a.sweep_id)
            throw MergeError(both + " are shards of different sweeps (sweep " + a.sweep_id +
                             " and " + b.sweep_id + "): " + sweepDifference(first, shards[i]));
        if (b.count != a.count)
            throw MergeError("mixed shard counts: " + first.path + " is " + shardText(a) + ", " +
                             shards[i].path + " " + shardText(b));
        if (b.work_id != a.work_id || b.work_items != a.work_items)
            throw MergeError(
                both + " resolved the sweep into different work lists (" +
                std::to_string(a.work_items) + " items: " + strategiesText(a.strategies) + "; " +
                std::to_string(b.work_items) + " items: " + strategiesText(b.strategies) +
                "): their runs have no common order");
        for (std::size_t j = 0; j < i; ++j)
            if (shards[j].results.shard->index == b.index)
                throw MergeError(shards[j].path + " and " + shards[i].path + " are both " +
                                 shardText(b));
    }
}

// The shards not given, and the interrupted ones, refused unless a partial merge is asked for.
std::vector<int> checkComplete(const std::vector<ShardFile>& shards, const MergeOptions& options) {
    const int count = shards.front().results.shard->count;
    std::vector<bool> given(count, false);
    for (const ShardFile& file : shards) given[file.results.shard->index] = true;
    std::vector<int> missing;
    for (int k = 0; k < count; ++k)
        if (!given[k]) missing.push_back(k);
    if (options.allow_partial) return missing;
    if (!missing.empty())
        throw MergeError((missing.size() == 1 ? "shard " : "shards ") + listText(missing) + " of " +
                             std::to_string(count) + (missing.size() == 1 ? " is" : " are") +
                             " missing",
                         missing);
    for (const ShardFile& file : shards)
        if (file.results.cancelled)
            throw MergeError(file.path + " (" + shardText(*file.results.shard) +
                             ") is from an interrupted sweep: some of its runs are missing");
    return missing;
}

// Every run where the deal puts it: an owned run at one of its shard's positions, each position
// in one file only; an unowned one is a `none`.
void checkPlaces(const std::vector<ShardFile>& shards) {
    std::map<int, const std::string*> owner;
    for (const ShardFile& file : shards) {
        const SweepShard& shard = *file.results.shard;
        for (std::size_t r = 0; r < file.results.runs.size(); ++r) {
            const RunResult& run = file.results.runs[r];
            const std::string where = file.path + ": runs[" + std::to_string(r) + "]";
            const ShardPlace& place = *run.shard;  // the loader requires it in a shard's file
            if (!place.owned) {
                if (!isBaseline(run.strategy))
                    throw MergeError(where + " (" + run.strategy.name() +
                                     ") is marked as another shard's, which only a none can be");
                continue;
            }
            if (place.position % shard.count != shard.index)
                throw MergeError(where + " stands at position " + std::to_string(place.position) +
                                 ", which the deal gives to shard " +
                                 std::to_string(place.position % shard.count) + ", not " +
                                 std::to_string(shard.index));
            const auto [it, fresh] = owner.emplace(place.position, &file.path);
            if (!fresh)
                throw MergeError(where + " stands at position " + std::to_string(place.position) +
                                 ", as a run of " + *it->second + " does");
        }
    }
}

// Each file's work list is the one its work_id names: the strategies were not edited.
void checkWorkLists(const std::vector<ShardFile>& shards) {
    for (const ShardFile& file : shards) {
        const SweepShard& shard = *file.results.shard;
        const int perSize = static_cast<int>(shard.strategies.size());
        if (perSize == 0)
            throw MergeError(file.path +
                             " names no strategies in its \"shard\" (it was written "
                             "by a Checkpoint Lab that did not record them): run "
                             "its shard again");
        if (shard.work_items % perSize != 0 ||
            workId(sweepWork(shard.strategies, shard.work_items / perSize)) != shard.work_id)
            throw MergeError(file.path + ": its " + std::to_string(shard.work_items) +
                             " work items of the strategies " + strategiesText(shard.strategies) +
                             " are not the work list its work_id " + shard.work_id +
                             " names: the file was edited");
    }
}

// "full" or "full at size 2": what the work list holds at `position`.
std::string itemText(const std::vector<WorkItem>& work, int position, int sizes) {
    const WorkItem& item = work[static_cast<std::size_t>(position)];
    return item.strategy.name() +
           (sizes > 1 ? " at size " + std::to_string(item.size + 1) : std::string());
}

// Every run of every file is the item the deal gives its shard at that index (an interrupted
// shard's runs are the first of them), with that item's strategy, and the config of the other
// runs at its size.
void checkRunsAgainstWork(const std::vector<ShardFile>& shards) {
    const WorkShape shape = shapeOf(*shards.front().results.shard);
    const std::vector<WorkItem> work = sweepWork(shape.strategies, shape.sizes);
    std::map<int, std::pair<const RunResult*, std::string>> sizeConfig;  // size: first run seen
    for (const ShardFile& file : shards) {
        const SweepShard& shard = *file.results.shard;
        const std::vector<ShardItem> items = shardItems(work, {shard.index, shard.count});
        const auto& runs = file.results.runs;
        for (std::size_t r = 0; r < runs.size(); ++r) {
            const std::string where = file.path + ": runs[" + std::to_string(r) + "]";
            if (r >= items.size())
                throw MergeError(where + " is one run more than the " +
                                 std::to_string(items.size()) + " that the deal gives " +
                                 shardText(shard));
            const ShardPlace& place = *runs[r].shard;
            const ShardItem& item = items[r];
            if (place.position != item.position || place.owned != item.owned)
                throw MergeError(where + " stands at position " + std::to_string(place.position) +
                                 (place.owned ? "" : " as another shard's") +
                                 ", where the deal of " + shardText(shard) + " has position " +
                                 std::to_string(item.position) + " (" +
                                 itemText(work, item.position, shape.sizes) +
                                 (item.owned ? "" : ", another shard's") + ")");
            const WorkItem& expected = work[static_cast<std::size_t>(item.position)];
            if (runs[r].strategy.name() != expected.strategy.name())
                throw MergeError(where + " stands at position " + std::to_string(item.position) +
                                 ", which the sweep's work list gives to " +
                                 itemText(work, item.position, shape.sizes) + ", but it is " +
                                 runs[r].strategy.name());
            const auto [seen, fresh] =
                sizeConfig.emplace(expected.size, std::pair{&runs[r], where});
            if (fresh) continue;
            const std::string field = configDifference(
                runs[r].config, where, seen->second.first->config, seen->second.second);
            if (!field.empty())
                throw MergeError(where + " (" + itemText(work, item.position, shape.sizes) +
                                 ") was run with another config than the sweep's other runs at "
                                 "its size: " +
                                 field);
        }
        if (runs.size() < items.size() && !file.results.cancelled) {
            const int position = items[runs.size()].position;
            throw MergeError(
                file.path + " (" + shardText(shard) + ") holds " + std::to_string(runs.size()) +
                " of its " + std::to_string(items.size()) + " runs, position " +
                std::to_string(position) + " (" + itemText(work, position, shape.sizes) +
                ") first missing, and is not marked interrupted: it was cut short "
                "or edited");
        }
    }
}

// A machine's baseline as the merged file keeps it: the run without its traces.
RunResult baselineOnly(RunResult run, int machine) {
    run.shard.reset();
    run.machine = machine;
    run.timeline.clear();
    run.phases.clear();
    run.blocks.clear();
    run.allocator_trace.reset();
    return run;
}

std::string mergeNote(const MergedShards& merged, std::size_t shards, std::size_t names) {
    std::string note = "merged from " + std::to_string(shards) + " of " +
                       std::to_string(merged.count) + " shards of sweep " + merged.sweep_id +
                       (names > 1 ? " on " + std::to_string(names) + " machines" : "") +
                       ": each run was timed in its own shard's process and its time is "
                       "compared with that shard's none";
    if (!merged.missing.empty())
        note += "; shard" + std::string(merged.missing.size() == 1 ? " " : "s ") +
                listText(merged.missing) + " missing, their runs are not here";
    return note;
}

}  // namespace

ResultSet mergeShards(const std::vector<ShardFile>& inputs, const MergeOptions& options) {
    checkKinds(inputs);
    checkSameVersion(inputs);
    checkWorkLists(inputs);
    checkSameSweep(inputs);
    const std::vector<int> missing = checkComplete(inputs, options);
    checkPlaces(inputs);
    checkRunsAgainstWork(inputs);

    std::vector<const ShardFile*> shards;
    for (const ShardFile& file : inputs) shards.push_back(&file);
    std::sort(shards.begin(), shards.end(), [](const ShardFile* a, const ShardFile* b) {
        return a->results.shard->index < b->results.shard->index;
    });
    const ResultSet& first = shards.front()->results;
    ResultSet merged;
    merged.environment = first.environment;
    merged.timing = first.timing;
    merged.predicted_frontier = first.predicted_frontier;
    merged.merged = MergedShards{first.shard->sweep_id, first.shard->count, missing};
    std::vector<std::pair<int, RunResult>> placed;
    std::set<std::string> names;
    for (std::size_t m = 0; m < shards.size(); ++m) {
        const ResultSet& shard = shards[m]->results;
        merged.machines.push_back(shard.environment);
        names.insert(machineName(shard.environment));
        merged.cancelled = merged.cancelled || shard.cancelled;
        for (const std::string& note : shard.notes)
            if (std::find(merged.notes.begin(), merged.notes.end(), note) == merged.notes.end())
                merged.notes.push_back(note);
        for (const RunResult& run : shard.runs) {
            if (!run.shard->owned) {
                merged.machine_baselines.push_back(baselineOnly(run, static_cast<int>(m)));
                continue;
            }
            RunResult kept = run;
            kept.shard.reset();
            kept.machine = static_cast<int>(m);
            placed.emplace_back(run.shard->position, std::move(kept));
        }
    }
    std::sort(placed.begin(), placed.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [position, run] : placed) merged.runs.push_back(std::move(run));
    merged.cancelled = merged.cancelled || !missing.empty();
    merged.notes.insert(merged.notes.begin(),
                        mergeNote(*merged.merged, shards.size(), names.size()));
    return merged;
}

std::vector<std::string> runMachineNames(const ResultSet& results) {
    std::set<std::string> distinct;
    for (const Environment& e : results.machines) distinct.insert(machineName(e));
    if (distinct.size() <= 1) return {};
    std::vector<std::string> names;
    for (const RunResult& run : results.runs)
        names.push_back(run.machine && *run.machine < static_cast<int>(results.machines.size())
                            ? machineName(results.machines[*run.machine])
                            : machineName(results.environment));
    return names;
}

}  // namespace ckptlab
