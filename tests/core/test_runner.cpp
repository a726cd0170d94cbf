// Sweeps end to end: gradient checks, the tutorial's bug, errors and cancellation.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <thread>

#include "ckptlab/engine/runner.h"
#include "ckptlab/formats/results_merge.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/model/summary.h"
#include "run_requests.h"
#include "strategy_text.h"
#include "test_configs.h"

using namespace ckptlab;

namespace {

using test::tinyChain;

// A plain sweep of these strategies on `config`, as the CLI asks for one.
SweepRequestData sweepOf(const ExperimentConfig& config, const std::vector<std::string>& texts) {
    SweepRequestData request;
    request.config = config;
    request.checked = parseStrategies(texts);
    return request;
}

}  // namespace

TEST(Runner, EveryStrategyGivesThePlainGradientsOnTheFfnBlock) {
    const std::vector<std::string> all{"none",       "full",   "every:2", "every:4", "segments:1",
                                       "segments:3", "from:2", "upto:2",  "sqrt"};
    ResultSet set = test::sweep(tinyChain(BlockKind::Ffn), parseStrategies(all));
    ASSERT_EQ(set.runs.size(), all.size());
    for (const auto& run : set.runs) {
        ASSERT_FALSE(run.error) << run.strategy << ": " << *run.error;
        EXPECT_TRUE(run.grad_check.checked);
        // Bitwise on CPU: the recompute replays the forward's kernels on the same shapes.
        EXPECT_EQ(run.grad_check.max_abs_diff, 0.0) << run.strategy;
        EXPECT_TRUE(run.ok());
    }
}

TEST(Runner, EveryStrategyGivesThePlainGradientsOnTheTransformerWithDropout) {
    const std::vector<std::string> all{"none",   "full", "every:2", "segments:2",
                                       "from:3", "sqrt", "attn",    "ffn"};
    ResultSet set = test::sweep(tinyChain(BlockKind::Transformer), parseStrategies(all));
    for (const auto& run : set.runs) {
        ASSERT_FALSE(run.error) << run.strategy << ": " << *run.error;
        EXPECT_EQ(run.grad_check.max_abs_diff, 0.0) << run.strategy;
    }
    // Sub-layer checkpointing keeps less than none and more than full.
    auto act = [&](const char* name) { return set.find(name)->metrics.activation_bytes; };
    EXPECT_LT(act("attn"), act("none"));
    EXPECT_LT(act("ffn"), act("none"));
    EXPECT_GT(act("attn"), act("full"));
}

TEST(Runner, BfloatRunsPassTheCheck) {
    ExperimentConfig c = tinyChain(BlockKind::Ffn);
    c.dtype = DType::BFloat16;
    ResultSet set = test::sweep(c, parseStrategies({"none", "full", "segments:2"}));
    for (const auto& run : set.runs) EXPECT_TRUE(run.ok()) << run.strategy;
}

TEST(Runner, TheTutorialsClosureBugFailsTheGradientCheck) {
    ResultSet set = test::sweep(tinyChain(BlockKind::Ffn), parseStrategies({"none", "seed-bug:3"}));
    const RunResult* bug = set.find("seed-bug:3");
    ASSERT_NE(bug, nullptr);
    ASSERT_FALSE(bug->error);
    EXPECT_FALSE(bug->grad_check.passed());
    EXPECT_GT(bug->grad_check.max_abs_diff, 100 * bug->grad_check.tolerance);
    EXPECT_FALSE(bug->ok());
}

// The schedule a run reports must be the one that ran: the forwards counted in the traced
// step's phases (one forward each, plus its recompute spans) for every kind of plan, the
// closure bug included, whose recomputes all run the last segment's blocks.
TEST(Runner, ForwardCountsAreTheForwardsTheTraceShows) {
    const ExperimentConfig c = tinyChain(BlockKind::Ffn);
    ResultSet set =
        test::sweep(c, parseStrategies({"none", "full", "segments:2", "from:3", "seed-bug:3"}));
    for (const auto& run : set.runs) {
        ASSERT_FALSE(run.error) << run.strategy;
        std::vector<int> traced(c.depth, 1);
        for (const auto& span : run.phases)
            if (span.phase == Phase::Recompute && span.block >= 0 && span.block < c.depth)
                ++traced[span.block];
        EXPECT_EQ(run.forward_counts, traced) << run.strategy;
    }
    const RunResult* bug = set.find("seed-bug:3");
    ASSERT_NE(bug, nullptr);
    EXPECT_EQ(bug->forward_counts.front(), 1);  // only the last segment is ever recomputed
    EXPECT_EQ(bug->forward_counts.back(), 4);
}

TEST(Runner, RejectsBadConfigsBeforeRunning) {
    ExperimentConfig c = tinyChain(BlockKind::Ffn);
    c.depth = 0;
    EXPECT_THROW(test::sweep(c, parseStrategies({"none"})), ConfigError);
    EXPECT_THROW(test::sweep(tinyChain(BlockKind::Ffn), parseStrategies({"every:0"})),
                 StrategyError);
    EXPECT_THROW(test::sweep(tinyChain(BlockKind::Ffn), {}), ConfigError);
    ExperimentConfig cuda = tinyChain(BlockKind::Ffn);
    cuda.device = "cuda";
    if (availableDevices().size() == 1)
        EXPECT_THROW(test::sweep(cuda, parseStrategies({"none"})), ConfigError);
}

TEST(Runner, RefusesAConfigThatCannotFit) {
    ExperimentConfig c = tinyChain(BlockKind::Transformer);
    c.width = 4096;
    c.seq = 65536;
    c.batch = 64;
    try {
        Runner::check(sweepOf(c, {"none"}));
        FAIL() << "expected MemoryError";
    } catch (const MemoryError& e) {
        EXPECT_GT(e.predicted, e.available);
        EXPECT_NE(std::string(e.what()).find("MiB"), std::string::npos);
    }
}

TEST(Runner, CancelStopsBeforeTheNextTimedStepAndKeepsFinishedRuns) {
    ExperimentConfig c = tinyChain(BlockKind::Ffn);
    c.width = 128;
    c.seq = 256;
    c.depth = 12;
    std::atomic<bool> cancel{false};
    int finished = 0;
    RunnerHooks hooks;
    hooks.cancel = &cancel;
    hooks.result = [&](const RunResult&) { ++finished; };
    // What the runner announced after the cancel: how soon it stopped, in steps, not seconds
    // (a loaded machine stretches the seconds; bench/timing_claims.sh measures them).
    std::vector<std::string> afterCancel;
    hooks.progress = [&](double, const CoreMessage& message) {
        if (cancel) afterCancel.push_back(message.english);
        // Cancel in the third round, at the second strategy's timed step.
        if (message.english.rfind("full: timed step 3/", 0) == 0 && !cancel) cancel = true;
    };
    c.repeats = 5;
    ResultSet set = test::sweep(c, parseStrategies({"none", "full", "every:2"}), hooks);
    EXPECT_TRUE(set.cancelled);
    for (const std::string& message : afterCancel)
        EXPECT_EQ(message.find("timed step"), std::string::npos) << message;
    // The timed steps run in rounds across the strategies (timed_rounds.h): by full's third
    // timed step every run has its traced step and two complete rounds, which it keeps.
    ASSERT_EQ(set.runs.size(), 3u);
    for (const RunResult& run : set.runs)
        EXPECT_EQ(run.metrics.step_samples_ms.size(), 2u) << run.strategy;
    EXPECT_EQ(finished, 3);
}

TEST(Runner, ChainsBeyondThePlannersReachRunWithANote) {
    // depth 257-512 used to fail every sweep, none included, after the reference step.
    ExperimentConfig c = tinyChain(BlockKind::Ffn);
    c.depth = 300;
    c.width = 16;
    c.seq = 8;
    c.batch = 1;
    const ResultSet set = test::sweep(c, parseStrategies({"none", "sqrt"}));
    ASSERT_EQ(set.runs.size(), 2u);
    for (const auto& run : set.runs) {
        ASSERT_FALSE(run.error) << run.strategy << ": " << *run.error;
        EXPECT_TRUE(run.grad_check.passed());
        ASSERT_TRUE(run.prediction);
        EXPECT_FALSE(run.prediction->optimal_step_ms);
    }
    ASSERT_EQ(set.notes.size(), 1u);
    EXPECT_NE(set.notes[0].find("\"vs optimal\" is not computed"), std::string::npos);
    // optimal: at a size the planner refuses is bad input, before anything runs.
    EXPECT_THROW(Runner::check(sweepOf(c, {"optimal:1"})), StrategyError);
}

TEST(Runner, TracedHookShowsEachRunBeforeItsTimes) {
    // The app shows each run as soon as its traced step is done: memory, timeline and the
    // gradient check known, its times not yet (NaN, no samples). `result` brings the same run
    // complete after the interleaved rounds, in the same order.
    ExperimentConfig config = tinyChain(BlockKind::Ffn);
    config.repeats = 6;
    std::vector<std::string> events;
    RunnerHooks hooks;
    hooks.traced = [&](const RunResult& run) {
        EXPECT_TRUE(std::isnan(run.metrics.step_ms)) << run.strategy;
        EXPECT_TRUE(run.metrics.step_samples_ms.empty()) << run.strategy;
        EXPECT_GT(run.metrics.peak_bytes, 0) << run.strategy;
        EXPECT_FALSE(run.timeline.empty()) << run.strategy;
        EXPECT_TRUE(run.grad_check.checked) << run.strategy;
        EXPECT_TRUE(run.prediction.has_value()) << run.strategy;
        events.push_back("traced " + run.strategy.name());
    };
    hooks.result = [&](const RunResult& run) {
        EXPECT_EQ(run.metrics.step_samples_ms.size(), 6u) << run.strategy;
        EXPECT_TRUE(std::isfinite(run.metrics.step_ms)) << run.strategy;
        events.push_back("result " + run.strategy.name());
    };
    test::sweep(config, parseStrategies({"none", "full"}), hooks);
    EXPECT_EQ(events, (std::vector<std::string>{"traced none", "traced full", "result none",
                                                "result full"}));
}

TEST(Runner, ASweepRequestParsesEachStrategyOnceAtItsBoundary) {
    // The CLI's boundary parses each text of --strategies once (parseStrategies); the pre-run
    // check, the plans, the runs, their predictions, the timed rounds and the summary use the
    // typed values and read no text back.
    const std::vector<std::string> texts{"none", "full", "every:2", "revolve:2", "optimal:1000"};
    const ExperimentConfig config = tinyChain(BlockKind::Ffn);
    const std::uint64_t before = strategyParseCount();
    const std::vector<Strategy> strategies = parseStrategies(texts);
    EXPECT_EQ(strategyParseCount() - before, texts.size());
    SweepRequestData request;
    request.config = config;
    request.checked = strategies;
    Runner::check(request);
    const ResultSet set = test::sweep(config, strategies);
    ASSERT_EQ(set.runs.size(), texts.size());
    for (std::size_t i = 0; i < texts.size(); ++i) {
        ASSERT_FALSE(set.runs[i].error) << texts[i] << ": " << *set.runs[i].error;
        EXPECT_EQ(set.runs[i].strategy, strategies[i]);
        EXPECT_EQ(set.runs[i].strategy.name(), texts[i]);  // the text, derived
    }
    EXPECT_EQ(summarize(set).size(), texts.size());
    EXPECT_EQ(strategyParseCount() - before, texts.size());

    // The curve sweeps: their own strategies (budgets, the defaults) are typed from the start.
    const std::uint64_t curves = strategyParseCount();
    const ResultSet pareto = test::pareto(config, {Strategy{}}, 2);
    EXPECT_FALSE(pareto.runs.empty());
    const ResultSet scaling =
        test::scaling(config, ScalingAxis::Depth, {2, 3}, defaultScalingStrategies());
    EXPECT_EQ(scaling.runs.size(), 6u);
    EXPECT_EQ(strategyParseCount(), curves);
}

TEST(Runner, OneRequestValidatesEachConfigOnce) {
    // Runner::run is the one door: from the request to the model's first tensor, validate runs
    // once for the request's config, and once more for each size of a scaling sweep (the
    // check, the memory forecast and the runs share that one verdict).
    const ExperimentConfig config = tinyChain(BlockKind::Ffn);
    std::uint64_t before = validateCalls();
    test::sweep(config, parseStrategies({"none", "full"}));
    EXPECT_EQ(validateCalls() - before, 1u);

    before = validateCalls();
    test::pareto(config, {Strategy{}}, 2);
    EXPECT_EQ(validateCalls() - before, 1u);

    before = validateCalls();
    test::scaling(config, ScalingAxis::Seq, {16, 32, 48}, parseStrategies({"none"}));
    EXPECT_EQ(validateCalls() - before, 1u + 3u);

    // A refused request is checked once too, and nothing runs.
    ExperimentConfig bad = config;
    bad.seq = 0;
    before = validateCalls();
    EXPECT_THROW(test::sweep(bad, parseStrategies({"none"})), ConfigError);
    EXPECT_EQ(validateCalls() - before, 1u);
}

TEST(Runner, CheckThrowsWhatTheSweepCheckRefuses) {
    ExperimentConfig c = tinyChain(BlockKind::Ffn);
    EXPECT_THROW(Runner::check(sweepOf(c, {"none", "none"})), StrategyError);
    SweepRequestData pareto = sweepOf(c, {"none"});
    pareto.kind = SweepKind::Pareto;
    pareto.paretoPoints = 1;
    EXPECT_THROW(Runner::check(pareto), ConfigError);
    pareto.paretoPoints = 2;
    pareto.config.depth = 129;
    pareto.config.width = 16;
    pareto.config.seq = 8;
    pareto.config.batch = 1;
    try {
        Runner::check(pareto);
        FAIL() << "a Pareto sweep at depth 129 passed the check";
    } catch (const ConfigError& e) {
        EXPECT_NE(std::string(e.what()).find("plans at most 128 units"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(test::pareto(pareto.config, {Strategy{}}, 2), ConfigError);
    EXPECT_THROW(test::scaling(c, ScalingAxis::Depth, {4}, {Strategy{}}), ConfigError);
    EXPECT_THROW(test::scaling(c, ScalingAxis::Depth, {4, 4}, {Strategy{}}), ConfigError);
    const SweepCheck ok = Runner::check(sweepOf(c, {"none", "full"}));
    EXPECT_EQ(ok.strategies, parseStrategies({"none", "full"}));
}

// Each kind of sweep dealt to two shards: every shard runs the none of each size it measures,
// the shards name one sweep, and merged they hold the whole sweep's runs in its order with the
// same bytes, timelines and gradient checks (none of which depends on the process). A Pareto
// sweep's budgets come from each shard's own cost model: its memory, so the same list.
TEST(Runner, ShardsOfEachSweepKindMergeIntoTheWholeSweep) {
    const ExperimentConfig config = tinyChain(BlockKind::Ffn);
    const std::vector<Strategy> strategies = parseStrategies({"none", "full", "every:2"});
    using Measure = std::function<ResultSet(Runner&)>;
    const std::vector<std::pair<std::string, Measure>> kinds{
        {"sweep", [&](Runner& r) { return test::sweep(r, config, strategies); }},
        {"scaling",
         [&](Runner& r) {
             return test::scaling(r, config, ScalingAxis::Seq, {16, 32}, strategies);
         }},
        {"pareto", [&](Runner& r) { return test::pareto(r, config, strategies, 2); }}};
    for (const auto& [kind, measure] : kinds) {
        SCOPED_TRACE(kind);
        Runner unsharded;
        const ResultSet whole = measure(unsharded);
        EXPECT_FALSE(whole.shard);
        std::vector<ShardFile> shards;
        for (int k = 0; k < 2; ++k) {
            Runner runner;
            runner.useShard({k, 2});
            shards.push_back({kind + "-" + std::to_string(k) + ".json", measure(runner)});
            const ResultSet& shard = shards.back().results;
            ASSERT_TRUE(shard.shard);
            EXPECT_EQ(shard.shard->index, k);
            EXPECT_EQ(shard.shard->work_items, static_cast<int>(whole.runs.size()));
            // A none at every size it measures.
            for (const RunResult& run : shard.runs) {
                ASSERT_TRUE(run.shard);
                bool none = false;
                for (const RunResult& other : shard.runs)
                    none =
                        none || (isBaseline(other.strategy) && sameStep(other.config, run.config));
                EXPECT_TRUE(none) << run.strategy << " at seq " << run.config.seq;
            }
        }
        EXPECT_EQ(shards[0].results.shard->sweep_id, shards[1].results.shard->sweep_id);
        const ResultSet merged = mergeShards(shards);
        ASSERT_EQ(merged.runs.size(), whole.runs.size());
        for (std::size_t i = 0; i < whole.runs.size(); ++i) {
            const RunResult &w = whole.runs[i], &m = merged.runs[i];
            ASSERT_EQ(m.strategy, w.strategy) << i;
            EXPECT_EQ(m.config.seq, w.config.seq) << i;
            EXPECT_EQ(m.machine, static_cast<int>(i % 2)) << i;
            EXPECT_TRUE(m.ok()) << m.strategy;
            if (needsCostModel(w.strategy)) continue;  // its schedule weighs measured times
            EXPECT_EQ(m.metrics.peak_bytes, w.metrics.peak_bytes) << w.strategy;
            EXPECT_EQ(m.timeline.size(), w.timeline.size()) << w.strategy;
            EXPECT_EQ(m.forward_counts, w.forward_counts) << w.strategy;
            EXPECT_EQ(m.schedule, w.schedule) << w.strategy;
            // Bitwise on CPU: each process replays the same kernels on the same shapes.
            EXPECT_EQ(m.grad_check.max_abs_diff, w.grad_check.max_abs_diff) << w.strategy;
        }
    }
}
