#pragma once
// The pre-run check of a sweep, each rule written once and the whole check in one call
// (checkSweep), which the app asks before a sweep and the CLI and the runner through
// Runner::check. Planning room (docs/ARCHITECTURE.md): no LibTorch, no Qt.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/core_message.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/scaling.h"
#include "ckptlab/planning/sweep_memory.h"
#include "ckptlab/planning/sweep_strategies.h"

namespace ckptlab {

// A scaling sweep fits a power law: at least kScalingMinValues values, each once. Nothing when
// `values` follow the rule, else ScalingNeedsTwoValues or ScalingValueListedTwice.
inline constexpr std::size_t kScalingMinValues = 2;
std::optional<CoreMessage> scalingValuesError(const std::vector<int>& values);

// The same strategy twice is a typo, and two rows of one name cannot be told apart. Nothing
// when each is listed once, else StrategyListedTwice naming the first repeat and its items;
// `second` (when given) is set to the repeat's index.
std::optional<CoreMessage> duplicateStrategyError(const std::vector<Strategy>& strategies,
                                                  std::size_t* second = nullptr);

struct SizeProblem {
    int value = 0;
    CoreMessage message;  // validate's first problem at that value
};
// The config at each value of `axis`.
std::vector<ExperimentConfig> scalingConfigs(const ExperimentConfig& config, ScalingAxis axis,
                                             const std::vector<int>& values);
// The first value whose config is invalid, with the first problem; nothing when all are valid.
std::optional<SizeProblem> firstInvalidSize(const ExperimentConfig& config, ScalingAxis axis,
                                            const std::vector<int>& values);

// What a front end asks to run, its strategies parsed once at its boundary.
struct SweepRequestData {
    SweepKind kind = SweepKind::Sweep;
    ExperimentConfig config;
    std::vector<Strategy> checked;          // the strategies asked for
    std::vector<StrategyProblem> unparsed;  // texts the boundary could not parse (the app's rows)
    int paretoPoints = 6;                   // Pareto only
    ScalingAxis axis = ScalingAxis::Depth;  // scaling only
    std::vector<int> values;                // scaling only
};

struct SweepCheck {
    enum class Verdict {
        Ok,
        InvalidConfig,    // validate's first problem
        InvalidPoints,    // a Pareto sweep's points out of [kParetoMinPoints, kParetoMaxPoints]
        PlannerLimit,     // a Pareto sweep on a chain longer than the planner takes
        InvalidValues,    // the scaling values break scalingValuesError's rule
        InvalidSize,      // a scaling value whose config is invalid (`size`)
        NoStrategy,       // nothing to run
        InvalidStrategy,  // `invalid`: not strategies, not this model's, listed twice, too long
        DoesNotFit,       // the last forecast is refused
    };
    Verdict verdict = Verdict::Ok;
    std::vector<Strategy> strategies;      // what the sweep runs (sweepStrategies)
    std::optional<CoreMessage> problem;    // every refusal: what the runner throws for it
    std::vector<StrategyProblem> invalid;  // InvalidStrategy: each problem, in the list's order
    std::optional<SizeProblem> size;       // InvalidSize
    // One forecast per config the sweep visits (one, or one per scaling value), in order; on
    // DoesNotFit the last is the refused one. Near-limit ones are for the caller to confirm.
    struct At {
        std::optional<int> value;  // the scaling value, for a scaling sweep
        FitForecast forecast;
    };
    std::vector<At> forecasts;
    bool ok() const { return verdict == Verdict::Ok; }
};
// Everything refused before a sweep, in this order: the config, a Pareto sweep's points and
// the planner's limit, the scaling values and each size's config, the strategies (unparsed,
// not this model's at every size, listed twice, optimal budgets past the planner's limit), the
// memory at every size. The app asks it before starting a sweep, the CLI and the runner
// through Runner::check (runner.h). `available`: the device's free bytes, 0 when unknown.
SweepCheck checkSweep(const SweepRequestData& request, std::int64_t available);
// The same, asking the device's free bytes only once the request's numbers are valid (an
// invalid device string has none to ask). Each config the sweep visits is validated once.
using AvailableMemoryOf = std::function<std::int64_t(const std::string& device)>;
SweepCheck checkSweep(const SweepRequestData& request, const AvailableMemoryOf& available);

}  // namespace ckptlab
