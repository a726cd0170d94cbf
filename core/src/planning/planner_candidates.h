#pragma once
// Schedules the optimal planner weighs besides its quantised dynamic program, each judged by its
// exact replayed peak, so rounding never hides them: the schedule of the class with the least
// peak (which makes the planner's floor exact) and every built-in strategy's plan.

#include <vector>

#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/cost_model.h"

namespace ckptlab {

// Unit-level plan of the least peak over the planner's class (forEachSchedule), the fastest
// found among equal peaks; computed in bytes, without quanta, by the DP's own memory terms.
Plan leastPeakPlan(const CostModel& model);

// Unit-level plans of every built-in strategy with every parameter the model's depth allows
// (none, full, every:N, segments:K, from:K, upto:K, sqrt, attn, ffn, revolve:S, ...), except
// optimal:MiB, which is what is being planned, and seed-bug:K, whose recompute is wrong.
std::vector<Plan> builtInPlans(const CostModel& model);

}  // namespace ckptlab
