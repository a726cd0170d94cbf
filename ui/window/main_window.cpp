#include "window/main_window.h"

#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QStatusBar>
#include <QVBoxLayout>

#include "base/app_setup.h"
#include "base/messages.h"
#include "base/projector_mode.h"
#include "ckptlab/engine/runner.h"
#include "controllers/file_controller.h"
#include "controllers/fit_controller.h"
#include "controllers/prediction_controller.h"
#include "controllers/sweep_controller.h"
#include "document/comparison_text.h"
#include "document/results_document.h"
#include "document/results_table_model.h"
#include "document/sweep_summary.h"
#include "document/time_text.h"
#include "panels/charts_panel.h"
#include "panels/curve_sweep_panel.h"
#include "panels/fit_panel.h"
#include "panels/memory_estimate_label.h"
#include "panels/parameter_panel.h"
#include "panels/progress_status.h"
#include "panels/results_view.h"
#include "panels/strategy_list.h"
#include "window/chart_exporter.h"

namespace ckptlab::ui {

MainWindow::MainWindow(AddOn addOn, QWidget* parent)
    : QMainWindow(parent), m_addOn(std::move(addOn)) {
    initializeUi();
    setObjectName(QStringLiteral("mainWindow"));
    m_busy = new DocumentBusy(this);
    m_document = new ResultsDocument(this);
    m_document->setObjectName(QStringLiteral("document"));
    m_sweep = new SweepController(this);
    m_predictions = new PredictionController(this);
    m_fit = new FitController(this);
    createPanels();
    m_files = new FileController(m_document, &m_settings, this, m_busy);
    m_exporter = new ChartExporter(m_charts, m_document, &m_settings, this);
    createActions();
    createMenus();
    connectSignals();
    if (m_addOn) m_addOn(*this, parts());  // e.g. the Lesson dock and menu (ui/teaching)
    restoreSettings();
    connect(m_busy, &DocumentBusy::changed, this, &MainWindow::updateActions);
    updateActions();
    updateTitle();
}

MainWindow::~MainWindow() {
    m_sweep->shutdown();  // before the document and views it reports into go away
    m_predictions->shutdown();
    m_fit->shutdown();
}

void MainWindow::createPanels() {
    m_charts = new ChartsPanel(m_document, this);
    setCentralWidget(m_charts);

    // Left: what to run.
    m_parameters = new ParameterPanel;
    m_memory = new MemoryEstimateLabel;
    m_strategies = new StrategyList;
    m_runButton = new QPushButton(tr("Run sweep"));
    m_runButton->setObjectName(QStringLiteral("runButton"));
    m_cancelButton = new QPushButton(tr("Cancel"));
    m_cancelButton->setObjectName(QStringLiteral("cancelButton"));

    auto* modelBox = new QGroupBox(tr("Model and measurement"));
    auto* modelLayout = new QVBoxLayout(modelBox);
    modelLayout->addWidget(m_parameters);
    modelLayout->addWidget(m_memory);
    auto* strategyBox = new QGroupBox(tr("Strategies to compare"));
    auto* strategyLayout = new QVBoxLayout(strategyBox);
    strategyLayout->addWidget(m_strategies);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_runButton, 1);
    buttons->addWidget(m_cancelButton);
    m_curves = new CurveSweepPanel;

    auto* experiment = new QWidget;
    auto* layout = new QVBoxLayout(experiment);
    layout->addWidget(modelBox);
    layout->addWidget(strategyBox, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_curves);
    auto* scroll = new QScrollArea;
    scroll->setWidget(experiment);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    // As wide as its fields, except in projector mode: there the lesson text (in the same dock
    // area, see LessonMode) and the charts need the room, so the dock may shrink and its fields
    // scroll.
    const auto fitWidth = [scroll, experiment] {
        scroll->setMinimumWidth(isProjectorMode() ? 0 : experiment->sizeHint().width() + 20);
    };
    fitWidth();
    connect(projectorMode(), &ProjectorMode::changed, scroll, fitWidth);

    m_experimentDock = new QDockWidget(tr("Experiment"), this);
    m_experimentDock->setObjectName(QStringLiteral("experimentDock"));
    m_experimentDock->setWidget(scroll);
    m_experimentDock->setFeatures(QDockWidget::DockWidgetMovable |
                                  QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, m_experimentDock);

    // Bottom: the numbers.
    m_model = new ResultsTableModel(this);
    m_model->setObjectName(QStringLiteral("resultsModel"));
    m_table = new ResultsView(m_model);
    m_notes = new QLabel;
    m_notes->setObjectName(QStringLiteral("resultsNotes"));
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notes->setContentsMargins(4, 2, 4, 2);
    m_notes->hide();
    auto* results = new QWidget;
    auto* resultsLayout = new QVBoxLayout(results);
    resultsLayout->setContentsMargins(0, 0, 0, 0);
    resultsLayout->setSpacing(2);
    resultsLayout->addWidget(m_table, 1);
    resultsLayout->addWidget(m_notes);
    auto* bottom = new QDockWidget(tr("Results"), this);
    bottom->setObjectName(QStringLiteral("resultsDock"));
    bottom->setWidget(results);
    bottom->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::BottomDockWidgetArea, bottom);
    // Room for a preset's six runs without scrolling (a saved layout overrides this).
    resizeDocks({bottom}, {230}, Qt::Vertical);

    // The experiment dock runs the full height; the table sits under the charts only.
    setCorner(Qt::BottomLeftCorner, Qt::LeftDockWidgetArea);

    // "Will it fit?": its own floating window, hidden until Run → Will It Fit? shows it.
    m_fitDock = new QDockWidget(tr("Will it fit?"), this);
    m_fitDock->setObjectName(QStringLiteral("fitDock"));
    m_fitDock->setWidget(new FitPanel(m_fit, &m_settings));
    addDockWidget(Qt::RightDockWidgetArea, m_fitDock);
    m_fitDock->setFloating(true);
    m_fitDock->resize(1200, 780);
    m_fitDock->hide();

    m_progress = new ProgressStatus;
    statusBar()->addPermanentWidget(m_progress);
    // Within a smaller screen (a projector's 1280×720) until a saved geometry says otherwise.
    const QSize available = screen() ? screen()->availableGeometry().size() : QSize(1500, 950);
    resize(QSize(1500, 950).boundedTo(available));
}

MainWindow::Parts MainWindow::parts() const {
    return {m_viewMenu,   m_experimentDock, m_document, m_charts, m_parameters,
            m_strategies, m_curves,         m_sweep,    m_busy};
}

void MainWindow::connectSignals() {
    connect(m_parameters, &ParameterPanel::configChanged, this, &MainWindow::onParametersChanged);
    connect(m_strategies, &StrategyList::strategiesChanged, this, &MainWindow::onParametersChanged);
    connect(m_runButton, &QPushButton::clicked, this, &MainWindow::startSweep);
    connect(m_cancelButton, &QPushButton::clicked, this, &MainWindow::cancelSweep);
    connect(m_curves, &CurveSweepPanel::paretoRequested, this, &MainWindow::startParetoSweep);
    connect(m_curves, &CurveSweepPanel::scalingRequested, this, &MainWindow::startScalingSweep);
    connect(m_predictions, &PredictionController::measuring, m_memory,
            &MemoryEstimateLabel::setMeasuring);
    // The label shows the forecast first and tells the table; then the planner's budget row
    // follows it (a replay of the cached block, no measuring).
    connect(m_memory, &MemoryEstimateLabel::forecastShown, m_strategies,
            &StrategyList::setForecast);
    connect(m_predictions, &PredictionController::updated, m_memory,
            &MemoryEstimateLabel::setPrediction);
    connect(m_predictions, &PredictionController::updated, m_strategies,
            &StrategyList::followForecast);
    connect(m_sweep, &SweepController::frontierPlanned, m_document,
            &ResultsDocument::setPredictedFrontier);
    connect(m_sweep, &SweepController::notesReported, this, [this](const QStringList& notes) {
        if (m_sweep->runsThisSweep() == 0)
            return;  // nothing replaced the results on screen: the notes are not theirs
        std::vector<std::string> lines;
        for (const QString& note : notes) lines.push_back(note.toStdString());
        m_document->setNotes(lines);
    });

    connect(m_sweep, &SweepController::progress, m_progress, &ProgressStatus::report);
    // Replace the previous results only once this sweep has something to show, so a sweep
    // refused before it runs leaves them on screen.
    connect(m_sweep, &SweepController::firstRunMeasured, m_document, &ResultsDocument::clear);
    // Each run as soon as its traced step is done, then again once its times are measured.
    connect(m_sweep, &SweepController::traced, m_document, &ResultsDocument::addRun);
    connect(m_sweep, &SweepController::measured, m_document, &ResultsDocument::addRun);
    // Until the sweep ends, the results on screen say where they are measured and that they are
    // partial, so a Save in the middle writes a file that says so (the end sets both again).
    const auto markPartial = [this](const MeasuredRun& run) {
        if (m_sweep->runsThisSweep() == 0 || m_document->results().cancelled) return;
        Environment environment = describeEnvironment(run.run.config);
        // This thread's count is not the sweep's: the runner measures under config.threads.
        if (run.run.config.threads > 0) environment.threads = run.run.config.threads;
        m_document->setEnvironment(environment, /*cancelled=*/true);
    };
    connect(m_sweep, &SweepController::traced, this, markPartial);
    connect(m_sweep, &SweepController::measured, this, markPartial);
    connect(m_sweep, &SweepController::timingReported, this, [this](const TimingRounds& timing) {
        if (m_sweep->runsThisSweep() > 0) m_document->setTiming(timing);
    });
    connect(m_sweep, &SweepController::finished, this, &MainWindow::onSweepFinished);
    connect(m_sweep, &SweepController::failed, this, &MainWindow::onSweepFailed);

    // One selection everywhere: table row, chart click and document agree.
    const auto refreshTable = [this] {
        if (m_document->sourceCount() > 1)
            m_model->setSources(m_document->sources());  // several files: a Source column
        else
            m_model->setResults(m_document->results(), m_document->timesPending());
    };
    connect(m_document, &ResultsDocument::resetDone, this, refreshTable);
    connect(m_document, &ResultsDocument::runAdded, this, refreshTable);
    connect(m_document, &ResultsDocument::resetDone, this, &MainWindow::updateNotes);
    connect(m_document, &ResultsDocument::runAdded, this, &MainWindow::updateNotes);
    connect(m_document, &ResultsDocument::notesChanged, this, &MainWindow::updateNotes);
    connect(m_document, &ResultsDocument::selectionChanged, m_table, &ResultsView::selectRun);
    connect(m_document, &ResultsDocument::filePathChanged, this, &MainWindow::updateTitle);
    connect(m_document, &ResultsDocument::resetDone, this, &MainWindow::updateTitle);
    connect(m_document, &ResultsDocument::resetDone, this, &MainWindow::updateActions);
    connect(m_document, &ResultsDocument::runAdded, this, &MainWindow::updateActions);
    connect(m_table, &ResultsView::runSelected, m_document, &ResultsDocument::select);
    connect(m_charts, &ChartsPanel::strategyClicked, this, [this](const QString& strategy) {
        m_document->select(int(m_document->strategyNames().indexOf(strategy)));
    });
    connect(m_files, &FileController::opened, this, [this](const QString& path) {
        // The file's experiment goes back into the panels, so Run measures it again.
        const ResultSet& results = m_document->results();
        if (!results.runs.empty()) {
            m_parameters->setConfig(results.runs.front().config);
            m_strategies->setChecked(m_document->experimentStrategies());
        }
        QString opened = tr("Opened %1 (%n run(s))", nullptr, m_document->runCount())
                             .arg(QDir::toNativeSeparators(path));
        // Times from a noisy machine say so, and keep saying it after the "Opened" line.
        m_statusNote = noiseVerdict(results);
        if (!m_statusNote.isEmpty()) opened += QStringLiteral(". ") + m_statusNote;
        statusBar()->showMessage(opened, 8000);
    });
}

void MainWindow::onParametersChanged() {
    const ExperimentConfig config = m_parameters->config();
    m_strategies->setModel(config.depth, config.block);
    // Measuring a block allocates it: only for configs the runner would accept.
    if (m_memory->refresh(config, m_strategies->checkedStrategies()))
        m_predictions->request(config, m_strategies->allStrategies());
    else
        m_predictions->clear();
}

void MainWindow::restoreSettings() {
    m_parameters->setConfig(m_settings.lastConfig());
    // The settings hold texts: the table parses them, once.
    const QStringList checked = m_settings.checkedStrategies();
    if (checked.isEmpty())
        m_strategies->setChecked(defaultSweepStrategies());
    else
        m_strategies->setCheckedStrategies(checked);
    m_settings.restoreWindow(*this);
    onParametersChanged();
}

void MainWindow::saveSettings() {
    m_settings.setLastConfig(m_parameters->config());
    m_settings.setCheckedStrategies(m_strategies->checkedNames());
    m_settings.saveWindow(*this);
}

void MainWindow::openResultsFile(const QString& path) { m_files->open(path); }

void MainWindow::openResultsFiles(const QStringList& paths) { m_files->openFiles(paths); }

void MainWindow::updateTitle() {
    const QString file = m_document->filePath();
    if (m_document->sourceCount() > 1) {  // several files side by side: their names
        QStringList names;
        for (const ResultSource& source : m_document->sources())
            names << QFileInfo(source.path).fileName();
        setWindowTitle(tr("%1 — Checkpoint Lab").arg(QLocale().createSeparatedList(names)));
        return;
    }
    setWindowTitle(file.isEmpty() ? tr("Checkpoint Lab")
                                  : tr("%1 — Checkpoint Lab").arg(QFileInfo(file).fileName()));
}

void MainWindow::updateNotes() {
    QStringList lines = resultNotes(m_document->results());
    if (const Comparison* comparison = m_document->comparison())
        lines << comparisonLines(*comparison);  // what is not comparable between the files
    m_notes->setText(lines.join(QLatin1Char('\n')));
    m_notes->setVisible(!lines.isEmpty());
}

bool MainWindow::mayClose() {
    if (m_busy->isSweepRunning()) {
        const int runs = m_sweep->runsThisSweep();
        return confirm(this, tr("Stop the sweep?"),
                       tr("A sweep is running; closing stops it. The %n run(s) measured so far "
                          "are not saved.\n\nStop the sweep and close anyway?",
                          nullptr, runs));
    }
    DocumentHold hold(m_busy, DocumentAction::Close, this);
    if (!hold) return false;  // a load, a save or a language switch: short, and said so
    if (m_document->isEmpty() || !m_document->isModified()) return true;
    return confirm(this, tr("Close without saving?"),
                   tr("The results on screen were measured here and are not saved.\n\nClose "
                      "anyway and lose them?"));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!mayClose()) {
        event->ignore();
        return;
    }
    saveSettings();
    // Stops a running sweep (the runner honours cancel within about a second) and joins it.
    m_sweep->shutdown();
    m_predictions->shutdown();
    m_fit->shutdown();
    event->accept();
}

}  // namespace ckptlab::ui
