// The schedule each run executed, as the diagram's rows: how often each unit ran forward (the
// run's own counts; the plan's for a prediction or an older file), and where checkpoints sit
// (its recorded plan, or rebuilt from the strategy for older files).
#include <algorithm>

#include "charts/chart_style.h"
#include "charts/schedule_diagram.h"
#include "ckptlab/planning/plan_of_strategy.h"
#include "ckptlab/planning/planner.h"

namespace ckptlab::ui {

namespace {

// Whether every unit of [begin, end) ran forward more than once.
bool ranAgain(const std::vector<int>& counts, int begin, int end) {
    for (int u = begin; u < end; ++u)
        if (u < 0 || u >= int(counts.size()) || counts[size_t(u)] < 2) return false;
    return end > begin;
}

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
    // The schedule text keeps where checkpoints sit, not what their recompute ran (seed-bug:K's
    // recomputes run the last segment's blocks): the run's counts say what ran.
    const std::vector<int> planCounts = forwardCounts(plan, row.units);
    const bool measured = run.forward_counts.size() == size_t(row.units);
    row.forwardCounts = measured ? run.forward_counts : planCounts;
    row.planned = !measured;
    const bool asPlanned = row.forwardCounts == planCounts;
    for (const CheckpointSpan& s : checkpointSpans(plan))
        row.spans.push_back(
            {s.begin, s.end, s.level, asPlanned || ranAgain(row.forwardCounts, s.begin, s.end)});
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
