// The summary table's comparisons against `none`, and timeline downsampling for charts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "ckptlab/model/summary.h"
#include "strategy_text.h"
#include "tolerance.h"

using namespace ckptlab;

namespace {

// A summary percentage, or a quotient of two, is at most 9 roundings (bytes to MiB, ratio,
// difference, percent, quotient) of values up to 100.
const double kPercentSlack = test::tolerance::formula(100.0, 9);

RunResult makeRun(const std::string& strategy, double peakMiB, double activationMiB,
                  double stepMs) {
    RunResult run;
    run.strategy = test::strategy(strategy);
    run.metrics.peak_bytes = static_cast<std::int64_t>(peakMiB * kMiB);
    run.metrics.activation_bytes = static_cast<std::int64_t>(activationMiB * kMiB);
    run.metrics.step_ms = stepMs;
    run.grad_check.checked = true;
    run.grad_check.tolerance = 1e-6;
    return run;
}

std::vector<TimelineEvent> ramp(std::size_t n) {
    std::vector<TimelineEvent> events(n);
    for (std::size_t i = 0; i < n; ++i) {
        events[i].t_ms = static_cast<double>(i);
        events[i].total = static_cast<std::int64_t>(i % 5);
    }
    return events;
}

bool contains(const std::vector<TimelineEvent>& events, const TimelineEvent& wanted) {
    return std::any_of(events.begin(), events.end(), [&](const TimelineEvent& e) {
        return e.t_ms == wanted.t_ms && e.total == wanted.total;
    });
}

}  // namespace

TEST(Summary, PredictionErrorsArePercentOfTheMeasurement) {
    RunResult run = makeRun("full", 50, 20, 400);
    EXPECT_FALSE(summarizeRun(run, nullptr).predicted_peak_mib);
    run.prediction = PredictedMetrics{static_cast<std::int64_t>(45 * kMiB), 0, 500.0, 320.0};
    const SummaryRow row = summarizeRun(run, nullptr);
    ASSERT_TRUE(row.predicted_peak_mib && row.peak_error_pct);
    EXPECT_DOUBLE_EQ(*row.predicted_peak_mib, 45.0);
    EXPECT_NEAR(*row.peak_error_pct, -10.0, kPercentSlack);  // predicted 10 % too low
    ASSERT_TRUE(row.predicted_step_ms && row.step_error_pct);
    EXPECT_NEAR(*row.step_error_pct, 25.0, kPercentSlack);
    ASSERT_TRUE(row.optimal_step_ms && row.slower_than_optimal_pct);
    EXPECT_NEAR(*row.slower_than_optimal_pct, 56.25, kPercentSlack);  // 500 / 320 - 1

    run.error = "failed";  // partial metrics: nothing to compare
    EXPECT_FALSE(summarizeRun(run, nullptr).peak_error_pct);
}

// The caching allocator's counts, whole, from the run; empty without them (never 0), and kept
// for a failed run, up to where it stopped.
TEST(Summary, ReservedBytesComeFromTheAllocatorsCounts) {
    RunResult run = makeRun("full", 50, 20, 400);
    SummaryRow row = summarizeRun(run, nullptr);
    EXPECT_FALSE(row.reserved_peak_mib || row.reserved_start_mib || row.allocated_peak_mib ||
                 row.allocator_source || row.predicted_reserved_peak_mib);
    run.allocator = AllocatorStats{AllocatorSource::CachingModel, 8 * 1048576, 58 * 1048576,
                                   10 * 1048576, 66 * 1048576};
    run.prediction = PredictedMetrics{
        static_cast<std::int64_t>(45 * kMiB), 0, 500.0, {}, static_cast<std::int64_t>(70 * kMiB)};
    row = summarizeRun(run, nullptr);
    ASSERT_TRUE(row.reserved_peak_mib && row.reserved_start_mib && row.allocated_peak_mib);
    EXPECT_EQ(row.allocator_source, AllocatorSource::CachingModel);
    EXPECT_DOUBLE_EQ(*row.reserved_start_mib, 10.0);
    EXPECT_DOUBLE_EQ(*row.reserved_peak_mib, 66.0);
    EXPECT_DOUBLE_EQ(*row.allocated_peak_mib, 58.0);
    ASSERT_TRUE(row.predicted_reserved_peak_mib);
    EXPECT_DOUBLE_EQ(*row.predicted_reserved_peak_mib, 70.0);
    run.error = "out of memory";
    row = summarizeRun(run, nullptr);
    EXPECT_TRUE(row.reserved_peak_mib);
    EXPECT_FALSE(row.predicted_reserved_peak_mib);  // as every forecast of a failed run
}

TEST(Summary, FastestRepeatIsTheSmallestSample) {
    RunResult run = makeRun("full", 50, 20, 400);
    EXPECT_DOUBLE_EQ(fastestStepMs(run), 400.0);  // no samples kept: the median
    run.metrics.step_samples_ms = {430, 391.5, 400, 612};
    EXPECT_DOUBLE_EQ(fastestStepMs(run), 391.5);
    EXPECT_DOUBLE_EQ(summarizeRun(run, nullptr).step_fastest_ms, 391.5);
    run.timeline.resize(1000);
    run.blocks.resize(4);
    run.phases.resize(3);
    run.allocator_trace = AllocatorTrace{};
    // What is not a trace stays, whatever it is: these were once dropped by a field-by-field
    // copy.
    run.allocator = AllocatorStats{};
    run.allocator->reserved_peak = 123456;
    run.shard = ShardPlace{7, false};
    run.machine = 2;
    ResultSet set;
    set.runs = {run};
    set.machine_baselines = {run};
    set.shard = SweepShard{};
    set.shard->index = 1;
    const ResultSet light = withFastestSteps(set);
    for (const RunResult& copy : {light.runs.at(0), light.machine_baselines.at(0)}) {
        EXPECT_DOUBLE_EQ(copy.metrics.step_ms, 391.5);
        EXPECT_EQ(copy.metrics.step_samples_ms, run.metrics.step_samples_ms);
        EXPECT_TRUE(copy.timeline.empty());
        EXPECT_TRUE(copy.blocks.empty());
        EXPECT_TRUE(copy.phases.empty());
        EXPECT_FALSE(copy.allocator_trace);
        EXPECT_EQ(copy.metrics.peak_bytes, run.metrics.peak_bytes);
        ASSERT_TRUE(copy.allocator);
        EXPECT_EQ(copy.allocator->reserved_peak, 123456);
        ASSERT_TRUE(copy.shard);
        EXPECT_EQ(copy.shard->position, 7);
        EXPECT_FALSE(copy.shard->owned);
        EXPECT_EQ(copy.machine, 2);
    }
    ASSERT_TRUE(light.shard);
    EXPECT_EQ(light.shard->index, 1);
}

TEST(Summary, PercentagesAgainstBaseline) {
    const RunResult none = makeRun("none", 100, 80, 200);
    const RunResult every2 = makeRun("every:2", 40, 10, 250);
    const SummaryRow row = summarizeRun(every2, &none);
    EXPECT_EQ(row.strategy.name(), "every:2");
    EXPECT_DOUBLE_EQ(row.peak_mib, 40.0);
    EXPECT_DOUBLE_EQ(row.activations_mib, 10.0);
    EXPECT_DOUBLE_EQ(row.step_ms, 250.0);
    ASSERT_TRUE(row.memory_saved_pct);
    EXPECT_NEAR(*row.memory_saved_pct, 60.0, kPercentSlack);
    ASSERT_TRUE(row.time_added_pct);
    EXPECT_NEAR(*row.time_added_pct, 25.0, kPercentSlack);
    ASSERT_TRUE(row.saved_per_added);
    EXPECT_NEAR(*row.saved_per_added, 2.4, kPercentSlack);
    EXPECT_TRUE(row.grad_ok);
    EXPECT_FALSE(row.error);
}

TEST(Summary, BaselineAgainstItselfHasNoRatio) {
    const RunResult none = makeRun("none", 100, 80, 200);
    const SummaryRow row = summarizeRun(none, &none);
    ASSERT_TRUE(row.memory_saved_pct);
    EXPECT_DOUBLE_EQ(*row.memory_saved_pct, 0.0);
    ASSERT_TRUE(row.time_added_pct);
    EXPECT_DOUBLE_EQ(*row.time_added_pct, 0.0);
    EXPECT_FALSE(row.saved_per_added);
}

TEST(Summary, FasterOrBiggerRunsGiveSignedPercentagesAndNoRatio) {
    const RunResult none = makeRun("none", 100, 80, 200);
    const SummaryRow row = summarizeRun(makeRun("every:3", 150, 80, 150), &none);
    EXPECT_NEAR(*row.memory_saved_pct, -50.0, kPercentSlack);
    EXPECT_NEAR(*row.time_added_pct, -25.0, kPercentSlack);
    EXPECT_FALSE(row.saved_per_added);
}

TEST(Summary, NoComparisonWithoutAUsableBaseline) {
    const RunResult run = makeRun("full", 30, 5, 300);
    const SummaryRow alone = summarizeRun(run, nullptr);
    EXPECT_DOUBLE_EQ(alone.peak_mib, 30.0);
    EXPECT_FALSE(alone.memory_saved_pct);
    EXPECT_FALSE(alone.time_added_pct);
    EXPECT_FALSE(alone.saved_per_added);

    RunResult failedNone = makeRun("none", 100, 80, 200);
    failedNone.error = "out of memory";
    EXPECT_FALSE(summarizeRun(run, &failedNone).memory_saved_pct);

    RunResult emptyNone = makeRun("none", 0, 0, 0);
    const SummaryRow row = summarizeRun(run, &emptyNone);
    EXPECT_FALSE(row.memory_saved_pct);
    EXPECT_FALSE(row.time_added_pct);
}

TEST(Summary, FailedRunKeepsItsErrorAndIsNotCompared) {
    const RunResult none = makeRun("none", 100, 80, 200);
    RunResult failed = makeRun("full", 0, 0, 0);
    failed.error = "CUDA out of memory";
    failed.grad_check.checked = false;
    const SummaryRow row = summarizeRun(failed, &none);
    ASSERT_TRUE(row.error);
    EXPECT_EQ(*row.error, "CUDA out of memory");
    EXPECT_FALSE(row.memory_saved_pct);
    EXPECT_FALSE(row.grad_ok);
}

TEST(Summary, GradCheckVerdict) {
    RunResult run = makeRun("full", 30, 5, 300);
    run.grad_check.max_abs_diff = 2e-6;
    EXPECT_FALSE(summarizeRun(run, nullptr).grad_ok);
    EXPECT_DOUBLE_EQ(summarizeRun(run, nullptr).max_abs_diff, 2e-6);
    run.grad_check.max_abs_diff = 1e-6;
    EXPECT_TRUE(summarizeRun(run, nullptr).grad_ok);
    run.grad_check.max_abs_diff = std::numeric_limits<double>::quiet_NaN();
    EXPECT_FALSE(summarizeRun(run, nullptr).grad_ok);
    run.grad_check = GradCheck{};
    EXPECT_FALSE(summarizeRun(run, nullptr).grad_ok);
}

TEST(Summary, SummarizeFindsNoneWhereverItIs) {
    ResultSet set;
    set.runs = {makeRun("full", 25, 5, 300), makeRun("none", 100, 80, 200),
                makeRun("every:4", 50, 20, 220)};
    const auto rows = summarize(set);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].strategy.name(), "full");
    EXPECT_NEAR(*rows[0].memory_saved_pct, 75.0, kPercentSlack);
    EXPECT_NEAR(*rows[0].time_added_pct, 50.0, kPercentSlack);
    EXPECT_NEAR(*rows[0].saved_per_added, 1.5, kPercentSlack);
    EXPECT_NEAR(*rows[2].memory_saved_pct, 50.0, kPercentSlack);
    EXPECT_NEAR(*rows[2].time_added_pct, 10.0, kPercentSlack);
    EXPECT_NEAR(*rows[2].saved_per_added, 5.0, kPercentSlack);

    set.runs.erase(set.runs.begin() + 1);
    for (const SummaryRow& row : summarize(set)) EXPECT_FALSE(row.memory_saved_pct);
}

// A scaling sweep over depth 2 and 4: each size's runs are compared with that size's `none`,
// never with the first `none` of the set.
TEST(Summary, ScalingSweepComparesEachSizeWithItsOwnNone) {
    ResultSet set;
    const auto at = [](RunResult run, int depth) {
        run.config.depth = depth;
        return run;
    };
    set.runs = {at(makeRun("none", 100, 80, 200), 2), at(makeRun("full", 40, 20, 260), 2),
                at(makeRun("none", 200, 160, 400), 4), at(makeRun("full", 60, 20, 500), 4)};
    const auto rows = summarize(set);
    ASSERT_EQ(rows.size(), 4u);
    for (std::size_t none : {0u, 2u}) {  // each none against itself
        ASSERT_TRUE(rows[none].memory_saved_pct && rows[none].time_added_pct) << none;
        EXPECT_DOUBLE_EQ(*rows[none].memory_saved_pct, 0.0) << none;
        EXPECT_DOUBLE_EQ(*rows[none].time_added_pct, 0.0) << none;
    }
    EXPECT_NEAR(*rows[1].memory_saved_pct, 60.0, kPercentSlack);  // 40 against depth 2's 100
    EXPECT_NEAR(*rows[1].time_added_pct, 30.0, kPercentSlack);    // 260 against 200
    EXPECT_NEAR(*rows[3].memory_saved_pct, 70.0, kPercentSlack);  // 60 against depth 4's 200
    EXPECT_NEAR(*rows[3].time_added_pct, 25.0, kPercentSlack);    // 500 against 400
    EXPECT_EQ(baselineFor(set, set.runs[3]), &set.runs[2]);

    // A size whose `none` failed has nothing to compare with; the other size still has.
    set.runs[2].error = "out of memory";
    const auto failed = summarize(set);
    EXPECT_FALSE(failed[3].memory_saved_pct);
    EXPECT_NEAR(*failed[1].memory_saved_pct, 60.0, kPercentSlack);
    EXPECT_EQ(baselineFor(set, set.runs[3]), &set.runs[2]);  // named, so front ends say why

    // Without a `none` of its size, a run is not compared with another size's.
    set.runs.erase(set.runs.begin() + 2);
    EXPECT_EQ(baselineFor(set, set.runs[2]), nullptr);
    EXPECT_FALSE(summarize(set)[2].memory_saved_pct);
}

// The same step is every field that changes the work or its timing; a different seed or
// number of repeats measures the same step.
TEST(Summary, SameStepIgnoresOnlyHowTheStepIsSampled) {
    ExperimentConfig a;
    ExperimentConfig b = a;
    b.seed = 7, b.repeats = 12, b.warmup = 3, b.memory_limit_mib = 512;
    EXPECT_TRUE(sameStep(a, b));
    for (auto change : std::vector<void (*)(ExperimentConfig&)>{
             [](ExperimentConfig& c) { c.width = 128; }, [](ExperimentConfig& c) { c.seq = 64; },
             [](ExperimentConfig& c) { c.batch = 4; }, [](ExperimentConfig& c) { c.depth = 3; },
             [](ExperimentConfig& c) { c.dtype = DType::BFloat16; },
             [](ExperimentConfig& c) { c.block = BlockKind::Transformer; },
             [](ExperimentConfig& c) { c.threads = 2; },
             [](ExperimentConfig& c) { c.keep_grads = true; }}) {
        ExperimentConfig other = a;
        change(other);
        EXPECT_FALSE(sameStep(a, other));
    }
}

TEST(Downsample, SmallInputIsReturnedUnchanged) {
    const auto events = ramp(50);
    const auto out = downsampleTimeline(events, 50);
    ASSERT_EQ(out.size(), 50u);
    for (std::size_t i = 0; i < out.size(); ++i) {
        EXPECT_EQ(out[i].t_ms, events[i].t_ms);
        EXPECT_EQ(out[i].total, events[i].total);
    }
    EXPECT_TRUE(downsampleTimeline({}, 10).empty());
}

TEST(Downsample, KeepsPeakAndEndpointsWithinTheLimit) {
    auto events = ramp(100000);
    events[61234].total = 999999;
    events.back().total = 3;
    for (std::size_t limit : {3u, 4u, 10u, 101u, 1000u, 5001u}) {
        const auto out = downsampleTimeline(events, limit);
        EXPECT_LE(out.size(), limit);
        EXPECT_GE(out.size(), 3u);
        EXPECT_EQ(out.front().t_ms, 0.0);
        EXPECT_EQ(out.back().t_ms, 99999.0);
        EXPECT_EQ(out.back().total, 3);
        EXPECT_TRUE(contains(out, events[61234])) << "limit " << limit;
        EXPECT_TRUE(std::is_sorted(out.begin(), out.end(),
                                   [](const auto& a, const auto& b) { return a.t_ms < b.t_ms; }));
    }
}

TEST(Downsample, KeepsEveryBucketsHighestEvent) {
    auto events = ramp(1000);
    for (std::size_t i = 7; i < events.size(); i += 20) events[i].total = 1000 + i;
    // 101 points give 50 time buckets, one per 20 events, so each spike has its own bucket.
    const auto out = downsampleTimeline(events, 101);
    EXPECT_LE(out.size(), 101u);
    for (std::size_t i = 7; i < events.size(); i += 20) {
        EXPECT_TRUE(contains(out, events[i])) << "spike at " << i;
    }
}

TEST(Downsample, TinyLimitsStillKeepFirstPeakLast) {
    auto events = ramp(1000);
    events[500].total = 42;
    for (std::size_t limit : {0u, 1u, 2u, 3u}) {
        const auto out = downsampleTimeline(events, limit);
        ASSERT_EQ(out.size(), 3u);
        EXPECT_EQ(out[0].t_ms, 0.0);
        EXPECT_EQ(out[1].total, 42);
        EXPECT_EQ(out[2].t_ms, 999.0);
    }
}

TEST(Downsample, SurvivesEqualAndBrokenTimes) {
    std::vector<TimelineEvent> same(5000);
    same[1234].total = 77;
    auto out = downsampleTimeline(same, 20);
    EXPECT_LE(out.size(), 20u);
    EXPECT_TRUE(std::any_of(out.begin(), out.end(), [](const auto& e) { return e.total == 77; }));

    auto broken = ramp(5000);
    broken[10].t_ms = std::numeric_limits<double>::quiet_NaN();
    broken[20].t_ms = -1e300;
    broken[30].t_ms = 1e300;
    broken[40].total = 123;
    out = downsampleTimeline(broken, 20);
    EXPECT_LE(out.size(), 20u);
    EXPECT_EQ(out.back().t_ms, 4999.0);
    EXPECT_TRUE(std::any_of(out.begin(), out.end(), [](const auto& e) { return e.total == 123; }));
}
