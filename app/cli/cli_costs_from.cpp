#include "cli_costs_from.h"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "ckptlab/cost_model.h"
#include "ckptlab/number_text.h"
#include "ckptlab/planner.h"

namespace ckptlab::cli {
namespace {

struct ShapeField {
    const char* name;
    std::string (*of)(const ExperimentConfig&);
};

std::string text(int value) { return std::to_string(value); }

// What sets a step's time per token besides batch, sequence and depth, in the order the
// refusal names the first that differs. The optimizer counts: the measured `none` step
// includes its update.
const std::vector<ShapeField>& shapeFields() {
    static const std::vector<ShapeField> fields = {
        {"block", [](const ExperimentConfig& c) { return toString(c.block); }},
        {"width", [](const ExperimentConfig& c) { return text(c.width); }},
        {"heads", [](const ExperimentConfig& c) { return text(c.heads); }},
        {"kv heads", [](const ExperimentConfig& c) { return text(kvHeadsOf(c)); }},
        {"head dim", [](const ExperimentConfig& c) { return text(headDimOf(c)); }},
        {"ffn width", [](const ExperimentConfig& c) { return text(ffnWidthOf(c)); }},
        {"vocab", [](const ExperimentConfig& c) { return text(c.vocab); }},
        {"precision", [](const ExperimentConfig& c) { return toString(c.dtype); }},
        {"attention", [](const ExperimentConfig& c) { return toString(c.attention); }},
        {"optimizer", [](const ExperimentConfig& c) { return toString(c.optimizer); }},
    };
    return fields;
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
    const RunResult* none = results.find(Strategy{});
    if (!none)
        throw std::invalid_argument(where +
                                    " has no none run: its measured none step is what scales "
                                    "the times (run a sweep with none in --strategies)");
    if (none->error || !std::isfinite(none->metrics.step_ms) || none->metrics.step_ms <= 0)
        throw std::invalid_argument(where + ": its none run has no measured step time" +
                                    (none->error ? " (it failed: " + *none->error + ")" : ""));
    for (const ShapeField& field : shapeFields()) {
        const std::string theirs = field.of(none->config), ours = field.of(target);
        if (theirs != ours)
            throw std::invalid_argument(
                where + ": its " + field.name + " is " + theirs + ", this plan's " + ours +
                "; times scale only between models of the same shape (block, width, heads, kv "
                "heads, head dim, ffn width, vocab, precision, attention, optimizer)");
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
