// exportAllCharts: the four charts of a result set (and a scaling sweep's two log-log charts)
// written into one folder, for slides and CI.
#include <QChart>
#include <QDir>
#include <memory>

#include "charts/chart_builders.h"
#include "charts/chart_export.h"
#include "charts/chart_style.h"
#include "charts/schedule_diagram.h"

namespace ckptlab::ui {

namespace {

// The set's config (all runs of a sweep share one), or a note that there is none.
QString setDescription(const ResultSet& results) {
    const auto runs = plottedRuns(results);
    const RunResult* any =
        runs.empty() ? (results.runs.empty() ? nullptr : &results.runs.front()) : runs.front();
    QString text = any ? describeConfig(any->config) : ChartText::tr("no runs");
    if (!results.environment.device_name.empty())
        text += ChartText::tr("; measured on %1")
                    .arg(QString::fromStdString(results.environment.device_name));
    return text;
}

std::unique_ptr<QChart> buildChart(ChartKind kind, const ResultSet& results) {
    switch (kind) {
    case ChartKind::Tradeoff: return std::unique_ptr<QChart>(buildTradeoffChart(results));
    case ChartKind::Timeline: {
        // A slide holds a handful of lines, not a whole sweep's.
        const auto data = makeTimelineData(results, representativeRun(results), 2000, 6);
        return std::unique_ptr<QChart>(buildTimelineChart(results, data));
    }
    case ChartKind::Lifetimes: {
        const RunResult* run = representativeRun(results);
        return std::unique_ptr<QChart>(run ? buildLifetimeChart(results, *run) : makeEmptyChart());
    }
    case ChartKind::Breakdown: return std::unique_ptr<QChart>(buildBreakdownChart(results));
    case ChartKind::Scaling: {  // activation memory, the chart a sweep is usually run for
        ScalingAxis axis;
        if (!detectScaling(results, &axis)) return std::unique_ptr<QChart>(makeEmptyChart());
        return std::unique_ptr<QChart>(
            buildScalingChart(results, axis, ScalingMetric::ActivationBytes));
    }
    }
    return nullptr;
}

}  // namespace

QStringList exportAllCharts(const ResultSet& results, const QString& dir, bool png, bool svg,
                            int scale, QString* error) {
    QStringList written;
    if (!QDir().mkpath(dir)) {
        if (error) *error = ChartText::tr("Could not create the folder %1.").arg(dir);
        return written;
    }
    const QDir folder(dir);
    const QString description = setDescription(results);
    auto write = [&](QChart* chart, const QString& name) {
        const QString stem = folder.filePath(name);
        if (png) {
            if (!exportChartPng(chart, stem + QStringLiteral(".png"), scale, error)) return false;
            written << stem + QStringLiteral(".png");
        }
        if (svg) {
            if (!exportChartSvg(chart, stem + QStringLiteral(".svg"), chart->title(), description,
                                error))
                return false;
            written << stem + QStringLiteral(".svg");
        }
        return true;
    };
    for (ChartKind kind :
         {ChartKind::Tradeoff, ChartKind::Timeline, ChartKind::Lifetimes, ChartKind::Breakdown}) {
        std::unique_ptr<QChart> chart = buildChart(kind, results);
        if (!write(chart.get(), chartFileStem(kind))) return written;
    }
    ScalingAxis axis;
    if (detectScaling(results, &axis)) {
        std::unique_ptr<QChart> memory(
            buildScalingChart(results, axis, ScalingMetric::ActivationBytes));
        if (!write(memory.get(), chartFileStem(ChartKind::Scaling))) return written;
        std::unique_ptr<QChart> time(buildScalingChart(results, axis, ScalingMetric::StepMs));
        if (!write(time.get(), chartFileStem(ChartKind::Scaling) + QStringLiteral("_time")))
            return written;
    }
    // The schedules each run executed (not a QChart: painted by ScheduleDiagram).
    const QString stem = folder.filePath(QStringLiteral("schedules"));
    if (png) {
        if (!exportSchedulePng(results, stem + QStringLiteral(".png"), scale, error))
            return written;
        written << stem + QStringLiteral(".png");
    }
    if (svg) {
        if (!exportScheduleSvg(results, stem + QStringLiteral(".svg"), description, error))
            return written;
        written << stem + QStringLiteral(".svg");
    }
    return written;
}

}  // namespace ckptlab::ui
