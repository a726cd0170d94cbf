// Step times with their uncertainty: the order-statistic interval of the median, the
// coefficient of variation, the adaptive repeats' stopping rule, the "within noise" rule of the
// summary and the noisy-machine check.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>

#include "ckptlab/model/noise.h"
#include "ckptlab/model/step_stats.h"
#include "ckptlab/model/summary.h"
#include "strategy_text.h"
#include "tolerance.h"

using namespace ckptlab;

namespace {

// Percentages of step times, or a quotient of two: at most 9 roundings of values up to 100.
const double kPercentSlack = test::tolerance::formula(100.0, 9);

// A median interval's coverage for n samples: sums of exp(lgamma − lgamma − lgamma − n·log 2),
// whose terms carry the libm calls' few-ulp errors of lgamma(n + 1) as relative errors: about
// 8 roundings of lgamma(n + 1) per term.
double coverageSlack(int n) { return test::tolerance::formula(std::lgamma(n + 1.0), 8 * (n + 1)); }

// A coefficient of variation of n samples: a mean, n squared deviations, a root and a quotient.
double cvSlack(double cv, int n) { return test::tolerance::formula(cv, 3 * n + 3); }

std::vector<double> oneToN(int n) {
    std::vector<double> xs;
    for (int i = n; i >= 1; --i) xs.push_back(i);  // unsorted on purpose
    return xs;
}

RunResult timedRun(const std::string& strategy, std::vector<double> samples, double peakMiB) {
    RunResult run;
    run.strategy = test::strategy(strategy);
    run.metrics.peak_bytes = static_cast<std::int64_t>(peakMiB * kMiB);
    run.metrics.step_samples_ms = std::move(samples);
    std::vector<double> copy = run.metrics.step_samples_ms;
    std::sort(copy.begin(), copy.end());
    run.metrics.step_ms = copy.size() % 2
                              ? copy[copy.size() / 2]
                              : 0.5 * (copy[copy.size() / 2 - 1] + copy[copy.size() / 2]);
    run.grad_check.checked = true;
    run.grad_check.tolerance = 1e-6;
    return run;
}

}  // namespace

// The ranks of the distribution-free 95% interval of a median, from published tables (e.g.
// Conover, Practical Nonparametric Statistics, and the binomial sums worked by hand:
// n = 9: P(B <= 1) = 10/512 = 0.0195 <= 0.025, P(B <= 2) = 46/512 = 0.0898 > 0.025, so k = 2).
TEST(MedianInterval, OrderStatisticRanksForSixToTwentySamples) {
    const std::map<int, int> expected = {{6, 1},  {7, 1},  {8, 1},  {9, 2},  {10, 2},
                                         {11, 2}, {12, 3}, {13, 3}, {14, 3}, {15, 4},
                                         {16, 4}, {17, 5}, {18, 5}, {19, 5}, {20, 6}};
    for (const auto& [n, k] : expected) {
        EXPECT_EQ(orderStatisticRank(n), k) << "n = " << n;
        const auto interval = medianInterval(oneToN(n));
        ASSERT_TRUE(interval);
        EXPECT_TRUE(interval->is95) << n;
        EXPECT_EQ(interval->low, k) << n;           // x(k) of 1..n is k
        EXPECT_EQ(interval->high, n + 1 - k) << n;  // x(n+1-k)
        EXPECT_GE(interval->coverage, 0.95) << n;
    }
    // Exact coverages: n = 6 min-max misses with 2/64; n = 20 [x(6), x(15)] with 2 * 21700/2^20.
    EXPECT_NEAR(medianInterval(oneToN(6))->coverage, 1 - 2.0 / 64, coverageSlack(6));
    EXPECT_NEAR(medianInterval(oneToN(20))->coverage, 1 - 2 * 21700.0 / 1048576, coverageSlack(20));
    // Large n neither underflows nor overflows: about n/2 - 1.96 sqrt(n)/2 for n = 1000.
    const int k1000 = orderStatisticRank(1000);
    EXPECT_GE(k1000, 467);
    EXPECT_LE(k1000, 470);
}

TEST(MedianInterval, FewerThanSixSamplesGiveTheMinMaxRangeNotMarked95) {
    for (int n = 1; n <= 5; ++n) EXPECT_EQ(orderStatisticRank(n), 0) << n;
    const auto five = medianInterval({5, 1, 4, 2, 3});
    ASSERT_TRUE(five);
    EXPECT_FALSE(five->is95);
    EXPECT_EQ(five->low, 1);
    EXPECT_EQ(five->high, 5);
    EXPECT_NEAR(five->coverage, 1 - 2.0 / 32, coverageSlack(5));  // 93.75%: why 5 is not enough
    const auto one = medianInterval({7});
    ASSERT_TRUE(one);
    EXPECT_EQ(one->low, 7);
    EXPECT_EQ(one->high, 7);
    EXPECT_FALSE(one->is95);
    EXPECT_FALSE(medianInterval({}));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    EXPECT_FALSE(medianInterval({nan}));
    // Non-finite samples (a file's "nan") are left out, not sorted somewhere arbitrary.
    const auto withNan = medianInterval({nan, 1, 2, 3, 4, 5, 6});
    ASSERT_TRUE(withNan);
    EXPECT_TRUE(withNan->is95);
    EXPECT_EQ(withNan->low, 1);
    EXPECT_EQ(withNan->high, 6);
}

TEST(CoefficientOfVariation, SampleStandardDeviationOverTheMean) {
    // mean 5, sample variance 32/7 (the n - 1 form).
    EXPECT_NEAR(coefficientOfVariation({2, 4, 4, 4, 5, 5, 7, 9}), std::sqrt(32.0 / 7) / 5,
                cvSlack(std::sqrt(32.0 / 7) / 5, 8));
    EXPECT_EQ(coefficientOfVariation({3, 3, 3}), 0);
    EXPECT_EQ(coefficientOfVariation({3}), 0);
    EXPECT_EQ(coefficientOfVariation({}), 0);
    EXPECT_NEAR(coefficientOfVariation({90, 110}), std::sqrt(200.0) / 100,
                cvSlack(std::sqrt(200.0) / 100, 2));
}

TEST(StepStats, RecordedFieldsWinAndOlderRunsAreComputedFromTheirSamples) {
    Metrics m;
    m.step_ms = 3.5;
    m.step_samples_ms = {4, 3, 2, 6, 5, 1};
    StepStats computed = stepStats(m);  // an older file: nothing recorded
    EXPECT_EQ(computed.samples, 6);
    ASSERT_TRUE(computed.interval);
    EXPECT_EQ(computed.interval->low, 1);
    EXPECT_EQ(computed.interval->high, 6);
    EXPECT_EQ(computed.fastest, 1);
    EXPECT_GT(computed.cv, 0);
    recordStepSpread(m);
    ASSERT_TRUE(m.step_ms_ci && m.step_ms_cv);
    EXPECT_EQ(m.step_ms_ci->low, 1);
    EXPECT_TRUE(m.step_ms_ci->is95);
    EXPECT_DOUBLE_EQ(*m.step_ms_cv, computed.cv);
    m.step_ms_ci = MedianInterval{2, 5, true, 0.95};
    EXPECT_EQ(stepStats(m).interval->low, 2);
}

TEST(AutoRepeats, AQuietMachineStopsByPrecisionAtTheSixthRound) {
    // Three strategies whose samples spread 1%: precise from the first 95% interval on.
    std::vector<std::vector<double>> quiet(3);
    RoundsStop stop = RoundsStop::Continue;
    int rounds = 0;
    while (stop == RoundsStop::Continue && rounds < 100) {
        for (std::size_t s = 0; s < quiet.size(); ++s)
            quiet[s].push_back(100.0 * static_cast<double>(s + 1) *
                               (1.0 + 0.01 * ((rounds * 7 + static_cast<int>(s)) % 3 - 1)));
        ++rounds;
        stop = autoRoundsStop(quiet, rounds, 0.1 * rounds, 60, 1000);
    }
    EXPECT_EQ(stop, RoundsStop::Precision);
    EXPECT_EQ(rounds, kAutoMinRounds);
    // Never before 6 rounds, even past the time limit: no 95% interval exists yet.
    EXPECT_EQ(autoRoundsStop({{1, 1, 1, 1, 1}}, 5, 1000, 1, 1000), RoundsStop::Continue);
}

TEST(AutoRepeats, ANoisyMachineStopsAtTheTimeLimitOrTheRoundLimit) {
    // One strategy alternates 100 and 150 ms: its median's interval never gets within +-5%.
    std::vector<std::vector<double>> noisy(2);
    for (int r = 0; r < 20; ++r) {
        noisy[0].push_back(100.0);
        noisy[1].push_back(r % 2 ? 150.0 : 100.0);
    }
    EXPECT_FALSE(preciseEnough(noisy[1]));
    EXPECT_TRUE(preciseEnough(noisy[0]));
    EXPECT_EQ(autoRoundsStop(noisy, 20, 0.5, 1.0, 1000), RoundsStop::Continue);
    EXPECT_EQ(autoRoundsStop(noisy, 20, 1.0, 1.0, 1000), RoundsStop::TimeLimit);
    EXPECT_EQ(autoRoundsStop(noisy, 20, 0.5, 1.0, 20), RoundsStop::RoundLimit);
    for (RoundsStop s : {RoundsStop::Repeats, RoundsStop::Precision, RoundsStop::TimeLimit,
                         RoundsStop::RoundLimit, RoundsStop::Cancelled})
        EXPECT_EQ(parseRoundsStop(toString(s)), s);
    EXPECT_FALSE(parseRoundsStop("bogus"));
}

TEST(WithinNoise, OverlappingIntervalsShowNoSignAndNoRatio) {
    // none 100..106, full 103..110: the intervals overlap, so "time added" is within noise.
    const RunResult none = timedRun("none", {100, 101, 102, 103, 104, 105, 106}, 100);
    const RunResult full = timedRun("full", {103, 104, 105, 106, 108, 109, 110}, 40);
    const SummaryRow row = summarizeRun(full, &none);
    ASSERT_TRUE(row.time_within_noise && row.time_added_low_pct && row.time_added_high_pct);
    EXPECT_TRUE(*row.time_within_noise);
    EXPECT_NEAR(*row.time_added_pct, (106.0 / 103 - 1) * 100, kPercentSlack);
    EXPECT_NEAR(*row.time_added_low_pct, (103.0 - 106.0) / 103 * 100, kPercentSlack);
    EXPECT_NEAR(*row.time_added_high_pct, (110.0 - 100.0) / 103 * 100, kPercentSlack);
    EXPECT_LE(*row.time_added_low_pct, 0);
    EXPECT_GE(*row.time_added_high_pct, 0);
    EXPECT_FALSE(row.saved_per_added);  // never a ratio over a noise-level time
    EXPECT_TRUE(row.step_ci_95);
    EXPECT_EQ(*row.step_ci_low_ms, 103);
    EXPECT_EQ(*row.step_ci_high_ms, 110);
}

TEST(WithinNoise, SeparateIntervalsKeepTheSignAndTheRatio) {
    const RunResult none = timedRun("none", {100, 101, 102, 103, 104, 105, 106}, 100);
    const RunResult full = timedRun("full", {120, 121, 122, 123, 124, 125, 126}, 40);
    const SummaryRow row = summarizeRun(full, &none);
    ASSERT_TRUE(row.time_within_noise);
    EXPECT_FALSE(*row.time_within_noise);
    EXPECT_NEAR(*row.time_added_low_pct, (120.0 - 106.0) / 103 * 100, kPercentSlack);
    EXPECT_GT(*row.time_added_low_pct, 0);
    ASSERT_TRUE(row.saved_per_added);
    EXPECT_NEAR(*row.saved_per_added, 60.0 / (123.0 / 103 * 100 - 100), kPercentSlack);
    // Faster than none beyond the noise keeps its negative sign: that is a real finding.
    const RunResult fast = timedRun("every:2", {80, 81, 82, 83, 84, 85, 86}, 60);
    const SummaryRow fastRow = summarizeRun(fast, &none);
    EXPECT_FALSE(*fastRow.time_within_noise);
    EXPECT_LT(*fastRow.time_added_high_pct, 0);
    // The baseline's own row is not compared with itself.
    EXPECT_FALSE(summarizeRun(none, &none).time_within_noise);
    // Runs without samples (older files' single step_ms) have no verdict.
    RunResult bare = full;
    bare.metrics.step_samples_ms.clear();
    EXPECT_FALSE(summarizeRun(bare, &none).time_within_noise);
}

TEST(NoiseWarnings, HighCvStealOrLoadAreSaid) {
    ResultSet set;
    set.runs.push_back(timedRun("none", {100, 101, 102, 103, 104, 105, 106}, 100));
    EXPECT_TRUE(noiseWarnings(set).empty());
    set.runs.push_back(timedRun("full", {100, 140, 100, 140, 100, 140}, 40));  // CV ~ 18%
    auto warnings = noiseWarnings(set);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0].kind, NoiseWarning::Kind::Cv);
    EXPECT_EQ(warnings[0].strategy, "full");
    EXPECT_NEAR(warnings[0].value, coefficientOfVariation({100, 140, 100, 140, 100, 140}) * 100,
                kPercentSlack);
    EXPECT_NE(warnings[0].message.find("full"), std::string::npos);
    EXPECT_TRUE(noiseWarnings(set, NoiseThresholds{20, 3}).empty());

    set.runs.pop_back();
    MachineLoad load;
    load.cpus = 2;
    load.load_before = 0.5;
    load.steal_pct_during = 2.9;
    set.environment.load = load;
    EXPECT_TRUE(noiseWarnings(set).empty());
    set.environment.load->steal_pct_during = 7.5;
    warnings = noiseWarnings(set);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0].kind, NoiseWarning::Kind::Steal);
    EXPECT_DOUBLE_EQ(warnings[0].value, 7.5);
    set.environment.load->steal_pct_during = 0;
    set.environment.load->load_before = 2.0;  // every CPU already busy
    warnings = noiseWarnings(set);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(warnings[0].kind, NoiseWarning::Kind::Load);
}
