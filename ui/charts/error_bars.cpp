#include "charts/error_bars.h"

#include <QChart>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>
#include <cmath>

#include "charts/chart_builders.h"
#include "charts/chart_style.h"
#include "ckptlab/model/step_stats.h"
#include "ckptlab/model/summary.h"

namespace ckptlab::ui {

namespace {

constexpr qreal kBarWidth = 1.4;
constexpr double kCapFraction = 0.006;  // of the memory axis, each side of the point

}  // namespace

std::vector<StepErrorBar> stepErrorBars(const std::vector<const RunResult*>& runs) {
    std::vector<StepErrorBar> bars;
    for (const RunResult* run : runs) {
        const double peak = double(run->metrics.peak_bytes) / kMiB;
        if (!std::isfinite(peak) || !std::isfinite(run->metrics.step_ms)) continue;
        const StepStats stats = stepStats(run->metrics);
        if (!stats.interval || !(stats.interval->high > stats.interval->low)) continue;
        bars.push_back({QString::fromStdString(run->name()), peak, stats.interval->low,
                        stats.interval->high, stats.interval->is95});
    }
    return bars;
}

void addStepErrorBars(QChart* chart, QValueAxis* x, QValueAxis* y,
                      const std::vector<StepErrorBar>& bars, const QStringList& order) {
    const double cap = (x->max() - x->min()) * kCapFraction;
    for (const StepErrorBar& bar : bars) {
        auto* line = new QLineSeries;
        line->setName(bar.strategy);
        line->setObjectName(QStringLiteral("stepInterval"));
        line->setProperty(kStrategyProperty, bar.strategy);
        line->setProperty("ckptlabBaseWidth", kBarWidth);
        line->setProperty("ckptlabIntervalLow", bar.lowMs);
        line->setProperty("ckptlabIntervalHigh", bar.highMs);
        // Lower cap, up the bar, upper cap: one path, drawn once.
        line->append(bar.peakMiB - cap, bar.lowMs);
        line->append(bar.peakMiB + cap, bar.lowMs);
        line->append(bar.peakMiB, bar.lowMs);
        line->append(bar.peakMiB, bar.highMs);
        line->append(bar.peakMiB - cap, bar.highMs);
        line->append(bar.peakMiB + cap, bar.highMs);
        QPen pen(strategyColor(bar.strategy, order).darker(130), kBarWidth,
                 bar.is95 ? Qt::SolidLine : Qt::DotLine);
        pen.setCosmetic(true);
        pen.setCapStyle(Qt::FlatCap);
        line->setPen(pen);
        attach(chart, line, x, y);
        hideFromLegend(chart, line);
    }
}

QString stepIntervalLine(const RunResult& run) {
    if (!std::isfinite(run.metrics.step_ms)) return {};
    const StepStats stats = stepStats(run.metrics);
    if (!stats.interval) return {};
    const QString low = QString::number(stats.interval->low, 'f', 1);
    const QString high = QString::number(stats.interval->high, 'f', 1);
    if (stats.interval->is95)
        return ChartText::tr(
                   "95% interval of the median [%1, %2] ms from %n sample(s) in "
                   "interleaved rounds",
                   nullptr, stats.samples)
            .arg(low, high);
    return ChartText::tr("min–max range [%1, %2] ms of only %n sample(s): no 95% interval", nullptr,
                         stats.samples)
        .arg(low, high);
}

}  // namespace ckptlab::ui
