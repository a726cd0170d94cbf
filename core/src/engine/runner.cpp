#include "ckptlab/runner.h"

#include <torch/torch.h>

#include <limits>

#include "ckptlab/cost_model.h"
#include "ckptlab/flops.h"
#include "ckptlab/pareto.h"
#include "ckptlab/planner.h"
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
    if (!index)
        throw ConfigError(
            {MessageCode::DeviceUnknown, {std::to_string(limits::cudaDeviceMax), name}});
    if (*index < 0) return torch::kCPU;
    if (!torch::cuda::is_available()) throw ConfigError({MessageCode::DeviceWithoutCuda, {name}});
    const int count = static_cast<int>(torch::cuda::device_count());
    if (*index >= count)
        throw ConfigError({MessageCode::DeviceIndexTooHigh, {std::to_string(count - 1), name}});
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

// The exception a refused check stands for: bad numbers are ConfigError, strategies
// StrategyError, memory MemoryError, each with checkSweep's message.
[[noreturn]] void throwRefusal(const SweepCheck& check) {
    using Verdict = SweepCheck::Verdict;
    const CoreMessage& problem = *check.problem;
    switch (check.verdict) {
    case Verdict::InvalidStrategy: throw StrategyError(problem);
    case Verdict::DoesNotFit: {
        const FitForecast& refused = check.forecasts.back().forecast;
        throw MemoryError(problem, refused.runnerPredicted, refused.available);
    }
    default: throw ConfigError(problem);
    }
}

// The first line of an exception's message: c10::Error puts a C++ backtrace after it.
std::string firstLine(const std::exception& e) {
    const std::string message = e.what();
    return message.substr(0, message.find('\n'));
}

RunResult failedRun(const ExperimentConfig& config, const Strategy& strategy,
                    const std::string& error) {
    RunResult run;
    run.config = config;
    run.strategy = strategy;
    run.error = error;
    return run;
}

// What every run of a sweep shares: the model, its gradients without checkpointing to check
// each run against, and the cost model plans and predictions are made from.
struct SweepBench {
    std::unique_ptr<Workbench> bench;
    std::vector<torch::Tensor> reference;
    CostModel costs;
};

// The no-checkpoint step's gradients, or, when that step does not fit, the unit-by-unit
// reference (said in the notes).
std::vector<torch::Tensor> referenceGradients(Workbench& bench, const RunnerHooks& hooks,
                                              ResultSet& results) {
    StepContext context;
    context.cancel = hooks.cancel;
    std::vector<torch::Tensor> reference;
    try {
        engine::runStep(bench, makePlan(Strategy{}, bench.config.depth), context);
        reference = engine::snapshot(bench.gradients());
    } catch (const std::exception& e) {
        if (!engine::isOutOfMemory(e)) throw;
        bench.clearGradients();
        reference = engine::snapshot(engine::unitByUnitReferenceGradients(bench));
        results.notes.push_back(
            "the no-checkpoint reference step ran out of memory, so gradients are checked "
            "against a unit-by-unit reference (plain autograd, one unit recomputed at a time)");
    }
    bench.clearGradients();
    return reference;
}

// The bench of a sweep on `device`, its reference and costs (`known` when the caller has them).
// Throws what building or measuring throws (engine::Cancelled when cancelled).
SweepBench buildBench(const ExperimentConfig& config, torch::Device device, const CostModel* known,
                      const RunnerHooks& hooks, ProgressCounter& progress, ResultSet& results) {
    SweepBench sweep;
    sweep.bench = std::make_unique<Workbench>(config, device);
    sweep.reference = referenceGradients(*sweep.bench, hooks, results);
    progress.step(CoreMessage(MessageCode::ReferenceGradients));
    sweep.costs = known ? *known : measureCostModel(config, hooks.cancel);
    return sweep;
}

// Without a model nothing can run: every requested run reports why.
void failEveryRun(const ExperimentConfig& config, const std::vector<Strategy>& strategies,
                  const std::exception& e, const RunnerHooks& hooks, ResultSet& results) {
    for (const Strategy& strategy : strategies) {
        results.runs.push_back(
            failedRun(config, strategy, "could not build the model: " + firstLine(e)));
        if (hooks.result) hooks.result(results.runs.back());
    }
}

// The planner the "vs optimal" comparison asks, finer than the default so comparisons near
// the curve are not rounding; null with a note on a chain too long for it.
std::unique_ptr<OptimalPlanner> comparisonPlanner(const CostModel& costs, ResultSet& results) {
    if (static_cast<int>(costs.units.size()) <= kComparisonMaxUnits)
        return std::make_unique<OptimalPlanner>(costs, 1000);
    results.notes.push_back("\"vs optimal\" is not computed: the chain has " +
                            std::to_string(costs.units.size()) +
                            " units and the comparison plans at most " +
                            std::to_string(kComparisonMaxUnits) + " in reasonable time");
    return nullptr;
}

// The cost model's prediction of `plan`, and the optimal schedule's time at its peak.
PredictedMetrics predictionOf(const Plan& plan, const CostModel& costs,
                              const OptimalPlanner* comparison) {
    const Prediction p = predict(costs, plan);
    PredictedMetrics predicted{p.peak_bytes, p.activation_bytes, p.step_ms, {}};
    if (comparison) {
        if (const double best = optimalStepAt(*comparison, p.peak_bytes); best > 0)
            predicted.optimal_step_ms = best;
    }
    return predicted;
}

// Hands a run on right after its traced step, its times still to come (RunnerHooks::traced).
void reportTraced(const RunnerHooks& hooks, const RunResult& run) {
    if (!hooks.traced) return;
    RunResult traced = run;
    const double notYet = std::numeric_limits<double>::quiet_NaN();
    Metrics& m = traced.metrics;
    m.step_ms = m.forward_ms = m.backward_ms = m.recompute_ms = m.optimizer_ms = notYet;
    hooks.traced(traced);
}

// One strategy's traced step and warm-up, with its prediction and schedule. A run that fails
// records why and the sweep goes on; engine::Cancelled passes through.
RunResult traceOne(SweepBench& sweep, const Strategy& strategy, const Plan& plan,
                   const OptimalPlanner* comparison, const RunnerHooks& hooks,
                   ProgressCounter& progress) {
    const ExperimentConfig& config = sweep.bench->config;
    const int doneBefore = progress.done;
    try {
        RunResult run =
            engine::measureRun(*sweep.bench, strategy, plan, sweep.reference, hooks, progress);
        // The cost model replays a step that starts without gradients; one that adds into kept
        // ones (keep_grads) allocates differently, so it gets no prediction rather than a
        // wrong one.
        if (!startsWithKeptGradients(config, strategy))
            run.prediction = predictionOf(plan, sweep.costs, comparison);
        run.schedule = describeSchedule(plan);
        run.forward_counts = forwardCounts(plan, static_cast<int>(sweep.costs.units.size()));
        return run;
    } catch (const engine::Cancelled&) {
        throw;
    } catch (const std::exception& e) {
        sweep.bench->clearGradients();
        progress.advance(doneBefore + stepsPerRun(config) - progress.done,
                         {MessageCode::RunFailed, {strategy.name()}});
        return failedRun(config, strategy, firstLine(e));
    }
}

// Every strategy's traced step in order, then the timed steps of all of them interleaved in
// rounds (timed_rounds.h); each run is handed on once its times are known.
void measureAll(SweepBench& sweep, const std::vector<Strategy>& strategies,
                const RunnerHooks& hooks, ProgressCounter& progress, engine::LoadMonitor& load,
                ResultSet& results) {
    // Plan everything first: a budget no schedule fits is bad input, refused before any run.
    std::vector<Plan> plans;
    for (const Strategy& strategy : strategies) plans.push_back(resolvePlan(strategy, sweep.costs));
    const auto comparison = comparisonPlanner(sweep.costs, results);
    if (sweep.bench->config.keep_grads) {
        results.notes.push_back(
            "no predictions for runs that start with kept gradients (keep_grads): the cost "
            "model replays a step that starts without them");
    }
    for (std::size_t i = 0; i < strategies.size(); ++i) {
        try {
            results.runs.push_back(
                traceOne(sweep, strategies[i], plans[i], comparison.get(), hooks, progress));
        } catch (const engine::Cancelled&) {
            results.cancelled = true;
            break;
        }
        reportTraced(hooks, results.runs.back());
    }
    engine::timeInRounds(*sweep.bench, results, plans, hooks, progress, load);
    for (RunResult& run : results.runs) {
        setFlopMetrics(run);  // needs the final median step time and the forward counts
        if (hooks.result) hooks.result(run);
    }
}

}  // namespace

Runner::Runner() = default;
Runner::~Runner() = default;

void Runner::useCostModel(const CostModel& costs) { costs_ = std::make_unique<CostModel>(costs); }

SweepCheck Runner::check(const SweepRequestData& request) {
    const bool valid = validate(request.config).empty();
    const SweepCheck check =
        checkSweep(request, valid ? availableMemory(request.config.device) : 0);
    if (!check.ok()) throwRefusal(check);
    resolveDevice(request.config.device);  // whether this LibTorch has it: the engine's to say
    return check;
}

ResultSet Runner::sweep(const ExperimentConfig& config, const std::vector<Strategy>& strategies,
                        const RunnerHooks& hooks) {
    SweepRequestData request;
    request.config = config;
    request.checked = strategies;
    check(request);
    const auto measuring = enterMeasurement(config, hooks.cancel);
    if (!measuring) return cancelledBeforeStart();
    const torch::Device device = resolveDevice(config.device);

    ResultSet results;
    results.environment = describeEnvironment(config);
    engine::LoadMonitor load;  // the machine's load and steal time around the rounds
    load.begin();
    ProgressCounter progress{hooks, 1 + stepsPerRun(config) * static_cast<int>(strategies.size())};
    if (hooks.progress) hooks.progress(0.0, CoreMessage(MessageCode::BuildingModel));
    SweepBench bench;
    try {
        bench = buildBench(config, device, costs_.get(), hooks, progress, results);
    } catch (const engine::Cancelled&) {
        results.cancelled = true;
        return results;
    } catch (const std::exception& e) {
        failEveryRun(config, strategies, e, hooks, results);
        return results;
    }
    measureAll(bench, strategies, hooks, progress, load, results);
    return results;
}

ResultSet Runner::pareto(const ExperimentConfig& config, const std::vector<Strategy>& handWritten,
                         int points, const RunnerHooks& hooks) {
    SweepRequestData request;
    request.kind = SweepKind::Pareto;
    request.config = config;
    request.checked = handWritten;
    request.paretoPoints = points;
    const SweepCheck checked = check(request);
    // One scope over the cost model and the sweep: both at the config's thread count.
    const auto measuring = enterMeasurement(config, hooks.cancel);
    if (!measuring) return cancelledBeforeStart();
    if (hooks.progress) hooks.progress(0.0, CoreMessage(MessageCode::MeasuringCostModel));
    CostModel costs;
    try {
        costs = measureCostModel(config, hooks.cancel);
    } catch (const engine::Cancelled&) {
        return cancelledBeforeStart();
    }
    const ParetoPlan plan = planPareto(costs, checked.strategies, points);
    useCostModel(costs);
    ResultSet results = sweep(config, plan.strategies, hooks);
    results.predicted_frontier = plan.frontier;
    return results;
}

ResultSet Runner::scaling(const ExperimentConfig& config, ScalingAxis axis,
                          const std::vector<int>& values, const std::vector<Strategy>& strategies,
                          const RunnerHooks& hooks) {
    SweepRequestData request;
    request.kind = SweepKind::Scaling;
    request.config = config;
    request.checked = strategies;
    request.axis = axis;
    request.values = values;
    const SweepCheck checked = check(request);
    const auto measuring = enterMeasurement(config, hooks.cancel);
    if (!measuring) return cancelledBeforeStart();
    const std::vector<ExperimentConfig> sizes = scalingConfigs(config, axis, values);
    ResultSet all;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        // Each size's sweep is one equal share of the progress bar.
        RunnerHooks share = hooks;
        const double n = static_cast<double>(sizes.size());
        const std::vector<std::string> size = {toString(axis), std::to_string(values[i])};
        if (hooks.progress)
            share.progress = [&, i, n, size](double fraction, const CoreMessage& message) {
                hooks.progress((static_cast<double>(i) + fraction) / n,
                               {MessageCode::AtScalingSize, size, {message}});
            };
        costs_.reset();  // each size has its own block costs
        ResultSet one = sweep(sizes[i], checked.strategies, share);
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
