#include "charts/prediction_overlay.h"

#include <QChart>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

#include "charts/chart_builders.h"
#include "charts/chart_style.h"
#include "charts/point_labels.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/model/summary.h"

namespace ckptlab::ui {

namespace {

constexpr qreal kPredictedMarker = 11;

bool isOptimal(const RunResult& run) { return hasMemoryBudget(run.strategy); }

QPointF measuredPoint(const RunResult& run) {
    return {double(run.metrics.peak_bytes) / kMiB, run.metrics.step_ms};
}

bool finite(const QPointF& p) { return std::isfinite(p.x()) && std::isfinite(p.y()); }

QScatterSeries* hollowSeries(const QString& name, const QColor& color) {
    auto* series = new QScatterSeries;
    series->setName(name);
    series->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    series->setMarkerSize(kPredictedMarker);
    series->setBrush(QColor(255, 255, 255, 230));  // hollow, yet hides the tie line beneath
    QPen border(color, 2.2);
    series->setPen(border);
    return series;
}

QLineSeries* line(const QString& name, const QColor& color, qreal width, Qt::PenStyle style) {
    auto* series = new QLineSeries;
    series->setName(name);
    QPen pen(color, width, style);
    pen.setCosmetic(true);
    series->setPen(pen);
    return series;
}

std::vector<QPointF> frontierPoints(const ResultSet& results) {
    std::vector<QPointF> points;
    for (const FrontierPoint& f : results.predicted_frontier) {
        const QPointF p(double(f.peak_bytes) / kMiB, f.step_ms);
        if (finite(p) && p.x() > 0) points.push_back(p);
    }
    std::sort(points.begin(), points.end(), [](auto& a, auto& b) { return a.x() < b.x(); });
    return points;
}

}  // namespace

bool predictedPoint(const RunResult& run, QPointF* at) {
    if (!run.prediction || run.prediction->peak_bytes <= 0) return false;
    const QPointF p(double(run.prediction->peak_bytes) / kMiB, run.prediction->step_ms);
    if (!finite(p) || p.y() <= 0) return false;
    *at = p;
    return true;
}

QString predictionNote(const RunResult& run) {
    if (run.strategy.kind != StrategyKind::SeedBug) return {};
    const QString plan =
        QString::fromStdString(makeStrategy(StrategyKind::Segments, run.strategy.param).name());
    return ChartText::tr(
               "The cost model predicts the plan, and %1 plans the same segments as "
               "%2: its predicted point is %2's, the same memory and time. What ran "
               "differs: each recompute ran the last segment's blocks.")
        .arg(QString::fromStdString(run.strategy.name()), plan);
}

std::vector<QPointF> overlayValues(const ResultSet& results,
                                   const std::vector<const RunResult*>& runs) {
    std::vector<QPointF> values = frontierPoints(results);
    QPointF p;
    for (const RunResult* run : runs)
        if (predictedPoint(*run, &p)) values.push_back(p);
    return values;
}

void addPredictionOverlays(QChart* chart, QValueAxis* x, QValueAxis* y, const ResultSet& results,
                           const std::vector<const RunResult*>& runs, const QStringList& order,
                           PointLabels* labels) {
    // Beneath the measured dots: the planner's frontier, then the curve the optimal runs made.
    const auto frontier = frontierPoints(results);
    if (!frontier.empty()) {
        auto* series = line(ChartText::tr("predicted optimal frontier"), QColor(0x55, 0x2a, 0x7f),
                            1.8, Qt::DashLine);
        series->setObjectName(QStringLiteral("predictedFrontier"));
        for (const QPointF& p : frontier) series->append(p);
        attach(chart, series, x, y);
    }

    std::vector<QPointF> optimal;
    for (const RunResult* run : runs)
        if (isOptimal(*run) && finite(measuredPoint(*run))) optimal.push_back(measuredPoint(*run));
    if (optimal.size() >= 2) {
        std::sort(optimal.begin(), optimal.end(), [](auto& a, auto& b) { return a.x() < b.x(); });
        auto* series = line(ChartText::tr("measured optimal curve"), QColor(0x22, 0x22, 0x22), 2.0,
                            Qt::SolidLine);
        series->setObjectName(QStringLiteral("optimalCurve"));
        for (const QPointF& p : optimal) series->append(p);
        attach(chart, series, x, y);
    }

    // Ties first so no hollow marker is crossed by another strategy's tie.
    for (const RunResult* run : runs) {
        QPointF predicted;
        if (!predictedPoint(*run, &predicted) || !finite(measuredPoint(*run))) continue;
        QColor faded = strategyColor(QString::fromStdString(run->name()), order);
        faded.setAlpha(150);
        auto* tie = line(ChartText::tr("prediction error"), faded, 1.0, Qt::SolidLine);
        tie->append(predicted);
        tie->append(measuredPoint(*run));
        attach(chart, tie, x, y);
        hideFromLegend(chart, tie);
    }

    // One hollow series per strategy so each keeps its colour; a single grey "predicted"
    // entry stands for all of them in the legend.
    bool any = false;
    for (const QString& strategy : order) {
        QScatterSeries* dots = nullptr;
        QString label;  // for a point whose place needs words
        for (const RunResult* run : runs) {
            QPointF predicted;
            if (QString::fromStdString(run->name()) != strategy ||
                !predictedPoint(*run, &predicted))
                continue;
            if (!dots)
                dots = hollowSeries(ChartText::tr("%1 (predicted)").arg(strategy),
                                    strategyColor(strategy, order));
            dots->append(predicted);
            if (label.isEmpty() && !predictionNote(*run).isEmpty())
                //: beside seed-bug:4's predicted point, which is the point of segments:4's plan
                label =
                    ChartText::tr("%1 predicted: the plan of %2")
                        .arg(strategy,
                             QString::fromStdString(
                                 makeStrategy(StrategyKind::Segments, run->strategy.param).name()));
        }
        if (!dots) continue;
        dots->setProperty(kPredictedProperty, strategy);
        attach(chart, dots, x, y);
        hideFromLegend(chart, dots);
        if (labels && !label.isEmpty()) labels->add(dots, 0, label, QColor(0x55, 0x55, 0x55), true);
        any = true;
    }
    if (any) {
        auto* legend = hollowSeries(ChartText::tr("predicted"), QColor(0x55, 0x55, 0x55));
        legend->setObjectName(QStringLiteral("predictedLegend"));
        attach(chart, legend, x, y);
    }
}

}  // namespace ckptlab::ui
