#pragma once
// The window's chart export actions: the current chart as PNG (1x, 2x) or SVG, and every
// chart of the registry (charts/chart_registry.h) into a folder for slides. Exports what the panel
// shows (the selected run's lifetimes, timelines thinned by the worker) through the chart
// engineer's exportChartPng/Svg.

#include <QObject>
#include <QString>
#include <QStringList>

#include "charts/chart_builders.h"

class QMenu;
class QWidget;

namespace ckptlab::ui {

class ChartsPanel;
class ResultsDocument;
class Settings;

enum class ChartFormat { Png1x, Png2x, Svg };

class ChartExporter : public QObject {
    Q_OBJECT
public:
    ChartExporter(ChartsPanel* charts, ResultsDocument* document, Settings* settings,
                  QWidget* window);

    // Adds the export actions to `menu` (File > Export chart).
    void addActions(QMenu* menu);

    // Dialog-free variants; false (with a message shown) on failure. Every target is checked
    // first (core checkOutputFile / checkOutputDir): one that cannot be written gives a message
    // naming the path and the reason, and nothing is written.
    // Any kind of the registry: the schedules go to exportSchedule.
    bool exportChart(ChartKind kind, ChartFormat format, const QString& path);
    // The schedule diagram (Checkpoint schedules tab).
    bool exportSchedule(ChartFormat format, const QString& path);
    // Writes <stem>.png (2x, for slides) and <stem>.svg of every chart of the registry that
    // applies to the results; returns the paths. The
    // folder may be new, but its parent must exist; every file in it is checked before any is
    // written.
    QStringList exportAll(const QString& folder);

public Q_SLOTS:
    void exportCurrentDialog(ckptlab::ui::ChartFormat format);
    void exportAllDialog();

private:
    QString description() const;
    bool hasResults() const;
    // Empty when `path` can be written; else shows why (titled `title`) and returns the reason.
    QString refuseFile(const QString& path, const QString& title) const;

    ChartsPanel* m_charts;
    ResultsDocument* m_document;
    Settings* m_settings;
    QWidget* m_window;
};

}  // namespace ckptlab::ui
