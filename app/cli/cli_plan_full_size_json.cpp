// plan --capacity --json: the full-size plan with every byte, for scripts.
#include <nlohmann/json.hpp>

#include "ckptlab/planner.h"
#include "cli_plan_full_size.h"

namespace ckptlab::cli {
namespace {

using json = nlohmann::ordered_json;

json strategyJson(const StrategyAtSize& s) {
    return {
        {"strategy", s.strategy.name()},
        {"allocated_bytes", s.allocated},
        {"reserved_bytes", s.reserved},
        {"peak_bytes", s.prediction.peak_bytes},
        {"baseline_bytes", s.prediction.baseline_bytes},
        {"split",
         {{"weights", s.split.weights},
          {"weight_copies", s.split.weight_copies},
          {"gradients", s.split.gradients},
          {"optimizer_state", s.split.optimizer_state},
          {"activations", s.split.activations},
          {"logits", s.split.logits},
          {"other", s.split.other}}},
        {"fits", s.fits},
        {"margin_bytes", s.margin},
        {"step_ms", s.prediction.step_ms},
        {"largest_batch", s.largest_batch},
        {"longest_seq", s.longest_seq},
        {"step_ms_at_largest_batch", s.step_ms_at_largest_batch},
        {"tokens_per_s", s.tokens_per_s},
    };
}

}  // namespace

std::string fullSizePlanJson(const FullSizePlan& plan, const CostFit& fit,
                             const std::string& modelName, std::int64_t parameters,
                             const std::string& timesLabel,
                             const std::optional<MachineTimeScale>& scale) {
    const ExperimentConfig& c = plan.config;
    json out = {
        {"model", modelName},
        {"parameters", parameters},
        {"config",
         {{"block", toString(c.block)},
          {"depth", c.depth},
          {"width", c.width},
          {"heads", c.heads},
          {"kv_heads", kvHeadsOf(c)},
          {"head_dim", headDimOf(c)},
          {"ffn_width", ffnWidthOf(c)},
          {"vocab", c.vocab},
          {"seq", c.seq},
          {"batch", c.batch},
          {"precision", toString(c.dtype)},
          {"optimizer", toString(c.optimizer)},
          {"attention", toString(c.attention)}}},
        {"capacity_bytes", plan.capacity},
        {"state_bytes", plan.state_bytes},
        {"method", fit.method},
        {"check_shapes", fit.check_shapes},
        {"check_residual_bytes", fit.check_residual_bytes},
        {"times", {{"label", timesLabel}}},
    };
    if (scale)
        out["times"]["scaled"] = {{"machine", scale->machine},
                                  {"ratio", scale->ratio},
                                  {"measured_none_ms", scale->measured_none_ms},
                                  {"predicted_none_ms", scale->predicted_none_ms},
                                  {"batch", scale->batch},
                                  {"seq", scale->seq},
                                  {"depth", scale->depth}};
    json rows = json::array();
    for (const StrategyAtSize& s : plan.strategies) rows.push_back(strategyJson(s));
    out["strategies"] = rows;
    out["fastest"] = nullptr;
    if (plan.fastest && plan.fastest_at_size) {
        json fastest = strategyJson(*plan.fastest_at_size);
        fastest["schedule"] = describeSchedule(plan.fastest->plan);
        out["fastest"] = fastest;
    }
    out["would_fit"] = plan.would_fit ? json(plan.would_fit->name) : json(nullptr);
    return out.dump(2) + "\n";
}

}  // namespace ckptlab::cli
