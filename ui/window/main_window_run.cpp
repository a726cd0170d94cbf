// MainWindow: starting, following and ending a sweep.

#include <QAction>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
#include <algorithm>

#include "panels/charts_panel.h"
#include "ckptlab/pareto.h"
#include "panels/curve_sweep_panel.h"
#include "document/format.h"
#include "window/main_window.h"
#include "panels/memory_estimate_label.h"
#include "window/messages.h"
#include "panels/parameter_panel.h"
#include "controllers/prediction_controller.h"
#include "panels/progress_status.h"
#include "document/results_document.h"
#include "panels/strategy_list.h"
#include "controllers/sweep_controller.h"
#include "document/sweep_summary.h"

namespace ckptlab::ui {

namespace {

QString bulletList(const QStringList& items)
{
    return QStringLiteral("• ") + items.join(QStringLiteral("\n• "));
}

}  // namespace

bool MainWindow::isRunning() const
{
    return m_sweep->isRunning();
}

bool MainWindow::startSweep()
{
    return beginSweep(SweepRequest{});
}

bool MainWindow::startParetoSweep()
{
    SweepRequest request;
    request.kind = SweepRequest::Kind::Pareto;
    request.paretoPoints = m_curves->paretoPoints();
    return beginSweep(request);
}

bool MainWindow::startScalingSweep()
{
    SweepRequest request;
    request.kind = SweepRequest::Kind::Scaling;
    request.scalingAxis = m_curves->scalingAxis();
    QString error;
    request.scalingValues = m_curves->scalingValues(&error);
    if (request.scalingValues.empty()) {
        showMessage(this, MessageKind::Warning, tr("Invalid scaling values"), error);
        return false;
    }
    return beginSweep(request);
}

QSpinBox* MainWindow::paretoPointsBox() const
{
    return m_curves->paretoPointsBox();
}

// The strategies a sweep of this kind runs: the checked ones, where a curve sweep drops the
// optimal budgets (the Pareto curve brings its own; a fixed budget means nothing across
// sizes) and falls back to its usual set when nothing else is checked.
QStringList MainWindow::strategiesFor(SweepRequest::Kind kind, const ExperimentConfig& config) const
{
    QStringList strategies = m_strategies->checkedStrategies();
    if (kind == SweepRequest::Kind::Sweep)
        return strategies;
    strategies.erase(std::remove_if(strategies.begin(), strategies.end(),
                                    [](const QString& s) {
                                        return s.startsWith(QStringLiteral("optimal:"));
                                    }),
                     strategies.end());
    if (!strategies.isEmpty())
        return strategies;
    if (kind == SweepRequest::Kind::Scaling)
        return {QStringLiteral("none"), QStringLiteral("sqrt"), QStringLiteral("full")};
    for (const std::string& s : defaultParetoStrategies(config.depth, config.block))
        strategies << QString::fromStdString(s);
    return strategies;
}

bool MainWindow::beginSweep(SweepRequest request)
{
    if (m_sweep->isRunning())
        return false;
    const QStringList problems = m_parameters->problems();
    if (!problems.isEmpty()) {
        showMessage(this, MessageKind::Warning, tr("Invalid configuration"),
                    tr("Fix these parameters first:\n%1").arg(bulletList(problems)));
        return false;
    }
    request.config = m_parameters->config();
    request.strategies = strategiesFor(request.kind, request.config);
    const QStringList& strategies = request.strategies;
    if (strategies.isEmpty()) {
        showMessage(this, MessageKind::Warning, tr("No strategy"),
                    tr("Check at least one strategy to run (include \"none\" as the baseline)."));
        return false;
    }
    const QStringList invalid = m_strategies->invalidChecked();
    if (!invalid.isEmpty()) {
        showMessage(this, MessageKind::Warning, tr("Invalid strategy"),
                    tr("These strategies do not fit this model:\n%1").arg(bulletList(invalid)));
        return false;
    }

    // Every size a scaling sweep visits must be valid and fit; the others run the panel's.
    std::vector<ExperimentConfig> configs{request.config};
    QString sizeNote;
    if (request.kind == SweepRequest::Kind::Scaling) {
        configs.clear();
        for (int value : request.scalingValues) {
            ExperimentConfig c = request.config;
            setAxisValue(c, request.scalingAxis, value);
            const auto errors = validate(c);
            if (!errors.empty()) {
                showMessage(this, MessageKind::Warning, tr("Invalid scaling values"),
                            tr("At %1 = %2: %3")
                                .arg(QString::fromStdString(toString(request.scalingAxis)))
                                .arg(value)
                                .arg(QString::fromStdString(errors.front().message)));
                return false;
            }
            configs.push_back(c);
        }
    }

    // Refused here, before anything runs, with the predicted number: the runner would refuse
    // it the same way, only later.
    for (const ExperimentConfig& config : configs) {
        if (request.kind == SweepRequest::Kind::Scaling)
            sizeNote = tr(" (at %1 = %2)")
                           .arg(QString::fromStdString(toString(request.scalingAxis)))
                           .arg(axisValue(config, request.scalingAxis));
        const MemoryForecast forecast = forecastMemory(config, strategies);
        if (forecast.refused) {
            showMessage(this, MessageKind::Warning, tr("Sweep cannot fit"),
                        tr("%1%2\n\nPredicted %3, available %4. Make the model smaller (width, "
                           "sequence, batch, depth) or uncheck the hungriest strategies.")
                            .arg(forecast.refusal, sizeNote, formatBytes(forecast.runnerPredicted),
                                 formatBytes(forecast.available)));
            return false;
        }
        if (forecast.nearLimit()
            && !confirm(this, tr("Sweep close to the memory limit"),
                        tr("The largest checked strategy (%1) is predicted to need %2 of the %3 "
                           "available on %4%5. The system may start swapping.\n\nRun anyway?")
                            .arg(forecast.largestStrategy, formatBytes(forecast.largest),
                                 formatBytes(forecast.available),
                                 QString::fromStdString(config.device), sizeNote)))
            return false;
    }

    m_settings.setLastConfig(request.config);
    if (request.kind == SweepRequest::Kind::Sweep)
        m_settings.setCheckedStrategies(strategies);
    m_replaceOnFirstResult = true;
    m_runsThisSweep = 0;
    m_sweepClock.start();
    m_sweepKind = request.kind;
    switch (request.kind) {
    case SweepRequest::Kind::Sweep:
        m_progress->begin(tr("Preparing %n strategie(s)…", nullptr, int(strategies.size())));
        break;
    case SweepRequest::Kind::Pareto:
        m_progress->begin(tr("Measuring the cost model for the Pareto curve…"));
        break;
    case SweepRequest::Kind::Scaling:
        m_progress->begin(tr("Preparing a scaling sweep over %n size(s)…", nullptr,
                             int(request.scalingValues.size())));
        break;
    }
    m_statusNote.clear();
    statusBar()->clearMessage();
    m_predictions->setPaused(true);  // the sweep gets the CPU and the allocator to itself
    m_sweep->start(request);
    updateActions();
    return true;
}

void MainWindow::cancelSweep()
{
    if (!m_sweep->isRunning())
        return;
    m_sweep->cancel();
    m_progress->cancelling();
    updateActions();
}

void MainWindow::onMeasured(const MeasuredRun& run)
{
    // Replace the previous results only once this sweep has something to show, so a sweep
    // refused before it runs leaves them on screen.
    if (m_replaceOnFirstResult) {
        m_replaceOnFirstResult = false;
        m_document->clear();
    }
    ++m_runsThisSweep;
    m_document->addRun(run);
}

void MainWindow::onSweepFinished(bool cancelled, const Environment& environment)
{
    if (m_runsThisSweep > 0)
        m_document->setEnvironment(environment, cancelled);
    const QString elapsed = formatDuration(m_sweepClock.elapsed() / 1000.0);
    QString message =
        cancelled ? tr("Cancelled after %n run(s), %1", nullptr, m_runsThisSweep).arg(elapsed)
                  : tr("Sweep finished: %n run(s) in %1", nullptr, m_runsThisSweep).arg(elapsed);
    if (m_sweepKind == SweepRequest::Kind::Pareto && !cancelled)
        message += QStringLiteral(". ") + paretoVerdict(m_document->results());
    if (m_sweepKind == SweepRequest::Kind::Scaling && !cancelled)
        message += QStringLiteral(". ") + scalingVerdict(m_document->results());
    if (m_runsThisSweep > 0) {
        const QString oom = outOfMemoryVerdict(m_document->results());
        if (!oom.isEmpty())
            message += QStringLiteral(". ") + oom;
    }
    m_statusNote = message;
    statusBar()->showMessage(message);
    endSweep(cancelled, false);
}

void MainWindow::onSweepFailed(const QString& title, const QString& message,
                               const Environment& environment)
{
    if (m_runsThisSweep > 0)
        m_document->setEnvironment(environment, true);
    m_statusNote = tr("Sweep stopped: %1").arg(title);
    statusBar()->showMessage(m_statusNote);
    endSweep(false, true);
    // After the state is consistent: the message box may run a nested event loop.
    QString text = message;
    if (m_runsThisSweep > 0)
        text += tr("\n\nThe %n run(s) finished before this are kept.", nullptr, m_runsThisSweep);
    showMessage(this, MessageKind::Error, title, text);
}

void MainWindow::endSweep(bool cancelled, bool failed)
{
    m_replaceOnFirstResult = false;
    m_sweepKind = SweepRequest::Kind::Sweep;
    m_predictions->setPaused(false);
    m_progress->end();
    updateActions();
    Q_EMIT sweepEnded(cancelled, failed);
}

void MainWindow::updateActions()
{
    const bool running = m_sweep->isRunning();
    const bool hasResults = !m_document->isEmpty();
    m_runAction->setEnabled(!running);
    m_runButton->setEnabled(!running);
    m_paretoAction->setEnabled(!running);
    m_scalingAction->setEnabled(!running);
    m_curves->setRunning(running);
    m_cancelAction->setEnabled(running && !m_sweep->isCancelling());
    m_cancelButton->setEnabled(m_cancelAction->isEnabled());
    m_openAction->setEnabled(!running);
    for (QAction* action : {m_saveAction, m_saveAsAction, m_csvAction, m_traceAction})
        action->setEnabled(hasResults);
}

}  // namespace ckptlab::ui
