#pragma once
// The unit-level plan a strategy or a recorded run runs (resolvePlan, recordedPlan). Planning room
// (docs/ARCHITECTURE.md): no LibTorch, no Qt.

#include "ckptlab/model/result.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/cost_model.h"
#include "ckptlab/planning/planner.h"

namespace ckptlab {

// The unit-level plan a strategy runs on a chain with these costs: optimal:MiB is planned by
// `planner` (built from `costs`; made here when null), every other kind is built (makePlan)
// and refined to units. Throws BudgetError when a budget fits no schedule.
Plan resolvePlan(const Strategy& strategy, const CostModel& costs,
                 const OptimalPlanner* planner = nullptr);

// The unit-level plan a recorded run ran: its schedule text when the file has one, else its
// strategy's plan. Throws std::invalid_argument when neither says (an optimal run without its
// schedule).
Plan recordedPlan(const RunResult& run);

}  // namespace ckptlab
