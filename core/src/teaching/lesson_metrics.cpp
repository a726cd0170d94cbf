#include "teaching/lesson_metrics.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <vector>

#include "ckptlab/model/number_text.h"
#include "ckptlab/model/summary.h"
#include "teaching/placeholder_syntax.h"

namespace ckptlab::teaching {
namespace {

enum class Notation { Fixed, Scientific };

// In the classic locale: a lesson's text reads "1.5" under every locale.
MetricText value(double v, int decimals = 1, Notation notation = Notation::Fixed) {
    if (!std::isfinite(v)) return {std::nullopt, "the value is not a finite number"};
    std::string text =
        notation == Notation::Fixed ? formatFixed(v, decimals) : formatScientific(v, decimals);
    // A value that rounds to zero reads "0.0", not "-0.0".
    if (text.size() > 1 && text[0] == '-' && text.find_first_not_of("0.", 1) == std::string::npos)
        text.erase(0, 1);
    return {text, {}, v};
}

// A whole number: its text and its value.
MetricText whole(long long v) { return {std::to_string(v), {}, static_cast<double>(v)}; }

MetricText missing(const std::string& why) { return {std::nullopt, why}; }

double mib(std::int64_t bytes) { return static_cast<double>(bytes) / kMiB; }

// A duration the run measured; NaN (not measured) and 0 (never timed) have no value.
MetricText duration(double ms) {
    if (!(ms > 0) || !std::isfinite(ms)) return missing("not measured");
    return value(ms);
}

std::int64_t totalPeakBytes(const RunResult& run) {
    return run.metrics.peak_bytes + run.metrics.baseline_bytes;
}

// The peak without the step's own gradients: breakdown.gradients also counts gradients kept
// from a previous step (keep_grads), which sit in the baseline, not in peak_bytes.
std::int64_t peakWithoutGradients(const RunResult& run) {
    const Breakdown& b = run.breakdown;
    const std::int64_t held = b.parameters + b.input + b.optimizer_state;
    return std::max<std::int64_t>(
        0, run.metrics.peak_bytes + run.metrics.baseline_bytes - held - b.gradients);
}

// A time added in words whose direction comes from the intervals: "12.3 % slower than none",
// "5.1 % faster than none", or "as fast as none within noise ([-2.0, +3.1] %)". A text says a
// direction through it, never in its own words (lesson_time_checks.h).
MetricText timeChange(const SummaryRow& row, bool noise, const std::string& lang) {
    const bool zh = lang == kLangChinese;
    if (noise || !row.time_added_low_pct || !row.time_added_high_pct) {
        if (!row.time_added_low_pct || !row.time_added_high_pct)
            return missing("no interval of the step times");
        const std::string range = "[" + formatFixedSigned(*row.time_added_low_pct, 1) + ", " +
                                  formatFixedSigned(*row.time_added_high_pct, 1) + "] %";
        return {zh ? "与 none 在噪声范围内一样快（" + range + "）"
                   : "as fast as none within noise (" + range + ")",
                {}};
    }
    const double added = *row.time_added_pct;
    const std::string size = formatFixed(std::abs(added), 1) + " %";
    if (zh) return {(added > 0 ? "比 none 慢 " : "比 none 快 ") + size, {}};
    return {size + (added > 0 ? " slower than none" : " faster than none"), {}};
}

MetricText againstNone(const std::string& metric, const RunResult& run, const RunResult* none,
                       const std::string& lang) {
    if (!none) return missing("the step has no run of \"none\" to compare with");
    if (none->error) return missing("the \"none\" run failed: " + *none->error);
    if (metric == "recompute_vs_forward_pct") {
        const double forward = none->metrics.forward_ms;
        if (!(forward > 0) || !std::isfinite(forward) || !std::isfinite(run.metrics.recompute_ms))
            return missing("\"none\" has no measured forward time");
        return value(run.metrics.recompute_ms / forward * 100.0);
    }
    if (metric == "total_saving_pct") {
        // The whole allocation, as torch.cuda.max_memory_allocated counts it: the baseline
        // (parameters, input, optimizer state, kept gradients) is in both peaks.
        const double totalNone = static_cast<double>(totalPeakBytes(*none));
        if (!(totalNone > 0)) return missing("\"none\" has no peak to compare with");
        return value((1.0 - static_cast<double>(totalPeakBytes(run)) / totalNone) * 100.0);
    }
    const SummaryRow row = summarizeRun(run, none);
    if (metric == "saving_pct") {
        if (!row.memory_saved_pct) return missing("\"none\" has no peak to compare with");
        return value(*row.memory_saved_pct);
    }
    if (!row.time_added_pct) return missing("no step times to compare");
    const bool noise = row.time_within_noise.value_or(false);
    if (metric == "time_change") return timeChange(row, noise, lang);
    if (metric == "time_added_pct") {
        // summarizeRun's rule: overlapping intervals give no sign, only "≈ 0" and the range.
        if (noise && row.time_added_low_pct && row.time_added_high_pct) {
            return {"≈ 0 [" + formatFixedSigned(*row.time_added_low_pct, 1) + ", " +
                        formatFixedSigned(*row.time_added_high_pct, 1) + "]",
                    "the step time is within noise of \"none\"'s (the intervals overlap)"};
        }
        return value(*row.time_added_pct);
    }
    // ratio: summary.h defines it only when the strategy costs time measurably; say so instead.
    if (!row.saved_per_added) {
        if (noise)
            return {lang == kLangChinese ? "—（时间差在噪声之内）" : "— (time within noise)",
                    "the step time is within noise of \"none\"'s: no ratio"};
        return {lang == kLangChinese ? "—（未增加时间）" : "— (no time added)",
                "no time added: no ratio"};
    }
    return value(*row.saved_per_added, 2);
}

}  // namespace

MetricText runMetric(const std::string& metric, const RunResult& run, const RunResult* none,
                     const std::string& lang) {
    // A failed run's numbers are partial; a lesson must not present them as measured.
    if (run.error)
        return missing("the run of \"" + run.strategy.name() + "\" failed: " + *run.error);
    const Metrics& m = run.metrics;
    const Breakdown& b = run.breakdown;
    if (metric == "peak_mib") return value(mib(m.peak_bytes));
    if (metric == "total_peak_mib") return value(mib(totalPeakBytes(run)));
    if (metric == "activations_mib") return value(mib(m.activation_bytes));
    if (metric == "step_ms") return duration(m.step_ms);
    if (metric == "forward_ms") return duration(m.forward_ms);
    if (metric == "backward_ms") return duration(m.backward_ms);
    if (metric == "recompute_ms") {
        if (!std::isfinite(m.recompute_ms) || m.recompute_ms < 0) return missing("not measured");
        return value(m.recompute_ms);  // 0 is a real value: nothing recomputed
    }
    if (metric == "recomputed_blocks") return whole(m.recomputed_blocks);
    if (metric == "grad_check" || metric == "max_abs_diff") {
        if (!run.grad_check.checked) return missing("the gradients were not checked");
        if (metric == "max_abs_diff")
            return value(run.grad_check.max_abs_diff, 2, Notation::Scientific);
        return {
            lessonLabel(run.grad_check.passed() ? LessonLabel::Passed : LessonLabel::Failed, lang),
            "a verdict, not a number"};
    }
    if (metric == "grads_at_peak_mib") return value(mib(b.gradients));
    if (metric == "activations_at_peak_mib") return value(mib(b.activations));
    if (metric == "other_at_peak_mib") return value(mib(b.other));
    if (metric == "baseline_mib") return value(mib(m.baseline_bytes));
    if (metric == "peak_no_grads_mib") return value(mib(peakWithoutGradients(run)));
    if (comparesWithNone(metric)) return againstNone(metric, run, none, lang);
    return missing("\"" + metric + "\" is not a metric of one run");
}

MetricText scalingMetric(const std::string& metric, const ResultSet& results,
                         const Strategy& strategy, ScalingAxis axis, const std::string& lang) {
    std::vector<const RunResult*> runs;
    for (const RunResult& run : results.runs)
        if (run.strategy == strategy) runs.push_back(&run);
    if (runs.empty()) return missing("no run of \"" + strategy.name() + "\"");

    if (metric == "largest_fit" || metric == "first_oom") {
        std::optional<int> largest, firstOom;
        for (const RunResult* run : runs) {
            const int v = axisValue(run->config, axis);
            if (!run->error) largest = std::max(largest.value_or(v), v);
            if (run->out_of_memory) firstOom = std::min(firstOom.value_or(v), v);
        }
        if (metric == "first_oom") {
            if (!firstOom)
                return {lessonLabel(LessonLabel::None, lang), "no run ran out of memory"};
            return whole(*firstOom);
        }
        if (!largest) return missing("no run of \"" + strategy.name() + "\" finished");
        return whole(*largest);
    }

    PowerFit fit;
    if (metric == "peak_no_grads_exponent") {
        std::vector<double> x, y;
        for (const RunResult* run : runs) {
            if (run->error) continue;
            x.push_back(axisValue(run->config, axis));
            y.push_back(static_cast<double>(peakWithoutGradients(*run)));
        }
        fit = fitPowerLaw(x, y);
    } else {
        static const std::map<std::string, ScalingMetric> kFitted = {
            {"peak_exponent", ScalingMetric::PeakBytes},
            {"activations_exponent", ScalingMetric::ActivationBytes},
            {"time_exponent", ScalingMetric::StepMs}};
        const auto it = kFitted.find(metric);
        if (it == kFitted.end()) return missing("\"" + metric + "\" is not a scaling metric");
        fit = fitRuns(results, strategy, axis, it->second);
    }
    if (fit.points < 2)
        return missing("fewer than two finished runs of \"" + strategy.name() +
                       "\" with a value to fit");
    return value(fit.exponent, 2);
}

MetricText configField(const std::string& field, const ExperimentConfig& c) {
    if (field == "depth") return whole(c.depth);
    if (field == "width") return whole(c.width);
    if (field == "seq") return whole(c.seq);
    if (field == "batch") return whole(c.batch);
    if (field == "heads") return whole(c.heads);
    if (field == "memory_limit_mib") {
        // Whole MiB as typed ("512"), else one decimal.
        if (c.memory_limit_mib == std::floor(c.memory_limit_mib))
            return value(c.memory_limit_mib, 0);
        return value(c.memory_limit_mib);
    }
    return missing("unknown config field \"" + field + "\"");
}

}  // namespace ckptlab::teaching
