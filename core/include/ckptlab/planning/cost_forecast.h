#pragma once
// The live prediction: every strategy planned and replayed on a measured cost model. Planning room
// (docs/ARCHITECTURE.md): no LibTorch, no Qt.

#include <cstdint>
#include <optional>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/core_message.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/cost_model.h"

namespace ckptlab {

struct CostForecastEntry {
    Strategy strategy;
    bool ok = false;  // false: `error` says why (not this model's, budget below the minimum)
    std::optional<CoreMessage> error;
    std::int64_t peak_bytes = 0;  // above the step's start
    std::int64_t activation_bytes = 0;
    double step_ms = 0;
};
struct CostForecast {
    std::vector<CostForecastEntry> strategies;  // in the order asked
    std::int64_t none_peak = 0;
    double none_ms = 0;
    std::int64_t minimum_peak = 0;  // the smallest peak any schedule reaches
};
// Plans and replays every strategy on `costs` (depth x units per block long), optimal budgets
// with the planner: the real plan, not a stand-in. `costs` must not be empty.
CostForecast forecastFromCosts(const CostModel& costs, const ExperimentConfig& config,
                               const std::vector<Strategy>& strategies);

}  // namespace ckptlab
