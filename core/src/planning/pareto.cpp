#include "ckptlab/planning/pareto.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "ckptlab/model/summary.h"
#include "ckptlab/planning/planner.h"

namespace ckptlab {

namespace {

// A budget with a readable name: 0.01, 0.1 or 1 MiB steps by size, rounded up at the ends of
// the range and to the nearest in between, but never below `low`, the smallest feasible peak
// (a range narrower than one step would otherwise round below it).
Strategy optimalBudget(std::int64_t bytes, std::int64_t low, std::int64_t high, bool up) {
    const double step = budgetStepMib(high);
    const double steps = static_cast<double>(bytes) / kMiB / step;
    Strategy s{StrategyKind::Optimal, 0};
    s.budget_mib = (up ? std::ceil(steps - 1e-9) : std::round(steps)) * step;
    // The runner reads the budget back as whole bytes: compare what it will see.
    if (static_cast<std::int64_t>(s.budget_mib * 1024 * 1024) < low)
        s.budget_mib = std::ceil(static_cast<double>(low) / kMiB / step) * step;
    return s;
}

constexpr int kFrontierSamples = 40;

}  // namespace

double budgetStepMib(std::int64_t highBytes) {
    return highBytes < 10 * kMiB ? 0.01 : highBytes < 100 * kMiB ? 0.1 : 1.0;
}

std::vector<Strategy> paretoDefaultWanted() {
    std::vector<Strategy> wanted = presetStrategies(kDefaultPreset);
    wanted.push_back(Strategy{StrategyKind::Sqrt});
    return wanted;
}

std::vector<Strategy> defaultParetoStrategies(int depth, BlockKind block) {
    std::vector<Strategy> valid;
    for (const Strategy& strategy : paretoDefaultWanted()) {
        try {
            checkStrategy(strategy, depth, block);
            valid.push_back(strategy);
        } catch (const StrategyError&) {
            // e.g. from:10 on a depth-4 model: not this model's strategy
        }
    }
    return valid;
}

ParetoPlan planPareto(const CostModel& costs, const std::vector<Strategy>& handWritten,
                      int points) {
    if (const auto error = paretoPointsError(points)) throw std::invalid_argument(error->english);
    ParetoPlan result;
    const OptimalPlanner planner(costs);
    result.minimum_peak = planner.minimumPeak();
    Plan none;
    none.segments.push_back({0, static_cast<int>(costs.units.size()), false, {}});
    none.unitLevel = true;
    result.no_checkpoint_peak = predict(costs, none).peak_bytes;
    const std::int64_t low = result.minimum_peak;
    const std::int64_t high = std::max(result.no_checkpoint_peak, low);

    result.strategies = handWritten;
    for (int i = 0; i < points; ++i) {
        const std::int64_t budget = low + (high - low) * i / (points - 1);
        const Strategy optimal = optimalBudget(budget, low, high, i == 0 || i == points - 1);
        const auto& listed = result.strategies;
        if (std::find(listed.begin(), listed.end(), optimal) == listed.end())
            result.strategies.push_back(optimal);
    }
    for (int i = 0; i <= kFrontierSamples; ++i) {
        try {
            const auto p = planner.plan(low + (high - low) * i / kFrontierSamples).prediction;
            if (result.frontier.empty() || p.step_ms < result.frontier.back().step_ms - 1e-9)
                result.frontier.push_back({p.peak_bytes, p.step_ms});
        } catch (const BudgetError&) {
            // the rounding made the lowest budget infeasible: the next sample covers it
        }
    }
    return result;
}

double optimalStepAt(const OptimalPlanner& planner, std::int64_t peakBytes) {
    try {
        return planner.plan(peakBytes + planner.roundingSlack(peakBytes)).prediction.step_ms;
    } catch (const BudgetError&) {
        return -1;
    }
}

std::optional<CoreMessage> paretoPointsError(int points) {
    if (points >= kParetoMinPoints && points <= kParetoMaxPoints) return std::nullopt;
    return CoreMessage{MessageCode::FieldOutOfRange,
                       {"points", std::to_string(kParetoMinPoints),
                        std::to_string(kParetoMaxPoints), std::to_string(points)}};
}

std::vector<int> paretoFrontier(const std::vector<std::pair<double, double>>& points) {
    std::vector<int> order(points.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    // By x, then y, so a sweep keeping the lowest y seen so far finds the frontier.
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        if (points[a].first != points[b].first) return points[a].first < points[b].first;
        return points[a].second < points[b].second;
    });
    std::vector<int> frontier;
    for (int index : order) {
        const auto& p = points[index];
        if (!frontier.empty()) {
            const auto& last = points[frontier.back()];
            // `last` has x <= p.x; it dominates p unless p is strictly faster or an exact copy.
            if (p.second > last.second || (p.second == last.second && p.first != last.first))
                continue;
        }
        frontier.push_back(index);
    }
    return frontier;
}

}  // namespace ckptlab
