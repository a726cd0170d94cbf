// The shards' files of one sweep merged (results_merge.h): order, machines, baselines, what is
// refused, and how the summary and the comparison read a merged file.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ckptlab/formats/comparison.h"
#include "ckptlab/formats/results_io.h"
#include "ckptlab/formats/results_merge.h"
#include "ckptlab/model/summary.h"
#include "ckptlab/planning/sweep_shard.h"
#include "strategy_text.h"

using namespace ckptlab;

namespace {

const std::vector<std::string> kStrategies = {"none", "full", "every:2", "sqrt", "from:2"};

// One run as a shard measures it: its bytes the same in every process (they depend on the
// strategy only), its time this shard's.
RunResult measured(const std::string& strategy, double stepMs) {
    RunResult run;
    run.config.depth = 4;
    run.strategy = test::strategy(strategy);
    run.metrics.peak_bytes = strategy == "none" ? 1000 : 600;
    run.metrics.step_ms = stepMs;
    run.grad_check.checked = true;
    run.grad_check.tolerance = 1e-6;
    run.timeline = {{0.5, 100, 100, Phase::Forward, 0}};
    return run;
}

// Shard `index` of `count` of the five-strategy sweep, as the runner makes it: its share by
// shardItems, each run `slowdown` times its strategy's nominal time (a slower machine).
ShardFile makeShard(int index, int count, double slowdown, const std::string& machine) {
    ShardFile file;
    file.path = "shard-" + std::to_string(index) + ".json";
    const auto work = sweepWork(parseStrategies(kStrategies));
    ResultSet& set = file.results;
    set.environment.device = "cpu";
    set.environment.device_name = machine;
    set.environment.created_utc = "2026-12-02T10:0" + std::to_string(index) + ":00Z";
    set.environment.ckptlab_version = "1.4.0";
    set.shard = SweepShard{
        "00000000000000aa",          index, count, static_cast<int>(work.size()), workId(work),
        parseStrategies(kStrategies)};
    for (const ShardItem& item : shardItems(work, {index, count})) {
        const std::string name = kStrategies[item.position];
        RunResult run = measured(name, (10.0 + 2.0 * item.position) * slowdown);
        run.shard = ShardPlace{item.position, item.owned};
        set.runs.push_back(run);
    }
    set.notes = {"a note every shard has"};
    return file;
}

std::vector<ShardFile> threeShards() {
    // Shard 1 on a machine twice as slow, shard 2 on the first one's kind.
    return {makeShard(2, 3, 1.0, "CPU A"), makeShard(0, 3, 1.0, "CPU A"),
            makeShard(1, 3, 2.0, "CPU B")};
}

std::string refusal(const std::vector<ShardFile>& shards, MergeOptions options = {}) {
    try {
        mergeShards(shards, options);
    } catch (const MergeError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

// The runs in the unsharded order, each with its shard's machine; the other shards' nones kept
// as their machines' baselines, without traces; the first shard's environment on top.
TEST(ResultsMerge, RunsInTheSweepsOrderEachWithItsMachine) {
    const ResultSet merged = mergeShards(threeShards());
    ASSERT_EQ(merged.runs.size(), 5u);
    for (std::size_t i = 0; i < merged.runs.size(); ++i) {
        EXPECT_EQ(merged.runs[i].strategy.name(), kStrategies[i]);
        EXPECT_EQ(merged.runs[i].machine, static_cast<int>(i % 3));
        EXPECT_FALSE(merged.runs[i].shard);
    }
    ASSERT_EQ(merged.machines.size(), 3u);
    EXPECT_EQ(merged.machines[1].device_name, "CPU B");
    EXPECT_EQ(merged.environment.created_utc, "2026-12-02T10:00:00Z");  // shard 0's
    ASSERT_EQ(merged.machine_baselines.size(), 2u);
    EXPECT_EQ(merged.machine_baselines[0].machine, 1);
    EXPECT_EQ(merged.machine_baselines[1].machine, 2);
    EXPECT_TRUE(merged.machine_baselines[0].timeline.empty());
    EXPECT_FALSE(merged.runs[0].timeline.empty());
    ASSERT_TRUE(merged.merged);
    EXPECT_EQ(merged.merged->sweep_id, "00000000000000aa");
    EXPECT_EQ(merged.merged->count, 3);
    EXPECT_TRUE(merged.merged->missing.empty());
    EXPECT_FALSE(merged.cancelled);
    EXPECT_FALSE(merged.shard);
    // The shards' shared note once, after the merge's own.
    ASSERT_EQ(merged.notes.size(), 2u);
    EXPECT_NE(merged.notes[0].find("merged from 3 of 3 shards of sweep 00000000000000aa on 2 "
                                   "machines"),
              std::string::npos)
        << merged.notes[0];
    EXPECT_EQ(merged.notes[1], "a note every shard has");
    // It is a results file like any other.
    const ResultSet back = resultsFromJson(resultsToJson(merged));
    EXPECT_EQ(resultsToJson(back), resultsToJson(merged));
}

// Time added is against the none of the run's own shard; memory saved against any none (the
// bytes are the same everywhere). Unsharded, full would read 10 -> 24 ms (+140%), but shard 1
// runs twice as slow: its none took 20 ms, so full added 20%.
TEST(ResultsMerge, EachRunsTimeIsComparedWithItsOwnShardsNone) {
    const ResultSet merged = mergeShards(threeShards());
    const std::vector<SummaryRow> rows = summarize(merged);
    ASSERT_EQ(rows.size(), 5u);
    ASSERT_TRUE(rows[1].time_added_pct);  // full, shard 1: 24 ms against its none's 20 ms
    EXPECT_NEAR(*rows[1].time_added_pct, 20.0, 1e-9);
    ASSERT_TRUE(rows[2].time_added_pct);  // every:2, shard 2: 14 ms against 10 ms
    EXPECT_NEAR(*rows[2].time_added_pct, 40.0, 1e-9);
    ASSERT_TRUE(rows[3].time_added_pct);  // sqrt, shard 0: 16 ms against 10 ms
    EXPECT_NEAR(*rows[3].time_added_pct, 60.0, 1e-9);
    for (const SummaryRow& row : rows) {
        ASSERT_TRUE(row.memory_saved_pct) << row.strategy.name();
        EXPECT_NEAR(*row.memory_saved_pct, row.strategy.name() == "none" ? 0.0 : 40.0, 1e-9);
    }
    EXPECT_EQ(baselineFor(merged, merged.runs[1]), &merged.machine_baselines[0]);
    EXPECT_EQ(baselineFor(merged, merged.runs[3]), &merged.runs[0]);
    // The light copy of the charts keeps the rule.
    const ResultSet light = withFastestSteps(merged);
    ASSERT_TRUE(summarize(light)[1].time_added_pct);
    EXPECT_NEAR(*summarize(light)[1].time_added_pct, 20.0, 1e-9);

    // A shard whose none failed: its runs say nothing of time rather than borrow another's.
    std::vector<ShardFile> shards = threeShards();
    shards[2].results.runs[0].error = "none failed";
    const ResultSet broken = mergeShards(shards);
    EXPECT_FALSE(summarize(broken)[1].time_added_pct);
    EXPECT_TRUE(summarize(broken)[2].time_added_pct);
}

// compare reads a merged file as one source: one none, no duplicates, its machines named.
TEST(ResultsMerge, CompareSeesOneRunPerStrategyAndEveryMachine) {
    const ResultSet merged = mergeShards(threeShards());
    ResultSet whole;
    whole.environment.device = "cpu";
    whole.environment.device_name = "CPU A";
    for (std::size_t p = 0; p < kStrategies.size(); ++p)
        whole.runs.push_back(measured(kStrategies[p], 10.0 + 2.0 * p));
    const Comparison c = compareResults({{"whole.json", whole}, {"merged.json", merged}});
    ASSERT_EQ(c.rows.size(), 5u);
    for (const ComparisonNote& note : c.notes) EXPECT_NE(note.kind, NoteKind::DuplicateRun);
    EXPECT_EQ(c.sources[1].machine, "CPU A (cpu) + CPU B (cpu)");
    EXPECT_EQ(*c.rows[1].cells[1].peak_ratio, 1.0);
    // The app's labels: by machine, since the runs' machines have two names.
    EXPECT_EQ(runMachineNames(merged),
              (std::vector<std::string>{"CPU A (cpu)", "CPU B (cpu)", "CPU A (cpu)", "CPU A (cpu)",
                                        "CPU B (cpu)"}));
    // One name: no labels needed.
    EXPECT_TRUE(
        runMachineNames(mergeShards({makeShard(0, 2, 1.0, "CPU A"), makeShard(1, 2, 1.5, "CPU A")}))
            .empty());
    EXPECT_TRUE(runMachineNames(whole).empty());
}

TEST(ResultsMerge, RefusesShardsThatAreNotOneSweepNamingTheFiles) {
    // Each refusal names the true cause: here a config field, found at a size both measured.
    std::vector<ShardFile> other = threeShards();
    other[2].results.shard->sweep_id = "00000000000000bb";
    for (RunResult& run : other[2].results.runs) run.config.seq = 128;
    EXPECT_EQ(refusal(other),
              "shard-2.json and shard-1.json are shards of different sweeps (sweep "
              "00000000000000aa and 00000000000000bb): the config differs in seq: 256 in "
              "shard-2.json, 128 in shard-1.json");
    // Nothing the files record differs: what they do not record is named as the cause.
    other = threeShards();
    other[2].results.shard->sweep_id = "00000000000000bb";
    EXPECT_EQ(refusal(other),
              "shard-2.json and shard-1.json are shards of different sweeps (sweep "
              "00000000000000aa and 00000000000000bb): their configs, strategies and sizes are "
              "the same where both files have runs, so the sweep's kind, Pareto points or scaling "
              "values differ, which a shard's file does not record");
    // Other strategies, or as many but more sizes.
    other = threeShards();
    other[2].results.shard->sweep_id = "00000000000000bb";
    other[2].results.shard->strategies[4] = test::strategy("every:3");
    other[2].results.shard->work_id = workId(sweepWork(other[2].results.shard->strategies));
    EXPECT_NE(refusal(other).find("): the strategies differ: none, full, every:2, sqrt, from:2 in "
                                  "shard-2.json, none, full, every:2, sqrt, every:3 in "
                                  "shard-1.json"),
              std::string::npos)
        << refusal(other);
    other = threeShards();
    other[2].results.shard->sweep_id = "00000000000000bb";
    other[2].results.shard->work_items = 10;
    other[2].results.shard->work_id = workId(sweepWork(parseStrategies(kStrategies), 2));
    EXPECT_NE(
        refusal(other).find("): the number of sizes differs: 1 in shard-2.json, 2 in shard-1.json"),
        std::string::npos)
        << refusal(other);
    // Two versions: the sweep id includes the version, so it differs too; the version is named.
    other = threeShards();
    other[2].results.environment.ckptlab_version = "1.5.0";
    other[2].results.shard->sweep_id = "00000000000000bb";
    EXPECT_EQ(refusal(other),
              "shard-2.json was written by Checkpoint Lab 1.4.0 and shard-1.json by 1.5.0: run "
              "every shard of a sweep with one version");

    std::vector<ShardFile> mixed = {makeShard(0, 3, 1, "A"), makeShard(1, 2, 1, "A")};
    EXPECT_EQ(refusal(mixed),
              "mixed shard counts: shard-0.json is shard 0 of 3, shard-1.json shard 1 of 2");

    std::vector<ShardFile> twice = threeShards();
    twice.push_back(makeShard(1, 3, 1, "A"));
    twice.back().path = "copy.json";
    EXPECT_EQ(refusal(twice), "shard-1.json and copy.json are both shard 1 of 3");

    // A Pareto sweep's budgets come from each shard's own cost model: two lists, both whole.
    std::vector<ShardFile> work = threeShards();
    std::vector<std::string> resolved = kStrategies;
    resolved[4] = "every:3";
    const auto otherWork = sweepWork(parseStrategies(resolved));
    work[0].results.shard->strategies = parseStrategies(resolved);
    work[0].results.shard->work_id = workId(otherWork);
    EXPECT_EQ(refusal(work),
              "shard-2.json and shard-0.json resolved the sweep into different work lists (5 "
              "items: none, full, every:2, sqrt, every:3; 5 items: none, full, every:2, sqrt, "
              "from:2): their runs have no common order");
    // A list edited so that it no longer is the one its id names.
    work = threeShards();
    work[1].results.shard->strategies[1] = test::strategy("sqrt");
    EXPECT_EQ(refusal(work),
              "shard-0.json: its 5 work items of the strategies none, sqrt, every:2, sqrt, from:2 "
              "are not the work list its work_id " +
                  workId(sweepWork(parseStrategies(kStrategies))) + " names: the file was edited");
    // A file from before the list was recorded.
    work = threeShards();
    work[2].results.shard->strategies.clear();
    EXPECT_EQ(refusal(work),
              "shard-1.json names no strategies in its \"shard\" (it was written by a Checkpoint "
              "Lab that did not record them): run its shard again");

    std::vector<ShardFile> plain = threeShards();
    plain[1].results.shard.reset();
    EXPECT_EQ(refusal(plain),
              "shard-0.json is not a shard's file (it was written without --shard)");

    ShardFile merged{"all.json", mergeShards(threeShards())};
    EXPECT_EQ(refusal({merged}),
              "all.json is merged already (sweep 00000000000000aa): merge the shards' own files");
    EXPECT_EQ(refusal({}), "merge needs the files of a sweep's shards (got none)");
}

// Missing and interrupted shards are refused unless a partial merge is asked for, which the
// file then says.
TEST(ResultsMerge, MissingShardsAreNamedAndMergedOnlyWhenAllowed) {
    const std::vector<ShardFile> two = {makeShard(0, 4, 1, "A"), makeShard(2, 4, 1, "A")};
    try {
        mergeShards(two);
        FAIL() << "merged with shards missing";
    } catch (const MergeError& e) {
        EXPECT_EQ(std::string(e.what()), "shards 1 and 3 of 4 are missing");
        EXPECT_EQ(e.missing, (std::vector<int>{1, 3}));
    }
    const ResultSet partial = mergeShards(two, MergeOptions{true});
    EXPECT_EQ(partial.merged->missing, (std::vector<int>{1, 3}));
    EXPECT_TRUE(partial.cancelled);
    // Shard 0 of 4 owns none and from:2, shard 2 every:2.
    ASSERT_EQ(partial.runs.size(), 3u);
    EXPECT_EQ(partial.runs[1].strategy.name(), "every:2");
    EXPECT_EQ(partial.runs[1].machine, 1);  // the second merged shard's environment
    EXPECT_EQ(partial.runs[2].strategy.name(), "from:2");
    EXPECT_EQ(partial.runs[2].machine, 0);
    EXPECT_NE(partial.notes[0].find("shards 1 and 3 missing"), std::string::npos);
    const ResultSet back = resultsFromJson(resultsToJson(partial));
    EXPECT_EQ(back.merged->missing, partial.merged->missing);

    std::vector<ShardFile> interrupted = threeShards();
    interrupted[0].results.cancelled = true;
    interrupted[0].results.runs.pop_back();
    EXPECT_EQ(refusal(interrupted),
              "shard-2.json (shard 2 of 3) is from an interrupted sweep: some of its runs are "
              "missing");
    EXPECT_TRUE(mergeShards(interrupted, MergeOptions{true}).cancelled);
}

// A shard's file keeps its work list's strategies, in order, through the file.
TEST(ResultsMerge, AShardsFileKeepsItsStrategies) {
    const ShardFile shard = makeShard(1, 3, 1.0, "CPU A");
    const ResultSet back = resultsFromJson(resultsToJson(shard.results));
    ASSERT_TRUE(back.shard);
    std::vector<std::string> names;
    for (const Strategy& s : back.shard->strategies) names.push_back(s.name());
    EXPECT_EQ(names, kStrategies);
    EXPECT_EQ(resultsToJson(back), resultsToJson(shard.results));
}

// A file whose runs do not stand where the deal puts them was edited or damaged.
TEST(ResultsMerge, RunsOutOfTheirPlaceAreRefused) {
    std::vector<ShardFile> moved = threeShards();
    moved[1].results.runs[1].shard->position = 1;  // shard 0's sqrt moved to shard 1's place
    EXPECT_EQ(refusal(moved),
              "shard-0.json: runs[1] stands at position 1, which the deal gives to shard 1, not 0");

    std::vector<ShardFile> foreign = threeShards();
    foreign[0].results.runs[1].shard->owned = false;  // every:2 marked as another's
    EXPECT_EQ(refusal(foreign),
              "shard-2.json: runs[1] (every:2) is marked as another shard's, which only a none "
              "can be");

    std::vector<ShardFile> cut = threeShards();
    cut[2].results.runs.pop_back();  // shard 1 without its from:2
    EXPECT_EQ(refusal(cut),
              "shard-1.json (shard 1 of 3) holds 2 of its 3 runs, position 4 (from:2) first "
              "missing, and is not marked interrupted: it was cut short or edited");

    std::vector<ShardFile> extra = threeShards();  // shard 1's full twice, its none twice
    extra[2].results.runs.push_back(extra[2].results.runs[1]);
    EXPECT_EQ(refusal(extra),
              "shard-1.json: runs[3] stands at position 1, as a run of "
              "shard-1.json does");
    extra[2].results.runs.back() = extra[2].results.runs[0];
    EXPECT_EQ(refusal(extra),
              "shard-1.json: runs[3] is one run more than the 3 that the deal gives "
              "shard 1 of 3");

    std::vector<ShardFile> swapped = threeShards();  // shard 1's full and from:2 swapped
    std::swap(swapped[2].results.runs[1].shard, swapped[2].results.runs[2].shard);
    EXPECT_EQ(refusal(swapped),
              "shard-1.json: runs[1] stands at position 4, where the deal of shard 1 of 3 has "
              "position 1 (full)");
}

// Each run is the strategy its position holds, at the config of its size: a shard with full
// renamed sqrt would merge into a file with sqrt twice.
TEST(ResultsMerge, ARunThatIsNotItsPositionsStrategyOrConfigIsRefused) {
    std::vector<ShardFile> renamed = threeShards();
    renamed[2].results.runs[1].strategy = test::strategy("sqrt");  // shard 1's full
    EXPECT_EQ(refusal(renamed),
              "shard-1.json: runs[1] stands at position 1, which the sweep's work list gives to "
              "full, but it is sqrt");
    renamed = threeShards();
    renamed[1].results.runs[0].strategy = test::strategy("full");  // shard 0's own none
    EXPECT_EQ(refusal(renamed),
              "shard-0.json: runs[0] stands at position 0, which the sweep's work list gives to "
              "none, but it is full");

    std::vector<ShardFile> config = threeShards();
    config[2].results.runs[2].config.batch = 4;  // shard 1's from:2
    EXPECT_EQ(refusal(config),
              "shard-1.json: runs[2] (from:2) was run with another config than the sweep's other "
              "runs at its size: batch: 4 in shard-1.json: runs[2], 2 in shard-2.json: runs[0]");
}

// A scaling sweep: the list is each size's strategies, size by size; runs are named by size.
TEST(ResultsMerge, AScalingSweepsRunsAreCheckedAtTheirSize) {
    const std::vector<std::string> names = {"none", "full"};
    const auto work = sweepWork(parseStrategies(names), 2);
    std::vector<ShardFile> shards;
    for (int index = 0; index < 2; ++index) {
        ShardFile file;
        file.path = "s" + std::to_string(index) + ".json";
        file.results.shard =
            SweepShard{"00000000000000cc", index, 2, 4, workId(work), parseStrategies(names)};
        for (const ShardItem& item : shardItems(work, {index, 2})) {
            RunResult run = measured(names[item.position % 2], 10);
            run.config.seq = item.position < 2 ? 64 : 128;
            run.shard = ShardPlace{item.position, item.owned};
            file.results.runs.push_back(run);
        }
        shards.push_back(file);
    }
    EXPECT_EQ(mergeShards(shards).runs.size(), 4u);
    shards[1].results.runs[3].config.seq = 64;  // s1's full at the second size
    EXPECT_EQ(refusal(shards),
              "s1.json: runs[3] (full at size 2) was run with another config than the sweep's "
              "other runs at its size: seq: 64 in s1.json: runs[3], 128 in s0.json: runs[1]");
}
