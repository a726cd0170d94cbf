#pragma once
// The summary table (CLI, CSV, GUI): each run against the `none` run of the same experiment in
// its set (baselineFor), so each size of a scaling sweep is compared with its own `none`.

#include <optional>
#include <string>
#include <vector>

#include "ckptlab/model/result.h"

namespace ckptlab {

struct SummaryRow {
    Strategy strategy;
    double peak_mib = 0;
    double activations_mib = 0;
    double step_ms = 0;
    double step_fastest_ms = 0;  // the fastest timed repeat (fastestStepMs)
    // The median's interval (step_stats.h): a 95% one when step_ci_95, else the min-max range
    // of fewer than 6 samples. Empty without samples. step_cv_pct: coefficient of variation.
    std::optional<double> step_ci_low_ms;
    std::optional<double> step_ci_high_ms;
    bool step_ci_95 = false;
    std::optional<double> step_cv_pct;
    std::optional<double> memory_saved_pct;  // empty without a `none` run to compare with
    std::optional<double> time_added_pct;
    // The time added as a range, in % of none's median: from this run's interval low less
    // none's high to this run's high less none's low. It holds the true difference of the
    // medians whenever both intervals hold theirs (at least ~90% for two 95% intervals).
    std::optional<double> time_added_low_pct;
    std::optional<double> time_added_high_pct;
    // Set with the range: true when the two step-time intervals overlap (the range holds 0), so
    // the sign of time_added_pct is not known; front ends show "≈ 0" with the range. When set
    // and true, saved_per_added is not computed: a ratio over a noise-level time means nothing.
    std::optional<bool> time_within_noise;
    std::optional<double> saved_per_added;  // the seed's "cost-effectiveness"
    // The cost model's forecast and how far the measurement landed from it, in % of the
    // measurement (positive: predicted too high). Empty when the run carries no prediction.
    std::optional<double> predicted_peak_mib;
    std::optional<double> peak_error_pct;
    std::optional<double> predicted_step_ms;
    std::optional<double> step_error_pct;
    // Predicted step time of the planner's optimal schedule within this run's predicted peak,
    // and how much slower this run is predicted to be than it (0 = on the optimal curve).
    std::optional<double> optimal_step_ms;
    std::optional<double> slower_than_optimal_pct;
    // The caching allocator's own counts (RunResult::allocator), whole: parameters, input and
    // optimizer state included, unlike peak_mib. What it held from the device (reserved,
    // cached blocks included) when the step began and at its peak, and its allocated peak.
    // Empty without them: --allocator system, files from before, and a CUDA file from before
    // the counts. Set for a failed run too (up to where it stopped).
    std::optional<AllocatorSource> allocator_source;
    std::optional<double> reserved_start_mib;
    std::optional<double> reserved_peak_mib;
    std::optional<double> allocated_peak_mib;
    // The cost model's reserved peak, whole (PredictedMetrics::reserved_peak_bytes); empty
    // when the run carries no prediction or the prediction none.
    std::optional<double> predicted_reserved_peak_mib;
    bool grad_ok = false;
    double max_abs_diff = 0;
    // GradCheck::note: which gradients hold NaN or Inf, in which run; empty when all finite.
    std::string grad_note;
    bool grad_bitwise = false;  // GradCheck::bitwise_equal: the reference's bits exactly
    std::optional<std::string> error;
    // Set when the run ran out of memory (RunResult::out_of_memory): peak_mib is then the peak
    // the step reached before it stopped, a lower bound of what it needs; nothing was timed.
    std::optional<OutOfMemory> out_of_memory;
};

// One row per run, in order, each compared with baselineFor(results, run).
std::vector<SummaryRow> summarize(const ResultSet& results);

// Whether two configs measure the same step: equal in every field that changes the work or
// the machine it runs on (kChangesWork | kChangesMachine in config_fields.h: block, sizes,
// heads, dropout, dtype, optimizer, kept gradients, device, threads). The seed, the repeats
// and the memory limit do not: they change how it is sampled, not what.
bool sameStep(const ExperimentConfig& a, const ExperimentConfig& b);

// The `none` run `run` is compared with: the first `none` of the set that measures the same
// step (sameStep) and comes from the same file (RunResult::label), preferring one that
// finished; null when the set has none for that step.
// Never a `none` of another size: a scaling sweep's sizes are different steps. A run of a file
// merged from shards (RunResult::machine set) is compared with the `none` its own shard timed,
// in the runs or in ResultSet::machine_baselines: times from two processes are not compared.
const RunResult* baselineFor(const ResultSet& results, const RunResult& run);

// The fastest of a run's timed repeats (its step_ms when the samples were not kept). On a
// shared machine the sample least disturbed by other work; the median stays the headline.
double fastestStepMs(const RunResult& run);

// A copy of `results` without the traces (lifetimes, timelines, phases, the allocator's trace)
// in which each run's step_ms is its fastest repeat: for charts of the fastest times. Every
// other field is kept as it is.
ResultSet withFastestSteps(const ResultSet& results);
SummaryRow summarizeRun(const RunResult& run, const RunResult* baseline);

constexpr double kMiB = 1024.0 * 1024.0;

// Rows of (total bytes above the step's start) sampled at most `maxPoints` times, keeping each
// bucket's highest value so peaks survive; for charts.
std::vector<TimelineEvent> downsampleTimeline(const std::vector<TimelineEvent>& events,
                                              std::size_t maxPoints);

}  // namespace ckptlab
