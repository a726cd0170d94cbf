#pragma once
// Every chart the lab draws, in one table: its kind, file stem, title and builder. The charts
// panel makes a tab of each panel entry, export-all writes a file of each entry that applies
// (`ckptlab-cli plot`, the app's All Charts to Folder), and a lesson step names one
// (teaching/lesson_chart.h). A new chart is a new row (docs/ARCHITECTURE.md, "Add a chart").

#include <QString>
#include <cstddef>
#include <vector>

#include "ckptlab/model/result.h"
#include "ckptlab/planning/scaling.h"

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace ckptlab::ui {

// Schedule stays last: kChartKindCount counts the kinds.
enum class ChartKind {
    Tradeoff,
    Timeline,
    Lifetimes,
    Segments,
    Breakdown,
    Scaling,
    ScalingTime,
    Schedule
};
inline constexpr std::size_t kChartKindCount = std::size_t(ChartKind::Schedule) + 1;

// What a caller chooses beyond the results and the run it asks for. The defaults are the files'
// (export-all, handouts); the panel sets its own from its controls.
struct ChartOptions {
    // Tradeoff: each run's fastest repeat instead of its median, without error bars.
    bool fastestRepeat = false;
    // Scaling: what is plotted against the size (ScalingTime always plots the step time).
    ScalingMetric scalingMetric = ScalingMetric::ActivationBytes;
    // Timeline: at most this many runs (a slide holds a handful of lines), each thinned to
    // timelinePoints, unless `thinnedTimelines` holds them thinned already (one per run of the
    // set, as ResultsDocument keeps them).
    std::size_t timelineRuns = 6;
    std::size_t timelinePoints = 2000;
    const std::vector<std::vector<TimelineEvent>>* thinnedTimelines = nullptr;
};

// A new chart owned by the caller. `focus` is chartFocus's choice (chart_builders.h); null when
// nothing can be plotted.
using ChartBuilder = QChart* (*)(const ResultSet& results, const RunResult* focus,
                                 const ChartOptions& options);

struct ChartEntry {
    ChartKind kind;
    const char* stem;   // file name without its suffix: "tradeoff" gives tradeoff.png and .svg
    const char* title;  // QT_TRANSLATE_NOOP("ChartText", …): chartTitle translates it
    // nullptr for the schedule diagram, which is painted, not a QChart (schedule_diagram.h).
    ChartBuilder build;
    bool inPanel;      // a tab of the charts panel and an entry of the View menu
    bool scalingOnly;  // only for a scaling sweep's results (detectScaling)
    // Drawn around the focus run, so a new selection rebuilds it; the others only change
    // which strategy they emphasise.
    bool followsFocus;
};

// Every chart, in the order of the panel's tabs and of the exported files.
const std::vector<ChartEntry>& chartRegistry();
const ChartEntry& chartEntry(ChartKind kind);
// The kinds with a tab in the charts panel, in tab order.
std::vector<ChartKind> panelChartKinds();

QString chartTitle(ChartKind kind);     // translated
QString chartFileStem(ChartKind kind);  // "tradeoff", …, "scaling_time", "schedules"
// Whether the chart has something to say about `results` (scaling only for a scaling sweep).
bool chartApplies(ChartKind kind, const ResultSet& results);
// The schedule diagram: painted with ScheduleDiagram, no QChart builder.
bool isPainted(ChartKind kind);

// The chart of `kind` for `results`, centred on chartFocus(results, wanted): `wanted` is the run
// the user selected or the lesson step names, or null. nullptr for a painted kind.
QChart* buildChart(ChartKind kind, const ResultSet& results, const RunResult* wanted,
                   const ChartOptions& options = {});

}  // namespace ckptlab::ui
