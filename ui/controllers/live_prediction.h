#pragma once
// What each strategy will take, predicted from the measured cost model before anything runs
// (the same measurement and replay the runner uses): the live forecast beside the parameters.

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <memory>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/strategy.h"

namespace ckptlab {
struct CostModel;
}

namespace ckptlab::ui {

struct StrategyForecast {
    Strategy strategy;
    bool ok = false;  // false: `error` says why (not this model's, budget below the minimum)
    QString error;
    std::int64_t peak_bytes = 0;  // above the step's start
    std::int64_t activation_bytes = 0;
    double step_ms = 0;
};

struct LivePrediction {
    bool valid = false;  // false: `error` says why nothing was predicted
    QString error;
    ExperimentConfig config;
    std::vector<StrategyForecast> strategies;  // in the order asked
    std::int64_t none_peak = 0;
    double none_ms = 0;
    std::int64_t minimum_peak = 0;           // the smallest peak any schedule reaches
    double measure_ms = 0;                   // how long measuring the block took (0 when cached)
    QString blockCosts;                      // the measured costs of one block, as lines of text
    std::shared_ptr<const CostModel> costs;  // what the forecast replayed; null when invalid

    const StrategyForecast* find(const Strategy& strategy) const;
};

// Pure: core's forecastFromCosts (cost_forecast.h) in the app's types, with the block's
// measured costs as text.
LivePrediction livePrediction(const CostModel& costs, const ExperimentConfig& config,
                              const std::vector<Strategy>& strategies);

}  // namespace ckptlab::ui

Q_DECLARE_METATYPE(ckptlab::ui::LivePrediction)
