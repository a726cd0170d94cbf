#pragma once
// One builder per chart kind, and the rules for which runs the charts show. The window, the
// handout and headless export (ckptlab-cli --png/--svg, plot) reach them through the chart
// registry (chart_registry.h), so a chart looks the same everywhere.

#include <QColor>
#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "charts/chart_registry.h"  // ChartKind and chartTitle, which the builders' titles use
#include "ckptlab/model/result.h"
#include "ckptlab/planning/scaling.h"

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace ckptlab::ui {

// The same colour for a strategy in every chart: derived from its position in the set's order,
// so adding a run never recolours earlier ones.
QColor strategyColor(const QString& strategy, const QStringList& allStrategies);

// The order strategyColor expects: every run's strategy (failed ones too, so a failure never
// shifts the others' colours), first appearance first. Use it for the table's colours as well.
QStringList strategyOrder(const ResultSet& results);

// Timeline points already thinned in the worker (core downsampleTimeline), one per run.
struct TimelineData {
    const RunResult* run = nullptr;
    std::vector<TimelineEvent> points;
};

// Builders return a new chart owned by the caller (usually handed to a ChartView, see
// chart_view.h, for tooltips and clicks). They need a QApplication, keep no pointers into the
// results, skip failed runs and return a chart titled "No results yet" when nothing is left.
// The timeline shades the phases and marks the block boundaries of runs[0].
// Runs that ran out of memory (hasPartialTrace) are the exception: the timeline draws them up
// to where they stopped, ending in a cross labelled "out of memory at …", and the tradeoff
// chart marks them with a cross at their partial peak, apart from the measured points; the
// breakdown skips them. When the runs share a memory limit, the timeline draws it as a
// horizontal line and the tradeoff chart as a vertical capacity line, both above the step's
// start (the limit less parameters, input and optimizer state).
// The tradeoff chart draws each measured point's step-time interval as an error bar
// (error_bars.h); `fastest` says the set's step_ms are fastest repeats (withFastestSteps), which
// have no interval: no bars then, and the tooltips and the time axis say so.
QChart* buildTradeoffChart(const ResultSet& results, bool fastest = false);
QChart* buildTimelineChart(const ResultSet& results, const std::vector<TimelineData>& runs);
QChart* buildLifetimeChart(const ResultSet& results, const RunResult& run);
// The lifetimes chart's rows: blocks 0 .. lifetimeBlockRows(run) - 1, the embedding at row -1
// and the LM head at row lifetimeBlockRows(run); nullopt for a block label that is no row
// (-1: the loss or optimizer of a chain without ends). The playback's cursor uses the same.
int lifetimeBlockRows(const RunResult& run);
std::optional<int> lifetimeRow(const RunResult& run, int block);
// The caching allocator's reserved segments over `run`'s traced step, the blocks in them by
// phase (segment_map.h); without the allocator's trace, an empty chart whose title says why.
QChart* buildSegmentsChart(const ResultSet& results, const RunResult& run);
QChart* buildBreakdownChart(const ResultSet& results);

// Runs the charts plot: those without an error, in the set's order.
std::vector<const RunResult*> plottedRuns(const ResultSet& results);

// A run that ran out of memory and carries its trace up to that moment.
bool hasPartialTrace(const RunResult& run);

// The run that best shows what checkpointing does: the first plotted run with a passing
// gradient check that both keeps and recomputes activations, else the first that recomputes,
// else the first plotted run; nullptr when nothing can be plotted.
const RunResult* representativeRun(const ResultSet& results);

// The one rule for the run a chart is drawn around (the lifetimes chart's run, the timeline's
// first line, the step playback plays): `wanted` (the selected run, a lesson step's focus) when
// it has something to draw (no error, or a partial trace), else representativeRun.
const RunResult* chartFocus(const ResultSet& results, const RunResult* wanted);

// Timeline data for the plotted runs and those with a partial trace, each thinned to
// `maxPoints` with core downsampleTimeline, or taken from `thinned` (one per run of the set,
// already thinned) when given:
// `first` (if plotted) first, since the timeline chart shades the phases of its first run,
// then `none` to compare against, then the rest in the set's order, at most `maxRuns` in all.
// Plain C++, safe to call on a worker thread; the pointers refer into `results`.
std::vector<TimelineData> makeTimelineData(
    const ResultSet& results, const RunResult* first, std::size_t maxPoints = 2000,
    std::size_t maxRuns = std::size_t(-1),
    const std::vector<std::vector<TimelineEvent>>* thinned = nullptr);

// Whether the set is a scaling sweep (ckptlab-cli scaling): some strategy has runs whose configs
// differ, and across all strategies they differ in exactly one of depth, seq, width and batch,
// which goes to *axis (may be null).
bool detectScaling(const ResultSet& results, ScalingAxis* axis);

// Log-log chart (base 2) of `metric` against `axis`: each strategy's measured points joined by a
// thin line, and its fitted power law (core fitRuns) dashed, named "sqrt: k=0.52" in the legend.
QChart* buildScalingChart(const ResultSet& results, ScalingAxis axis, ScalingMetric metric);

// Emphasises the series of `strategy` (bigger marker, thicker line) in any builder's chart and
// restores the others; an empty name clears the emphasis.
void setSelectedStrategy(QChart* chart, const QString& strategy);

}  // namespace ckptlab::ui
