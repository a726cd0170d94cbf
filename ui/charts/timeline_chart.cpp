// Chart 2: memory above the step's start over one step, one line per run, with the phases of
// the first run shaded and its block boundaries marked. A run that ran out of memory ends where
// it stopped, in a cross labelled "out of memory at …", with the allocation that did not fit
// dotted above it; a memory limit is a horizontal line at what it leaves above the step's start.
#include <QAreaSeries>
#include <QChart>
#include <QCoreApplication>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <optional>

#include "charts/chart_builders.h"
#include "charts/chart_interaction.h"
#include "charts/chart_style.h"
#include "charts/phase_bands.h"
#include "charts/point_labels.h"
#include "charts/run_text.h"
#include "ckptlab/model/summary.h"

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

// The chain's ends (the embedding, the LM head and its loss) as a strip along the top of the
// plot over their spans, one series; nullptr for a chain without ends.
QAreaSeries* chainEndsStrip(const std::vector<PhaseSpan>& spans, double top) {
    std::vector<std::pair<double, double>> ranges;
    for (const PhaseSpan& s : spans)
        if (isChainEnd(s.block) && s.end_ms > s.begin_ms) ranges.emplace_back(s.begin_ms, s.end_ms);
    if (ranges.empty()) return nullptr;
    std::sort(ranges.begin(), ranges.end());
    std::vector<std::pair<double, double>> merged;  // nested spans (a loss in the head) once
    for (const auto& r : ranges)
        if (!merged.empty() && r.first <= merged.back().second)
            merged.back().second = std::max(merged.back().second, r.second);
        else
            merged.push_back(r);
    auto* upper = new QLineSeries;
    auto* lower = new QLineSeries;
    const double bottom = top * 0.96;
    for (const auto& [begin, end] : merged) {
        upper->append(
            {QPointF(begin, bottom), QPointF(begin, top), QPointF(end, top), QPointF(end, bottom)});
        lower->append({QPointF(begin, bottom), QPointF(begin, bottom), QPointF(end, bottom),
                       QPointF(end, bottom)});
    }
    auto* area = new QAreaSeries(upper, lower);
    area->setObjectName(QStringLiteral("chainEnds"));
    area->setName(ChartText::tr("embedding and LM head"));
    area->setBrush(QColor(0x4a, 0x4a, 0x4a, 150));
    area->setPen(Qt::NoPen);
    return area;
}

// Thin vertical lines drawn as one series that returns along the x axis between them.
QLineSeries* boundaryLines(const std::vector<double>& times, double top) {
    auto* line = new QLineSeries;
    line->setName(ChartText::tr("block boundaries"));
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
    QString text =
        ChartText::tr("%1\n%2 at %3").arg(info.strategy, formatMiB(value.y()), formatMs(value.x()));
    if (const PhaseSpan* band = phaseAt(info.flattened, value.x())) {
        int block = -1;
        for (const PhaseSpan& s : info.spans)  // the block of that phase, when it has one
            if (s.phase == band->phase && (s.block >= 0 || isChainEnd(s.block)) &&
                s.begin_ms <= value.x() && value.x() <= s.end_ms) {
                block = s.block;
                break;
            }
        if (isChainEnd(block))
            text += QLatin1Char('\n') + chainEndPhaseText(phaseLabel(band->phase), block);
        else
            text += QLatin1Char('\n') + (block >= 0
                                             ? ChartText::tr("%1 of block %2", "phase of block N")
                                                   .arg(phaseLabel(band->phase))
                                                   .arg(block)
                                             : phaseLabel(band->phase));
    }
    return text;
}

// A run as the chart draws it. One that ran out of memory is cut where it stopped: the trace
// goes on with the frees of the unwinding (down to nothing) and its last phase with them, and
// neither happened in the step.
struct Shown {
    const RunResult* run = nullptr;
    std::vector<TimelineEvent> points;
    std::vector<PhaseSpan> phases;
    std::optional<double> stoppedMs;  // set for a run that ran out of memory
};

Shown shownRun(const TimelineData& data) {
    Shown shown{data.run, data.points, data.run->phases, std::nullopt};
    const auto& oom = data.run->out_of_memory;
    if (!oom || !std::isfinite(oom->t_ms)) return shown;
    const double stop = oom->t_ms;
    shown.stoppedMs = stop;
    auto& points = shown.points;
    points.erase(std::find_if(points.begin(), points.end(),
                              [stop](const TimelineEvent& e) { return e.t_ms > stop; }),
                 points.end());
    if (points.empty()) points.push_back(TimelineEvent{0, 0, 0, Phase::Idle, -1});
    auto& phases = shown.phases;
    phases.erase(std::remove_if(phases.begin(), phases.end(),
                                [stop](const PhaseSpan& s) { return s.begin_ms >= stop; }),
                 phases.end());
    for (PhaseSpan& s : phases) s.end_ms = std::min(s.end_ms, stop);
    return shown;
}

// One line per run, in the order given; the memory level held between events.
std::vector<RunInfo> addRunLines(QChart* chart, QValueAxis* x, QValueAxis* y,
                                 const std::vector<Shown>& shown, const QStringList& order) {
    std::vector<RunInfo> infos;
    for (const Shown& s : shown) {
        const QString name = QString::fromStdString(s.run->name());
        auto* line = new QLineSeries;
        line->setName(name);
        line->setProperty(kStrategyProperty, name);
        line->setProperty("ckptlabRunIndex", int(infos.size()));
        line->setProperty("ckptlabBaseWidth", kLineWidth);
        QPen pen(strategyColor(name, order), kLineWidth);
        pen.setCosmetic(true);
        line->setPen(pen);
        QList<QPointF> points = stepPoints(s.points);
        // A run that ran out of memory ends where it stopped, holding its last level.
        if (s.stoppedMs && *s.stoppedMs > points.back().x())
            points << QPointF(*s.stoppedMs, points.back().y());
        line->replace(points);
        attach(chart, line, x, y);
        infos.push_back({name, s.phases, flattenPhases(s.phases)});
    }
    return infos;
}

// The memory limit as a horizontal line, above the step's start like the plot.
void addMemoryLimitLine(QChart* chart, QValueAxis* x, QValueAxis* y, double limitMiB,
                        double capacity) {
    auto* limit = new QLineSeries;
    limit->setObjectName(QStringLiteral("memoryLimit"));
    limit->setName(QCoreApplication::translate("ckptlab", "memory limit %1 (%2 for the step)")
                       .arg(formatMiB(limitMiB), formatMiB(capacity)));
    QPen pen(outOfMemoryColor(), 1.6, Qt::DashLine);
    pen.setCosmetic(true);
    limit->setPen(pen);
    limit->append(x->min(), capacity);
    limit->append(x->max(), capacity);
    attach(chart, limit, x, y);
}

// Where each run ran out: the cross on top of everything, the allocation that did not fit
// dotted above it (through the limit line, which is why it failed), and a label.
// Returns their details, indexed by the crosses' "ckptlabOomIndex".
QStringList addOutOfMemoryMarks(QChart* chart, QValueAxis* x, QValueAxis* y,
                                const std::vector<Shown>& shown, const QStringList& order) {
    PointLabels* labels = nullptr;
    QStringList oomTexts;
    for (const Shown& s : shown) {
        const RunResult& run = *s.run;
        if (!s.stoppedMs) continue;
        const OutOfMemory& oom = *run.out_of_memory;
        const QString name = QString::fromStdString(run.name());
        const QColor color = strategyColor(name, order);
        const double level = double(s.points.back().total) / kMiB;
        const QPointF at(std::max(oom.t_ms, s.points.back().t_ms), level);
        if (oom.requested_bytes > 0) {
            auto* request = new QLineSeries;
            request->setName(QCoreApplication::translate("ckptlab", "allocation that did not fit"));
            QPen pen(outOfMemoryColor(), 2.0, Qt::DotLine);
            pen.setCosmetic(true);
            request->setPen(pen);
            request->append(at);
            request->append(at.x(), std::min(level + double(oom.requested_bytes) / kMiB, y->max()));
            attach(chart, request, x, y);
            hideFromLegend(chart, request);
        }
        QScatterSeries* cross = makeCrossMarker(name, color, at);
        cross->setObjectName(QStringLiteral("outOfMemory"));
        cross->setProperty("ckptlabOomIndex", int(oomTexts.size()));
        oomTexts << outOfMemoryDetails(run);
        attach(chart, cross, x, y);
        hideFromLegend(chart, cross);
        if (!labels) labels = new PointLabels(chart);
        //: a run's name, then where it ran out of memory
        labels->add(
            cross, 0,
            QCoreApplication::translate("ckptlab", "%1: %2").arg(name, outOfMemoryText(oom)),
            outOfMemoryColor(), true);
    }
    return oomTexts;
}

// Tooltips: a run's memory and phase at the hovered time, a phase band, an out-of-memory cross.
void addInteraction(QChart* chart, const std::vector<RunInfo>& infos,
                    const std::vector<PhaseSpan>& bands, const QStringList& oomTexts) {
    auto* interaction = new ChartInteraction(chart);
    interaction->pointTooltip = [infos, bands, oomTexts](QAbstractSeries* series,
                                                         const QPointF& value) {
        const QVariant oom = series->property("ckptlabOomIndex");
        if (oom.isValid()) return oomTexts.value(oom.toInt());
        const QVariant index = series->property("ckptlabRunIndex");
        if (index.isValid()) return pointText(infos[index.toInt()], value);
        if (series->property("ckptlabPhase").isValid())
            if (const PhaseSpan* band = phaseAt(bands, value.x()))
                return ChartText::tr("%1 of %2: %3 to %4")
                    .arg(phaseLabel(band->phase), infos.front().strategy, formatMs(band->begin_ms),
                         formatMs(band->end_ms));
        return QString();
    };
    interaction->pointStrategy = [](QAbstractSeries* series, const QPointF&) {
        return series->property(kStrategyProperty).toString();
    };
}

}  // namespace

QChart* buildTimelineChart(const ResultSet& results, const std::vector<TimelineData>& runs) {
    std::vector<Shown> shown;
    for (const TimelineData& data : runs)
        if (data.run && (!data.run->error || hasPartialTrace(*data.run)) && !data.points.empty())
            shown.push_back(shownRun(data));
    if (shown.empty()) return makeEmptyChart();

    const RunResult& first = *shown.front().run;
    const std::vector<PhaseSpan>& firstPhases = shown.front().phases;
    double maxT = 0, maxMiB = 0;
    std::vector<const RunResult*> shownRuns;
    for (const Shown& s : shown) {
        shownRuns.push_back(s.run);
        for (const TimelineEvent& e : s.points) {
            maxT = std::max(maxT, e.t_ms);
            maxMiB = std::max(maxMiB, double(e.total) / kMiB);
        }
        if (s.stoppedMs) maxT = std::max(maxT, *s.stoppedMs);
    }
    for (const PhaseSpan& s : firstPhases) maxT = std::max(maxT, s.end_ms);
    // The limit as the plot measures memory: above the step's start. Drawn when it is within
    // reach of the lines (a limit far above them would only flatten them).
    const double capacity = capacityAboveStartMiB(shownRuns);
    const bool drawCapacity = capacity > 0 && capacity <= std::max(maxMiB, 1e-9) * 2.0;
    if (drawCapacity) maxMiB = std::max(maxMiB, capacity);

    const QString firstName = QString::fromStdString(first.name());
    auto* chart = new QChart;
    // Projector fonts leave no width for a long chart title, the plot too short for a long axis
    // title and too narrow for a tick every twelfth of the step: shorter titles (the shaded
    // phases are the named run's) and fewer ticks there.
    const bool big = isProjectorLook();
    styleChart(chart,
               shown.size() > 1 && !big
                   ? ChartText::tr("%1 (phases of %2 shaded)")
                         .arg(chartTitle(ChartKind::Timeline), firstName)
                   : ChartText::tr("%1: %2").arg(chartTitle(ChartKind::Timeline), firstName));
    auto* x = makeValueAxis(big ? ChartText::tr("Time (ms)")
                                : ChartText::tr("Time since the step began (ms)"));
    auto* y = makeValueAxis(big ? ChartText::tr("Memory (MiB)")
                                : ChartText::tr("Memory above the step's start (MiB)"));
    setNiceRange(x, 0, maxT, 0.0, true, big ? 7 : 12, false);
    setNiceRange(y, 0, maxMiB, 0.06, true, big ? 5 : 8);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    const auto bands = flattenPhases(firstPhases);
    for (Phase phase :
         {Phase::Forward, Phase::Loss, Phase::Recompute, Phase::Backward, Phase::Optimizer})
        if (QAreaSeries* area = phaseArea(phase, bands, y->max())) attachArea(chart, area, x, y);
    if (QAreaSeries* ends = chainEndsStrip(firstPhases, y->max())) attachArea(chart, ends, x, y);
    const auto boundaries = blockBoundaries(firstPhases, maxT * 0.004);
    if (!boundaries.empty()) {
        QLineSeries* lines = boundaryLines(boundaries, y->max());
        attach(chart, lines, x, y);
        // A legend line fewer in projector mode, where a 1280×720 chart holds about seven; the
        // thin grey lines explain themselves next to the phases.
        if (big) hideFromLegend(chart, lines);
    }

    const QStringList order = strategyOrder(results);
    const std::vector<RunInfo> infos = addRunLines(chart, x, y, shown, order);
    if (drawCapacity) addMemoryLimitLine(chart, x, y, first.config.memory_limit_mib, capacity);
    const QStringList oomTexts = addOutOfMemoryMarks(chart, x, y, shown, order);
    addInteraction(chart, infos, bands, oomTexts);
    placeLegend(chart);
    return chart;
}

}  // namespace ckptlab::ui
