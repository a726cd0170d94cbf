#include "controllers/live_prediction.h"

#include <QObject>

#include "ckptlab/planning/cost_forecast.h"
#include "ckptlab/planning/cost_model.h"
#include "document/core_text.h"
#include "document/format.h"

namespace ckptlab::ui {

const StrategyForecast* LivePrediction::find(const Strategy& strategy) const {
    for (const StrategyForecast& s : strategies)
        if (s.strategy == strategy) return &s;
    return nullptr;
}

LivePrediction livePrediction(const CostModel& costs, const ExperimentConfig& config,
                              const std::vector<Strategy>& strategies) {
    LivePrediction result;
    result.config = config;
    if (costs.units.empty()) {
        result.error = QObject::tr("no cost model");
        return result;
    }
    QStringList lines;
    auto addLine = [&lines](const QString& name, const UnitCost& c) {
        lines << QObject::tr(
                     "%1: forward %2 ms (without grad %3 ms), backward %4 ms (%5 ms with "
                     "kept from the first forward); output %6, kept for backward %7")
                     .arg(name)
                     .arg(c.forward_ms, 0, 'f', 2)
                     .arg(c.nograd_ms, 0, 'f', 2)
                     .arg(c.backward_ms, 0, 'f', 2)
                     .arg(backwardMsOf(c, false), 0, 'f', 2)
                     .arg(formatBytes(c.output_bytes), formatBytes(c.kept_bytes));
    };
    // The chain's ends, when the model has them, around the block's units in chain order.
    if (costs.first) addLine(QObject::tr("embedding"), *costs.first);
    for (int u = 0; u < costs.unitsPerBlock() && u < int(costs.units.size()); ++u) {
        const QString name = costs.unitsPerBlock() == 2
                                 ? (u == 0 ? QObject::tr("attention") : QObject::tr("FFN"))
                                 : QObject::tr("block");
        addLine(name, costs.units[size_t(u)]);
    }
    if (costs.last) addLine(QObject::tr("LM head and loss"), *costs.last);
    result.blockCosts = lines.join(QLatin1Char('\n'));
    const CostForecast forecast = ckptlab::forecastFromCosts(costs, config, strategies);
    result.none_peak = forecast.none_peak;
    result.none_ms = forecast.none_ms;
    result.minimum_peak = forecast.minimum_peak;
    for (const CostForecastEntry& entry : forecast.strategies) {
        StrategyForecast f;
        f.strategy = entry.strategy;
        f.ok = entry.ok;
        if (entry.error) f.error = coreMessageText(*entry.error);
        f.peak_bytes = entry.peak_bytes;
        f.activation_bytes = entry.activation_bytes;
        f.step_ms = entry.step_ms;
        result.strategies.push_back(f);
    }
    result.costs = std::make_shared<const CostModel>(costs);
    result.valid = true;
    return result;
}

}  // namespace ckptlab::ui
