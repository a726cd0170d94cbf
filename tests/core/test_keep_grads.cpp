// keep_grads: the tutorial's protocol, where the measured step starts with the previous step's
// gradients still allocated (its question 1, "why only about 8 % saved").
#include <gtest/gtest.h>

#include "ckptlab/engine/runner.h"
#include "ckptlab/formats/results_io.h"
#include "ckptlab/model/summary.h"
#include "run_requests.h"
#include "strategy_text.h"
#include "test_configs.h"
#include "tolerance.h"

using namespace ckptlab;

namespace {

const RunResult& byName(const ResultSet& set, const std::string& name) {
    const RunResult* run = set.find(name);
    EXPECT_NE(run, nullptr) << name;
    return *run;
}

std::int64_t wholePeak(const RunResult& run) {
    return run.metrics.peak_bytes + run.metrics.baseline_bytes;
}

}  // namespace

TEST(KeepGrads, LaterRunsStartWithTheBaselinesGradientsAndTheCheckStillHolds) {
    ExperimentConfig plain = test::memoryConfig();
    ExperimentConfig kept = plain;
    kept.keep_grads = true;
    const ResultSet a = test::sweep(plain, parseStrategies({"none", "full"}));
    const ResultSet b = test::sweep(kept, parseStrategies({"none", "full"}));
    // The baseline is the tutorial's first run: it starts clean, byte for byte as without.
    const RunResult& noneA = byName(a, "none");
    const RunResult& noneB = byName(b, "none");
    EXPECT_EQ(noneB.metrics.baseline_bytes, noneA.metrics.baseline_bytes);
    EXPECT_EQ(noneB.metrics.peak_bytes, noneA.metrics.peak_bytes);

    const RunResult& fullA = byName(a, "full");
    const RunResult& fullB = byName(b, "full");
    ASSERT_FALSE(fullB.error) << *fullB.error;
    // Gradients of the input and every parameter: as many bytes as the input and weights.
    const std::int64_t gradientBytes = fullB.breakdown.parameters + fullB.breakdown.input;
    EXPECT_EQ(fullB.metrics.baseline_bytes, fullA.metrics.baseline_bytes + gradientBytes);
    EXPECT_GE(fullB.breakdown.gradients, gradientBytes);
    EXPECT_EQ(fullB.breakdown.total(), wholePeak(fullB));
    // The step's gradients are added into the kept ones; the check compares its own.
    EXPECT_TRUE(fullB.grad_check.passed()) << fullB.grad_check.max_abs_diff;
    EXPECT_EQ(fullB.grad_check.max_abs_diff, 0.0);
    EXPECT_GT(wholePeak(fullB), wholePeak(fullA));
    // The cost model replays a step without kept gradients: no prediction rather than a wrong one.
    EXPECT_FALSE(fullB.prediction);
    EXPECT_TRUE(noneB.prediction);
    EXPECT_TRUE(fullA.prediction);
    ASSERT_EQ(b.notes.size(), 1u);
    EXPECT_NE(b.notes[0].find("keep_grads"), std::string::npos);

    // The summary compares steps that started from different memory by their whole peaks,
    // and the kept gradients shrink what checkpointing appears to save, as the tutorial saw.
    const auto savedA = summarizeRun(fullA, &noneA).memory_saved_pct;
    const auto savedB = summarizeRun(fullB, &noneB).memory_saved_pct;
    ASSERT_TRUE(savedA && savedB);
    const double wholeB = 100.0 * (1.0 - double(wholePeak(fullB)) / double(wholePeak(noneB)));
    EXPECT_NEAR(*savedB, wholeB, test::tolerance::formula(100.0, 3));  // ÷, −, × of percents
    const double wholeA = 100.0 * (1.0 - double(wholePeak(fullA)) / double(wholePeak(noneA)));
    EXPECT_LT(*savedB, wholeA);
}

TEST(KeepGrads, TheSeedBugStillFailsTheCheckWithKeptGradients) {
    ExperimentConfig c = test::memoryConfig();
    c.keep_grads = true;
    const ResultSet set = test::sweep(c, parseStrategies({"none", "seed-bug:2"}));
    EXPECT_FALSE(byName(set, "seed-bug:2").grad_check.passed());
}

TEST(KeepGrads, SurvivesTheResultsFile) {
    ExperimentConfig c = test::tinyConfig();
    c.keep_grads = true;
    const ResultSet set = test::sweep(c, parseStrategies({"none"}));
    const ResultSet back = resultsFromJson(resultsToJson(set));
    ASSERT_EQ(back.runs.size(), 1u);
    EXPECT_TRUE(back.runs[0].config.keep_grads);
    c.keep_grads = false;
    const ResultSet plain =
        resultsFromJson(resultsToJson(test::sweep(c, parseStrategies({"none"}))));
    EXPECT_FALSE(plain.runs[0].config.keep_grads);
    EXPECT_EQ(resultsToJson(plain).find("keep_grads"), std::string::npos);
}
