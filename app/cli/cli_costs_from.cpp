#include "cli_costs_from.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "ckptlab/model/config_fields.h"
#include "ckptlab/model/number_text.h"
#include "ckptlab/planning/cost_model.h"
#include "ckptlab/planning/planner.h"

namespace ckptlab::cli {
namespace {

// Every field of the work (config_fields.h, kChangesWork) decides the step's bytes and time, so
// each must be the plan's, but the three the ratio is taken at: the file's own batch, sequence
// and depth are predicted here too. A field added to the registry is compared with no change.
bool scaledAcross(const ConfigField& field) {
    const std::string key = field.key;
    return key == "batch" || key == "seq" || key == "depth";
}

std::string machineOf(const ResultSet& results, const RunResult& run) {
    const Environment& env =
        run.machine && *run.machine >= 0 &&
                static_cast<std::size_t>(*run.machine) < results.machines.size()
            ? results.machines[static_cast<std::size_t>(*run.machine)]
            : results.environment;
    const std::string name = env.device_name.empty() ? "an unnamed machine" : env.device_name;
    return env.device.empty() ? name : name + " (" + env.device + ")";
}

}  // namespace

RunResult costsFromRun(const ResultSet& results, const ExperimentConfig& target,
                       const std::string& path) {
    const std::string where = "--costs-from " + path;
    if (results.plan)
        throw std::invalid_argument(where +
                                    " holds a full-size plan, not measured runs: its times are "
                                    "predictions (give a sweep's results file with a none run)");
    const RunResult* none = results.find(Strategy{});
    if (!none)
        throw std::invalid_argument(where +
                                    " has no none run: its measured none step is what scales "
                                    "the times (run a sweep with none in --strategies)");
    if (none->error || !std::isfinite(none->metrics.step_ms))
        throw std::invalid_argument(where + ": its none run has no measured step time" +
                                    (none->error ? " (it failed: " + *none->error + ")" : ""));
    if (!(none->metrics.step_ms >= kCostsFromMinStepMs) ||
        none->metrics.step_ms > kCostsFromMaxStepMs)
        throw std::invalid_argument(
            where + ": its none step of " + formatGeneral(none->metrics.step_ms) +
            " ms is not a measured step time; a none step scales the times only from " +
            formatGeneral(kCostsFromMinStepMs) + " ms (1 microsecond) to " +
            formatGeneral(kCostsFromMaxStepMs, 10) + " ms (about 11.6 days)");
    const ExperimentConfig theirs = effectiveConfig(none->config), ours = effectiveConfig(target);
    for (const ConfigField& field : configFields()) {
        if (!(field.changes & kChangesWork) || scaledAcross(field)) continue;
        if (!fieldApplies(field, theirs) && !fieldApplies(field, ours)) continue;
        if (valueOf(field, theirs) == valueOf(field, ours)) continue;
        throw std::invalid_argument(
            where + ": its none run's " + field.key + " is " + displayText(field, theirs) +
            ", this plan's " + displayText(field, ours) +
            "; times scale only between runs of the same work (every field of the model, the "
            "step and its memory but batch, seq and depth, which the ratio is taken at)");
    }
    return *none;
}

MachineTimeScale timeScaleFrom(const ResultSet& results, const RunResult& none,
                               const CostFit& fit) {
    MachineTimeScale scale;
    scale.batch = none.config.batch;
    scale.seq = none.config.seq;
    scale.depth = none.config.depth;
    const CostModel here = costsAt(fit, scale.batch, scale.seq, scale.depth);
    scale.predicted_none_ms = predict(here, makePlan(Strategy{}, scale.depth)).step_ms;
    scale.measured_none_ms = none.metrics.step_ms;
    if (!(scale.predicted_none_ms > 0))
        throw std::invalid_argument(
            "--costs-from: this machine's predicted none step at B=" + std::to_string(scale.batch) +
            " S=" + std::to_string(scale.seq) + " is " + formatGeneral(scale.predicted_none_ms) +
            " ms; no ratio");
    scale.ratio = scale.measured_none_ms / scale.predicted_none_ms;
    scale.machine = machineOf(results, none);
    return scale;
}

void applyTimeScale(const MachineTimeScale& scale, FullSizePlan& plan) {
    auto scaleStrategy = [&](StrategyAtSize& s) {
        s.prediction.step_ms *= scale.ratio;
        s.prediction.recompute_ms *= scale.ratio;
        s.step_ms_at_largest_batch *= scale.ratio;
        s.tokens_per_s /= scale.ratio;
    };
    for (StrategyAtSize& s : plan.strategies) scaleStrategy(s);
    if (plan.fastest_at_size) scaleStrategy(*plan.fastest_at_size);
    if (plan.fastest) {
        plan.fastest->prediction.step_ms *= scale.ratio;
        plan.fastest->prediction.recompute_ms *= scale.ratio;
    }
    plan.machine = scale.machine;
}

}  // namespace ckptlab::cli
