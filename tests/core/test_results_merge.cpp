// The shards' files of one sweep merged (results_merge.h): order, machines, baselines, what is
// refused, and how the summary and the comparison read a merged file.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ckptlab/comparison.h"
#include "ckptlab/results_io.h"
#include "ckptlab/results_merge.h"
#include "ckptlab/summary.h"
#include "ckptlab/sweep_shard.h"
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
    set.shard =
        SweepShard{"00000000000000aa", index, count, static_cast<int>(work.size()), workId(work)};
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
    std::vector<ShardFile> other = threeShards();
    other[2].results.shard->sweep_id = "00000000000000bb";
    EXPECT_EQ(refusal(other),
              "shard-2.json and shard-1.json are shards of different sweeps (sweep "
              "00000000000000aa and 00000000000000bb): config, strategies, kind, points or values "
              "differ");

    std::vector<ShardFile> mixed = {makeShard(0, 3, 1, "A"), makeShard(1, 2, 1, "A")};
    EXPECT_EQ(refusal(mixed),
              "mixed shard counts: shard-0.json is shard 0 of 3, shard-1.json shard 1 of 2");

    std::vector<ShardFile> twice = threeShards();
    twice.push_back(makeShard(1, 3, 1, "A"));
    twice.back().path = "copy.json";
    EXPECT_EQ(refusal(twice), "shard-1.json and copy.json are both shard 1 of 3");

    std::vector<ShardFile> work = threeShards();
    work[0].results.shard->work_id = "0000000000000001";
    EXPECT_NE(refusal(work).find("resolved the sweep into different work lists"),
              std::string::npos);

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
              "no shard's file holds position 4 of the 5 runs of the sweep: a file was cut short "
              "or edited");
}
