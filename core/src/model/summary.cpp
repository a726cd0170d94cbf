#include "ckptlab/model/summary.h"

#include <algorithm>
#include <cmath>

#include "ckptlab/model/config_fields.h"
#include "ckptlab/model/step_stats.h"
#include "ckptlab/model/strategy.h"

namespace ckptlab {

namespace {

std::optional<double> errorPercent(double predicted, double measured) {
    if (!(measured > 0) || !std::isfinite(predicted)) return std::nullopt;
    return (predicted - measured) / measured * 100.0;
}

void addPrediction(const PredictedMetrics& p, const Metrics& m, SummaryRow& row) {
    row.predicted_peak_mib = static_cast<double>(p.peak_bytes) / kMiB;
    row.peak_error_pct =
        errorPercent(static_cast<double>(p.peak_bytes), static_cast<double>(m.peak_bytes));
    row.predicted_step_ms = p.step_ms;
    row.step_error_pct = errorPercent(p.step_ms, m.step_ms);
    if (p.reserved_peak_bytes)
        row.predicted_reserved_peak_mib = static_cast<double>(*p.reserved_peak_bytes) / kMiB;
    if (p.optimal_step_ms && *p.optimal_step_ms > 0) {
        row.optimal_step_ms = *p.optimal_step_ms;
        // Rounded to the planner's own precision, so "on the curve" reads as 0, not -0.0001.
        const double slower = (p.step_ms / *p.optimal_step_ms - 1.0) * 100.0;
        row.slower_than_optimal_pct = std::abs(slower) < 1e-6 ? 0.0 : slower;
    }
}

}  // namespace

SummaryRow summarizeRun(const RunResult& run, const RunResult* baseline) {
    SummaryRow row;
    row.strategy = run.strategy;
    row.peak_mib = static_cast<double>(run.metrics.peak_bytes) / kMiB;
    row.activations_mib = static_cast<double>(run.metrics.activation_bytes) / kMiB;
    row.step_ms = run.metrics.step_ms;
    row.step_fastest_ms = fastestStepMs(run);
    const StepStats stats = stepStats(run.metrics);
    if (stats.interval) {
        row.step_ci_low_ms = stats.interval->low;
        row.step_ci_high_ms = stats.interval->high;
        row.step_ci_95 = stats.interval->is95;
        row.step_cv_pct = stats.cv * 100.0;
    }
    row.grad_ok = run.grad_check.passed();
    row.max_abs_diff = run.grad_check.max_abs_diff;
    row.grad_note = run.grad_check.note;
    row.grad_bitwise = run.grad_check.bitwise_equal;
    row.error = run.error;
    row.out_of_memory = run.out_of_memory;
    if (const auto& a = run.allocator) {
        row.allocator_source = a->source;
        row.reserved_start_mib = static_cast<double>(a->reserved_start) / kMiB;
        row.reserved_peak_mib = static_cast<double>(a->reserved_peak) / kMiB;
        row.allocated_peak_mib = static_cast<double>(a->allocated_peak) / kMiB;
    }
    if (run.prediction && !run.error) addPrediction(*run.prediction, run.metrics, row);

    // A failed run's metrics are partial, so comparing them would mislead.
    if (!baseline || baseline->error || run.error) return row;

    // Both peaks are measured above the step's start (peak_bytes), so parameters, input and
    // optimizer state, which no strategy changes, do not dilute the percentage. Steps that
    // started from different memory (kept gradients, keep_grads) are compared whole, as
    // torch.cuda.max_memory_allocated would.
    const bool sameStart = run.metrics.baseline_bytes == baseline->metrics.baseline_bytes;
    const auto peakOf = [sameStart](const RunResult& r) {
        return static_cast<double>(r.metrics.peak_bytes) +
               (sameStart ? 0.0 : static_cast<double>(r.metrics.baseline_bytes));
    };
    const double peakNone = peakOf(*baseline);
    if (peakNone > 0) row.memory_saved_pct = (1.0 - peakOf(run) / peakNone) * 100.0;
    const double stepNone = baseline->metrics.step_ms;
    if (stepNone > 0 && std::isfinite(stepNone) && std::isfinite(run.metrics.step_ms)) {
        row.time_added_pct = (run.metrics.step_ms / stepNone - 1.0) * 100.0;
        // Within noise: the intervals overlap, i.e. the range of differences holds 0.
        const auto mine = stats.interval;
        const auto theirs = stepStats(baseline->metrics).interval;
        if (mine && theirs && &run != baseline) {
            row.time_added_low_pct = (mine->low - theirs->high) / stepNone * 100.0;
            row.time_added_high_pct = (mine->high - theirs->low) / stepNone * 100.0;
            row.time_within_noise = withinNoise(*mine, *theirs);
        }
    }
    // The ratio only means something when the strategy measurably costs time.
    if (row.memory_saved_pct && row.time_added_pct && *row.time_added_pct > 0 &&
        !row.time_within_noise.value_or(false)) {
        row.saved_per_added = *row.memory_saved_pct / *row.time_added_pct;
    }
    return row;
}

double fastestStepMs(const RunResult& run) {
    const auto& samples = run.metrics.step_samples_ms;
    if (samples.empty()) return run.metrics.step_ms;
    return *std::min_element(samples.begin(), samples.end());
}

ResultSet withFastestSteps(const ResultSet& results) {
    // The whole set and every run as they are, so that a field added later is kept too; then
    // only what this copy is for: the fastest repeat as step_ms, the traces left out.
    ResultSet light = results;
    for (auto* runs : {&light.runs, &light.machine_baselines})
        for (RunResult& run : *runs) {
            run.metrics.step_ms = fastestStepMs(run);
            run.blocks = {};
            run.timeline = {};
            run.phases = {};
            run.allocator_trace.reset();
        }
    return light;
}

bool sameStep(const ExperimentConfig& a, const ExperimentConfig& b) {
    return sameFields(a, b, kChangesWork | kChangesMachine);
}

const RunResult* baselineFor(const ResultSet& results, const RunResult& run) {
    const RunResult* failed = nullptr;
    // A merged file's run (RunResult::machine) was timed in its own shard's process: the `none`
    // of that shard, in the runs or among the machine baselines, never another shard's.
    if (run.machine) {
        for (const auto* list : {&results.runs, &results.machine_baselines}) {
            for (const RunResult& other : *list) {
                if (!isBaseline(other.strategy) || other.machine != run.machine ||
                    !sameStep(other.config, run.config))
                    continue;
                if (!other.error) return &other;
                if (!failed) failed = &other;
            }
        }
        return failed;
    }
    for (const RunResult& other : results.runs) {
        // Runs of several files merged for the charts (RunResult::label) keep to their own file.
        if (!isBaseline(other.strategy) || other.label != run.label ||
            !sameStep(other.config, run.config))
            continue;
        if (!other.error) return &other;
        if (!failed) failed = &other;  // says why nothing is compared (summarizeRun)
    }
    return failed;
}

std::vector<SummaryRow> summarize(const ResultSet& results) {
    std::vector<SummaryRow> rows;
    rows.reserve(results.runs.size());
    for (const RunResult& run : results.runs)
        rows.push_back(summarizeRun(run, baselineFor(results, run)));
    return rows;
}

std::vector<TimelineEvent> downsampleTimeline(const std::vector<TimelineEvent>& events,
                                              std::size_t maxPoints) {
    // First event, peak and last event are the least that still draws an honest line.
    maxPoints = std::max<std::size_t>(maxPoints, 3);
    const std::size_t n = events.size();
    if (n <= maxPoints) return events;

    // Each bucket keeps its highest event and its last one; the first event is kept on top.
    // The last event always lands last in the last bucket, so the output has at most
    // 1 + 2 * buckets events.
    const std::size_t buckets = (maxPoints - 1) / 2;
    const double t0 = events.front().t_ms;
    const double span = events.back().t_ms - t0;
    const bool byTime = std::isfinite(t0) && std::isfinite(span) && span > 0;

    const std::size_t none = n;
    std::vector<std::size_t> highest(buckets, none);
    std::vector<std::size_t> last(buckets, none);
    std::size_t bucket = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (i == n - 1) {
            bucket = buckets - 1;
        } else if (!byTime) {
            bucket = i * buckets / n;
        } else if (std::isfinite(events[i].t_ms)) {
            // Out-of-order or out-of-range times are clamped rather than trusted.
            const double position = (events[i].t_ms - t0) / span * static_cast<double>(buckets);
            if (position <= 0) {
                bucket = 0;
            } else if (position >= static_cast<double>(buckets - 1)) {
                bucket = buckets - 1;
            } else {
                bucket = static_cast<std::size_t>(position);
            }
        }  // a non-finite time stays in the previous event's bucket
        if (highest[bucket] == none || events[i].total > events[highest[bucket]].total) {
            highest[bucket] = i;
        }
        last[bucket] = i;
    }

    std::vector<std::size_t> keep{0};
    for (std::size_t b = 0; b < buckets; ++b) {
        if (highest[b] != none) keep.push_back(highest[b]);
        if (last[b] != none) keep.push_back(last[b]);
    }
    // Input order, not bucket order, so that clamped events never reorder the line.
    std::sort(keep.begin(), keep.end());
    keep.erase(std::unique(keep.begin(), keep.end()), keep.end());

    std::vector<TimelineEvent> out;
    out.reserve(keep.size());
    for (std::size_t i : keep) out.push_back(events[i]);
    return out;
}

}  // namespace ckptlab
