// Chart 5: a scaling sweep on log-log axes, where a power law is a straight line whose slope
// is its exponent: `sqrt` activation memory should rise about as √L, `none` as L.
#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QScatterSeries>
#include <algorithm>
#include <cmath>

#include "charts/chart_builders.h"
#include "charts/chart_interaction.h"
#include "charts/chart_style.h"
#include "ckptlab/model/summary.h"

namespace ckptlab::ui {

namespace {

constexpr qreal kMarker = 11;

struct Point {
    QPointF value;  // (axis value, metric in display units)
    QString strategy;
};

QString axisTitle(ScalingAxis axis) {
    switch (axis) {
    case ScalingAxis::Depth: return ChartText::tr("Depth (blocks, log₂)");
    case ScalingAxis::Seq: return ChartText::tr("Sequence length (tokens, log₂)");
    case ScalingAxis::Width: return ChartText::tr("Width (log₂)");
    case ScalingAxis::Batch: return ChartText::tr("Batch size (log₂)");
    }
    return {};
}

QString axisName(ScalingAxis axis) {
    switch (axis) {
    case ScalingAxis::Depth: return ChartText::tr("depth", "scaling axis");
    case ScalingAxis::Seq: return ChartText::tr("seq", "scaling axis: sequence length");
    case ScalingAxis::Width: return ChartText::tr("width", "scaling axis");
    case ScalingAxis::Batch: return ChartText::tr("batch", "scaling axis");
    }
    return QString::fromStdString(toString(axis));
}

QString metricName(ScalingMetric metric) {
    switch (metric) {
    case ScalingMetric::ActivationBytes: return ChartText::tr("activation memory");
    case ScalingMetric::PeakBytes: return ChartText::tr("peak memory");
    case ScalingMetric::StepMs: return ChartText::tr("step time");
    }
    return {};
}

QString metricAxisTitle(ScalingMetric metric) {
    switch (metric) {
    case ScalingMetric::ActivationBytes: return ChartText::tr("Activation memory (MiB, log₂)");
    case ScalingMetric::PeakBytes: return ChartText::tr("Peak memory (MiB, log₂)");
    case ScalingMetric::StepMs: return ChartText::tr("Step time (ms, log₂)");
    }
    return {};
}

bool inBytes(ScalingMetric metric) { return metric != ScalingMetric::StepMs; }

// Metric values are bytes or ms; the chart shows MiB or ms.
double display(double value, ScalingMetric metric) {
    return inBytes(metric) ? value / kMiB : value;
}

QString formatValue(double value, ScalingMetric metric) {
    return inBytes(metric) ? formatMiB(value) : formatMs(value);
}

QLogValueAxis* makeLogAxis(const QString& title, double lo, double hi) {
    auto* axis = new QLogValueAxis;
    axis->setBase(2);
    axis->setTitleText(title);
    axis->setTitleFont(axisTitleFont());
    axis->setLabelsFont(axisLabelFont());
    // A quarter octave of room so end points are not cut in half by the plot's edge; the
    // ticks still fall on whole powers of two.
    double a = lo / std::exp2(0.25);
    double b = hi * std::exp2(0.25);
    if (!(b > a)) b = a * 2;
    axis->setRange(a, b);
    axis->setLabelFormat(a < 1 ? QStringLiteral("%.3g") : QStringLiteral("%g"));
    axis->setMinorTickCount(1);
    return axis;
}

// One point per plotted run; a log axis cannot show zero (e.g. `full` keeps no activations).
std::vector<Point> scalingPoints(const ResultSet& results, ScalingAxis axis, ScalingMetric metric) {
    std::vector<Point> points;
    for (const RunResult* run : plottedRuns(results)) {
        const QPointF value(axisValue(run->config, axis),
                            display(metricValue(*run, metric), metric));
        if (!(value.x() > 0) || !(value.y() > 0) || !std::isfinite(value.y())) continue;
        points.push_back({value, QString::fromStdString(run->name())});
    }
    return points;
}

// A strategy's measured points, joined by a thin line; returns the dots, the legend's entry.
QScatterSeries* addMeasured(QChart* chart, QAbstractAxis* x, QAbstractAxis* y,
                            const QString& strategy, const QColor& color,
                            const std::vector<QPointF>& mine) {
    auto* joined = new QLineSeries;
    joined->setName(strategy);
    joined->setProperty(kStrategyProperty, strategy);
    joined->setProperty("ckptlabBaseWidth", 1.2);
    QPen thin(color, 1.2);
    thin.setCosmetic(true);
    joined->setPen(thin);
    auto* dots = new QScatterSeries;
    dots->setName(strategy);
    dots->setProperty(kStrategyProperty, strategy);
    dots->setMarkerSize(kMarker);
    dots->setProperty("ckptlabBaseMarker", kMarker);
    dots->setColor(color);
    dots->setBorderColor(color.darker(150));
    for (const QPointF& v : mine) joined->append(v), dots->append(v);
    attach(chart, joined, x, y);
    hideFromLegend(chart, joined);
    attach(chart, dots, x, y);
    return dots;
}

// The fit is core's, so the legend says what `ckptlab-cli scaling` prints. Straight on log-log
// axes, so its two ends draw it exactly. False when there are too few points to fit.
bool addFit(QChart* chart, QAbstractAxis* x, QAbstractAxis* y, const ResultSet& results,
            const QString& strategy, const QColor& color, const std::vector<QPointF>& mine,
            ScalingAxis axis, ScalingMetric metric) {
    std::vector<const RunResult*> runs;  // by name: merged files keep their own fits
    for (const RunResult& run : results.runs)
        if (QString::fromStdString(run.name()) == strategy) runs.push_back(&run);
    const PowerFit fit = fitRuns(runs, axis, metric);
    if (fit.points < 2) return false;
    auto* line = new QLineSeries;
    line->setName(QStringLiteral("%1: k=%2").arg(strategy).arg(fit.exponent, 0, 'f', 2));
    line->setObjectName(QStringLiteral("scalingFit"));
    line->setProperty("ckptlabFitOf", strategy);
    line->setProperty("ckptlabFitExponent", fit.exponent);
    QPen dashed(color, 2.0, Qt::DashLine);
    dashed.setCosmetic(true);
    line->setPen(dashed);
    for (double at : {mine.front().x(), mine.back().x()})
        line->append(at, display(fit.coefficient * std::pow(at, fit.exponent), metric));
    attach(chart, line, x, y);
    return true;
}

// Tooltips name the strategy, the point and its fit; clicking a fit selects its strategy.
void addInteraction(QChart* chart, ScalingAxis axis, ScalingMetric metric) {
    // Copies of the numbers only: the chart outlives its results.
    std::vector<std::pair<QString, QString>> fitText;
    for (QAbstractSeries* s : chart->series())
        if (s->objectName() == QLatin1String("scalingFit"))
            fitText.emplace_back(s->property("ckptlabFitOf").toString(), s->name());
    auto* interaction = new ChartInteraction(chart);
    const QString what = metricName(metric), along = axisName(axis);
    interaction->pointTooltip = [what, along, metric, fitText](QAbstractSeries* series,
                                                               const QPointF& value) {
        const QString strategy = series->property(kStrategyProperty).toString();
        const QString fitOf = series->property("ckptlabFitOf").toString();
        if (!fitOf.isEmpty())
            return ChartText::tr("%1\nfitted %2 ∝ %3^k").arg(series->name(), what, along);
        if (strategy.isEmpty()) return QString();
        QString tip = ChartText::tr("%1\n%2 %3: %4 %5")
                          .arg(strategy, along)
                          .arg(value.x(), 0, 'g', 6)
                          .arg(formatValue(value.y(), metric), what);
        for (const auto& [of, name] : fitText)
            if (of == strategy) tip += ChartText::tr("\nfit %1").arg(name);
        return tip;
    };
    interaction->pointStrategy = [](QAbstractSeries* series, const QPointF&) {
        const QString fitOf = series->property("ckptlabFitOf").toString();
        return fitOf.isEmpty() ? series->property(kStrategyProperty).toString() : fitOf;
    };
}

}  // namespace

QChart* buildScalingChart(const ResultSet& results, ScalingAxis axis, ScalingMetric metric) {
    const std::vector<Point> points = scalingPoints(results, axis, metric);
    if (points.empty()) return makeEmptyChart();

    auto* chart = new QChart;
    styleChart(chart, ChartText::tr("%1: %2 against %3 (log-log)")
                          .arg(chartTitle(ChartKind::Scaling), metricName(metric), axisName(axis)));
    auto [minX, maxX] = std::minmax_element(
        points.begin(), points.end(), [](auto& a, auto& b) { return a.value.x() < b.value.x(); });
    auto [minY, maxY] = std::minmax_element(
        points.begin(), points.end(), [](auto& a, auto& b) { return a.value.y() < b.value.y(); });
    const double x0 = minX->value.x(), x1 = maxX->value.x();
    auto* x = makeLogAxis(axisTitle(axis), x0, x1);
    auto* y = makeLogAxis(metricAxisTitle(metric), minY->value.y(), maxY->value.y());
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    const QStringList order = strategyOrder(results);
    QStringList seen;
    for (const Point& p : points) {
        if (seen.contains(p.strategy)) continue;
        seen.append(p.strategy);
        const QColor color = strategyColor(p.strategy, order);
        std::vector<QPointF> mine;
        for (const Point& q : points)
            if (q.strategy == p.strategy) mine.push_back(q.value);
        std::sort(mine.begin(), mine.end(), [](auto& a, auto& b) { return a.x() < b.x(); });
        QScatterSeries* dots = addMeasured(chart, x, y, p.strategy, color, mine);
        if (addFit(chart, x, y, results, p.strategy, color, mine, axis, metric))
            hideFromLegend(chart, dots);  // the fit's entry names the strategy and its exponent
    }

    addInteraction(chart, axis, metric);
    placeLegend(chart);
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);  // dashed fit in the legend
    return chart;
}

}  // namespace ckptlab::ui
