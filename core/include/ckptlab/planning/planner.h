#pragma once
// Computed schedules: the time-optimal plan for a memory budget (a dynamic program over the
// chain in the style of rotor, Beaumont et al. 2019, with recomputation at several levels) and
// Griewank's Revolve binomial schedule.

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ckptlab/model/core_message.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/cost_model.h"

namespace ckptlab {

// The budget is below the smallest feasible schedule; `minimum` is that schedule's peak.
struct BudgetError : std::invalid_argument, CarriesMessage {
    BudgetError(CoreMessage message, std::int64_t minimum)
        : std::invalid_argument(message.english),
          CarriesMessage(std::move(message)),
          minimum(minimum) {}
    std::int64_t minimum;
};

// Sub-blocks ("units") of a block: 1 for ffn, 2 for transformer (attention, then ffn). The one
// place that says so: unit-level plans, schedules, forward counts and the cost model use it.
int unitsPerBlockOf(BlockKind block);

// The same plan with bounds in units; `subLayer` becomes per-unit segments.
Plan toUnitLevel(const Plan& plan, int unitsPerBlock);

// Block-level plan of a strategy. Optimal needs measured costs: it throws
// std::invalid_argument; use resolvePlan (plan_of_strategy.h), which plans it on the cost model.
Plan makePlan(const Strategy& strategy, int depth);

// The DP's time grows as units^3 x quanta. Measured on the 2-core CI-sized machine with
// `ckptlab-cli plan --points 2` (tiny blocks, so the planner dominates): 3.7 s at 64 units,
// 26 s at 128 and 242 s at 256. So optimal:MiB, pareto and plan refuse chains longer than
// kPlannerMaxUnits up front, and the per-run "vs optimal" comparison (finer quanta, one plan
// per run, about 6 s each at 64 units) is skipped with a note above kComparisonMaxUnits.
inline constexpr int kPlannerMaxUnits = 128;
inline constexpr int kComparisonMaxUnits = 64;

// Units the planner sees for a config: depth x sub-blocks per block (1 ffn, 2 transformer).
int plannerUnits(const ExperimentConfig& config);

// Nothing when the planner takes this config, else a message naming the limit, the config's
// depth and units, and the depths it takes: PlannerTooManyUnits for `what` (a strategy's name
// or a command, "plan").
std::optional<CoreMessage> plannerLimitError(const ExperimentConfig& config,
                                             const std::string& what);
// The same for a Pareto sweep, which plans the whole curve (ParetoTooManyUnits).
std::optional<CoreMessage> paretoPlannerLimitError(const ExperimentConfig& config);

struct PlannedSchedule {
    Plan plan;              // unit level
    Prediction prediction;  // of `plan`, by predict()
};

class OptimalPlanner {
public:
    // `quanta`: memory is planned in steps of budget/quanta bytes, rounded so that a plan the
    // planner accepts never exceeds the budget in predict()'s replay.
    explicit OptimalPlanner(const CostModel& model, int quanta = 300);

    // Fastest plan whose predicted peak (bytes above the step's start) is within `budget`, to
    // within roundingSlack, and never slower than a built-in strategy that fits the budget.
    // Throws BudgetError naming the minimum when no plan fits.
    PlannedSchedule plan(std::int64_t budgetBytes) const;

    // How far above `budgetBytes` a plan's true peak may lie and still be missed: every unit
    // and level rounds its memory up by less than one quantum. Compare strategies with it.
    std::int64_t roundingSlack(std::int64_t budgetBytes) const;

    // Smallest peak any plan of the class reaches, exactly: the replayed peak of the
    // least-peak schedule, never above a built-in strategy's; plan() at it succeeds.
    std::int64_t minimumPeak() const;

private:
    bool tryPlan(std::int64_t budgetBytes, PlannedSchedule* out) const;

    CostModel model_;
    int quanta_;
    // Weighed at every budget by their exact peaks besides the DP's plan: every built-in
    // strategy's plan (none first) and the least-peak schedule.
    std::vector<PlannedSchedule> candidates_;
    std::int64_t floor_ = 0;
};

// Every schedule of the planner's class over `units` units: sequences of plain units and
// checkpoints whose bodies are such sequences again (a body is never one checkpoint of itself),
// unit level. Exponential (2,190,848 schedules for 8 units): for checking the planner.
void forEachSchedule(int units, const std::function<void(const Plan&)>& visit);

// The planner's answer found the slow way: the fastest schedule of forEachSchedule within
// `budget`, and how many schedules it looked at. Throws std::invalid_argument for more than
// kBruteForceMaxUnits units and BudgetError when nothing fits.
inline constexpr int kBruteForceMaxUnits = 8;
struct BruteForceResult {
    PlannedSchedule best;
    long long schedules = 0;
};
BruteForceResult bruteForcePlan(const CostModel& model, std::int64_t budget);

// Revolve (Griewank 1992) over `steps` blocks with `slots` stored states: the binomial schedule
// with the fewest forward recomputations. Block level; `slots` >= 1.
Plan revolvePlan(int steps, int slots);

// Forward steps run without grad: the initial sweep's advances plus every recompute's.
int noGradForwardCount(const Plan& plan);

// The schedule as text: "ckpt[0,4){ckpt[0,2){0 1} 2 3} 4 5 ..."; units, nesting in braces.
std::string describeSchedule(const Plan& plan);

// How many times each unit's forward runs in one step (1 = never recomputed).
std::vector<int> forwardCounts(const Plan& plan, int units);

// Reads describeSchedule's text back into a unit-level plan, so a results file's schedule can
// be drawn. Throws std::invalid_argument naming the character where the text goes wrong.
Plan parseSchedule(const std::string& text);

// Every checkpointed segment with its nesting level (0 = outermost), in the order they start:
// each keeps its input `begin` stored until its backward.
struct CheckpointSpan {
    int begin = 0;
    int end = 0;
    int level = 0;
};
std::vector<CheckpointSpan> checkpointSpans(const Plan& plan);

}  // namespace ckptlab
