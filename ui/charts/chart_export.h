#pragma once
// Writing charts to PNG and SVG, from the window (one chart) and headless (all of them, for
// `ckptlab-cli --png/--svg DIR` and `ckptlab-cli plot`). Needs a QApplication; works with
// QT_QPA_PLATFORM=offscreen.

#include <QSize>
#include <QString>
#include <QStringList>

#include "ckptlab/model/config.h"
#include "ckptlab/model/result.h"

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace ckptlab::ui {

// Every export is laid out at this logical size, whatever the window's size, so files from the
// window and from the CLI look the same and fit slides.
inline constexpr QSize kExportSize{1200, 750};

// Renders `chart` (in a view or not; a view is left as it was) as a PNG of kExportSize times
// `scale` (1 or 2) pixels. False with *error set on failure.
bool exportChartPng(QChart* chart, const QString& path, int scale, QString* error);

// Renders `chart` at kExportSize as SVG with <title> and <desc> (the description holds the config,
// see describeConfig).
bool exportChartSvg(QChart* chart, const QString& path, const QString& title,
                    const QString& description, QString* error);

// "ffn, 20 blocks, width 256, seq 512, batch 2, float32 on cpu, optimizer none, seed 0, ..."
QString describeConfig(const ExperimentConfig& config);

// Writes every chart of the registry (chart_registry.h) that applies to `results` as
// <stem>.png and/or <stem>.svg into `dir` (created if missing) at kExportSize, in the
// registry's order and with its files' options, centred on representativeRun: tradeoff,
// timeline, lifetimes, breakdown, for a scaling sweep scaling (activation bytes) and
// scaling_time, then the schedule diagram as schedules (schedule_diagram.h). Returns the
// written paths; on a failure it stops, sets *error and returns what was written before.
QStringList exportAllCharts(const ResultSet& results, const QString& dir, bool png, bool svg,
                            int scale, QString* error);

}  // namespace ckptlab::ui
