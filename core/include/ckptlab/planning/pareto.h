#pragma once
// The whole memory-time curve: which optimal budgets to run between the smallest feasible peak
// and the no-checkpoint peak, the planner's predicted frontier, and how the hand-written
// strategies compare with it. Shared by `ckptlab-cli pareto` and the app's Pareto sweep.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ckptlab/model/core_message.h"
#include "ckptlab/model/result.h"
#include "ckptlab/planning/cost_model.h"
#include "ckptlab/planning/planner.h"

namespace ckptlab {

struct ParetoPlan {
    std::vector<Strategy> strategies;     // hand-written first, then optimal:<MiB> budgets
    std::vector<FrontierPoint> frontier;  // predicted, fastest plan per budget, by peak
    std::int64_t minimum_peak = 0;        // smallest peak any schedule reaches (predicted)
    std::int64_t no_checkpoint_peak = 0;  // the `none` plan's predicted peak
};

// A Pareto sweep runs between kParetoMinPoints and kParetoMaxPoints optimal budgets.
inline constexpr int kParetoMinPoints = 2;
inline constexpr int kParetoMaxPoints = 50;
// "points must be between 2 and 50 (got N)" when `points` is out of range, else nothing.
std::optional<CoreMessage> paretoPointsError(int points);

// Indices of the (x, y) points no other point beats in both (another with x <= and y <=, and
// smaller in one of them), sorted by x ascending. Exact duplicates are both kept.
std::vector<int> paretoFrontier(const std::vector<std::pair<double, double>>& points);

// The hand-written strategies a Pareto sweep compares by default, before any depth: the seed
// tradeoff preset and sqrt.
std::vector<Strategy> paretoDefaultWanted();
// paretoDefaultWanted, those that exist for this depth and block.
std::vector<Strategy> defaultParetoStrategies(int depth, BlockKind block);

// The step in MiB that budgets up to `highBytes` are named in: 0.01, 0.1 or 1 by size, so
// names stay short and readable.
double budgetStepMib(std::int64_t highBytes);

// `points` budgets (2..50) spread evenly from the smallest feasible peak to the no-checkpoint
// peak, named in readable MiB steps; the ends round up so the smallest stays feasible.
ParetoPlan planPareto(const CostModel& costs, const std::vector<Strategy>& handWritten, int points);

// The predicted step time of the optimal schedule within `peakBytes` (plus the planner's
// rounding), for comparing a strategy that reached that peak. Negative when none fits.
double optimalStepAt(const OptimalPlanner& planner, std::int64_t peakBytes);

}  // namespace ckptlab
