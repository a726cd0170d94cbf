// The table of charts, and the small builders that adapt each chart's own builder to the
// registry's one signature (results, focus run, options).
#include "charts/chart_registry.h"

#include <QChart>
#include <algorithm>

#include "charts/chart_builders.h"
#include "charts/chart_style.h"
#include "ckptlab/model/summary.h"

namespace ckptlab::ui {

namespace {

QChart* tradeoff(const ResultSet& results, const RunResult*, const ChartOptions& options) {
    if (options.fastestRepeat) return buildTradeoffChart(withFastestSteps(results), true);
    return buildTradeoffChart(results);
}

QChart* timeline(const ResultSet& results, const RunResult* focus, const ChartOptions& options) {
    return buildTimelineChart(
        results, makeTimelineData(results, focus, options.timelinePoints, options.timelineRuns,
                                  options.thinnedTimelines));
}

QChart* lifetimes(const ResultSet& results, const RunResult* focus, const ChartOptions&) {
    return focus ? buildLifetimeChart(results, *focus) : makeEmptyChart();
}

QChart* segments(const ResultSet& results, const RunResult* focus, const ChartOptions&) {
    return focus ? buildSegmentsChart(results, *focus) : makeEmptyChart();
}

QChart* breakdown(const ResultSet& results, const RunResult*, const ChartOptions&) {
    return buildBreakdownChart(results);
}

QChart* scalingOf(const ResultSet& results, ScalingMetric metric) {
    ScalingAxis axis = ScalingAxis::Depth;
    if (!detectScaling(results, &axis)) return makeEmptyChart(ChartText::tr("Not a scaling sweep"));
    return buildScalingChart(results, axis, metric);
}

QChart* scaling(const ResultSet& results, const RunResult*, const ChartOptions& options) {
    return scalingOf(results, options.scalingMetric);
}

QChart* scalingTime(const ResultSet& results, const RunResult*, const ChartOptions&) {
    return scalingOf(results, ScalingMetric::StepMs);
}

}  // namespace

const std::vector<ChartEntry>& chartRegistry() {
    // kind, stem, title, builder, in the panel, scaling only, follows the focus
    static const std::vector<ChartEntry> registry{
        {ChartKind::Tradeoff, "tradeoff",
         QT_TRANSLATE_NOOP("ChartText", "Memory against time per strategy"), tradeoff, true, false,
         false},
        {ChartKind::Timeline, "timeline",
         QT_TRANSLATE_NOOP("ChartText", "Memory during one training step"), timeline, true, false,
         true},
        {ChartKind::Lifetimes, "lifetimes", QT_TRANSLATE_NOOP("ChartText", "Activation lifetimes"),
         lifetimes, true, false, true},
        {ChartKind::Segments, "segments",
         QT_TRANSLATE_NOOP("ChartText", "Reserved segments and their blocks"), segments, true,
         false, true},
        {ChartKind::Breakdown, "breakdown",
         QT_TRANSLATE_NOOP("ChartText", "What the memory holds at the peak"), breakdown, true,
         false, false},
        // The panel's scaling tab chooses its metric; files get memory and time apart.
        {ChartKind::Scaling, "scaling", QT_TRANSLATE_NOOP("ChartText", "Scaling"), scaling, true,
         true, false},
        {ChartKind::ScalingTime, "scaling_time",
         QT_TRANSLATE_NOOP("ChartText", "Scaling of the step time"), scalingTime, false, true,
         false},
        {ChartKind::Schedule, "schedules", QT_TRANSLATE_NOOP("ChartText", "Checkpoint schedules"),
         nullptr, true, false, false},
    };
    return registry;
}

const ChartEntry& chartEntry(ChartKind kind) {
    const auto& registry = chartRegistry();
    const auto found = std::find_if(registry.begin(), registry.end(),
                                    [kind](const ChartEntry& e) { return e.kind == kind; });
    Q_ASSERT(found != registry.end());  // every kind has its row
    return *found;
}

std::vector<ChartKind> panelChartKinds() {
    std::vector<ChartKind> kinds;
    for (const ChartEntry& entry : chartRegistry())
        if (entry.inPanel) kinds.push_back(entry.kind);
    return kinds;
}

QString chartTitle(ChartKind kind) { return ChartText::tr(chartEntry(kind).title); }

QString chartFileStem(ChartKind kind) { return QLatin1String(chartEntry(kind).stem); }

bool chartApplies(ChartKind kind, const ResultSet& results) {
    return !chartEntry(kind).scalingOnly || detectScaling(results, nullptr);
}

bool isPainted(ChartKind kind) { return chartEntry(kind).build == nullptr; }

QChart* buildChart(ChartKind kind, const ResultSet& results, const RunResult* wanted,
                   const ChartOptions& options) {
    const ChartEntry& entry = chartEntry(kind);
    return entry.build ? entry.build(results, chartFocus(results, wanted), options) : nullptr;
}

}  // namespace ckptlab::ui
