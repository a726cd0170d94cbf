#include "ckptlab/runner.h"

#include <torch/torch.h>

#include <limits>

#include "ckptlab/cost_model.h"
#include "ckptlab/estimate.h"
#include "ckptlab/flops.h"
#include "ckptlab/pareto.h"
#include "ckptlab/planner.h"
#include "ckptlab/saturating.h"
#include "ckptlab/strategy.h"
#include "ckptlab/sweep_policy.h"
#include "engine/grad_check.h"
#include "engine/machine_load.h"
#include "engine/measure_run.h"
#include "engine/measurement_scope.h"
#include "engine/reference_gradients.h"
#include "engine/step.h"
#include "engine/timed_rounds.h"

namespace ckptlab {
namespace {

using engine::ProgressCounter;
using engine::StepContext;
using engine::stepsPerRun;
using engine::Workbench;

torch::Device resolveDevice(const std::string& name) {
    const auto index = parseDeviceIndex(name);
    if (!index) throw ConfigError("device must be cpu, cuda or cuda:N (got \"" + name + "\")");
    if (*index < 0) return torch::kCPU;
    if (!torch::cuda::is_available())
        throw ConfigError("device must be cpu: this LibTorch has no usable CUDA (got \"" + name +
                          "\")");
    const int count = static_cast<int>(torch::cuda::device_count());
    if (*index >= count)
        throw ConfigError("device must be cuda:0 to cuda:" + std::to_string(count - 1) +
                          " on this machine (got \"" + name + "\")");
    return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(*index));
}

// Enters the measurement scope of `config` (engine/measurement_scope.h): its thread count,
// no other measurement at the same time. Null when cancelled while waiting for one.
std::unique_ptr<engine::MeasurementScope> enterMeasurement(const ExperimentConfig& config,
                                                           const std::atomic<bool>* cancel) {
    try {
        return std::make_unique<engine::MeasurementScope>(config.threads, cancel);
    } catch (const engine::Cancelled&) {
        return nullptr;
    }
}

ResultSet cancelledBeforeStart() {
    ResultSet results;
    results.cancelled = true;
    return results;
}

}  // namespace

Runner::Runner() = default;
Runner::~Runner() = default;

void Runner::useCostModel(const CostModel& costs) { costs_ = std::make_unique<CostModel>(costs); }

namespace {

// Parses every strategy once, checks the config, the device, the planner's limits and the
// memory (sweep_policy.h): what sweep() refuses before anything runs.
std::vector<Strategy> checkedStrategies(const ExperimentConfig& config,
                                        const std::vector<std::string>& texts) {
    const auto errors = validate(config);
    if (!errors.empty()) throw ConfigError(errors.front().message);
    if (texts.empty()) throw ConfigError("strategies: give at least one strategy");
    resolveDevice(config.device);
    std::vector<Strategy> strategies;
    for (const auto& text : texts) {
        strategies.push_back(parseStrategy(text, config.depth, config.block));
        // The same strategy twice is a typo, and two rows of one name cannot be told apart.
        for (std::size_t i = 0; i + 1 < strategies.size(); ++i)
            if (strategies[i].name() == strategies.back().name())
                throw StrategyError("strategies: " + strategies.back().name() +
                                    " is listed twice (items " + std::to_string(i + 1) + " and " +
                                    std::to_string(strategies.size()) + ")");
        if (needsCostModel(strategies.back())) {
            if (auto error = plannerLimitError(config, strategies.back().name()); !error.empty())
                throw StrategyError(error);
        }
    }
    const SweepNeed need = sweepNeed(config, strategies);
    const std::int64_t available = availableMemory(config.device);
    if (available > 0 && need.predicted > available)
        throw MemoryError(doesNotFitMessage(need, available, config.device), need.predicted,
                          available);
    return strategies;
}

}  // namespace

void Runner::check(const ExperimentConfig& config, const std::vector<std::string>& strategies) {
    checkedStrategies(config, strategies);
}

ResultSet Runner::sweep(const ExperimentConfig& config, const std::vector<std::string>& strategies,
                        const RunnerHooks& hooks) {
    const std::vector<Strategy> parsed = checkedStrategies(config, strategies);
    const auto measuring = enterMeasurement(config, hooks.cancel);
    if (!measuring) return cancelledBeforeStart();
    const torch::Device device = resolveDevice(config.device);

    ResultSet results;
    results.environment = describeEnvironment(config);
    engine::LoadMonitor load;  // the machine's load and steal time around the rounds
    load.begin();
    ProgressCounter progress{hooks, 1 + stepsPerRun(config) * static_cast<int>(strategies.size())};
    if (hooks.progress) hooks.progress(0.0, "building the model");

    std::unique_ptr<Workbench> bench;
    std::vector<torch::Tensor> reference;
    CostModel costs;
    try {
        bench = std::make_unique<Workbench>(config, device);
        StepContext context;
        context.cancel = hooks.cancel;
        try {
            engine::runStep(*bench, makePlan(Strategy{}, config.depth), context);
            reference = engine::snapshot(bench->gradients());
        } catch (const std::exception& e) {
            if (!engine::isOutOfMemory(e)) throw;
            bench->clearGradients();
            reference = engine::snapshot(engine::unitByUnitReferenceGradients(*bench));
            results.notes.push_back(
                "the no-checkpoint reference step ran out of memory, so gradients are checked "
                "against a unit-by-unit reference (plain autograd, one unit recomputed at a "
                "time)");
        }
        bench->clearGradients();
        progress.step("reference gradients (none)");
        costs = costs_ ? *costs_ : measureCostModel(config, hooks.cancel);
    } catch (const engine::Cancelled&) {
        results.cancelled = true;
        return results;
    } catch (const std::exception& e) {
        // Without a model nothing can run: report it on every requested run.
        for (const auto& name : strategies) {
            RunResult failed;
            failed.config = config;
            failed.strategy = name;
            // c10::Error messages carry a C++ backtrace after the first line.
            const std::string message = e.what();
            failed.error = "could not build the model: " + message.substr(0, message.find('\n'));
            results.runs.push_back(failed);
            if (hooks.result) hooks.result(failed);
        }
        return results;
    }

    // Plan everything first: a budget no schedule fits is bad input, refused before any run.
    std::vector<Plan> plans;
    for (const Strategy& strategy : parsed) plans.push_back(resolvePlan(strategy, costs));

    // Finer than the planner's default so comparisons near the curve are not rounding.
    std::unique_ptr<OptimalPlanner> comparisonPlanner;
    if (static_cast<int>(costs.units.size()) <= kComparisonMaxUnits) {
        comparisonPlanner = std::make_unique<OptimalPlanner>(costs, 1000);
    } else {
        results.notes.push_back("\"vs optimal\" is not computed: the chain has " +
                                std::to_string(costs.units.size()) +
                                " units and the comparison plans at most " +
                                std::to_string(kComparisonMaxUnits) + " in reasonable time");
    }
    if (config.keep_grads) {
        results.notes.push_back(
            "no predictions for runs that start with kept gradients (keep_grads): the cost "
            "model replays a step that starts without them");
    }
    for (std::size_t i = 0; i < strategies.size(); ++i) {
        const Strategy& strategy = parsed[i];
        const Plan& plan = plans[i];
        RunResult run;
        const int doneBefore = progress.done;
        try {
            run = engine::measureRun(*bench, strategy, plan, reference, hooks, progress);
            // The cost model replays a step that starts without gradients; one that adds into
            // kept ones (keep_grads) allocates differently, so it gets no prediction at all
            // rather than a wrong one.
            if (!startsWithKeptGradients(config, strategy)) {
                const Prediction p = predict(costs, plan);
                run.prediction = PredictedMetrics{p.peak_bytes, p.activation_bytes, p.step_ms, {}};
                if (comparisonPlanner) {
                    if (const double best = optimalStepAt(*comparisonPlanner, p.peak_bytes);
                        best > 0)
                        run.prediction->optimal_step_ms = best;
                }
            }
            run.schedule = describeSchedule(plan);
            run.forward_counts = forwardCounts(plan, static_cast<int>(costs.units.size()));
        } catch (const engine::Cancelled&) {
            results.cancelled = true;
            break;
        } catch (const std::exception& e) {
            run = RunResult{};
            run.config = config;
            run.strategy = strategy.name();
            // c10::Error messages carry a C++ backtrace after the first line; keep the message.
            std::string message = e.what();
            run.error = message.substr(0, message.find('\n'));
            bench->clearGradients();
            progress.advance(doneBefore + stepsPerRun(config) - progress.done,
                             strategy.name() + ": failed");
        }
        results.runs.push_back(run);
        if (hooks.traced) {
            // Shown at once; the times follow after the rounds (RunnerHooks::traced).
            RunResult traced = run;
            const double notYet = std::numeric_limits<double>::quiet_NaN();
            Metrics& m = traced.metrics;
            m.step_ms = m.forward_ms = m.backward_ms = m.recompute_ms = m.optimizer_ms = notYet;
            hooks.traced(traced);
        }
    }
    // The timed steps of every strategy, interleaved in rounds (timed_rounds.h); each run is
    // handed on once its times are known.
    engine::timeInRounds(*bench, results, plans, hooks, progress, load);
    for (RunResult& run : results.runs) {
        setFlopMetrics(run);  // needs the final median step time and the forward counts
        if (hooks.result) hooks.result(run);
    }
    return results;
}

ResultSet Runner::pareto(const ExperimentConfig& config,
                         const std::vector<std::string>& handWritten, int points,
                         const RunnerHooks& hooks) {
    check(config, handWritten.empty() ? std::vector<std::string>{"none"} : handWritten);
    if (auto error = plannerLimitError(config, "pareto"); !error.empty()) throw ConfigError(error);
    if (auto error = paretoPointsError(points); !error.empty())
        throw ConfigError("points " + error);
    // One scope over the cost model and the sweep: both at the config's thread count.
    const auto measuring = enterMeasurement(config, hooks.cancel);
    if (!measuring) return cancelledBeforeStart();
    if (hooks.progress) hooks.progress(0.0, "measuring the cost model");
    CostModel costs;
    try {
        costs = measureCostModel(config, hooks.cancel);
    } catch (const engine::Cancelled&) {
        ResultSet cancelled;
        cancelled.cancelled = true;
        return cancelled;
    }
    const ParetoPlan plan = planPareto(costs, handWritten, points);
    useCostModel(costs);
    ResultSet results = sweep(config, plan.strategies, hooks);
    results.predicted_frontier = plan.frontier;
    return results;
}

ResultSet Runner::scaling(const ExperimentConfig& config, ScalingAxis axis,
                          const std::vector<int>& values,
                          const std::vector<std::string>& strategies, const RunnerHooks& hooks) {
    if (values.size() < 2) throw ConfigError("values: give at least two values to fit");
    for (std::size_t i = 0; i < values.size(); ++i)
        for (std::size_t j = i + 1; j < values.size(); ++j)
            if (values[i] == values[j])
                throw ConfigError("values: " + std::to_string(values[i]) +
                                  " is listed twice (items " + std::to_string(i + 1) + " and " +
                                  std::to_string(j + 1) + "); a fit needs distinct sizes");
    if (const auto bad = firstInvalidSize(config, axis, values))
        throw ConfigError("at " + toString(axis) + "=" + std::to_string(bad->value) + ": " +
                          bad->message);
    const std::vector<ExperimentConfig> sizes = scalingConfigs(config, axis, values);
    for (std::size_t k = 0; k < sizes.size(); ++k) {
        const ExperimentConfig& c = sizes[k];
        const int value = values[k];
        try {
            check(c, strategies);
        } catch (const ConfigError& e) {
            throw ConfigError("at " + toString(axis) + "=" + std::to_string(value) + ": " +
                              e.what());
        } catch (const StrategyError& e) {
            throw StrategyError("at " + toString(axis) + "=" + std::to_string(value) + ": " +
                                e.what());
        } catch (const MemoryError& e) {
            throw MemoryError(
                "at " + toString(axis) + "=" + std::to_string(value) + ": " + e.what(), e.predicted,
                e.available);
        }
    }
    const auto measuring = enterMeasurement(config, hooks.cancel);
    if (!measuring) return cancelledBeforeStart();
    ResultSet all;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const ExperimentConfig& c = sizes[i];
        // Each size's sweep is one equal share of the progress bar.
        RunnerHooks share = hooks;
        const double n = static_cast<double>(values.size());
        const std::string prefix = toString(axis) + " " + std::to_string(values[i]) + ": ";
        if (hooks.progress)
            share.progress = [&, i, n, prefix](double fraction, const std::string& message) {
                hooks.progress((static_cast<double>(i) + fraction) / n, prefix + message);
            };
        costs_.reset();  // each size has its own block costs
        ResultSet one = sweep(c, strategies, share);
        all.environment = one.environment;
        if (one.timing) all.timing = one.timing;  // the last size's rounds
        for (const auto& note : one.notes)
            all.notes.push_back(toString(axis) + " " + std::to_string(values[i]) + ": " + note);
        for (auto& run : one.runs) all.runs.push_back(std::move(run));
        if (one.cancelled) {
            all.cancelled = true;
            break;
        }
    }
    return all;
}

}  // namespace ckptlab
