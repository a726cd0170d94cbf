#pragma once
// How sure a measured step time is: the median of the timed samples with a distribution-free
// confidence interval, the coefficient of variation and the fastest sample; and the rule that
// stops adaptive repeats (--repeats auto). Plain values; one definition for the runner, the
// files, the CLI and the app.

#include <optional>
#include <string>
#include <vector>

namespace ckptlab {

struct Metrics;

// The interval of a median. With n >= 6 samples it is the order-statistic interval
// [x(k), x(n+1-k)] of the sorted samples, with k the largest rank whose binomial tail
// P(Bin(n, 1/2) <= k-1) is at most 2.5%: it covers the true median with probability at least
// 95% whatever the distribution, as long as the samples are independent and identically
// distributed (which interleaved rounds make closer to true on a machine whose speed drifts).
// With fewer samples no such interval reaches 95% (for n = 5 the widest, min-max, covers
// 1 - 2/32 = 93.75%), so the min-max range is reported and `is95` is false.
struct MedianInterval {
    double low = 0;
    double high = 0;
    bool is95 = false;
    double coverage = 0;  // the exact coverage 1 - 2 P(Bin(n, 1/2) <= k-1), for n >= 1
};

// The 1-based rank k of the interval's lower end for n samples at `confidence` (0 < c < 1),
// or 0 when even the min-max range does not reach it (n = 5 or fewer at 95%).
int orderStatisticRank(int n, double confidence = 0.95);

// Of the finite samples; empty when there are none.
std::optional<MedianInterval> medianInterval(const std::vector<double>& samples);

// Sample standard deviation (n - 1) over the mean, of the finite samples: 0 for fewer than two
// samples or a mean that is not positive.
double coefficientOfVariation(const std::vector<double>& samples);

// A run's step time with its spread. From the run's recorded fields when it has them (the
// runner sets them; older files do not), else from its samples.
struct StepStats {
    int samples = 0;  // finite samples
    double median = 0;
    std::optional<MedianInterval> interval;  // empty without samples
    double cv = 0;                           // coefficient of variation (fraction, not %)
    double fastest = 0;
};
StepStats stepStats(const Metrics& metrics);

// Whether two step times are within noise of each other: their median intervals overlap. The
// one rule for "≈ 0" in the summary and "≈" ratios between files; the Metrics form is empty
// when either run has no interval (no samples).
bool withinNoise(const MedianInterval& a, const MedianInterval& b);
std::optional<bool> withinNoise(const Metrics& a, const Metrics& b);

// Fills metrics.step_ms_ci, step_ms_cv from metrics.step_samples_ms (the runner's last step).
void recordStepSpread(Metrics& metrics);

// The relative half-width the adaptive repeats aim at: every median's interval within +-5%.
inline constexpr double kAutoPrecision = 0.05;
// Fewest rounds of the adaptive repeats: the fewest samples with a 95% interval.
inline constexpr int kAutoMinRounds = 6;

// True when the interval is a 95% one and lies within +-`precision` of the median.
bool preciseEnough(const std::vector<double>& samples, double precision = kAutoPrecision);

enum class RoundsStop {
    Continue,
    Repeats,     // the fixed --repeats were taken
    Precision,   // every median's interval within +-kAutoPrecision
    TimeLimit,   // the time limit passed first
    RoundLimit,  // limits::repeats.max rounds taken
    Cancelled,
};
std::string toString(RoundsStop stop);  // "repeats", "precision", "time limit", ...
std::optional<RoundsStop> parseRoundsStop(const std::string& text);

// Whether adaptive repeats stop after `rounds` complete rounds taking `elapsedSeconds`:
// never before kAutoMinRounds; then Precision when every run's samples are precise enough,
// TimeLimit when elapsedSeconds >= timeLimitSeconds, RoundLimit at `maxRounds`.
RoundsStop autoRoundsStop(const std::vector<std::vector<double>>& samplesPerRun, int rounds,
                          double elapsedSeconds, double timeLimitSeconds, int maxRounds);

}  // namespace ckptlab
