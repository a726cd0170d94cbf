// The shards' files of one sweep joined into one file (results_merge.h).
#include "ckptlab/results_merge.h"

#include <algorithm>
#include <map>
#include <set>

#include "ckptlab/comparison.h"
#include "ckptlab/strategy.h"

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

// One sweep, one count, one work list, each shard once.
void checkSameSweep(const std::vector<ShardFile>& shards) {
    const ShardFile& first = shards.front();
    const SweepShard& a = *first.results.shard;
    for (std::size_t i = 1; i < shards.size(); ++i) {
        const SweepShard& b = *shards[i].results.shard;
        const std::string both = first.path + " and " + shards[i].path;
        if (b.sweep_id != a.sweep_id)
            throw MergeError(both + " are shards of different sweeps (sweep " + a.sweep_id +
                             " and " + b.sweep_id +
                             "): config, strategies, kind, points or values differ");
        if (b.count != a.count)
            throw MergeError("mixed shard counts: " + first.path + " is " + shardText(a) + ", " +
                             shards[i].path + " " + shardText(b));
        if (b.work_id != a.work_id || b.work_items != a.work_items)
            throw MergeError(both + " resolved the sweep into different work lists (" +
                             std::to_string(a.work_items) + " items, " + a.work_id + "; " +
                             std::to_string(b.work_items) + " items, " + b.work_id +
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

// Complete shards hold every position of the work list.
void checkEveryPosition(const std::vector<ShardFile>& shards, const std::vector<int>& missing) {
    if (!missing.empty()) return;
    for (const ShardFile& file : shards)
        if (file.results.cancelled) return;  // a partial merge: its runs may be missing
    const int items = shards.front().results.shard->work_items;
    std::vector<bool> seen(items, false);
    for (const ShardFile& file : shards)
        for (const RunResult& run : file.results.runs)
            if (run.shard->owned && run.shard->position < items) seen[run.shard->position] = true;
    for (int p = 0; p < items; ++p)
        if (!seen[p])
            throw MergeError("no shard's file holds position " + std::to_string(p) + " of the " +
                             std::to_string(items) +
                             " runs of the sweep: a file was cut short "
                             "or edited");
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
    checkSameSweep(inputs);
    const std::vector<int> missing = checkComplete(inputs, options);
    checkPlaces(inputs);
    checkEveryPosition(inputs, missing);

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
