#pragma once
// The rules both front ends apply to a sweep, written once: strategy -> plan, whether a sweep
// fits (one call returning what the app shows and the CLI refuses), which strategies a curve
// sweep runs, the scaling pre-check, the Pareto verdict, and the plain-data helpers the charts
// draw from (the forecast from costs). Planning room (docs/ARCHITECTURE.md): no LibTorch, no Qt.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/result.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/model/summary.h"
#include "ckptlab/planning/cost_model.h"
#include "ckptlab/planning/estimate.h"
#include "ckptlab/planning/planner.h"
#include "ckptlab/planning/scaling.h"

namespace ckptlab {

// ---- Strategy -> plan ------------------------------------------------------------------------

// The unit-level plan a strategy runs on a chain with these costs: optimal:MiB is planned by
// `planner` (built from `costs`; made here when null), every other kind is built (makePlan)
// and refined to units. Throws BudgetError when a budget fits no schedule.
Plan resolvePlan(const Strategy& strategy, const CostModel& costs,
                 const OptimalPlanner* planner = nullptr);

// The unit-level plan a recorded run ran: its schedule text when the file has one, else its
// strategy's plan. Throws std::invalid_argument when neither says (an optimal run without its
// schedule).
Plan recordedPlan(const RunResult& run);

// ---- Memory before anything runs -------------------------------------------------------------

// The analytic estimate of one strategy. optimal:MiB has no plan without the cost model: its
// budget (at most the no-checkpoint peak) is taken as an upper bound of its peak, and
// `budgetBound` says so.
struct StrategyEstimate {
    MemoryEstimate estimate;
    bool budgetBound = false;
};
StrategyEstimate estimateStrategy(const ExperimentConfig& config, const Strategy& strategy);

// What the runner holds for a run: the estimate plus the initial weights and the reference
// gradients it keeps beside the model.
std::int64_t runnerNeed(const MemoryEstimate& estimate);

// A strategy that cannot run, and why: its name, or the text a front end could not parse.
struct StrategyProblem {
    std::string text;
    CoreMessage why;
};

// Whether a sweep fits: checkSweep refuses what `refused` says, the app shows the rest.
struct FitForecast {
    bool valid = false;                    // false: `error` (the first config problem) says why
    std::optional<CoreMessage> error;      // validate's first problem
    std::vector<StrategyProblem> invalid;  // strategies that do not fit this model, and why
    std::int64_t none = 0;                 // estimate without checkpointing
    std::int64_t baseline = 0;             // parameters, input and optimizer state (exact)
    std::int64_t largest = 0;            // estimate of the hungriest valid strategy (none if none)
    Strategy largestStrategy;            // none when no strategy needs more
    bool largestIsBaseline = true;       // no checked strategy needs more than `none`
    bool largestIsBound = false;         // `largest` is an optimal budget taken as the bound
    std::int64_t available = 0;          // 0: unknown
    bool refused = false;                // the runner's prediction exceeds `available`
    std::optional<CoreMessage> refusal;  // the refusal's message (checkSweep's DoesNotFit)
    std::int64_t runnerPredicted = 0;

    // Close enough to the limit that the system may start swapping.
    bool nearLimit() const { return valid && available > 0 && largest > available * 3 / 4; }
};
FitForecast forecastFit(const ExperimentConfig& config, const std::vector<Strategy>& strategies,
                        std::int64_t available);
// forecastFit of a config that validate (config.h) has passed: a check that validated it does
// not validate it again.
FitForecast forecastValidFit(const ExperimentConfig& config,
                             const std::vector<Strategy>& strategies, std::int64_t available);

// The memory verdict for strategies: the largest runner need and whose.
struct SweepNeed {
    std::int64_t predicted = 0;
    std::string worst;
    bool worstIsBound = false;
};
SweepNeed sweepNeed(const ExperimentConfig& config, const std::vector<Strategy>& strategies);
// "config does not fit: strategy X is predicted to need ... on <device>".
CoreMessage doesNotFitMessage(const SweepNeed& need, std::int64_t available,
                              const std::string& device);

// ---- Which strategies a sweep runs -----------------------------------------------------------

enum class SweepKind { Sweep, Pareto, Scaling };

// Strategies a scaling sweep runs when none is asked for.
std::vector<Strategy> defaultScalingStrategies();
// Strategies checked in the app before the user chose any.
std::vector<Strategy> defaultSweepStrategies();

// The strategies a sweep of this kind runs from the checked ones: a curve sweep drops the
// memory budgets (the Pareto curve brings its own; a fixed budget means nothing across sizes)
// and falls back to its usual set when nothing else is left.
std::vector<Strategy> sweepStrategies(SweepKind kind, const std::vector<Strategy>& checked,
                                      int depth, BlockKind block);

// ---- The rules of the pre-run check, each written once ---------------------------------------

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

// ---- The whole pre-run check, one call -------------------------------------------------------

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

// ---- Pareto verdict --------------------------------------------------------------------------

enum class CurveStanding { Below, OnCurve, Above };
// Within this many percent of the optimal step time at the same peak counts as on the curve;
// faster than the optimum (beyond rounding) means the planner or the cost model is wrong.
inline constexpr double kOnCurvePct = 0.05;
inline constexpr double kBelowCurvePct = -1e-6;
CurveStanding standingFor(double slowerThanOptimalPct);

struct HandWrittenStanding {
    std::size_t row = 0;  // index into summarize(results) and results.runs
    double slower_pct = 0;
    CurveStanding standing = CurveStanding::OnCurve;
};
// Every hand-written run (not a budget) that has a "vs optimal" comparison, in order.
std::vector<HandWrittenStanding> standingsAgainstOptimal(const ResultSet& results,
                                                         const std::vector<SummaryRow>& rows);

// ---- Forecast from costs (the live prediction) -----------------------------------------------

struct CostForecastEntry {
    Strategy strategy;
    bool ok = false;  // false: `error` says why (not this model's, budget below the minimum)
    std::optional<CoreMessage> error;
    std::int64_t peak_bytes = 0;  // above the step's start
    std::int64_t activation_bytes = 0;
    double step_ms = 0;
};
struct CostForecast {
    std::vector<CostForecastEntry> strategies;  // in the order asked
    std::int64_t none_peak = 0;
    double none_ms = 0;
    std::int64_t minimum_peak = 0;  // the smallest peak any schedule reaches
};
// Plans and replays every strategy on `costs` (depth x units per block long), optimal budgets
// with the planner: the real plan, not a stand-in. `costs` must not be empty.
CostForecast forecastFromCosts(const CostModel& costs, const ExperimentConfig& config,
                               const std::vector<Strategy>& strategies);

}  // namespace ckptlab
