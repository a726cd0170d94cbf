// The rules both front ends apply to a sweep (plan_of_strategy.h, sweep_memory.h, curve_standing.h,
// cost_forecast.h): plan resolution, the fit
// forecast, the Pareto verdict and the forecast from costs. The pre-run check itself is in
// sweep_policy_check.cpp.
#include "ckptlab/planning/cost_forecast.h"
#include "ckptlab/planning/curve_standing.h"
#include "ckptlab/planning/plan_of_strategy.h"
#include "ckptlab/planning/sweep_memory.h"

#include <algorithm>

#include "ckptlab/model/saturating.h"
#include "ckptlab/model/size_text.h"
#include "ckptlab/planning/pareto.h"

namespace ckptlab {

Plan resolvePlan(const Strategy& strategy, const CostModel& costs, const OptimalPlanner* planner) {
    if (needsCostModel(strategy)) {
        if (planner) return planner->plan(budgetBytes(strategy)).plan;
        return OptimalPlanner(costs).plan(budgetBytes(strategy)).plan;
    }
    const int depth = static_cast<int>(costs.units.size()) / costs.unitsPerBlock();
    return toUnitLevel(makePlan(strategy, depth), costs.unitsPerBlock());
}

Plan recordedPlan(const RunResult& run) {
    if (!run.schedule.empty()) return parseSchedule(run.schedule);
    if (needsCostModel(run.strategy))
        throw std::invalid_argument("this file does not record the optimal schedule");
    return toUnitLevel(makePlan(run.strategy, run.config.depth), unitsPerBlockOf(run.config.block));
}

StrategyEstimate estimateStrategy(const ExperimentConfig& config, const Strategy& strategy) {
    StrategyEstimate out;
    if (!needsCostModel(strategy)) {
        out.estimate = estimateMemory(config, makePlan(strategy, config.depth));
        return out;
    }
    // The planner keeps the predicted peak within the budget, and never above the plan
    // without checkpoints: the smaller of the two bounds it.
    out.estimate = estimateMemory(config, makePlan(Strategy{}, config.depth));
    const std::int64_t budget = budgetBytes(strategy);
    out.estimate.peak = std::min(out.estimate.peak, budget);
    out.estimate.activations = std::min(out.estimate.activations, budget);
    out.budgetBound = true;
    return out;
}

std::int64_t runnerNeed(const MemoryEstimate& e) {
    return sat::add(e.total(), sat::mul(2, e.parameters), e.input);
}

SweepNeed sweepNeed(const ExperimentConfig& config, const std::vector<Strategy>& strategies) {
    SweepNeed need;
    for (const Strategy& strategy : strategies) {
        const StrategyEstimate e = estimateStrategy(config, strategy);
        const std::int64_t bytes = runnerNeed(e.estimate);
        if (bytes > need.predicted || need.worst.empty()) {
            need.predicted = std::max(need.predicted, bytes);
            need.worst = strategy.name();
            need.worstIsBound = e.budgetBound;
        }
    }
    return need;
}

CoreMessage doesNotFitMessage(const SweepNeed& need, std::int64_t available,
                              const std::string& device) {
    // Whole MiB where that tells the two apart, more digits where it does not.
    const std::vector<std::int64_t> sizes = {need.predicted, available};
    const std::vector<std::string> texts = mibTexts(sizes, 0);
    auto mib = [&](std::size_t i) {
        return sat::saturated(sizes[i]) ? std::string("more than 8 EiB") : texts[i] + " MiB";
    };
    return {need.worstIsBound ? MessageCode::DoesNotFitBudgetBound : MessageCode::DoesNotFit,
            {need.worst, mib(0), mib(1), device}};
}

FitForecast forecastFit(const ExperimentConfig& config, const std::vector<Strategy>& strategies,
                        std::int64_t available) {
    if (const auto errors = validate(config); !errors.empty()) {
        FitForecast f;
        f.error = errors.front().message;
        return f;
    }
    return forecastValidFit(config, strategies, available);
}

FitForecast forecastValidFit(const ExperimentConfig& config,
                             const std::vector<Strategy>& strategies, std::int64_t available) {
    FitForecast f;
    const MemoryEstimate none = estimateMemory(config, makePlan(Strategy{}, config.depth));
    f.none = none.total();
    f.baseline = sat::add(none.parameters, none.input, none.optimizer_state);
    f.available = available;
    f.valid = true;
    std::vector<Strategy> fitting;
    f.largest = f.none;
    bool anyFits = false;
    for (const Strategy& strategy : strategies) {
        try {
            checkStrategy(strategy, config.depth, config.block);
        } catch (const StrategyError& e) {
            f.invalid.push_back({strategy.name(), e.message});
            continue;
        }
        fitting.push_back(strategy);
        const StrategyEstimate e = estimateStrategy(config, strategy);
        if (!anyFits || e.estimate.total() > f.largest) {
            f.largest = e.estimate.total();
            f.largestStrategy = strategy;
            f.largestIsBaseline = isBaseline(strategy);
            f.largestIsBound = e.budgetBound;
            anyFits = true;
        }
    }
    if (fitting.empty()) fitting = {Strategy{}};
    const SweepNeed need = sweepNeed(config, fitting);
    if (available > 0 && need.predicted > available) {
        f.refused = true;
        f.refusal = doesNotFitMessage(need, available, config.device);
        f.runnerPredicted = need.predicted;
    }
    return f;
}

CurveStanding standingFor(double slower) {
    if (slower < kBelowCurvePct) return CurveStanding::Below;
    if (slower < kOnCurvePct) return CurveStanding::OnCurve;
    return CurveStanding::Above;
}

std::vector<HandWrittenStanding> standingsAgainstOptimal(const ResultSet& results,
                                                         const std::vector<SummaryRow>& rows) {
    std::vector<HandWrittenStanding> out;
    for (std::size_t i = 0; i < rows.size() && i < results.runs.size(); ++i) {
        if (hasMemoryBudget(results.runs[i].strategy) || !rows[i].slower_than_optimal_pct) continue;
        const double slower = *rows[i].slower_than_optimal_pct;
        out.push_back({i, slower, standingFor(slower)});
    }
    return out;
}

CostForecast forecastFromCosts(const CostModel& costs, const ExperimentConfig& config,
                               const std::vector<Strategy>& strategies) {
    CostForecast result;
    const OptimalPlanner planner(costs);
    const Prediction none = predict(costs, makePlan(Strategy{}, config.depth));
    result.none_peak = none.peak_bytes;
    result.none_ms = none.step_ms;
    result.minimum_peak = planner.minimumPeak();  // an exact replayed peak (planner.h)
    for (const Strategy& s : strategies) {
        CostForecastEntry f;
        f.strategy = s;
        try {
            checkStrategy(s, config.depth, config.block);
            const Prediction p = needsCostModel(s) ? planner.plan(budgetBytes(s)).prediction
                                                   : predict(costs, makePlan(s, config.depth));
            f.ok = true;
            f.peak_bytes = p.peak_bytes;
            f.activation_bytes = p.activation_bytes;
            f.step_ms = p.step_ms;
        } catch (const std::exception& e) {
            // Not this model's, or a budget below the smallest schedule: core's own errors.
            const CoreMessage* why = coreMessageOf(e);
            if (!why) throw;
            f.error = *why;
        }
        result.strategies.push_back(f);
    }
    return result;
}

}  // namespace ckptlab
