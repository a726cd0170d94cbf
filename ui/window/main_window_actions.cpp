// MainWindow: actions, menus, toolbar and the About dialog.

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QMenuBar>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QToolBar>

#include "base/messages.h"
#include "base/projector_mode.h"
#include "ckptlab/engine/runner.h"
#include "ckptlab/model/strategy.h"
#include "controllers/file_controller.h"
#include "document/core_text.h"
#include "panels/charts_panel.h"
#include "panels/parameter_panel.h"
#include "window/about_dialog.h"
#include "window/chart_exporter.h"
#include "window/main_window.h"

namespace ckptlab::ui {

namespace {

QIcon themed(const char* name, QStyle::StandardPixmap fallback) {
    return QIcon::fromTheme(QString::fromLatin1(name),
                            QApplication::style()->standardIcon(fallback));
}

// Projector mode gives the charts the room: the results table shrinks to a fifth of the
// height, or a seventh (its header and a row or two) on a short screen such as 1280×720, where
// the chart's large fonts need every line of the rest.
void roomForCharts(QMainWindow* window) {
    if (!isProjectorMode()) return;
    const int share = window->height() < 900 ? 7 : 5;
    if (auto* results = window->findChild<QDockWidget*>(QStringLiteral("resultsDock")))
        window->resizeDocks({results}, {window->height() / share}, Qt::Vertical);
}

}  // namespace

void MainWindow::createActions() {
    m_openAction = new QAction(themed("document-open", QStyle::SP_DialogOpenButton),
                               tr("&Open Results…"), this);
    m_openAction->setObjectName(QStringLiteral("openAction"));
    m_openAction->setShortcut(QKeySequence::Open);
    connect(m_openAction, &QAction::triggered, m_files, &FileController::openDialog);

    m_openAction->setToolTip(
        tr("Open one results file, or several (this machine's and a server's, say) to compare "
           "them side by side"));
    m_addAction = new QAction(tr("A&dd Results File…"), this);
    m_addAction->setObjectName(QStringLiteral("addResultsAction"));
    m_addAction->setToolTip(
        tr("Open another results file beside those on screen, to compare them"));
    connect(m_addAction, &QAction::triggered, m_files, &FileController::addDialog);

    m_saveAction = new QAction(themed("document-save", QStyle::SP_DialogSaveButton),
                               tr("&Save Results"), this);
    m_saveAction->setObjectName(QStringLiteral("saveAction"));
    m_saveAction->setShortcut(QKeySequence::Save);
    connect(m_saveAction, &QAction::triggered, m_files, &FileController::save);

    m_saveAsAction = new QAction(tr("Save Results &As…"), this);
    m_saveAsAction->setShortcut(QKeySequence::SaveAs);
    connect(m_saveAsAction, &QAction::triggered, m_files, &FileController::saveAsDialog);

    m_csvAction = new QAction(tr("Export Summary as &CSV…"), this);
    connect(m_csvAction, &QAction::triggered, m_files, &FileController::exportCsvDialog);
    m_traceAction = new QAction(tr("Export Timeline as Chrome &Trace…"), this);
    m_traceAction->setToolTip(tr("Chrome trace JSON: open it in Perfetto or chrome://tracing"));
    connect(m_traceAction, &QAction::triggered, m_files, &FileController::exportTraceDialog);

    m_runAction =
        new QAction(themed("media-playback-start", QStyle::SP_MediaPlay), tr("&Run Sweep"), this);
    m_runAction->setObjectName(QStringLiteral("runAction"));
    m_runAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_runAction->setToolTip(tr("Measure every checked strategy (Ctrl+R)"));
    connect(m_runAction, &QAction::triggered, this, &MainWindow::startSweep);

    m_paretoAction = new QAction(tr("Run &Pareto Curve"), this);
    m_paretoAction->setObjectName(QStringLiteral("paretoAction"));
    m_paretoAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    m_paretoAction->setToolTip(
        tr("Optimal schedules across memory budgets beside the checked "
           "hand-written strategies (Ctrl+Shift+R)"));
    connect(m_paretoAction, &QAction::triggered, this, &MainWindow::startParetoSweep);

    m_scalingAction = new QAction(tr("Run &Scaling Sweep"), this);
    m_scalingAction->setObjectName(QStringLiteral("scalingAction"));
    m_scalingAction->setToolTip(
        tr("The checked strategies at every value of the chosen "
           "dimension, with fitted exponents"));
    connect(m_scalingAction, &QAction::triggered, this, &MainWindow::startScalingSweep);

    m_fitAction = new QAction(tr("Will It &Fit?…"), this);
    m_fitAction->setObjectName(QStringLiteral("fitAction"));
    m_fitAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    m_fitAction->setToolTip(
        tr("A model at its real size on a GPU: which strategies fit, and how fast (Ctrl+Shift+F)"));
    connect(m_fitAction, &QAction::triggered, this, [this] {
        m_fitDock->show();
        m_fitDock->raise();
        m_fitDock->activateWindow();
    });

    m_cancelAction = new QAction(themed("process-stop", QStyle::SP_MediaStop), tr("&Cancel"), this);
    m_cancelAction->setObjectName(QStringLiteral("cancelAction"));
    m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_cancelAction->setToolTip(tr("Stop the sweep; finished runs are kept (Esc)"));
    connect(m_cancelAction, &QAction::triggered, this, &MainWindow::cancelSweep);
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_openAction);
    file->addAction(m_addAction);
    file->addAction(m_saveAction);
    file->addAction(m_saveAsAction);
    file->addSeparator();
    file->addAction(m_csvAction);
    file->addAction(m_traceAction);
    QMenu* chartMenu = file->addMenu(tr("Export C&hart"));
    m_exporter->addActions(chartMenu);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu* run = menuBar()->addMenu(tr("&Run"));
    run->addAction(m_runAction);
    run->addAction(m_paretoAction);
    run->addAction(m_scalingAction);
    run->addAction(m_cancelAction);
    run->addSeparator();
    run->addAction(m_fitAction);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    for (QDockWidget* dock : findChildren<QDockWidget*>())
        m_viewMenu->addAction(dock->toggleViewAction());
    m_viewMenu->addSeparator();
    // The charts panel's tabs (chart_registry.h), Alt+1 for the first.
    const std::vector<ChartKind> kinds = panelChartKinds();
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        const ChartKind kind = kinds[i];
        QAction* show = m_viewMenu->addAction(chartTitle(kind), this,
                                              [this, kind] { m_charts->setCurrentKind(kind); });
        // Scaling only applies to a scaling sweep's results.
        if (chartEntry(kind).scalingOnly)
            connect(m_viewMenu, &QMenu::aboutToShow, show,
                    [this, show, kind] { show->setEnabled(m_charts->isAvailable(kind)); });
        show->setShortcut(QKeySequence(Qt::ALT | Qt::Key(Qt::Key_1 + int(i))));
    }
    m_viewMenu->addSeparator();
    QAction* projector = m_viewMenu->addAction(tr("&Projector Mode"));
    projector->setObjectName(QStringLiteral("projectorAction"));
    projector->setCheckable(true);
    projector->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    projector->setToolTip(tr("Large fonts, thick lines and high-contrast charts for a class"));
    // On when saved so, or when --projector asked for it before the window was made.
    projector->setChecked(isProjectorMode() || m_settings.projectorMode());
    setProjectorMode(projector->isChecked());
    connect(projector, &QAction::toggled, this, [this](bool on) {
        setProjectorMode(on);
        m_settings.setProjectorMode(on);
        roomForCharts(this);
    });
    QTimer::singleShot(0, this, [this] { roomForCharts(this); });  // after the saved layout
    connect(projectorMode(), &ProjectorMode::changed, projector, &QAction::setChecked);
    m_viewMenu->addSeparator();
    createLanguageMenu(m_viewMenu);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Strategy Syntax"), this, [this] {
        showMessage(this, MessageKind::Information, tr("Strategy syntax"), strategySyntaxText());
    });
    help->addAction(tr("&About Checkpoint Lab"), this, &MainWindow::showAbout);
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);

    QToolBar* toolbar = addToolBar(tr("Main"));
    toolbar->setObjectName(QStringLiteral("mainToolbar"));
    toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    toolbar->addAction(m_runAction);
    toolbar->addAction(m_paretoAction);
    toolbar->addAction(m_cancelAction);
    toolbar->addSeparator();
    toolbar->addAction(m_openAction);
    toolbar->addAction(m_saveAction);

    connect(m_charts, &ChartsPanel::hoverTextChanged, this, [this](const QString& text) {
        // Leaving a point brings back the sweep's summary rather than an empty bar.
        if (text.isEmpty())
            statusBar()->showMessage(m_statusNote);
        else
            statusBar()->showMessage(
                QString(text).replace(QLatin1Char('\n'), QStringLiteral("  ·  ")));
    });
}

void MainWindow::showAbout() {
    // Describes the machine the parameters point at (device, threads, BLAS).
    Environment environment;
    try {
        environment = describeEnvironment(m_parameters->config());
    } catch (const std::exception& e) {
        environment.libtorch_version = e.what();
    }
    AboutDialog dialog(environment, this);
    dialog.exec();
}

}  // namespace ckptlab::ui
