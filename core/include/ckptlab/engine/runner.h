#pragma once
// Runs experiments: one config, one or many strategies on the same weights and input.
// Plain types in and out; safe to call from a worker thread. Every measurement (Runner::run,
// measureCostModel) runs at the config's `threads` and draws its random numbers from
// generators of its own; measurements on different threads run one after the other, since the
// intra-op thread count, the cores and the caches are the whole process's
// (engine/measurement_scope.h). A measurement waiting for another's end honours its cancel.

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/core_message.h"
#include "ckptlab/model/result.h"
#include "ckptlab/planning/scaling.h"
#include "ckptlab/planning/sweep_check.h"
#include "ckptlab/planning/sweep_shard.h"
#include "ckptlab/planning/sweep_strategies.h"

namespace ckptlab {

// Bad configuration, caught before anything runs. `what()` names the field and its range.
struct ConfigError : std::invalid_argument, CarriesMessage {
    explicit ConfigError(CoreMessage message)
        : std::invalid_argument(message.english), CarriesMessage(std::move(message)) {}
};

// The config cannot fit: predicted and available bytes are in the message.
struct MemoryError : std::runtime_error, CarriesMessage {
    MemoryError(CoreMessage message, std::int64_t predicted, std::int64_t available)
        : std::runtime_error(message.english),
          CarriesMessage(std::move(message)),
          predicted(predicted),
          available(available) {}
    std::int64_t predicted;
    std::int64_t available;
};

struct RunnerHooks {
    // Once the request's check has passed, before anything is built or run (Runner::run).
    std::function<void(const SweepCheck& check)> checked;
    // fraction in [0, 1] of the whole sweep, and what is being done (the CLI prints its English,
    // the app translates it by its code)
    std::function<void(double fraction, const CoreMessage& message)> progress;
    // Each run right after its traced step: memory, timeline, lifetimes, breakdown, gradient
    // check, prediction and schedule are known; its times are not yet (step_ms and the phase
    // times NaN, step_samples_ms empty). `result` brings the same run again, complete.
    std::function<void(const RunResult& run)> traced;
    // Each run once its times are known: after the interleaved timed rounds (timed_rounds.h)
    std::function<void(const RunResult& run)> result;
    // set by another thread to stop; honoured within about a second
    const std::atomic<bool>* cancel = nullptr;
};

struct CostModel;

class Runner {
public:
    Runner();
    ~Runner();
    // The one entry point. Checks the request once (check(); throws ConfigError, StrategyError
    // or MemoryError before anything runs), then runs it: a sweep of `checked`; the Pareto
    // curve, whose hand-written strategies (less memory budgets; the seed tradeoff and sqrt
    // when none is left, sweepStrategies) run beside `paretoPoints` optimal budgets from the
    // smallest feasible peak to the no-checkpoint peak (planPareto), with the planner's
    // predicted frontier; or a scaling sweep, the strategies at every value of one dimension
    // (scaling.h) in one result set. A run that fails records its error and the sweep goes
    // on. When cancelled, returns the finished runs with `cancelled` set.
    ResultSet run(const SweepRequestData& request, const RunnerHooks& hooks = {});

    // Use these costs for plans and predictions instead of measuring them at the start of
    // each sweep (so a caller that planned with them sees the same numbers).
    void useCostModel(const CostModel& costs);

    // Run only one shard of each sweep, pareto or scaling that follows (sweep_shard.h): the
    // items the deal gives it, plus the `none` of each size it measures when another shard owns
    // that. The whole sweep is checked as without shards, so every shard refuses alike. The
    // set then says which sweep and shard it is (ResultSet::shard) and each run where it stands
    // (RunResult::shard); a shard dealt nothing returns no runs. Throws std::invalid_argument
    // for a shard that is not validShard.
    void useShard(const ShardSpec& shard);

    // The pre-run check without running anything: checkSweep (sweep_check.h) against this
    // device's free memory, and whether this LibTorch can use the device. Throws what it
    // refuses (ConfigError, StrategyError, MemoryError; the message as checkSweep words it);
    // else returns the check, whose `strategies` are what the sweep runs.
    static SweepCheck check(const SweepRequestData& request);

private:
    // The three kinds of request, after run's check (`checked` is its result).
    ResultSet sweep(const SweepRequestData& request, const SweepCheck& checked,
                    const RunnerHooks& hooks);
    ResultSet pareto(const SweepRequestData& request, const SweepCheck& checked,
                     const RunnerHooks& hooks);
    ResultSet scaling(const SweepRequestData& request, const SweepCheck& checked,
                      const RunnerHooks& hooks);
    // The measurement itself, without the check: every strategy of `strategies`.
    ResultSet measureSweep(const ExperimentConfig& config, const std::vector<Strategy>& strategies,
                           const RunnerHooks& hooks);
    // measureSweep of `strategies`, or of this shard's share of them (useShard); `identity` is
    // the request that names the sweep (sweepId).
    ResultSet measureShare(const SweepRequestData& identity, const ExperimentConfig& config,
                           const std::vector<Strategy>& strategies, const RunnerHooks& hooks);

    std::unique_ptr<CostModel> costs_;
    std::optional<ShardSpec> shard_;
};

// Devices this build can run on now: "cpu" always, "cuda" when LibTorch has it and a GPU exists.
std::vector<std::string> availableDevices();

// Bytes the device can still give: MemAvailable for cpu, free memory of cuda:N; 0 if unknown.
std::int64_t availableMemory(const std::string& device);

// Measures one block of `config` (warm-up and the median of `config.repeats`, at least 5,
// for times), a kept block's backward on a chain of costMeasurementDepth(config) blocks, and
// replicates the block along the chain (cost_model.h). Runs LibTorch; a few block steps long.
// The one cost model of the runner, the CLI's plan and the app's live forecast.
// With `times` false only the bytes are measured (the times stay 0): what a fit of the bytes
// over several shapes needs (measureCostFit), at a fraction of the cost.
enum class MeasureTimes { Yes, No };
CostModel measureCostModel(const ExperimentConfig& config,
                           const std::atomic<bool>* cancel = nullptr,
                           MeasureTimes times = MeasureTimes::Yes);

// The cost model of `config` at its real size without building it whole: one layer and the
// chain's ends measured at the small shapes of fitShapes (full_size.h), each byte count fitted
// exactly and checked on a shape the fit did not use, the times by least squares. `progress`
// hears each shape as it starts.
struct CostFit;
// The `available` of fitMeasureRefusal (full_size.h), what measureCostFit asks it with:
// availableMemory(device) and, on the CPU, at most what the process's address-space limit
// (ulimit -v) leaves.
std::int64_t measuringMemory(const std::string& device);

// The check measureCostFit makes before it builds anything, for callers that must refuse a
// model before other work starts (a lesson's plan step): throws MemoryError when measuring
// `config` would not fit measuringMemory (fitMeasureRefusal, full_size.h).
void checkFitMeasurable(const ExperimentConfig& config);
CostFit measureCostFit(
    const ExperimentConfig& config,
    const std::function<void(const std::string& stage, int done, int total)>& progress = {},
    const std::atomic<bool>* cancel = nullptr);

// The chain measureCostModel builds to time a kept block's backward: min(depth, 4) blocks (1
// block: no kept-block slowdown to measure). Configs equal but for depths with the same
// value here have the same block costs (costModelAtDepth).
int costMeasurementDepth(const ExperimentConfig& config);

// `measured`'s first block repeated along a chain of `depth` blocks.
CostModel costModelAtDepth(const CostModel& measured, int depth);

// Where `config` runs: `threads` is the config's count when it sets one (what a measurement
// runs at), LibTorch's current one otherwise.
Environment describeEnvironment(const ExperimentConfig& config);

}  // namespace ckptlab
