#pragma once
// The Checkpoint Lab window. It only assembles the pieces and routes signals between them:
// parameters and strategies (left dock), charts (centre), results table (bottom dock), sweep
// controller, files. It has no accessors: tests reach its parts through findChild by objectName
// (parameters, strategies, memoryEstimate, document, resultsModel, resultsView, resultsNotes,
// charts, sweepController, predictions, curveSweeps, files, chartExporter, progressStatus,
// runAction, documentBusy, ...). Every action that replaces or edits the results takes the
// document from documentBusy first (document/document_busy.h) and is refused while another holds
// it; the actions are enabled from it. A room above the window (the lesson mode, ui/teaching)
// adds its docks and menus through an AddOn, from the parts the window hands it.

#include <QMainWindow>
#include <functional>

#include "base/metatypes.h"
#include "controllers/live_prediction.h"
#include "controllers/sweep_worker.h"
#include "document/document_busy.h"
#include "document/settings.h"

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QPushButton;
class QSpinBox;

namespace ckptlab {
struct SweepCheck;
}

namespace ckptlab::ui {

class ChartExporter;
class ChartsPanel;
class CurveSweepPanel;
class FileController;
class FitController;
class MemoryEstimateLabel;
class ParameterPanel;
class PredictionController;
class ProgressStatus;
class ResultsDocument;
class ResultsTableModel;
class ResultsView;
class StrategyList;
class SweepController;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    // The parts a room above the window builds on, handed to its AddOn. A language switch
    // replaces the widgets among them (menus, docks, panels); the others stay.
    struct Parts {
        QMenu* viewMenu;
        QDockWidget* experimentDock;
        ResultsDocument* document;
        ChartsPanel* charts;
        ParameterPanel* parameters;
        StrategyList* strategies;
        CurveSweepPanel* curves;
        SweepController* sweep;
        DocumentBusy* busy;
    };
    // Adds a room's docks and menus to the window (MainWindow window(lessonModeAddOn())). Called
    // once the window's own widgets are built, before the saved layout is restored, and again
    // after a language switch rebuilt them; what the last call built is gone by then, deleted
    // on widgetsAboutToRebuild.
    using AddOn = std::function<void(MainWindow& window, const Parts& parts)>;

    explicit MainWindow(AddOn addOn = {}, QWidget* parent = nullptr);
    ~MainWindow() override;

public Q_SLOTS:
    // What Run does: checks the inputs (asking before a sweep that cannot fit) and starts.
    // Returns false when it did not start.
    bool startSweep();
    // The whole curve: the checked hand-written strategies (or the default set) plus optimal
    // schedules at evenly spread budgets, with the planner's predicted frontier.
    bool startParetoSweep();
    // The checked strategies (or none, sqrt, full) at every value of the chosen dimension; the
    // Scaling tab then fits how memory and time grow.
    bool startScalingSweep();
    // A lesson's Run live: the sweep (or scaling sweep) the panels now describe, holding the
    // document as the lesson's live run.
    bool startLessonRun(bool scaling);
    void cancelSweep();
    void openResultsFile(const QString& path);
    // Several files open side by side (one opens as openResultsFile does).
    void openResultsFiles(const QStringList& paths);
    void showAbout();
    // View → Language: installs `code` ("en", "zh_CN"), saves the choice and rebuilds the
    // window's widgets in it, keeping the results, the parameters and the layout. Refused
    // (false, with a message) while another action holds the document (a sweep, a load).
    bool setLanguage(const QString& code);

Q_SIGNALS:
    // A sweep ended: finished, cancelled or failed. Finished results are in the results document.
    void sweepEnded(bool cancelled, bool failed);
    // A language switch is about to delete the widgets (menus, docks, panels) and build them
    // again: what an AddOn built from them goes now, keeping what it needs to carry.
    void widgetsAboutToRebuild();

protected:
    // Asks before stopping a running sweep or dropping unsaved measured results; refused
    // while another action holds the document.
    void closeEvent(QCloseEvent* event) override;

private:
    void createPanels();
    Parts parts() const;
    void createActions();
    void createMenus();
    void createLanguageMenu(QMenu* view);
    // Rebuilds panels, actions and menus in the installed language (main_window_language.cpp).
    void rebuildUi();
    void connectSignals();
    void restoreSettings();
    void saveSettings();
    // The language switch itself, while the caller holds the document.
    bool applyLanguage(const QString& code);
    // Whether the window may close now (asks, cancels a sweep); false keeps it open.
    bool mayClose();

    // Takes the document for `action`, builds the request and starts the sweep, which keeps
    // the document until endSweep. False when refused or when it did not start.
    bool startHeld(DocumentAction action, SweepKind kind);
    bool beginSweep(SweepRequestData request);
    bool confirmSweep(const SweepRequestData& request, const SweepCheck& check);
    void onParametersChanged();
    void onSweepFinished(bool cancelled, const Environment& environment);
    void onSweepFailed(const QString& title, const QString& message,
                       const Environment& environment);
    void endSweep(bool cancelled, bool failed);
    void updateActions();
    void updateTitle();
    void updateNotes();

    AddOn m_addOn;
    Settings m_settings;
    DocumentBusy* m_busy;
    DocumentAction m_sweepAction = DocumentAction::Sweep;  // what the running sweep holds as
    ResultsDocument* m_document;
    SweepController* m_sweep;
    PredictionController* m_predictions;
    FitController* m_fit;  // "Will it fit?": outlives its panel, which a rebuild replaces
    ParameterPanel* m_parameters = nullptr;
    StrategyList* m_strategies = nullptr;
    MemoryEstimateLabel* m_memory = nullptr;
    ResultsTableModel* m_model = nullptr;
    ResultsView* m_table = nullptr;
    QLabel* m_notes = nullptr;
    ChartsPanel* m_charts = nullptr;
    ProgressStatus* m_progress = nullptr;
    FileController* m_files = nullptr;
    ChartExporter* m_exporter = nullptr;
    QPushButton* m_runButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    CurveSweepPanel* m_curves = nullptr;
    QDockWidget* m_experimentDock = nullptr;
    QDockWidget* m_fitDock = nullptr;

    QAction* m_openAction = nullptr;
    QAction* m_addAction = nullptr;  // Add Results File…: another file beside those open
    QAction* m_saveAction = nullptr;
    QAction* m_saveAsAction = nullptr;
    QAction* m_csvAction = nullptr;
    QAction* m_traceAction = nullptr;
    QAction* m_runAction = nullptr;
    QAction* m_paretoAction = nullptr;
    QAction* m_scalingAction = nullptr;
    QAction* m_cancelAction = nullptr;
    QAction* m_fitAction = nullptr;  // Run → Will It Fit?: shows the fit dock
    QMenu* m_viewMenu = nullptr;

    QString m_statusNote;  // the last sweep's summary, shown again after hover texts
};

}  // namespace ckptlab::ui
