// The timed steps of a sweep, interleaved in rounds: the order they are taken in,
// the rounds recorded beside the samples, the spread and thread CPU time per run, adaptive
// repeats, cancel, a run out of memory taking no rounds, and the machine's load from /proc.
// Only what holds on a loaded machine is asserted: counts, order, finiteness, and bounds that
// follow from how a value is computed. How a step's CPU time compares with its wall time is
// measured by bench/timing_claims.sh.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <string>
#include <vector>

#include "ckptlab/engine/runner.h"
#include "ckptlab/model/step_stats.h"
#include "engine/machine_load.h"
#include "locale_scope.h"
#include "run_requests.h"
#include "strategy_text.h"
#include "test_configs.h"

using namespace ckptlab;

namespace {

struct Recorded {
    std::vector<std::string> messages;
    double lastFraction = 0;
    bool monotonic = true;
    RunnerHooks hooks() {
        RunnerHooks h;
        h.progress = [this](double f, const CoreMessage& message) {
            monotonic = monotonic && f >= lastFraction;
            lastFraction = f;
            messages.push_back(message.english);
        };
        return h;
    }
    std::vector<std::string> timedSteps() const {
        std::vector<std::string> out;
        for (const auto& m : messages)
            if (m.find(": timed step ") != std::string::npos) out.push_back(m);
        return out;
    }
};

}  // namespace

TEST(TimedRounds, StrategiesTakeTurnsRoundByRound) {
    ExperimentConfig c = test::tinyChain(BlockKind::Ffn);
    c.warmup = 1;
    c.repeats = 4;
    Recorded recorded;
    const std::vector<Strategy> strategies = parseStrategies({"none", "full", "every:2"});
    const ResultSet set = test::sweep(c, strategies, recorded.hooks());
    ASSERT_EQ(set.runs.size(), 3u);

    // Round r: one timed step of each strategy in turn, after every traced step and warm-up.
    std::vector<std::string> expected;
    for (int r = 1; r <= 4; ++r)
        for (const auto& s : strategies)
            expected.push_back(s.name() + ": timed step " + std::to_string(r) + "/4");
    EXPECT_EQ(recorded.timedSteps(), expected);
    std::size_t lastPrepared = 0, firstTimed = recorded.messages.size();
    for (std::size_t i = 0; i < recorded.messages.size(); ++i) {
        const std::string& m = recorded.messages[i];
        if (m.find("traced step") != std::string::npos || m.find("warm-up") != std::string::npos)
            lastPrepared = i;
        if (m.find("timed step") != std::string::npos && firstTimed == recorded.messages.size())
            firstTimed = i;
    }
    EXPECT_LT(lastPrepared, firstTimed);
    EXPECT_DOUBLE_EQ(recorded.lastFraction, 1.0);
    EXPECT_TRUE(recorded.monotonic);

    for (const RunResult& run : set.runs) {
        ASSERT_FALSE(run.error) << run.strategy << ": " << *run.error;
        const Metrics& m = run.metrics;
        EXPECT_EQ(m.step_sample_rounds, (std::vector<int>{0, 1, 2, 3})) << run.strategy;
        ASSERT_EQ(m.step_samples_ms.size(), 4u);
        for (double s : m.step_samples_ms) EXPECT_GT(s, 0);
        ASSERT_TRUE(m.step_ms_ci && m.step_ms_cv);
        EXPECT_FALSE(m.step_ms_ci->is95);  // 4 samples: the min-max range
        EXPECT_LE(m.step_ms_ci->low, m.step_ms);
        EXPECT_GE(m.step_ms_ci->high, m.step_ms);
        EXPECT_GE(*m.step_ms_cv, 0);
        // Recorded on the CPU. Not held against step_ms: the two are medians of different
        // clocks, which measurement skew and the intra-op threads set apart by any amount.
        ASSERT_TRUE(m.step_cpu_ms) << run.strategy;
        EXPECT_TRUE(std::isfinite(*m.step_cpu_ms)) << run.strategy;
        EXPECT_GT(*m.step_cpu_ms, 0);
    }
    EXPECT_GT(set.runs[1].metrics.recomputed_blocks, 0);  // full recomputes in timed steps too
    ASSERT_TRUE(set.timing);
    EXPECT_EQ(set.timing->rounds, 4);
    EXPECT_EQ(set.timing->stopped_by, RoundsStop::Repeats);
    EXPECT_FALSE(set.timing->auto_repeats);
    ASSERT_TRUE(set.environment.load);  // Linux: /proc is there
    EXPECT_GT(set.environment.load->cpus, 0);
    EXPECT_GE(set.environment.load->samples, 1);
}

TEST(TimedRounds, AutoRepeatsStopByPrecisionOrTheTimeLimitAndSaySo) {
    ExperimentConfig c = test::tinyChain(BlockKind::Ffn);
    c.repeats_auto = true;
    c.time_limit_s = 1;
    Recorded recorded;
    const ResultSet set = test::sweep(c, parseStrategies({"none", "full"}), recorded.hooks());
    ASSERT_TRUE(set.timing);
    const TimingRounds& t = *set.timing;
    EXPECT_TRUE(t.auto_repeats);
    EXPECT_GE(t.rounds, kAutoMinRounds);
    bool allPrecise = true;
    for (const RunResult& run : set.runs) {
        ASSERT_FALSE(run.error);
        EXPECT_EQ(static_cast<int>(run.metrics.step_samples_ms.size()), t.rounds);
        EXPECT_TRUE(run.metrics.step_ms_ci->is95);
        allPrecise = allPrecise && preciseEnough(run.metrics.step_samples_ms);
    }
    // Which rule stops the rounds depends on the machine's noise; each stop's reason holds.
    EXPECT_TRUE(std::isfinite(t.seconds) && t.seconds > 0) << t.seconds;
    if (t.stopped_by == RoundsStop::Precision) {
        EXPECT_TRUE(allPrecise);
    } else if (t.stopped_by == RoundsStop::TimeLimit) {
        EXPECT_FALSE(allPrecise);
        EXPECT_GE(t.seconds, 1.0);  // read after the check that stopped the rounds
    } else {
        ASSERT_EQ(t.stopped_by, RoundsStop::RoundLimit);
        EXPECT_FALSE(allPrecise);
        EXPECT_EQ(t.rounds, limits::repeats.max);
    }
    bool noted = false;
    for (const auto& note : set.notes)
        noted = noted || note.find("adaptive repeats: ") != std::string::npos;
    EXPECT_TRUE(noted);
    EXPECT_DOUBLE_EQ(recorded.lastFraction, 1.0);
    EXPECT_TRUE(recorded.monotonic);
}

TEST(TimedRounds, CancelDuringTheRoundsKeepsTheCompleteRounds) {
    ExperimentConfig c = test::tinyChain(BlockKind::Ffn);
    c.repeats = 5;
    std::atomic<bool> cancel{false};
    RunnerHooks hooks;
    hooks.cancel = &cancel;
    hooks.progress = [&](double, const CoreMessage& message) {
        if (message.english == "full: timed step 3/5") cancel = true;
    };
    const ResultSet set = test::sweep(c, parseStrategies({"none", "full", "every:2"}), hooks);
    EXPECT_TRUE(set.cancelled);
    ASSERT_EQ(set.runs.size(), 3u);
    for (const RunResult& run : set.runs) {
        EXPECT_FALSE(run.error);
        // Round 3 (index 2) was incomplete: every run keeps rounds 0 and 1 only.
        EXPECT_EQ(run.metrics.step_sample_rounds, (std::vector<int>{0, 1})) << run.strategy;
    }
    ASSERT_TRUE(set.timing);
    EXPECT_EQ(set.timing->stopped_by, RoundsStop::Cancelled);
    EXPECT_EQ(set.timing->rounds, 2);
}

TEST(TimedRounds, ARunOutOfMemoryTakesNoRoundsAndTheOthersGoOn) {
    ExperimentConfig c = test::outOfMemoryConfig();
    c.repeats = 3;
    // A limit halfway between full's and none's whole footprint, measured first.
    const ResultSet free = test::sweep(c, parseStrategies({"none", "full"}));
    ASSERT_EQ(free.runs.size(), 2u);
    const auto whole = [](const RunResult& r) {
        return static_cast<double>(r.metrics.baseline_bytes + r.metrics.peak_bytes);
    };
    c.memory_limit_mib = (whole(free.runs[0]) + whole(free.runs[1])) / 2 / (1024.0 * 1024.0);
    Recorded recorded;
    const ResultSet set =
        test::sweep(c, parseStrategies({"none", "full", "every:2"}), recorded.hooks());
    ASSERT_EQ(set.runs.size(), 3u);
    ASSERT_TRUE(set.runs[0].out_of_memory);
    EXPECT_TRUE(set.runs[0].metrics.step_samples_ms.empty());
    EXPECT_TRUE(set.runs[0].metrics.step_sample_rounds.empty());
    for (const std::string& m : recorded.timedSteps())
        EXPECT_EQ(m.rfind("none:", 0), std::string::npos) << m;
    for (std::size_t i : {1u, 2u}) {
        ASSERT_FALSE(set.runs[i].error) << *set.runs[i].error;
        EXPECT_EQ(set.runs[i].metrics.step_sample_rounds, (std::vector<int>{0, 1, 2}));
    }
    EXPECT_DOUBLE_EQ(recorded.lastFraction, 1.0);
}

TEST(MachineLoad, ParsesProcFiles) {
    EXPECT_EQ(engine::parseLoadAverage("0.52 0.58 0.59 1/389 12345"), 0.52);
    EXPECT_FALSE(engine::parseLoadAverage(""));
    EXPECT_FALSE(engine::parseLoadAverage("abc"));
    const auto t = engine::parseCpuTimes("cpu  100 5 50 800 10 1 2 32 7 0");
    ASSERT_TRUE(t);
    EXPECT_EQ(t->total, 100u + 5 + 50 + 800 + 10 + 1 + 2 + 32);  // guest is inside user
    EXPECT_EQ(t->steal, 32u);
    const auto old = engine::parseCpuTimes("cpu 100 5 50 800");  // no steal column
    ASSERT_TRUE(old);
    EXPECT_EQ(old->steal, 0u);
    EXPECT_FALSE(engine::parseCpuTimes("cpu0 1 2 3 4 5 6 7 8"));
    EXPECT_FALSE(engine::parseCpuTimes("intr 1 2 3"));
    EXPECT_DOUBLE_EQ(engine::stealPercent({1000, 10}, {2000, 60}), 5.0);
    EXPECT_DOUBLE_EQ(engine::stealPercent({1000, 10}, {1000, 10}), 0.0);
}

// The kernel writes a point whatever the locale; the app runs under the user's.
TEST(MachineLoad, ParsesProcFilesUnderADecimalCommaLocale) {
    test::LocaleScope german("de_DE.UTF-8");
    if (!german.active())
        GTEST_SKIP() << "locale de_DE.UTF-8 is not installed; generate it with "
                        "localedef -i de_DE -f UTF-8 de_DE.UTF-8 (package locales)";
    EXPECT_EQ(engine::parseLoadAverage("0.52 0.58 0.59 1/389 12345"), 0.52);
    const auto t = engine::parseCpuTimes("cpu  1000 5 50 8000 10 1 2 3200 7 0");
    ASSERT_TRUE(t);
    EXPECT_EQ(t->steal, 3200u);
}
