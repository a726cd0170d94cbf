#include "controllers/live_prediction.h"

#include <QObject>

#include "ckptlab/cost_model.h"
#include "ckptlab/planner.h"
#include "ckptlab/strategy.h"
#include "document/format.h"

namespace ckptlab::ui {

const StrategyForecast* LivePrediction::find(const QString& strategy) const
{
    for (const StrategyForecast& s : strategies)
        if (s.strategy == strategy)
            return &s;
    return nullptr;
}

LivePrediction forecastFromCosts(const CostModel& costs, const ExperimentConfig& config,
                                 const QStringList& strategies)
{
    LivePrediction result;
    result.config = config;
    if (costs.units.empty()) {
        result.error = QObject::tr("no cost model");
        return result;
    }
    const OptimalPlanner planner(costs);
    const Prediction none = predict(costs, makePlan(Strategy{}, config.depth));
    result.none_peak = none.peak_bytes;
    result.none_ms = none.step_ms;
    QStringList lines;
    for (int u = 0; u < costs.unitsPerBlock && u < int(costs.units.size()); ++u) {
        const UnitCost& c = costs.units[size_t(u)];
        const QString name = costs.unitsPerBlock == 2
            ? (u == 0 ? QObject::tr("attention") : QObject::tr("FFN"))
            : QObject::tr("block");
        lines << QObject::tr("%1: forward %2 ms (without grad %3 ms), backward %4 ms (%5 ms with "
                             "kept from the first forward); output %6, kept for backward %7")
                     .arg(name)
                     .arg(c.forward_ms, 0, 'f', 2)
                     .arg(c.nograd_ms, 0, 'f', 2)
                     .arg(c.backward_ms, 0, 'f', 2)
                     .arg(backwardMsOf(c, false), 0, 'f', 2)
                     .arg(formatBytes(c.output_bytes), formatBytes(c.kept_bytes));
    }
    result.blockCosts = lines.join(QLatin1Char('\n'));
    // The peak the best low-memory schedule reaches, not the budget it needs (a bit above).
    result.minimum_peak = planner.plan(planner.minimumPeak()).prediction.peak_bytes;
    for (const QString& text : strategies) {
        StrategyForecast f;
        f.strategy = text;
        try {
            const Strategy s = parseStrategy(text.toStdString(), config.depth, config.block);
            Prediction p;
            if (s.kind == StrategyKind::Optimal)
                p = planner.plan(std::int64_t(s.budget_mib * 1024 * 1024)).prediction;
            else
                p = predict(costs, makePlan(s, config.depth));
            f.ok = true;
            f.peak_bytes = p.peak_bytes;
            f.activation_bytes = p.activation_bytes;
            f.step_ms = p.step_ms;
        } catch (const std::exception& e) {
            f.error = QString::fromStdString(e.what());
        }
        result.strategies.push_back(f);
    }
    result.valid = true;
    return result;
}

}  // namespace ckptlab::ui
