// exportAllCharts: every chart of the registry that applies to a result set, written into one
// folder, for slides and CI.
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
    // Each registry entry that applies to the set, in each format asked for; centred on
    // representativeRun. The schedules are painted by ScheduleDiagram, not a QChart.
    for (const ChartEntry& entry : chartRegistry()) {
        if (!chartApplies(entry.kind, results)) continue;
        const std::unique_ptr<QChart> chart(buildChart(entry.kind, results, nullptr));
        const QString stem = folder.filePath(QLatin1String(entry.stem));
        if (png) {
            const QString path = stem + QStringLiteral(".png");
            if (chart ? !exportChartPng(chart.get(), path, scale, error)
                      : !exportSchedulePng(results, path, scale, error))
                return written;
            written << path;
        }
        if (svg) {
            const QString path = stem + QStringLiteral(".svg");
            if (chart ? !exportChartSvg(chart.get(), path, chart->title(), description, error)
                      : !exportScheduleSvg(results, path, description, error))
                return written;
            written << path;
        }
    }
    return written;
}

}  // namespace ckptlab::ui
