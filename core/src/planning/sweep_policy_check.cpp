// The pre-run check (sweep_strategies.h, sweep_check.h): which strategies a sweep runs and
// everything refused before it runs, for the app, the CLI and the runner alike. Each rule is
// written here once.
#include <algorithm>

#include "ckptlab/planning/pareto.h"
#include "ckptlab/planning/sweep_check.h"
#include "ckptlab/planning/sweep_memory.h"
#include "ckptlab/planning/sweep_strategies.h"

namespace ckptlab {

std::vector<Strategy> defaultScalingStrategies() {
    return {Strategy{StrategyKind::None}, Strategy{StrategyKind::Sqrt},
            Strategy{StrategyKind::Full}};
}

std::vector<Strategy> defaultSweepStrategies() {
    return {Strategy{StrategyKind::None}, Strategy{StrategyKind::Full},
            Strategy{StrategyKind::Every, 2}, Strategy{StrategyKind::Sqrt}};
}

std::vector<Strategy> sweepStrategies(SweepKind kind, const std::vector<Strategy>& checked,
                                      int depth, BlockKind block) {
    if (kind == SweepKind::Sweep) return checked;
    std::vector<Strategy> kept;
    for (const Strategy& strategy : checked)
        if (!hasMemoryBudget(strategy)) kept.push_back(strategy);
    if (!kept.empty()) return kept;
    return kind == SweepKind::Scaling ? defaultScalingStrategies()
                                      : defaultParetoStrategies(depth, block);
}

std::optional<CoreMessage> scalingValuesError(const std::vector<int>& values) {
    if (values.size() < kScalingMinValues) return CoreMessage(MessageCode::ScalingNeedsTwoValues);
    for (std::size_t i = 0; i < values.size(); ++i)
        for (std::size_t j = i + 1; j < values.size(); ++j)
            if (values[i] == values[j])
                return CoreMessage(
                    MessageCode::ScalingValueListedTwice,
                    {std::to_string(values[i]), std::to_string(i + 1), std::to_string(j + 1)});
    return std::nullopt;
}

std::optional<CoreMessage> duplicateStrategyError(const std::vector<Strategy>& strategies,
                                                  std::size_t* second) {
    for (std::size_t j = 1; j < strategies.size(); ++j)
        for (std::size_t i = 0; i < j; ++i)
            if (strategies[i] == strategies[j]) {
                if (second) *second = j;
                return CoreMessage(
                    MessageCode::StrategyListedTwice,
                    {strategies[j].name(), std::to_string(i + 1), std::to_string(j + 1)});
            }
    return std::nullopt;
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

namespace {

using Verdict = SweepCheck::Verdict;

bool refuse(SweepCheck& check, Verdict verdict, CoreMessage problem) {
    check.verdict = verdict;
    check.problem = std::move(problem);
    return false;
}

// A problem found at one size of a scaling sweep says which.
CoreMessage atSize(const SweepRequestData& request, const ExperimentConfig& config,
                   CoreMessage problem) {
    if (request.kind != SweepKind::Scaling) return problem;
    return CoreMessage(MessageCode::AtScalingValue,
                       {toString(request.axis), std::to_string(axisValue(config, request.axis))},
                       {std::move(problem)});
}

// The request's own numbers, before any strategy: the config, a Pareto sweep's points and
// chain, the scaling values and each size's config. False when refused.
bool checkShape(const SweepRequestData& request, SweepCheck& check) {
    if (const auto errors = validate(request.config); !errors.empty())
        return refuse(check, Verdict::InvalidConfig, errors.front().message);
    if (request.kind == SweepKind::Pareto) {
        if (auto error = paretoPointsError(request.paretoPoints))
            return refuse(check, Verdict::InvalidPoints, std::move(*error));
        if (auto error = paretoPlannerLimitError(request.config))
            return refuse(check, Verdict::PlannerLimit, std::move(*error));
    }
    if (request.kind == SweepKind::Scaling) {
        if (auto error = scalingValuesError(request.values))
            return refuse(check, Verdict::InvalidValues, std::move(*error));
        if ((check.size = firstInvalidSize(request.config, request.axis, request.values))) {
            const ExperimentConfig at =
                scalingConfigs(request.config, request.axis, {check.size->value}).front();
            return refuse(check, Verdict::InvalidSize, atSize(request, at, check.size->message));
        }
    }
    return true;
}

// Why `strategy` cannot run on `config`: not this model's, or an optimal budget on a chain
// longer than the planner takes. Nothing when it can.
std::optional<CoreMessage> strategyProblem(const Strategy& strategy,
                                           const ExperimentConfig& config) {
    try {
        checkStrategy(strategy, config.depth, config.block);
    } catch (const StrategyError& e) {
        return e.message;
    }
    if (needsCostModel(strategy)) return plannerLimitError(config, strategy.name());
    return std::nullopt;
}

// Every strategy against every config the sweep visits, and no strategy twice. False when
// refused; `invalid` lists each problem, the boundary's unparsed texts first.
bool checkStrategies(const SweepRequestData& request, const std::vector<ExperimentConfig>& configs,
                     SweepCheck& check) {
    check.invalid = request.unparsed;
    for (const Strategy& strategy : check.strategies) {
        for (const ExperimentConfig& config : configs) {
            if (auto why = strategyProblem(strategy, config)) {
                check.invalid.push_back({strategy.name(), atSize(request, config, *why)});
                break;  // one problem per strategy: the first size it fails at
            }
        }
    }
    std::size_t repeat = 0;
    if (auto twice = duplicateStrategyError(check.strategies, &repeat))
        check.invalid.push_back({check.strategies[repeat].name(), std::move(*twice)});
    if (check.invalid.empty()) return true;
    return refuse(check, Verdict::InvalidStrategy, check.invalid.front().why);
}

}  // namespace

SweepCheck checkSweep(const SweepRequestData& request, std::int64_t available) {
    return checkSweep(request, [available](const std::string&) { return available; });
}

SweepCheck checkSweep(const SweepRequestData& request, const AvailableMemoryOf& availableOf) {
    SweepCheck check;
    if (!checkShape(request, check)) return check;
    const ExperimentConfig& config = request.config;
    const std::int64_t available = availableOf(config.device);
    check.strategies = sweepStrategies(request.kind, request.checked, config.depth, config.block);
    if (check.strategies.empty() && request.unparsed.empty()) {
        refuse(check, Verdict::NoStrategy, CoreMessage(MessageCode::NoStrategy));
        return check;
    }
    const bool scaling = request.kind == SweepKind::Scaling;
    const std::vector<ExperimentConfig> configs =
        scaling ? scalingConfigs(config, request.axis, request.values)
                : std::vector<ExperimentConfig>{config};
    if (!checkStrategies(request, configs, check)) return check;
    for (std::size_t i = 0; i < configs.size(); ++i) {
        SweepCheck::At at;
        if (scaling) at.value = request.values[i];
        at.forecast = forecastValidFit(configs[i], check.strategies, available);
        check.forecasts.push_back(std::move(at));
        const FitForecast& f = check.forecasts.back().forecast;
        if (f.refused) {
            const SweepNeed need = sweepNeed(configs[i], check.strategies);
            refuse(check, Verdict::DoesNotFit,
                   atSize(request, configs[i], doesNotFitMessage(need, available, config.device)));
            return check;
        }
    }
    return check;
}

}  // namespace ckptlab
