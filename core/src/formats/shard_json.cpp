// Shards and merged files in the results file (shard_json.h).
#include "formats/shard_json.h"

#include <algorithm>
#include <string>

#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/sweep_shard.h"
#include "formats/results_run_read.h"

namespace ckptlab::detail {
namespace {

// sweepId() and workId() write 16 lowercase hex digits.
std::string readHexId(const Fields& f, const char* key) {
    const std::string id = f.string(key);
    if (id.size() != 16 || id.find_first_not_of("0123456789abcdef") != std::string::npos)
        fail(f.at().member(key), "expected 16 hex digits (0-9, a-f), got \"" + clip(id, 40) + "\"");
    return id;
}

SweepShard readShard(const Json& j, const Path& at) {
    const Fields f(j, at);
    SweepShard s;
    s.sweep_id = readHexId(f, "sweep_id");
    s.count = f.integer("count", 1, kShardMaxCount);
    s.index = f.integer("index", 0, s.count - 1);
    s.work_items = f.integer("work_items", 0, kIntMax);
    s.work_id = readHexId(f, "work_id");
    // One size's strategies (optional: older files have none); the merge checks each run
    // against them.
    if (const Json* strategies = f.find("strategies")) {
        const Path listAt = at.member("strategies");
        const Json& list = arrayAt(*strategies, listAt);
        if (list.empty() || list.size() > kMaxRuns || list.size() > std::size_t(s.work_items))
            fail(listAt, "expected 1 to " +
                             std::to_string(std::min<std::size_t>(
                                 kMaxRuns, std::size_t(std::max(s.work_items, 1)))) +
                             " strategies, got " + std::to_string(list.size()));
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (!list[i].is_string()) fail(listAt.item(i), "expected a strategy name");
            const std::string name = list[i].get<std::string>();
            std::string error;
            const auto strategy =
                name.size() <= kMaxStrategyBytes ? parseStrategyForm(name, &error) : std::nullopt;
            if (!strategy)
                fail(listAt.item(i), "expected a strategy name, got \"" + clip(name, 40) + "\"" +
                                         (error.empty() ? "" : ": " + clip(error, 200)));
            s.strategies.push_back(*strategy);
        }
    }
    return s;
}

MergedShards readMerged(const Json& j, const Path& at) {
    const Fields f(j, at);
    MergedShards m;
    m.sweep_id = readHexId(f, "sweep_id");
    m.count = f.integer("count", 1, kShardMaxCount);
    if (const Json* missing = f.find("missing")) {
        const Path missingAt = at.member("missing");
        const Json& list = arrayAt(*missing, missingAt);
        for (std::size_t i = 0; i < list.size(); ++i) {
            // Ascending and each once, as the merge writes them; fewer than all.
            const int least = m.missing.empty() ? 0 : m.missing.back() + 1;
            if (least >= m.count)
                fail(missingAt.item(i),
                     "more shards missing than the " + std::to_string(m.count) + " of the sweep");
            m.missing.push_back(readInt(list[i], missingAt.item(i), least, m.count - 1));
        }
        if (static_cast<int>(m.missing.size()) >= m.count)
            fail(missingAt, "every shard is missing: nothing was merged");
    }
    return m;
}

// Every run of `runs` (at `runsAt`) placed within the shard's work list, or naming a machine
// of `machines`, as the file's kind says.
void checkRuns(const std::vector<RunResult>& runs, const Path& runsAt, const ResultSet& results) {
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const RunResult& run = runs[i];
        const Path at = runsAt.item(i);
        if (run.shard && !results.shard)
            fail(at.member("shard"),
                 "a run's place in a shard, but the file is no shard's "
                 "(it has no top-level \"shard\")");
        if (results.shard && !run.shard)
            fail(at, "missing \"shard\": every run of a shard's file has its place");
        if (run.shard && run.shard->position >= results.shard->work_items)
            fail(at.member("shard").member("position"),
                 "expected a position below the sweep's " +
                     std::to_string(results.shard->work_items) + " work items, got " +
                     std::to_string(run.shard->position));
        if (run.machine && *run.machine >= static_cast<int>(results.machines.size()))
            fail(at.member("machine"), "expected an index into the file's " +
                                           std::to_string(results.machines.size()) +
                                           " machines, got " + std::to_string(*run.machine));
        if (results.merged && !run.machine)
            fail(at, "missing \"machine\": every run of a merged file names its shard's machine");
    }
}

}  // namespace

void writeRunShard(const RunResult& run, OrderedJson& json) {
    if (const auto& s = run.shard)
        json["shard"] = OrderedJson{{"position", s->position}, {"owned", s->owned}};
    if (run.machine) json["machine"] = *run.machine;
}

void writeShards(const ResultSet& results, OrderedJson& doc,
                 OrderedJson (*environmentJson)(const Environment&),
                 OrderedJson (*runJson)(const RunResult&)) {
    if (const auto& s = results.shard) {
        doc["shard"] = OrderedJson{{"sweep_id", s->sweep_id},
                                   {"index", s->index},
                                   {"count", s->count},
                                   {"work_items", s->work_items},
                                   {"work_id", s->work_id}};
        if (!s->strategies.empty()) {
            OrderedJson names = OrderedJson::array();
            for (const Strategy& strategy : s->strategies) names.push_back(strategy.name());
            doc["shard"]["strategies"] = std::move(names);
        }
    }
    if (const auto& m = results.merged) {
        OrderedJson merged{{"sweep_id", m->sweep_id}, {"count", m->count}};
        if (!m->missing.empty()) merged["missing"] = m->missing;
        doc["merged"] = std::move(merged);
    }
    if (!results.machines.empty()) {
        OrderedJson machines = OrderedJson::array();
        for (const Environment& e : results.machines) machines.push_back(environmentJson(e));
        doc["machines"] = std::move(machines);
    }
    if (!results.machine_baselines.empty()) {
        OrderedJson baselines = OrderedJson::array();
        for (const RunResult& run : results.machine_baselines) baselines.push_back(runJson(run));
        doc["machine_baselines"] = std::move(baselines);
    }
}

void readRunShard(const Fields& f, RunResult& run) {
    if (const Json* place = f.find("shard")) {
        const Fields p(*place, f.at().member("shard"));
        run.shard = ShardPlace{p.integer("position", 0, kIntMax), p.boolean("owned")};
    }
    if (f.find("machine")) run.machine = f.integer("machine", 0, kShardMaxCount - 1);
}

void readShards(const Fields& top, ResultSet& results,
                Environment (*readEnvironment)(const Json&, const Path&)) {
    const Path& root = top.at();
    if (const Json* shard = top.find("shard"))
        results.shard = readShard(*shard, root.member("shard"));
    if (const Json* merged = top.find("merged")) {
        if (results.shard)
            fail(root.member("merged"),
                 "a file is one shard's or merged from shards, not both (it has \"shard\" too)");
        results.merged = readMerged(*merged, root.member("merged"));
    }
    if (const Json* machines = top.find("machines")) {
        const Path machinesAt = root.member("machines");
        if (!results.merged)
            fail(machinesAt, "only a file merged from shards lists machines (no \"merged\")");
        const Json& list = arrayAt(*machines, machinesAt);
        const int merged = results.merged->count - static_cast<int>(results.merged->missing.size());
        if (static_cast<int>(list.size()) != merged)
            fail(machinesAt, "expected one machine per merged shard (" + std::to_string(merged) +
                                 "), got " + std::to_string(list.size()));
        for (std::size_t i = 0; i < list.size(); ++i)
            results.machines.push_back(readEnvironment(list[i], machinesAt.item(i)));
    } else if (results.merged) {
        fail(root, "missing \"machines\": a merged file lists its shards' machines");
    }
    const Path baselinesAt = root.member("machine_baselines");
    if (const Json* baselines = top.find("machine_baselines")) {
        if (!results.merged)
            fail(baselinesAt, "only a file merged from shards has machine baselines");
        const Json& list = arrayAt(*baselines, baselinesAt);
        if (list.size() > kMaxRuns)
            fail(baselinesAt, "more than " + std::to_string(kMaxRuns) + " runs");
        for (std::size_t i = 0; i < list.size(); ++i) {
            RunResult run = readRun(list[i], baselinesAt.item(i));
            if (!isBaseline(run.strategy))
                fail(baselinesAt.item(i).member("strategy"),
                     "a machine baseline is a none run, got \"" + clip(run.strategy.name(), 40) +
                         "\"");
            results.machine_baselines.push_back(std::move(run));
        }
    }
    checkRuns(results.runs, root.member("runs"), results);
    checkRuns(results.machine_baselines, baselinesAt, results);
}

}  // namespace ckptlab::detail
