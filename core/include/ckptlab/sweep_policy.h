#pragma once
// The rules both front ends apply to a sweep, written once: strategy -> plan, whether a sweep
// fits (one call returning what the app shows and the CLI refuses), which strategies a curve
// sweep runs, the scaling pre-check, the Pareto verdict, and the plain-data helpers the charts
// draw from (the forecast from costs). Planning room (docs/ARCHITECTURE.md): no LibTorch, no Qt.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ckptlab/config.h"
#include "ckptlab/cost_model.h"
#include "ckptlab/estimate.h"
#include "ckptlab/planner.h"
#include "ckptlab/result.h"
#include "ckptlab/scaling.h"
#include "ckptlab/strategy.h"
#include "ckptlab/summary.h"

namespace ckptlab {

// ---- Strategy -> plan ------------------------------------------------------------------------

// The unit-level plan a strategy runs on a chain with these costs: optimal:MiB is planned by
// `planner` (built from `costs`; made here when null), every other kind is built (makePlan)
// and refined to units. Throws BudgetError when a budget fits no schedule.
Plan resolvePlan(const Strategy& strategy, const CostModel& costs,
                 const OptimalPlanner* planner = nullptr);

// The unit-level plan a recorded run ran: its schedule text when the file has one, else its
// strategy's plan. Throws std::invalid_argument when neither says (an optimal run without its
// schedule, or a strategy that does not parse).
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

// Whether a sweep fits: Runner::check refuses what `refused` says, the app shows the rest.
struct FitForecast {
    bool valid = false;  // false: `error` (the first config problem) says why
    std::string error;
    std::vector<std::string> invalid;  // strategies that do not parse, as "text: why"
    std::int64_t none = 0;             // estimate without checkpointing
    std::int64_t baseline = 0;         // parameters, input and optimizer state (exact)
    std::int64_t largest = 0;          // estimate of the hungriest valid strategy (none if none)
    std::string largestStrategy = "none";
    bool largestIsBaseline = true;  // no checked strategy needs more than `none`
    bool largestIsBound = false;    // `largest` is an optimal budget taken as the bound
    std::int64_t available = 0;     // 0: unknown
    bool refused = false;           // the runner's prediction exceeds `available`
    std::string refusal;            // Runner::check's message
    std::int64_t runnerPredicted = 0;

    // Close enough to the limit that the system may start swapping.
    bool nearLimit() const { return valid && available > 0 && largest > available * 3 / 4; }
};
FitForecast forecastFit(const ExperimentConfig& config, const std::vector<std::string>& strategies,
                        std::int64_t available);

// Runner::check's memory verdict for parsed strategies: the largest runner need and whose.
struct SweepNeed {
    std::int64_t predicted = 0;
    std::string worst;
    bool worstIsBound = false;
};
SweepNeed sweepNeed(const ExperimentConfig& config, const std::vector<Strategy>& strategies);
// "config does not fit: strategy X is predicted to need ... on <device>".
std::string doesNotFitMessage(const SweepNeed& need, std::int64_t available,
                              const std::string& device);

// ---- Which strategies a sweep runs -----------------------------------------------------------

enum class SweepKind { Sweep, Pareto, Scaling };

// Strategies a scaling sweep runs when none is asked for.
std::vector<std::string> defaultScalingStrategies();
// Strategies checked in the app before the user chose any.
std::vector<std::string> defaultSweepStrategies();

// The strategies a sweep of this kind runs from the checked ones: a curve sweep drops the
// memory budgets (the Pareto curve brings its own; a fixed budget means nothing across sizes)
// and falls back to its usual set when nothing else is left. Texts that do not parse are kept
// (checkSweep reports them).
std::vector<std::string> sweepStrategies(SweepKind kind, const std::vector<std::string>& checked,
                                         int depth, BlockKind block);

// ---- Scaling pre-check -----------------------------------------------------------------------

struct SizeProblem {
    int value = 0;
    std::string message;
};
// The config at each value of `axis`.
std::vector<ExperimentConfig> scalingConfigs(const ExperimentConfig& config, ScalingAxis axis,
                                             const std::vector<int>& values);
// The first value whose config is invalid, with the first problem; nothing when all are valid.
std::optional<SizeProblem> firstInvalidSize(const ExperimentConfig& config, ScalingAxis axis,
                                            const std::vector<int>& values);

// ---- The whole pre-run check, one call -------------------------------------------------------

struct SweepRequestData {
    SweepKind kind = SweepKind::Sweep;
    ExperimentConfig config;
    std::vector<std::string> checked;  // the strategies the user checked, as text
    ScalingAxis axis = ScalingAxis::Depth;
    std::vector<int> values;  // scaling only
};

struct SweepCheck {
    enum class Verdict { Ok, InvalidConfig, NoStrategy, InvalidStrategy, InvalidSize, DoesNotFit };
    Verdict verdict = Verdict::Ok;
    std::vector<std::string> strategies;  // what the sweep runs (sweepStrategies)
    std::string configError;              // InvalidConfig
    std::vector<std::string> invalid;     // InvalidStrategy: "text: why"
    std::optional<SizeProblem> size;      // InvalidSize
    // One forecast per config the sweep visits (one, or one per scaling value), in order; on
    // DoesNotFit the last is the refused one. Near-limit ones are for the caller to confirm.
    struct At {
        std::optional<int> value;  // the scaling value, for a scaling sweep
        FitForecast forecast;
    };
    std::vector<At> forecasts;
    bool ok() const { return verdict == Verdict::Ok; }
};
// Everything the app checks before a sweep, in the order the runner would refuse it.
// `available`: the device's free bytes (availableMemory in runner.h), 0 when unknown.
SweepCheck checkSweep(const SweepRequestData& request, std::int64_t available);

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
    std::string strategy;  // as asked for
    bool ok = false;       // false: `error` says why (bad text, budget below the minimum)
    std::string error;
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
                               const std::vector<std::string>& strategies);

}  // namespace ckptlab
