// Chart 1: peak memory against step time, one scatter series per strategy, the Pareto frontier
// and the `none` baseline's crosshair; predictions and optimal curves from prediction_overlay.
// Runs that ran out of memory are no measured points: each is a cross at its partial peak (at
// its predicted step time, or on the time axis without one), labelled where it stopped, and a
// memory limit is a vertical capacity line.
#include <QChart>
#include <QCoreApplication>
#include <QLegend>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <utility>

#include "charts/chart_builders.h"
#include "charts/chart_interaction.h"
#include "charts/chart_style.h"
#include "charts/error_bars.h"
#include "charts/pareto.h"
#include "charts/point_labels.h"
#include "charts/prediction_overlay.h"
#include "charts/run_text.h"
#include "ckptlab/model/summary.h"

namespace ckptlab::ui {

namespace {

struct Point {
    QPointF value;  // (peak MiB, step ms)
    QString strategy;
    QString tooltip;
    bool predicted = false;  // the cost model's point, drawn hollow
    bool baseline = false;   // the `none` run, drawn larger
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
    auto* vertical = dashedLine(ChartText::tr("none baseline"), faded, 1.2);
    vertical->append(at.x(), y->min());
    vertical->append(at.x(), y->max());
    auto* horizontal = dashedLine(ChartText::tr("none baseline"), faded, 1.2);
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

// A run that ran out of memory: where its cross goes and what it says.
struct Failed {
    QString strategy;
    double peakMiB = 0;       // the partial peak
    double stepMs = qQNaN();  // predicted; NaN without a prediction
    QString label;
    QString tooltip;
};

std::vector<Failed> failedRuns(const ResultSet& results) {
    std::vector<Failed> failed;
    for (const RunResult& run : results.runs) {
        if (!run.out_of_memory) continue;
        Failed f;
        f.strategy = QString::fromStdString(run.name());
        f.peakMiB = double(run.metrics.peak_bytes) / kMiB;
        if (!std::isfinite(f.peakMiB)) continue;
        QPointF predicted;
        if (predictedPoint(run, &predicted)) f.stepMs = predicted.y();
        f.label = QCoreApplication::translate("ckptlab", "%1: %2")
                      .arg(f.strategy, outOfMemoryText(*run.out_of_memory));
        f.tooltip = outOfMemoryDetails(run);
        f.tooltip += QLatin1Char('\n');
        f.tooltip +=
            std::isfinite(f.stepMs)
                ? QCoreApplication::translate("ckptlab",
                                              "Drawn at its partial peak and its predicted step "
                                              "time (%1), not a measured point.")
                      .arg(formatMs(f.stepMs))
                : QCoreApplication::translate("ckptlab",
                                              "Drawn at its partial peak on the time axis: it has "
                                              "no step time.");
        failed.push_back(f);
    }
    return failed;
}

// Measured runs as points; runs without a peak or a step time (not measured) are left out.
// The tooltip says what the error bar is, or that the fastest repeat has none.
// Each tooltip compares with the `none` of the run's own size (summary.h's baselineFor).
std::vector<Point> measuredPoints(const ResultSet& results,
                                  const std::vector<const RunResult*>& runs, bool fastest) {
    std::vector<Point> points;
    for (const RunResult* run : runs) {
        const QPointF value(double(run->metrics.peak_bytes) / kMiB, run->metrics.step_ms);
        if (!std::isfinite(value.x()) || !std::isfinite(value.y())) continue;  // not measured
        QString tooltip = runTooltip(*run, baselineFor(results, *run));
        const QString interval =
            fastest ? ChartText::tr("fastest repeat: no error bar (the interval is the median's)")
                    : stepIntervalLine(*run);
        if (!interval.isEmpty()) tooltip += QLatin1Char('\n') + interval;
        points.push_back({value, QString::fromStdString(run->name()), tooltip, false,
                          isBaseline(run->strategy)});
    }
    return points;
}

// The cost model's points, drawn hollow by the overlays; here for their tooltips.
std::vector<Point> predictedPoints(const std::vector<const RunResult*>& runs) {
    std::vector<Point> predicted;
    for (const RunResult* run : runs) {
        QPointF at;
        if (!predictedPoint(*run, &at)) continue;
        const QString strategy = QString::fromStdString(run->name());
        QString tooltip = ChartText::tr("%1 (predicted)\n%2").arg(strategy, predictionText(*run));
        if (const QString note = predictionNote(*run); !note.isEmpty())
            tooltip += QLatin1Char('\n') + note;
        predicted.push_back({at, strategy, tooltip, true});
    }
    return predicted;
}

struct Extent {
    double minX = qInf(), maxX = -qInf(), minY = qInf(), maxY = -qInf();
};

// Predicted points and the frontier count for the axes' range, not for labels or the
// measured Pareto frontier.
Extent extentOf(const ResultSet& results, const std::vector<const RunResult*>& runs,
                const std::vector<Point>& points, const std::vector<Failed>& failed) {
    std::vector<QPointF> values;
    for (const Point& p : points) values.push_back(p.value);
    for (const QPointF& v : overlayValues(results, runs)) values.push_back(v);
    Extent e;
    for (const QPointF& p : values) {
        e.minX = std::min(e.minX, p.x()), e.maxX = std::max(e.maxX, p.x());
        e.minY = std::min(e.minY, p.y()), e.maxY = std::max(e.maxY, p.y());
    }
    for (const Failed& f : failed) {
        e.minX = std::min(e.minX, f.peakMiB), e.maxX = std::max(e.maxX, f.peakMiB);
        if (std::isfinite(f.stepMs))
            e.minY = std::min(e.minY, f.stepMs), e.maxY = std::max(e.maxY, f.stepMs);
    }
    if (!std::isfinite(e.minY)) e.minY = 0, e.maxY = 1;  // only failed runs, none predicted
    return e;
}

void addFrontier(QChart* chart, QValueAxis* x, QValueAxis* y, const std::vector<Point>& points) {
    std::vector<QPointF> values;
    for (const Point& p : points) values.push_back(p.value);
    auto* frontier = dashedLine(ChartText::tr("Pareto frontier"), QColor(90, 90, 90), 1.6);
    frontier->setObjectName(QStringLiteral("paretoFrontier"));
    for (int index : paretoFrontier(values)) frontier->append(values[index]);
    attach(chart, frontier, x, y);
}

void addCapacityLine(QChart* chart, QValueAxis* x, QValueAxis* y, double limitMiB,
                     double capacity) {
    auto* line = dashedLine(
        QCoreApplication::translate("ckptlab", "device capacity: limit %1 (%2 for the step)")
            .arg(formatMiB(limitMiB), formatMiB(capacity)),
        outOfMemoryColor(), 1.6);
    line->setObjectName(QStringLiteral("memoryCapacity"));
    line->append(capacity, y->min());
    line->append(capacity, y->max());
    attach(chart, line, x, y);
}

// One series per strategy, in the set's order, so the legend lists strategies.
void addStrategySeries(QChart* chart, QValueAxis* x, QValueAxis* y,
                       const std::vector<Point>& points, const QStringList& order,
                       PointLabels* labels) {
    QStringList seen;
    for (const Point& p : points) {
        if (seen.contains(p.strategy)) continue;
        seen.append(p.strategy);
        auto* series = strategySeries(p.strategy, strategyColor(p.strategy, order), p.baseline);
        for (const Point& q : points)
            if (q.strategy == p.strategy) series->append(q.value);
        attach(chart, series, x, y);
        for (int i = 0; i < series->count(); ++i) labels->add(series, i, p.strategy);
    }
}

// Failed runs last, on top: a cross each, outside the legend and the frontier. Returns their
// tooltips, indexed by the crosses' "ckptlabOomIndex".
QStringList addFailedCrosses(QChart* chart, QValueAxis* x, QValueAxis* y,
                             const std::vector<Failed>& failed, const QStringList& order,
                             PointLabels* labels) {
    QStringList failedTips;
    for (const Failed& f : failed) {
        const QPointF at(f.peakMiB, std::isfinite(f.stepMs) ? f.stepMs : y->min());
        QScatterSeries* cross = makeCrossMarker(f.strategy, strategyColor(f.strategy, order), at);
        cross->setObjectName(QStringLiteral("outOfMemory"));
        cross->setProperty("ckptlabOomIndex", int(failedTips.size()));
        failedTips << f.tooltip;
        attach(chart, cross, x, y);
        hideFromLegend(chart, cross);
        labels->add(cross, 0, f.label, outOfMemoryColor(), true);
    }
    return failedTips;
}

// Tooltips from the nearest point of the hovered series' strategy (measured or predicted), and
// the strategy a click selects.
void addInteraction(QChart* chart, std::vector<Point> points, const QStringList& failedTips) {
    auto* interaction = new ChartInteraction(chart);
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
    interaction->pointTooltip = [nearest, failedTips](QAbstractSeries* series,
                                                      const QPointF& value) {
        const QVariant oom = series->property("ckptlabOomIndex");
        if (oom.isValid()) return failedTips.value(oom.toInt());
        const Point* p = nearest(series, value);
        return p ? p->tooltip : QString();
    };
    interaction->pointStrategy = [](QAbstractSeries* series, const QPointF&) {
        const QVariant ofPrediction = series->property(kPredictedProperty);  // selects its run too
        return (ofPrediction.isValid() ? ofPrediction : series->property(kStrategyProperty))
            .toString();
    };
}

}  // namespace

QChart* buildTradeoffChart(const ResultSet& results, bool fastest) {
    const auto runs = plottedRuns(results);
    std::vector<Failed> failed = failedRuns(results);
    if (runs.empty() && failed.empty()) return makeEmptyChart();

    const RunResult* baseline = results.find("none");
    if (baseline && baseline->error) baseline = nullptr;
    std::vector<Point> points = measuredPoints(results, runs, fastest);
    const std::vector<StepErrorBar> bars =
        fastest ? std::vector<StepErrorBar>{} : stepErrorBars(runs);
    if (points.empty() && failed.empty()) return makeEmptyChart();

    Extent e = extentOf(results, runs, points, failed);
    for (const StepErrorBar& bar : bars)  // the whole interval in view
        e.minY = std::min(e.minY, bar.lowMs), e.maxY = std::max(e.maxY, bar.highMs);
    std::vector<const RunResult*> limited = runs;
    for (const RunResult& run : results.runs)
        if (run.out_of_memory) limited.push_back(&run);
    // The device's capacity on the memory axis (above the step's start, like the peaks), when
    // it is near enough to the points to belong on this chart.
    const double capacity = capacityAboveStartMiB(limited);
    const bool drawCapacity = capacity > 0 && capacity <= std::max(e.maxX, 1e-9) * 2.0;
    if (drawCapacity) e.minX = std::min(e.minX, capacity), e.maxX = std::max(e.maxX, capacity);
    const std::vector<Point> predicted = predictedPoints(runs);

    auto* chart = new QChart;
    styleChart(chart,
               ChartText::tr("%1 (lower left is better)").arg(chartTitle(ChartKind::Tradeoff)));
    auto* x = makeValueAxis(ChartText::tr("Peak memory (MiB)"));
    auto* y = makeValueAxis(fastest ? ChartText::tr("Step time, fastest repeat (ms; no error bars)")
                                    : ChartText::tr("Step time (ms)"));
    setNiceRange(x, e.minX, e.maxX, 0.12, true);
    setNiceRange(y, e.minY, e.maxY, 0.15, true);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    const QStringList order = strategyOrder(results);
    if (baseline && std::isfinite(baseline->metrics.step_ms)) {
        const QPointF at(double(baseline->metrics.peak_bytes) / kMiB, baseline->metrics.step_ms);
        addBaselineCross(chart, x, y, at, strategyColor(QStringLiteral("none"), order));
    }
    auto* labels = new PointLabels(chart);  // named beside the point, clear of the others
    addFrontier(chart, x, y, points);
    addPredictionOverlays(chart, x, y, results, runs, order, labels);
    if (drawCapacity)
        addCapacityLine(chart, x, y, limited.front()->config.memory_limit_mib, capacity);

    addStepErrorBars(chart, x, y, bars, order);  // under the points
    addStrategySeries(chart, x, y, points, order, labels);
    const QStringList failedTips = addFailedCrosses(chart, x, y, failed, order, labels);

    points.insert(points.end(), predicted.begin(), predicted.end());
    addInteraction(chart, std::move(points), failedTips);
    placeLegend(chart);
    // Hollow "predicted" and dashed frontiers only read right with their own marker shapes.
    chart->legend()->setMarkerShape(QLegend::MarkerShapeFromSeries);
    return chart;
}

}  // namespace ckptlab::ui
