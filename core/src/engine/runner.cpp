#include "ckptlab/engine/runner.h"

#include <torch/torch.h>

#include <limits>

#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/cost_model.h"
#include "ckptlab/planning/flops.h"
#include "ckptlab/planning/pareto.h"
#include "ckptlab/planning/plan_of_strategy.h"
#include "ckptlab/planning/planner.h"
#include "ckptlab/planning/sweep_check.h"
#include "ckptlab/planning/sweep_strategies.h"
#include "engine/caching_cpu_allocator.h"
#include "engine/grad_check.h"
#include "engine/machine_load.h"
#include "engine/measure_run.h"
#include "engine/measurement_scope.h"
#include "engine/precision.h"
#include "engine/reference_gradients.h"
#include "engine/runner_check.h"
#include "engine/step.h"
#include "engine/timed_rounds.h"

namespace ckptlab {
namespace {

using engine::ProgressCounter;
using engine::refuseIfNoLongerFits;
using engine::resolveDevice;
using engine::StepContext;
using engine::stepsPerRun;
using engine::Workbench;

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

// The bench of a sweep on `device`, its reference and costs (`known` when the caller has them).
// Throws what building or measuring throws (engine::Cancelled when cancelled).
SweepBench buildBench(const ExperimentConfig& config, torch::Device device, const CostModel* known,
                      const RunnerHooks& hooks, ProgressCounter& progress, ResultSet& results) {
    SweepBench sweep;
    sweep.bench = std::make_unique<Workbench>(config, device);
    sweep.reference = engine::referenceGradients(*sweep.bench, hooks.cancel, results.notes);
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

// The cost model's prediction of `plan` (with the caching allocator's reserved bytes), and the
// optimal schedule's time at its peak.
PredictedMetrics predictionOf(const Plan& plan, const CostModel& costs,
                              const OptimalPlanner* comparison) {
    const Prediction p = predict(costs, plan, ReplayAllocator::Yes);
    PredictedMetrics predicted{
        p.peak_bytes, p.activation_bytes, p.step_ms, {}, p.reserved_peak_bytes};
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

// A shard's items at one size (sweep_shard.h): the strategies it runs there and where each
// stands in the whole sweep.
struct Share {
    std::vector<Strategy> strategies;
    std::vector<ShardPlace> places;
};

Share shareAt(const std::vector<WorkItem>& work, const std::vector<ShardItem>& items, int size) {
    Share share;
    for (const ShardItem& item : items) {
        if (work[item.position].size != size) continue;
        share.strategies.push_back(work[item.position].strategy);
        share.places.push_back({item.position, item.owned});
    }
    return share;
}

// Every item of `work`, owned: the unsharded sweep.
std::vector<ShardItem> allItems(const std::vector<WorkItem>& work) {
    std::vector<ShardItem> items;
    for (std::size_t p = 0; p < work.size(); ++p) items.push_back({static_cast<int>(p), true});
    return items;
}

// The runs from `first` on are a share's, in its order (a cancelled sweep's are its first).
void placeRuns(ResultSet& results, std::size_t first, const std::vector<ShardPlace>& places) {
    for (std::size_t i = first, k = 0; i < results.runs.size() && k < places.size(); ++i, ++k)
        results.runs[i].shard = places[k];
}

SweepShard shardRecord(const SweepRequestData& identity, const ShardSpec& shard,
                       const std::vector<WorkItem>& work) {
    SweepShard record{sweepId(identity, CKPTLAB_VERSION), shard.index,  shard.count,
                      static_cast<int>(work.size()),      workId(work), {}};
    for (const WorkItem& item : work)  // the first size's strategies: every size has them all
        if (item.size == 0) record.strategies.push_back(item.strategy);
    return record;
}

}  // namespace

Runner::Runner() = default;
Runner::~Runner() = default;

void Runner::useCostModel(const CostModel& costs) { costs_ = std::make_unique<CostModel>(costs); }

void Runner::useShard(const ShardSpec& shard) {
    if (!validShard(shard))
        throw std::invalid_argument(
            "shard " + std::to_string(shard.index) + " of " + std::to_string(shard.count) +
            " is not a shard (0 <= K < N, N in 1.." + std::to_string(kShardMaxCount) + ")");
    shard_ = shard;
}

ResultSet Runner::run(const SweepRequestData& request, const RunnerHooks& hooks) {
    const SweepCheck checked = check(request);
    if (hooks.checked) hooks.checked(checked);
    switch (request.kind) {
    case SweepKind::Sweep: return sweep(request, checked, hooks);
    case SweepKind::Pareto: return pareto(request, checked, hooks);
    case SweepKind::Scaling: return scaling(request, checked, hooks);
    }
    throw std::invalid_argument("unknown sweep kind");
}

ResultSet Runner::sweep(const SweepRequestData& request, const SweepCheck& checked,
                        const RunnerHooks& hooks) {
    return measureShare(request, request.config, checked.strategies, hooks);
}

ResultSet Runner::measureShare(const SweepRequestData& identity, const ExperimentConfig& config,
                               const std::vector<Strategy>& strategies, const RunnerHooks& hooks) {
    if (!shard_) return measureSweep(config, strategies, hooks);
    const std::vector<WorkItem> work = sweepWork(strategies);
    const Share share = shareAt(work, shardItems(work, *shard_), 0);
    ResultSet results;
    if (share.strategies.empty())
        results.environment = describeEnvironment(config);  // dealt nothing: an empty share
    else
        results = measureSweep(config, share.strategies, hooks);
    placeRuns(results, 0, share.places);
    results.shard = shardRecord(identity, *shard_, work);
    return results;
}

ResultSet Runner::measureSweep(const ExperimentConfig& config,
                               const std::vector<Strategy>& strategies, const RunnerHooks& hooks) {
    const auto measuring = enterMeasurement(config, hooks.cancel);
    if (!measuring) return cancelledBeforeStart();
    const torch::Device device = resolveDevice(config.device);
    // The CPU allocator of the config (engine/caching_cpu_allocator.h), from before the model
    // is built until the bench below is freed: parameters, optimizer state and input live in
    // its segments, as on a GPU.
    const engine::CpuAllocatorScope cpuAllocator(config.allocator, device);

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

ResultSet Runner::pareto(const SweepRequestData& request, const SweepCheck& checked,
                         const RunnerHooks& hooks) {
    const ExperimentConfig& config = request.config;
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
    const ParetoPlan plan = planPareto(costs, checked.strategies, request.paretoPoints);
    useCostModel(costs);
    // The budgets lie between the least feasible peak and the no-checkpoint one, which the
    // request's check forecast: only their own rules are left to check.
    for (const Strategy& strategy : plan.strategies)
        checkStrategy(strategy, config.depth, config.block);
    SweepRequestData named = request;  // what names the sweep: what it was asked to run
    named.checked = checked.strategies;
    ResultSet results = measureShare(named, config, plan.strategies, hooks);
    results.predicted_frontier = plan.frontier;
    return results;
}

ResultSet Runner::scaling(const SweepRequestData& request, const SweepCheck& checked,
                          const RunnerHooks& hooks) {
    const ExperimentConfig& config = request.config;
    const ScalingAxis axis = request.axis;
    const std::vector<int>& values = request.values;
    const auto measuring = enterMeasurement(config, hooks.cancel);
    if (!measuring) return cancelledBeforeStart();
    const std::vector<ExperimentConfig> sizes = scalingConfigs(config, axis, values);
    // The (size, strategy) pairs, size-major; a shard runs its items (useShard) and skips a
    // size where it has none.
    const std::vector<WorkItem> work =
        sweepWork(checked.strategies, static_cast<int>(sizes.size()));
    const std::vector<ShardItem> items = shard_ ? shardItems(work, *shard_) : allItems(work);
    ResultSet all;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        const Share mine = shareAt(work, items, static_cast<int>(i));
        if (mine.strategies.empty()) continue;
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
        // The earlier sizes ran since the request's check: memory it forecast may be gone.
        refuseIfNoLongerFits(sizes[i], mine.strategies);
        ResultSet one = measureSweep(sizes[i], mine.strategies, share);
        const std::size_t first = all.runs.size();
        all.environment = one.environment;
        if (one.timing) all.timing = one.timing;  // the last size's rounds
        for (const auto& note : one.notes)
            all.notes.push_back(toString(axis) + " " + std::to_string(values[i]) + ": " + note);
        for (auto& run : one.runs) all.runs.push_back(std::move(run));
        if (shard_) placeRuns(all, first, mine.places);
        if (one.cancelled) {
            all.cancelled = true;
            break;
        }
    }
    if (shard_) {
        if (all.runs.empty() && !all.cancelled) all.environment = describeEnvironment(config);
        SweepRequestData named = request;
        named.checked = checked.strategies;
        all.shard = shardRecord(named, *shard_, work);
    }
    return all;
}

}  // namespace ckptlab
