// The rules both front ends apply to a sweep (sweep_policy.h): plan resolution, the fit
// forecast, the strategies a sweep runs, the scaling pre-check and the Pareto verdict.
#include "ckptlab/sweep_policy.h"

#include <algorithm>

#include "ckptlab/pareto.h"
#include "ckptlab/saturating.h"
#include "ckptlab/size_text.h"

namespace ckptlab {

Plan resolvePlan(const Strategy& strategy, const CostModel& costs, const OptimalPlanner* planner) {
    if (needsCostModel(strategy)) {
        if (planner) return planner->plan(budgetBytes(strategy)).plan;
        return OptimalPlanner(costs).plan(budgetBytes(strategy)).plan;
    }
    const int depth = static_cast<int>(costs.units.size()) / std::max(1, costs.unitsPerBlock);
    return toUnitLevel(makePlan(strategy, depth), costs.unitsPerBlock);
}

Plan recordedPlan(const RunResult& run) {
    if (!run.schedule.empty()) return parseSchedule(run.schedule);
    const Strategy s = parseStrategy(run.strategy, run.config.depth, run.config.block);
    if (needsCostModel(s))
        throw std::invalid_argument("this file does not record the optimal schedule");
    const int unitsPerBlock = run.config.block == BlockKind::Transformer ? 2 : 1;
    return toUnitLevel(makePlan(s, run.config.depth), unitsPerBlock);
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

std::string doesNotFitMessage(const SweepNeed& need, std::int64_t available,
                              const std::string& device) {
    // Whole MiB where that tells the two apart, more digits where it does not.
    const std::vector<std::int64_t> sizes = {need.predicted, available};
    const std::vector<std::string> texts = mibTexts(sizes, 0);
    auto mib = [&](std::size_t i) {
        return sat::saturated(sizes[i]) ? std::string("more than 8 EiB") : texts[i] + " MiB";
    };
    return "config does not fit: strategy " + need.worst +
           (need.worstIsBound ? " (its budget taken as the upper bound of its peak)" : "") +
           " is predicted to need " + mib(0) + " but only " + mib(1) + " are available on " +
           device;
}

FitForecast forecastFit(const ExperimentConfig& config, const std::vector<std::string>& strategies,
                        std::int64_t available) {
    FitForecast f;
    if (const auto errors = validate(config); !errors.empty()) {
        f.error = errors.front().message;
        return f;
    }
    const MemoryEstimate none = estimateMemory(config, makePlan(Strategy{}, config.depth));
    f.none = none.total();
    f.baseline = sat::add(none.parameters, none.input, none.optimizer_state);
    f.available = available;
    f.valid = true;
    std::vector<Strategy> parsed;
    f.largest = 0;
    f.largestStrategy.clear();
    for (const std::string& text : strategies) {
        std::string why;
        const auto s = tryParseStrategy(text, config.depth, config.block, &why);
        if (!s) {
            f.invalid.push_back(text + ": " + why);
            continue;
        }
        parsed.push_back(*s);
        const StrategyEstimate e = estimateStrategy(config, *s);
        if (e.estimate.total() > f.largest) {
            f.largest = e.estimate.total();
            f.largestStrategy = text;
            f.largestIsBaseline = isBaseline(*s);
            f.largestIsBound = e.budgetBound;
        }
    }
    if (f.largestStrategy.empty()) {
        f.largest = f.none;
        f.largestStrategy = Strategy{}.name();
        f.largestIsBaseline = true;
        f.largestIsBound = false;
        parsed = {Strategy{}};
    }
    const SweepNeed need = sweepNeed(config, parsed);
    if (available > 0 && need.predicted > available) {
        f.refused = true;
        f.refusal = doesNotFitMessage(need, available, config.device);
        f.runnerPredicted = need.predicted;
    }
    return f;
}

std::vector<std::string> defaultScalingStrategies() { return {"none", "sqrt", "full"}; }

std::vector<std::string> defaultSweepStrategies() { return {"none", "full", "every:2", "sqrt"}; }

std::vector<std::string> sweepStrategies(SweepKind kind, const std::vector<std::string>& checked,
                                         int depth, BlockKind block) {
    if (kind == SweepKind::Sweep) return checked;
    std::vector<std::string> kept;
    for (const std::string& text : checked) {
        const auto s = tryParseStrategy(text, depth, block);
        if (!s || !hasMemoryBudget(*s)) kept.push_back(text);
    }
    if (!kept.empty()) return kept;
    return kind == SweepKind::Scaling ? defaultScalingStrategies()
                                      : defaultParetoStrategies(depth, block);
}

std::vector<ExperimentConfig> scalingConfigs(const ExperimentConfig& config, ScalingAxis axis,
                                             const std::vector<int>& values) {
    std::vector<ExperimentConfig> configs;
    for (int value : values) {
        ExperimentConfig c = config;
        setAxisValue(c, axis, value);
        configs.push_back(c);
    }
    return configs;
}

std::optional<SizeProblem> firstInvalidSize(const ExperimentConfig& config, ScalingAxis axis,
                                            const std::vector<int>& values) {
    const auto configs = scalingConfigs(config, axis, values);
    for (std::size_t i = 0; i < configs.size(); ++i) {
        if (const auto errors = validate(configs[i]); !errors.empty())
            return SizeProblem{values[i], errors.front().message};
    }
    return std::nullopt;
}

SweepCheck checkSweep(const SweepRequestData& request, std::int64_t available) {
    SweepCheck check;
    if (const auto errors = validate(request.config); !errors.empty()) {
        check.verdict = SweepCheck::Verdict::InvalidConfig;
        check.configError = errors.front().message;
        return check;
    }
    check.strategies =
        sweepStrategies(request.kind, request.checked, request.config.depth, request.config.block);
    if (check.strategies.empty()) {
        check.verdict = SweepCheck::Verdict::NoStrategy;
        return check;
    }
    for (const std::string& text : request.checked) {
        std::string why;
        if (!tryParseStrategy(text, request.config.depth, request.config.block, &why))
            check.invalid.push_back(text + ": " + why);
    }
    if (!check.invalid.empty()) {
        check.verdict = SweepCheck::Verdict::InvalidStrategy;
        return check;
    }
    std::vector<ExperimentConfig> configs{request.config};
    if (request.kind == SweepKind::Scaling) {
        if ((check.size = firstInvalidSize(request.config, request.axis, request.values))) {
            check.verdict = SweepCheck::Verdict::InvalidSize;
            return check;
        }
        configs = scalingConfigs(request.config, request.axis, request.values);
    }
    for (std::size_t i = 0; i < configs.size(); ++i) {
        SweepCheck::At at;
        if (request.kind == SweepKind::Scaling) at.value = request.values[i];
        at.forecast = forecastFit(configs[i], check.strategies, available);
        const bool refused = at.forecast.refused;
        check.forecasts.push_back(std::move(at));
        if (refused) {
            check.verdict = SweepCheck::Verdict::DoesNotFit;
            return check;
        }
    }
    return check;
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
        const auto s = strategyOf(results.runs[i]);
        if ((s && hasMemoryBudget(*s)) || !rows[i].slower_than_optimal_pct) continue;
        const double slower = *rows[i].slower_than_optimal_pct;
        out.push_back({i, slower, standingFor(slower)});
    }
    return out;
}

CostForecast forecastFromCosts(const CostModel& costs, const ExperimentConfig& config,
                               const std::vector<std::string>& strategies) {
    CostForecast result;
    const OptimalPlanner planner(costs);
    const Prediction none = predict(costs, makePlan(Strategy{}, config.depth));
    result.none_peak = none.peak_bytes;
    result.none_ms = none.step_ms;
    result.minimum_peak = planner.minimumPeak();  // an exact replayed peak (planner.h)
    for (const std::string& text : strategies) {
        CostForecastEntry f;
        f.strategy = text;
        try {
            const Strategy s = parseStrategy(text, config.depth, config.block);
            const Prediction p = needsCostModel(s) ? planner.plan(budgetBytes(s)).prediction
                                                   : predict(costs, makePlan(s, config.depth));
            f.ok = true;
            f.peak_bytes = p.peak_bytes;
            f.activation_bytes = p.activation_bytes;
            f.step_ms = p.step_ms;
        } catch (const std::exception& e) {
            f.error = e.what();
        }
        result.strategies.push_back(f);
    }
    return result;
}

}  // namespace ckptlab
