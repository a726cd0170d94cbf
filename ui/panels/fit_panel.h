#pragma once
// "Will it fit?": a model at its real size on a given GPU. The inputs (panels/fit_inputs.h),
// Plan with progress and Cancel while FitController measures and plans, then the stacked bars of
// each strategy's peak against the capacity (charts/fit_chart.h), the table of allocated,
// reserved, margin, largest batch and tokens per second (panels/fit_table.h) with the verdict
// under it, and the selected row's predicted memory timeline. The chart exports as PNG and SVG
// and the table as CSV.

#include <QString>
#include <QWidget>

#include "controllers/fit_worker.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace ckptlab::ui {

class ChartView;
class FitController;
class FitInputs;
class Settings;

class FitPanel : public QWidget {
    Q_OBJECT
public:
    // `controller` outlives the panel and carries its state across a rebuild; `settings` gives
    // the folders the exports start in.
    FitPanel(FitController* controller, Settings* settings, QWidget* parent = nullptr);

    // Starts planning what the inputs say; false when refused (a message says why) or running.
    // A model whose measuring does not fit this machine's memory is refused before anything
    // is measured.
    bool plan();
    // The inputs (tests open files and pick models through it).
    FitInputs* inputs() const { return m_inputs; }
    // Shows `outcome` (also what the controller's planned signal does).
    void showOutcome(const FitOutcomePtr& outcome);
    // Shows the predicted timeline of row `row` of the table (fullSizeRows' order).
    void showTimeline(int row);

    // Dialog-free exports; false with a message shown on failure. Every target is checked
    // before anything is written (messages.h, refuseUnwritableFile).
    bool exportChartPng(const QString& path, int scale = 2);
    bool exportChartSvg(const QString& path);
    bool exportCsv(const QString& path);

private:
    void onProgress(bool measuring, const QString& stage, int done, int total);
    void onFinished();
    void setRunning(bool running);
    // What measuring the inputs' model takes against what this machine has, under the inputs
    // (fitMeasurePeakEstimate, fitMeasureRefusal); Plan is off when it does not fit.
    void updateMeasureCheck();
    void exportDialog(int kind);
    QString description() const;

    FitController* m_controller;
    Settings* m_settings;
    FitInputs* m_inputs;
    QPushButton* m_planButton;
    QPushButton* m_cancelButton;
    QProgressBar* m_progress;
    QLabel* m_stage;
    QLabel* m_measureCheck;
    bool m_measurable = false;  // the inputs' model can be measured here
    QTabWidget* m_tabs;
    ChartView* m_chart;
    ChartView* m_timeline;
    QTableWidget* m_table;
    QLabel* m_verdict;
    QPushButton* m_exportButton;
    FitOutcomePtr m_shown;
};

}  // namespace ckptlab::ui
