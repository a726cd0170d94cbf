// The schedule each run executed, as the diagram's rows: its plan (recorded, or rebuilt from
// the strategy for older files), how often each unit ran forward and where checkpoints sit.
#include <algorithm>

#include "charts/chart_style.h"
#include "charts/schedule_diagram.h"
#include "ckptlab/planner.h"
#include "ckptlab/sweep_policy.h"

namespace ckptlab::ui {

namespace {

ScheduleRow rowFor(const RunResult& run) {
    ScheduleRow row;
    row.strategy = QString::fromStdString(run.name());
    row.unitsPerBlock = unitsPerBlockOf(run.config.block);
    row.units = run.config.depth * row.unitsPerBlock;
    row.ends = hasChainEnds(run.config);
    Plan plan;
    try {
        plan = recordedPlan(run);
    } catch (const std::exception& e) {
        row.note = QString::fromStdString(e.what());
        row.units = 0;
        return row;
    }
    if (!plan.segments.empty()) row.units = std::max(row.units, plan.segments.back().end);
    row.forwardCounts = forwardCounts(plan, row.units);
    for (const CheckpointSpan& s : checkpointSpans(plan))
        row.spans.push_back({s.begin, s.end, s.level});
    row.storedInputs = int(row.spans.size());
    for (int count : row.forwardCounts) row.extraForwards += std::max(0, count - 1);
    if (run.error) row.note = ChartText::tr("failed: %1").arg(QString::fromStdString(*run.error));
    return row;
}

}  // namespace

std::vector<ScheduleRow> scheduleRows(const ResultSet& results) {
    std::vector<ScheduleRow> rows;
    for (const RunResult& run : results.runs) rows.push_back(rowFor(run));
    return rows;
}

}  // namespace ckptlab::ui
