// Chart 2: memory above the step's start over one step, one line per run, with the phases of
// the first run shaded and its block boundaries marked.
#include <QAreaSeries>
#include <QChart>
#include <QLineSeries>
#include <QPen>
#include <QValueAxis>
#include <algorithm>

#include "charts/chart_builders.h"
#include "charts/chart_interaction.h"
#include "charts/chart_style.h"
#include "charts/phase_bands.h"
#include "ckptlab/summary.h"

namespace ckptlab::ui {

namespace {

constexpr qreal kLineWidth = 2.0;

struct RunInfo {
    QString strategy;
    std::vector<PhaseSpan> spans;      // as measured, with block numbers
    std::vector<PhaseSpan> flattened;  // for the phase under the mouse
};

// One area per phase: rectangular pulses along the x axis, zero height between bands, so any
// number of bands costs one series (and one legend entry) per phase.
QAreaSeries* phaseArea(Phase phase, const std::vector<PhaseSpan>& bands, double top) {
    auto* upper = new QLineSeries;
    auto* lower = new QLineSeries;
    for (const PhaseSpan& b : bands) {
        if (b.phase != phase) continue;
        upper->append({QPointF(b.begin_ms, 0), QPointF(b.begin_ms, top), QPointF(b.end_ms, top),
                       QPointF(b.end_ms, 0)});
        lower->append({QPointF(b.begin_ms, 0), QPointF(b.begin_ms, 0), QPointF(b.end_ms, 0),
                       QPointF(b.end_ms, 0)});
    }
    if (upper->count() == 0) {
        delete upper;
        delete lower;
        return nullptr;
    }
    auto* area = new QAreaSeries(upper, lower);  // attachArea() gives it the two lines
    area->setName(phaseLabel(phase));
    area->setProperty("ckptlabPhase", int(phase));
    area->setBrush(phaseColor(phase));
    area->setPen(Qt::NoPen);
    return area;
}

// Thin vertical lines drawn as one series that returns along the x axis between them.
QLineSeries* boundaryLines(const std::vector<double>& times, double top) {
    auto* line = new QLineSeries;
    line->setName(QStringLiteral("block boundaries"));
    QPen pen(QColor(110, 110, 110, 70), 1.0);
    pen.setCosmetic(true);
    line->setPen(pen);
    QList<QPointF> points;
    for (double t : times) points << QPointF(t, 0) << QPointF(t, top) << QPointF(t, 0);
    line->append(points);
    return line;
}

// Memory holds its value until the next event: draw steps, not slopes (2n - 1 points).
QList<QPointF> stepPoints(const std::vector<TimelineEvent>& events) {
    QList<QPointF> points;
    points.reserve(int(events.size()) * 2);
    for (std::size_t i = 0; i < events.size(); ++i) {
        const double mib = double(events[i].total) / kMiB;
        if (i > 0) points << QPointF(events[i].t_ms, points.back().y());
        points << QPointF(events[i].t_ms, mib);
    }
    return points;
}

QString pointText(const RunInfo& info, const QPointF& value) {
    QString text = QStringLiteral("%1\n%2 at %3")
                       .arg(info.strategy, formatMiB(value.y()), formatMs(value.x()));
    if (const PhaseSpan* band = phaseAt(info.flattened, value.x())) {
        text += QStringLiteral("\n%1").arg(phaseLabel(band->phase));
        for (const PhaseSpan& s : info.spans)  // the block of that phase, when it has one
            if (s.phase == band->phase && s.block >= 0 && s.begin_ms <= value.x() &&
                value.x() <= s.end_ms) {
                text += QStringLiteral(" of block %1").arg(s.block);
                break;
            }
    }
    return text;
}

}  // namespace

QChart* buildTimelineChart(const ResultSet& results, const std::vector<TimelineData>& runs) {
    std::vector<const TimelineData*> shown;
    for (const TimelineData& data : runs)
        if (data.run && !data.run->error && !data.points.empty()) shown.push_back(&data);
    if (shown.empty()) return makeEmptyChart();

    const RunResult& first = *shown.front()->run;
    double maxT = 0, maxMiB = 0;
    for (const TimelineData* data : shown)
        for (const TimelineEvent& e : data->points) {
            maxT = std::max(maxT, e.t_ms);
            maxMiB = std::max(maxMiB, double(e.total) / kMiB);
        }
    for (const PhaseSpan& s : first.phases) maxT = std::max(maxT, s.end_ms);

    const QString firstName = QString::fromStdString(first.strategy);
    auto* chart = new QChart;
    styleChart(chart, shown.size() > 1
                          ? QStringLiteral("%1 (phases of %2 shaded)")
                                .arg(chartTitle(ChartKind::Timeline), firstName)
                          : QStringLiteral("%1: %2").arg(chartTitle(ChartKind::Timeline), firstName));
    auto* x = makeValueAxis(QStringLiteral("Time since the step began (ms)"));
    auto* y = makeValueAxis(QStringLiteral("Memory above the step's start (MiB)"));
    setNiceRange(x, 0, maxT, 0.0, true, 12, false);
    setNiceRange(y, 0, maxMiB, 0.06, true);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    const auto bands = flattenPhases(first.phases);
    for (Phase phase : {Phase::Forward, Phase::Loss, Phase::Recompute, Phase::Backward,
                        Phase::Optimizer})
        if (QAreaSeries* area = phaseArea(phase, bands, y->max())) attachArea(chart, area, x, y);
    const auto boundaries = blockBoundaries(first.phases, maxT * 0.004);
    if (!boundaries.empty()) attach(chart, boundaryLines(boundaries, y->max()), x, y);

    const QStringList order = strategyOrder(results);
    std::vector<RunInfo> infos;
    for (const TimelineData* data : shown) {
        const QString name = QString::fromStdString(data->run->strategy);
        auto* line = new QLineSeries;
        line->setName(name);
        line->setProperty(kStrategyProperty, name);
        line->setProperty("ckptlabRunIndex", int(infos.size()));
        line->setProperty("ckptlabBaseWidth", kLineWidth);
        QPen pen(strategyColor(name, order), kLineWidth);
        pen.setCosmetic(true);
        line->setPen(pen);
        line->replace(stepPoints(data->points));
        attach(chart, line, x, y);
        infos.push_back({name, data->run->phases, flattenPhases(data->run->phases)});
    }

    auto* interaction = new ChartInteraction(chart);
    interaction->pointTooltip = [infos, bands](QAbstractSeries* series, const QPointF& value) {
        const QVariant index = series->property("ckptlabRunIndex");
        if (index.isValid()) return pointText(infos[index.toInt()], value);
        if (series->property("ckptlabPhase").isValid())
            if (const PhaseSpan* band = phaseAt(bands, value.x()))
                return QStringLiteral("%1 of %2: %3 to %4")
                    .arg(phaseLabel(band->phase), infos.front().strategy,
                         formatMs(band->begin_ms), formatMs(band->end_ms));
        return QString();
    };
    interaction->pointStrategy = [](QAbstractSeries* series, const QPointF&) {
        return series->property(kStrategyProperty).toString();
    };
    placeLegend(chart);
    return chart;
}

}  // namespace ckptlab::ui
