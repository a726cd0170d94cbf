#pragma once
// Memory before anything runs: each strategy's estimate, what the runner holds, whether a
// sweep fits (forecastFit) and the refusal's message. Planning room (docs/ARCHITECTURE.md): no
// LibTorch, no Qt.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/core_message.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/estimate.h"

namespace ckptlab {

// The analytic estimate of one strategy. optimal:MiB has no plan without the cost model: its
// budget (at most the no-checkpoint peak) is taken as an upper bound of its peak, and
// `budgetBound` says so.
struct StrategyEstimate {
    MemoryEstimate estimate;
    bool budgetBound = false;
};
StrategyEstimate estimateStrategy(const ExperimentConfig& config, const Strategy& strategy);

// What the runner holds for a run: the estimate plus the initial weights and the reference
// gradients it keeps beside the model.
std::int64_t runnerNeed(const MemoryEstimate& estimate);

// A strategy that cannot run, and why: its name, or the text a front end could not parse.
struct StrategyProblem {
    std::string text;
    CoreMessage why;
};

// Whether a sweep fits: checkSweep refuses what `refused` says, the app shows the rest.
struct FitForecast {
    bool valid = false;                    // false: `error` (the first config problem) says why
    std::optional<CoreMessage> error;      // validate's first problem
    std::vector<StrategyProblem> invalid;  // strategies that do not fit this model, and why
    std::int64_t none = 0;                 // estimate without checkpointing
    std::int64_t baseline = 0;             // parameters, input and optimizer state (exact)
    std::int64_t largest = 0;            // estimate of the hungriest valid strategy (none if none)
    Strategy largestStrategy;            // none when no strategy needs more
    bool largestIsBaseline = true;       // no checked strategy needs more than `none`
    bool largestIsBound = false;         // `largest` is an optimal budget taken as the bound
    std::int64_t available = 0;          // 0: unknown
    bool refused = false;                // the runner's prediction exceeds `available`
    std::optional<CoreMessage> refusal;  // the refusal's message (checkSweep's DoesNotFit)
    std::int64_t runnerPredicted = 0;

    // Close enough to the limit that the system may start swapping.
    bool nearLimit() const { return valid && available > 0 && largest > available * 3 / 4; }
};
FitForecast forecastFit(const ExperimentConfig& config, const std::vector<Strategy>& strategies,
                        std::int64_t available);
// forecastFit of a config that validate (config.h) has passed: a check that validated it does
// not validate it again.
FitForecast forecastValidFit(const ExperimentConfig& config,
                             const std::vector<Strategy>& strategies, std::int64_t available);

// The memory verdict for strategies: the largest runner need and whose.
struct SweepNeed {
    std::int64_t predicted = 0;
    std::string worst;
    bool worstIsBound = false;
};
SweepNeed sweepNeed(const ExperimentConfig& config, const std::vector<Strategy>& strategies);
// "config does not fit: strategy X is predicted to need ... on <device>".
CoreMessage doesNotFitMessage(const SweepNeed& need, std::int64_t available,
                              const std::string& device);

}  // namespace ckptlab
