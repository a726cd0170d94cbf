#include "ckptlab/runner.h"

#include <torch/torch.h>

#include <algorithm>
#include <unordered_set>

#include "ckptlab/cost_model.h"
#include "ckptlab/estimate.h"
#include "ckptlab/pareto.h"
#include "ckptlab/planner.h"
#include "ckptlab/strategy.h"
#include "ckptlab/saturating.h"
#include "ckptlab/statistics.h"
#include "engine/grad_check.h"
#include "engine/reference_gradients.h"
#include "engine/step.h"
#include "engine/trace_analysis.h"

namespace ckptlab {
namespace {

using engine::StepContext;
using engine::StepTimes;
using engine::Workbench;

std::int64_t bytesOf(const std::vector<torch::Tensor>& tensors) {
    std::int64_t total = 0;
    for (const auto& t : tensors)
        if (t.defined()) total += t.numel() * t.element_size();
    return total;
}

std::int64_t optimizerStateBytes(const torch::optim::Optimizer* optimizer) {
    if (!optimizer) return 0;
    std::int64_t total = 0;
    for (const auto& [key, state] : optimizer->state()) {
        if (auto* adam = dynamic_cast<torch::optim::AdamParamState*>(state.get())) {
            total += bytesOf({adam->exp_avg(), adam->exp_avg_sq(), adam->max_exp_avg_sq()});
        } else if (auto* sgd = dynamic_cast<torch::optim::SGDParamState*>(state.get())) {
            total += bytesOf({sgd->momentum_buffer()});
        }
    }
    return total;
}

torch::Device resolveDevice(const std::string& name) {
    const auto index = parseDeviceIndex(name);
    if (!index)
        throw ConfigError("device must be cpu, cuda or cuda:N (got \"" + name + "\")");
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

// at::set_num_threads changes the whole process: put the previous count back afterwards, so a
// later run with threads = 0 really gets LibTorch's default (config.h).
class ThreadCountScope {
public:
    explicit ThreadCountScope(int threads) : previous_(at::get_num_threads()) {
        if (threads > 0) at::set_num_threads(threads);
    }
    ~ThreadCountScope() {
        if (at::get_num_threads() != previous_) at::set_num_threads(previous_);
    }

private:
    int previous_;
};

std::int64_t limitBytes(const ExperimentConfig& config) {
    return static_cast<std::int64_t>(config.memory_limit_mib * 1024 * 1024);
}

// Counts steps across the sweep for progress.
struct ProgressCounter {
    const RunnerHooks& hooks;
    int total;
    int done = 0;
    void step(const std::string& message) { advance(1, message); }
    // A run that stopped early still moves the bar by all of its steps.
    void advance(int steps, const std::string& message) {
        done += steps;
        if (hooks.progress) hooks.progress(std::min(1.0, double(done) / total), message);
    }
};

int stepsPerRun(const ExperimentConfig& config) {
    return 1 + config.warmup + config.repeats + (config.optimizer != Optimizer::None ? 1 : 0);
}

// A step that stopped at `t_ms`: what the unwinding freed afterwards is not part of the step.
void endAt(RunResult& run, double t_ms) {
    auto& events = run.timeline;
    events.erase(std::remove_if(events.begin(), events.end(),
                                [&](const TimelineEvent& e) { return e.t_ms > t_ms; }),
                 events.end());
    auto& phases = run.phases;
    phases.erase(std::remove_if(phases.begin(), phases.end(),
                                [&](const PhaseSpan& p) { return p.begin_ms > t_ms; }),
                 phases.end());
    for (auto& phase : phases) phase.end_ms = std::min(phase.end_ms, t_ms);
    for (auto& block : run.blocks) block.freed_ms = std::min(block.freed_ms, t_ms);
}

// An out-of-memory error the allocator raised itself, placed where the step was.
OutOfMemory whereItRanOut(const std::exception& error, const StepContext& context,
                          std::int64_t allocated) {
    if (auto* ours = dynamic_cast<const engine::OutOfMemoryError*>(&error)) return ours->where;
    OutOfMemory oom;
    oom.phase = context.currentLabel().phase;
    oom.block = context.currentLabel().block;
    oom.allocated_bytes = allocated;
    oom.requested_bytes = requestedBytesIn(error.what());
    return oom;
}

// Measures one strategy: traced step (memory, gradients), then warm-up and timed steps.
RunResult measure(Workbench& bench, const std::string& name, const Plan& plan,
                  const std::vector<torch::Tensor>& reference, const RunnerHooks& hooks,
                  ProgressCounter& progress) {
    RunResult run;
    run.config = bench.config;
    run.strategy = name;
    StepContext context;
    context.cancel = hooks.cancel;

    bench.restoreInitialWeights();
    bench.resetOptimizer();
    if (bench.optimizer) {
        // Optimizer state is created by the first step; make it exist before the trace so
        // the traced step shows steady-state memory, then go back to the initial weights.
        engine::runStep(bench, plan, context);
        bench.restoreInitialWeights();
        progress.step(name + ": optimizer state");
    }

    // Traced step. Old gradients go first: the trace must only see the step's own memory.
    bench.clearGradients();
    context.tracker = std::make_shared<engine::MemoryTracker>(bench.device);
    const std::int64_t baseline = sat::add(bytesOf(bench.model.parameters()),
                                           bytesOf({bench.input}),
                                           optimizerStateBytes(bench.optimizer.get()));
    if (bench.config.memory_limit_mib > 0)
        context.tracker->setLimit(baseline, limitBytes(bench.config));
    std::int64_t activationBytes = 0;
    std::optional<OutOfMemory> outOfMemory;
    {
        engine::TrackingScope scope(context.tracker);
        try {
            engine::runStep(bench, plan, context, &activationBytes);
        } catch (const std::exception& e) {
            if (!engine::isOutOfMemory(e)) throw;
            // By now the unwinding has freed the step's tensors; the level it failed at is the
            // highest the step reached.
            std::int64_t reached = 0;
            double reachedAt = 0;
            for (const auto& record : context.tracker->records())
                if (record.total > reached) reached = record.total, reachedAt = record.t_ms;
            outOfMemory = whereItRanOut(e, context, baseline + reached);
            if (outOfMemory->t_ms <= 0) outOfMemory->t_ms = reachedAt;
        }
        context.tracker->finish();
    }
    if (outOfMemory) {
        // The step up to where it stopped: its timeline, phases and peak, and no timings.
        auto trace = engine::analyzeTrace(*context.tracker, {});
        context.tracker.reset();
        bench.clearGradients();
        run.out_of_memory = outOfMemory;
        run.error = name + ": " + describe(*outOfMemory);
        run.metrics.peak_bytes = trace.peak;
        run.metrics.baseline_bytes = baseline;
        run.breakdown = trace.atPeak;
        run.timeline = std::move(trace.timeline);
        run.phases = std::move(trace.phases);
        run.blocks = std::move(trace.blocks);
        endAt(run, outOfMemory->t_ms);
        progress.advance(1 + bench.config.warmup + bench.config.repeats,
                         name + ": out of memory");
        return run;
    }
    auto gradients = bench.gradients();
    std::unordered_set<const void*> gradientBuffers;
    for (const auto& g : gradients)
        if (g.defined()) gradientBuffers.insert(g.data_ptr());
    auto trace = engine::analyzeTrace(*context.tracker, gradientBuffers);
    context.tracker.reset();
    run.grad_check = engine::checkGradients(reference, gradients, bench.config.dtype,
                                            engine::gradientNames(bench.model));
    gradients.clear();
    progress.step(name + ": traced step");

    auto& m = run.metrics;
    m.peak_bytes = trace.peak;
    m.activation_bytes = activationBytes;
    run.breakdown = trace.atPeak;
    run.breakdown.parameters = bytesOf(bench.model.parameters());
    run.breakdown.input = bytesOf({bench.input});
    run.breakdown.optimizer_state = optimizerStateBytes(bench.optimizer.get());
    m.baseline_bytes =
        run.breakdown.parameters + run.breakdown.input + run.breakdown.optimizer_state;
    run.timeline = std::move(trace.timeline);
    run.phases = std::move(trace.phases);
    run.blocks = std::move(trace.blocks);

    // Timed steps, untraced so tracing costs nothing.
    for (int i = 0; i < bench.config.warmup; ++i) {
        engine::runStep(bench, plan, context);
        progress.step(name + ": warm-up " + std::to_string(i + 1) + "/" +
                      std::to_string(bench.config.warmup));
    }
    std::vector<double> step, forward, backward, recompute, optimizer;
    for (int i = 0; i < bench.config.repeats; ++i) {
        StepTimes t = engine::runStep(bench, plan, context);
        step.push_back(t.step_ms);
        forward.push_back(t.forward_ms);
        backward.push_back(t.backward_ms);
        recompute.push_back(t.recompute_ms);
        optimizer.push_back(t.optimizer_ms);
        m.recomputed_blocks = t.recomputed_blocks;
        progress.step(name + ": timed step " + std::to_string(i + 1) + "/" +
                      std::to_string(bench.config.repeats));
    }
    m.step_samples_ms = step;
    m.step_ms = median(step);
    m.forward_ms = median(forward);
    m.backward_ms = median(backward);
    m.recompute_ms = median(recompute);
    m.optimizer_ms = median(optimizer);
    bench.clearGradients();
    return run;
}

}  // namespace

Runner::Runner() = default;
Runner::~Runner() = default;

void Runner::useCostModel(const CostModel& costs) { costs_ = std::make_unique<CostModel>(costs); }

void Runner::check(const ExperimentConfig& config, const std::vector<std::string>& strategies) {
    const auto errors = validate(config);
    if (!errors.empty()) throw ConfigError(errors.front().message);
    if (strategies.empty()) throw ConfigError("strategies: give at least one strategy");
    resolveDevice(config.device);
    std::int64_t predicted = 0;
    std::string worst;
    for (const auto& text : strategies) {
        const Strategy strategy = parseStrategy(text, config.depth, config.block);
        if (strategy.kind == StrategyKind::Optimal) {
            if (auto error = plannerLimitError(config, strategy.name()); !error.empty())
                throw StrategyError(error);
        }
        const MemoryEstimate estimate = estimateMemory(config, makePlan(strategy, config.depth));
        // The runner also keeps the initial weights and the reference gradients.
        const std::int64_t need =
            sat::add(estimate.total(), sat::mul(2, estimate.parameters), estimate.input);
        if (need > predicted) predicted = need, worst = strategy.name();
    }
    const std::int64_t available = availableMemory(config.device);
    if (available > 0 && predicted > available) {
        auto mib = [](std::int64_t bytes) {
            return sat::saturated(bytes) ? std::string("more than 8 EiB")
                                         : std::to_string(bytes / (1024 * 1024)) + " MiB";
        };
        throw MemoryError("config does not fit: strategy " + worst + " is predicted to need " +
                              mib(predicted) + " but only " + mib(available) +
                              " are available on " + config.device,
                          predicted, available);
    }
}

ResultSet Runner::sweep(const ExperimentConfig& config, const std::vector<std::string>& strategies,
                        const RunnerHooks& hooks) {
    check(config, strategies);
    const ThreadCountScope threads(config.threads);
    const torch::Device device = resolveDevice(config.device);

    ResultSet results;
    results.environment = describeEnvironment(config);
    ProgressCounter progress{hooks,
                             1 + stepsPerRun(config) * static_cast<int>(strategies.size())};
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
    for (const auto& text : strategies) {
        const Strategy strategy = parseStrategy(text, config.depth, config.block);
        if (strategy.kind == StrategyKind::Optimal) {
            const auto budget = static_cast<std::int64_t>(strategy.budget_mib * 1024 * 1024);
            plans.push_back(OptimalPlanner(costs).plan(budget).plan);
        } else {
            plans.push_back(toUnitLevel(makePlan(strategy, config.depth), costs.unitsPerBlock));
        }
    }

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
    for (std::size_t i = 0; i < strategies.size(); ++i) {
        const Strategy strategy = parseStrategy(strategies[i], config.depth, config.block);
        const Plan& plan = plans[i];
        RunResult run;
        const int doneBefore = progress.done;
        try {
            run = measure(*bench, strategy.name(), plan, reference, hooks, progress);
            const Prediction p = predict(costs, plan);
            run.prediction = PredictedMetrics{p.peak_bytes, p.activation_bytes, p.step_ms, {}};
            if (comparisonPlanner) {
                if (const double best = optimalStepAt(*comparisonPlanner, p.peak_bytes); best > 0)
                    run.prediction->optimal_step_ms = best;
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
        if (hooks.result) hooks.result(results.runs.back());
    }
    return results;
}

ResultSet Runner::pareto(const ExperimentConfig& config,
                         const std::vector<std::string>& handWritten, int points,
                         const RunnerHooks& hooks) {
    check(config, handWritten.empty() ? std::vector<std::string>{"none"} : handWritten);
    if (auto error = plannerLimitError(config, "pareto"); !error.empty()) throw ConfigError(error);
    if (points < 2 || points > 50)
        throw ConfigError("points must be between 2 and 50 (got " + std::to_string(points) + ")");
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
    for (int value : values) {
        ExperimentConfig c = config;
        setAxisValue(c, axis, value);
        try {
            check(c, strategies);
        } catch (const ConfigError& e) {
            throw ConfigError("at " + toString(axis) + "=" + std::to_string(value) + ": " +
                              e.what());
        } catch (const StrategyError& e) {
            throw StrategyError("at " + toString(axis) + "=" + std::to_string(value) + ": " +
                                e.what());
        } catch (const MemoryError& e) {
            throw MemoryError("at " + toString(axis) + "=" + std::to_string(value) + ": " +
                                  e.what(),
                              e.predicted, e.available);
        }
    }
    ResultSet all;
    for (std::size_t i = 0; i < values.size(); ++i) {
        ExperimentConfig c = config;
        setAxisValue(c, axis, values[i]);
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
        for (auto& run : one.runs) all.runs.push_back(std::move(run));
        if (one.cancelled) {
            all.cancelled = true;
            break;
        }
    }
    return all;
}

}  // namespace ckptlab
