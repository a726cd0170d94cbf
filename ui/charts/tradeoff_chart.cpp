// Chart 1: peak memory against step time, one scatter series per strategy, the Pareto frontier
// and the `none` baseline's crosshair; predictions and optimal curves from prediction_overlay.
#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "charts/chart_builders.h"
#include "charts/chart_interaction.h"
#include "charts/chart_style.h"
#include "charts/pareto.h"
#include "charts/point_labels.h"
#include "charts/prediction_overlay.h"
#include "charts/run_text.h"
#include "ckptlab/summary.h"

namespace ckptlab::ui {

namespace {

struct Point {
    QPointF value;  // (peak MiB, step ms)
    QString strategy;
    QString tooltip;
    bool predicted = false;  // the cost model's point, drawn hollow
};

constexpr qreal kMarker = 13;
constexpr qreal kBaselineMarker = 19;

QLineSeries* dashedLine(const QString& name, const QColor& color, qreal width) {
    auto* line = new QLineSeries;
    line->setName(name);
    QPen pen(color, width, Qt::DashLine);
    pen.setCosmetic(true);
    line->setPen(pen);
    return line;
}

void addBaselineCross(QChart* chart, QValueAxis* x, QValueAxis* y, const QPointF& at,
                      const QColor& color) {
    QColor faded = color;
    faded.setAlpha(140);
    auto* vertical = dashedLine(QStringLiteral("none baseline"), faded, 1.2);
    vertical->append(at.x(), y->min());
    vertical->append(at.x(), y->max());
    auto* horizontal = dashedLine(QStringLiteral("none baseline"), faded, 1.2);
    horizontal->append(x->min(), at.y());
    horizontal->append(x->max(), at.y());
    attach(chart, vertical, x, y);
    attach(chart, horizontal, x, y);
    hideFromLegend(chart, horizontal);  // one legend entry for the pair
}

QScatterSeries* strategySeries(const QString& name, const QColor& color, bool baseline) {
    auto* series = new QScatterSeries;
    series->setName(name);
    series->setProperty(kStrategyProperty, name);
    const qreal size = baseline ? kBaselineMarker : kMarker;
    series->setMarkerSize(size);
    series->setProperty("ckptlabBaseMarker", size);
    series->setMarkerShape(baseline ? QScatterSeries::MarkerShapeRectangle
                                    : QScatterSeries::MarkerShapeCircle);
    series->setColor(color);
    series->setBorderColor(color.darker(150));
    return series;
}

}  // namespace

QChart* buildTradeoffChart(const ResultSet& results) {
    const auto runs = plottedRuns(results);
    if (runs.empty()) return makeEmptyChart();

    const RunResult* baseline = results.find("none");
    if (baseline && baseline->error) baseline = nullptr;

    std::vector<Point> points;
    for (const RunResult* run : runs) {
        const QPointF value(double(run->metrics.peak_bytes) / kMiB, run->metrics.step_ms);
        if (!std::isfinite(value.x()) || !std::isfinite(value.y())) continue;  // not measured
        points.push_back({value, QString::fromStdString(run->strategy),
                          runTooltip(*run, baseline)});
    }

    if (points.empty()) return makeEmptyChart();

    // Predicted points and the frontier count for the axes' range, not for labels or the
    // measured Pareto frontier.
    std::vector<QPointF> extent;
    for (const Point& p : points) extent.push_back(p.value);
    for (const QPointF& v : overlayValues(results, runs)) extent.push_back(v);
    std::vector<Point> predicted;
    for (const RunResult* run : runs) {
        QPointF at;
        if (!predictedPoint(*run, &at)) continue;
        const QString strategy = QString::fromStdString(run->strategy);
        predicted.push_back({at, strategy,
                             QStringLiteral("%1 (predicted)\n%2").arg(strategy, predictionText(*run)),
                             true});
    }

    auto* chart = new QChart;
    styleChart(chart, QStringLiteral("%1 (lower left is better)").arg(chartTitle(ChartKind::Tradeoff)));
    auto* x = makeValueAxis(QStringLiteral("Peak memory (MiB)"));
    auto* y = makeValueAxis(QStringLiteral("Step time (ms)"));
    auto [minX, maxX] = std::minmax_element(extent.begin(), extent.end(), [](auto& a, auto& b) {
        return a.x() < b.x();
    });
    auto [minY, maxY] = std::minmax_element(extent.begin(), extent.end(), [](auto& a, auto& b) {
        return a.y() < b.y();
    });
    setNiceRange(x, minX->x(), maxX->x(), 0.12, true);
    setNiceRange(y, minY->y(), maxY->y(), 0.15, true);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    const QStringList order = strategyOrder(results);
    if (baseline && std::isfinite(baseline->metrics.step_ms)) {
        const QPointF at(double(baseline->metrics.peak_bytes) / kMiB, baseline->metrics.step_ms);
        addBaselineCross(chart, x, y, at, strategyColor(QStringLiteral("none"), order));
    }

    std::vector<QPointF> values;
    for (const Point& p : points) values.push_back(p.value);
    auto* frontier = dashedLine(QStringLiteral("Pareto frontier"), QColor(90, 90, 90), 1.6);
    frontier->setObjectName(QStringLiteral("paretoFrontier"));
    for (int index : paretoFrontier(values)) frontier->append(values[index]);
    attach(chart, frontier, x, y);
    addPredictionOverlays(chart, x, y, results, runs, order);

    // One series per strategy, in the set's order, so the legend lists strategies.
    auto* labels = new PointLabels(chart);  // named beside the point, clear of the others
    QStringList seen;
    for (const Point& p : points) {
        if (seen.contains(p.strategy)) continue;
        seen.append(p.strategy);
        const bool isBaseline = p.strategy == QLatin1String("none");
        auto* series = strategySeries(p.strategy, strategyColor(p.strategy, order), isBaseline);
        for (const Point& q : points)
            if (q.strategy == p.strategy) series->append(q.value);
        attach(chart, series, x, y);
        for (int i = 0; i < series->count(); ++i) labels->add(series, i, p.strategy);
    }

    auto* interaction = new ChartInteraction(chart);
    points.insert(points.end(), predicted.begin(), predicted.end());
    auto nearest = [points](QAbstractSeries* series, const QPointF& value) -> const Point* {
        const QVariant ofPrediction = series->property(kPredictedProperty);
        const bool wantPredicted = ofPrediction.isValid();
        const QString strategy = wantPredicted ? ofPrediction.toString()
                                               : series->property(kStrategyProperty).toString();
        const Point* best = nullptr;
        double bestDistance = 0;
        for (const Point& p : points) {
            if (p.strategy != strategy || p.predicted != wantPredicted) continue;
            const double d = std::hypot(p.value.x() - value.x(), p.value.y() - value.y());
            if (!best || d < bestDistance) best = &p, bestDistance = d;
        }
        return best;
    };
    interaction->pointTooltip = [nearest](QAbstractSeries* series, const QPointF& value) {
        const Point* p = nearest(series, value);
        return p ? p->tooltip : QString();
    };
    interaction->pointStrategy = [](QAbstractSeries* series, const QPointF&) {
        const QVariant ofPrediction = series->property(kPredictedProperty);  // selects its run too
        return (ofPrediction.isValid() ? ofPrediction : series->property(kStrategyProperty))
            .toString();
    };
    placeLegend(chart);
    // Hollow "predicted" and dashed frontiers only read right with their own marker shapes.
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    return chart;
}

}  // namespace ckptlab::ui
