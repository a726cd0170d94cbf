// MainWindow: starting, following and ending a sweep.

#include <QAction>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>

#include "base/messages.h"
#include "ckptlab/engine/runner.h"
#include "ckptlab/planning/sweep_check.h"
#include "ckptlab/planning/sweep_memory.h"
#include "ckptlab/planning/sweep_strategies.h"
#include "controllers/prediction_controller.h"
#include "controllers/sweep_controller.h"
#include "document/core_text.h"
#include "document/format.h"
#include "document/results_document.h"
#include "document/sweep_summary.h"
#include "panels/charts_panel.h"
#include "panels/curve_sweep_panel.h"
#include "panels/parameter_panel.h"
#include "panels/progress_status.h"
#include "panels/strategy_list.h"
#include "window/main_window.h"

namespace ckptlab::ui {

namespace {

QString bulletList(const QStringList& items) {
    return QStringLiteral("• ") + items.join(QStringLiteral("\n• "));
}

}  // namespace

bool MainWindow::startSweep() { return startHeld(DocumentAction::Sweep, SweepKind::Sweep); }

bool MainWindow::startParetoSweep() { return startHeld(DocumentAction::Pareto, SweepKind::Pareto); }

bool MainWindow::startScalingSweep() {
    return startHeld(DocumentAction::Scaling, SweepKind::Scaling);
}

bool MainWindow::startLessonRun(bool scaling) {
    return startHeld(DocumentAction::LessonLiveRun,
                     scaling ? SweepKind::Scaling : SweepKind::Sweep);
}

bool MainWindow::startHeld(DocumentAction action, SweepKind kind) {
    // Held from before the first question: nothing else replaces the results while the sweep
    // asks, starts or runs.
    DocumentHold hold(m_busy, action, this);
    if (!hold) return false;
    SweepRequestData request;
    request.kind = kind;
    if (kind == SweepKind::Pareto) request.paretoPoints = m_curves->paretoPoints();
    if (kind == SweepKind::Scaling) {
        request.axis = m_curves->scalingAxis();
        // The panel reads the numbers; how many a fit needs is the sweep check's rule.
        QString error;
        request.values = m_curves->scalingValues(&error);
        if (!error.isEmpty()) {
            showMessage(this, MessageKind::Warning, tr("Invalid scaling values"), error);
            return false;
        }
    }
    m_sweepAction = action;
    if (!beginSweep(request)) return false;
    hold.keep();  // until endSweep
    return true;
}

namespace {

struct Refusal {
    QString title;
    QString text;
};

// Why core's checkSweep refuses a sweep, in the user's language (core_text.h).
Refusal refusalOf(const SweepCheck& check) {
    using Verdict = SweepCheck::Verdict;
    const QString problem = check.problem ? coreMessageText(*check.problem) : QString();
    switch (check.verdict) {
    case Verdict::InvalidConfig:
    case Verdict::InvalidPoints:
    case Verdict::PlannerLimit:
        return {MainWindow::tr("Invalid configuration"),
                MainWindow::tr("Fix these parameters first:\n%1").arg(bulletList({problem}))};
    case Verdict::InvalidValues:
    case Verdict::InvalidSize: return {MainWindow::tr("Invalid scaling values"), problem};
    case Verdict::NoStrategy:
        return {MainWindow::tr("No strategy"),
                MainWindow::tr(
                    "Check at least one strategy to run (include \"none\" as the baseline).")};
    case Verdict::InvalidStrategy: {
        QStringList errors;
        for (const StrategyProblem& p : check.invalid)
            errors << MainWindow::tr("%1: %2", "a strategy and why it cannot run")
                          .arg(QString::fromStdString(p.text), coreMessageText(p.why));
        return {
            MainWindow::tr("Invalid strategy"),
            MainWindow::tr("These strategies do not fit this model:\n%1").arg(bulletList(errors))};
    }
    case Verdict::DoesNotFit: {
        // Refused here, before anything runs, with the predicted number: the runner would
        // refuse it the same way, only later. The problem names a scaling sweep's size.
        const FitForecast& f = check.forecasts.back().forecast;
        return {
            MainWindow::tr("Sweep cannot fit"),
            MainWindow::tr("%1%2\n\nPredicted %3, available %4. Make the model smaller "
                           "(width, sequence, batch, depth) or uncheck the hungriest "
                           "strategies.")
                .arg(problem, QString(), formatBytes(f.runnerPredicted), formatBytes(f.available))};
    }
    case Verdict::Ok: break;
    }
    return {};
}

}  // namespace

// Shows why core's checkSweep refuses a sweep, or asks before one close to the memory limit.
// Returns whether the sweep may start.
bool MainWindow::confirmSweep(const SweepRequestData& request, const SweepCheck& check) {
    if (!check.ok()) {
        const Refusal refusal = refusalOf(check);
        showMessage(this, MessageKind::Warning, refusal.title, refusal.text);
        return false;
    }
    const QString axis = scalingAxisText(request.axis);
    for (const SweepCheck::At& at : check.forecasts) {
        const FitForecast& f = at.forecast;
        const QString size = at.value ? tr(" (at %1 = %2)").arg(axis).arg(*at.value) : QString();
        if (f.nearLimit() &&
            !confirm(
                this, tr("Sweep close to the memory limit"),
                tr("The largest checked strategy (%1) is predicted to need %2 of the %3 "
                   "available on %4%5. The system may start swapping.\n\nRun anyway?")
                    .arg(QString::fromStdString(f.largestStrategy.name()) +
                             (f.largestIsBound ? tr(", its budget as the upper bound") : QString()),
                         formatBytes(f.largest), formatBytes(f.available),
                         QString::fromStdString(request.config.device), size)))
            return false;
    }
    return true;
}

bool MainWindow::beginSweep(SweepRequestData request) {
    // Only under startHeld's hold on the document (document/document_busy.h).
    if (m_sweep->isRunning() || !m_busy->isHeldBy(m_sweepAction)) return false;
    const QStringList problems = m_parameters->problems();
    if (!problems.isEmpty()) {
        showMessage(this, MessageKind::Warning, tr("Invalid configuration"),
                    tr("Fix these parameters first:\n%1").arg(bulletList(problems)));
        return false;
    }
    request.config = m_parameters->config();
    // The strategy table's rows are strategies already (parsed when they were added): the
    // check, the worker and the runner pass them on as they are. The window checks to ask
    // before a sweep near the memory limit; the runner checks again, as memory may have gone
    // while the question was open.
    request.checked = m_strategies->checkedStrategies();
    request.unparsed = m_strategies->checkedNotStrategies();
    const SweepCheck check = checkSweep(request, availableMemory);
    if (!confirmSweep(request, check)) return false;
    const std::vector<Strategy>& strategies = check.strategies;

    m_settings.setLastConfig(request.config);
    if (request.kind == SweepKind::Sweep)
        m_settings.setCheckedStrategies(m_strategies->checkedNames());
    m_progress->begin(
        sweepStartMessage(request.kind, int(strategies.size()), int(request.values.size())));
    m_statusNote.clear();
    statusBar()->clearMessage();
    // The sweep gets the CPU and the allocator to itself: its worker begins only once the
    // forecast's has stopped measuring (both would share LibTorch's process-wide state).
    m_predictions->setPaused(true);
    m_sweep->start(request, [predictions = QPointer<PredictionController>(m_predictions)](
                                std::function<void()> go) {
        if (predictions)
            predictions->whenIdle(std::move(go));
        else
            go();
    });
    updateActions();
    return true;
}

void MainWindow::cancelSweep() {
    if (!m_sweep->isRunning()) return;
    m_sweep->cancel();
    m_progress->cancelling();
    updateActions();
}

void MainWindow::onSweepFinished(bool cancelled, const Environment& environment) {
    const int runs = m_sweep->runsThisSweep();
    if (runs > 0) m_document->setEnvironment(environment, cancelled);
    m_document->stopWaitingForTimes();
    m_statusNote = sweepEndMessage(m_sweep->kind(), cancelled, runs, m_sweep->elapsedSeconds(),
                                   m_document->results());
    statusBar()->showMessage(m_statusNote);
    updateNotes();  // the environment's load is known now: the noise warnings
    endSweep(cancelled, false);
}

void MainWindow::onSweepFailed(const QString& title, const QString& message,
                               const Environment& environment) {
    const int runs = m_sweep->runsThisSweep();
    if (runs > 0) m_document->setEnvironment(environment, true);
    m_document->stopWaitingForTimes();
    m_statusNote = tr("Sweep stopped: %1").arg(title);
    statusBar()->showMessage(m_statusNote);
    endSweep(false, true);
    // After the state is consistent: the message box may run a nested event loop.
    QString text = message;
    if (runs > 0) text += tr("\n\nThe %n run(s) finished before this are kept.", nullptr, runs);
    showMessage(this, MessageKind::Error, title, text);
}

void MainWindow::endSweep(bool cancelled, bool failed) {
    m_predictions->setPaused(false);
    m_progress->end();
    m_busy->end(m_sweepAction);
    updateActions();
    Q_EMIT sweepEnded(cancelled, failed);
}

void MainWindow::updateActions() {
    const bool running = m_sweep->isRunning();
    const bool hasResults = !m_document->isEmpty();
    const bool free = !m_busy->isBusy();
    m_runAction->setEnabled(free);
    m_runButton->setEnabled(free);
    m_paretoAction->setEnabled(free);
    m_scalingAction->setEnabled(free);
    m_curves->setRunning(!free);
    m_cancelAction->setEnabled(running && !m_sweep->isCancelling());
    m_cancelButton->setEnabled(m_cancelAction->isEnabled());
    m_openAction->setEnabled(free);
    m_addAction->setEnabled(free);
    // Save beside a sweep writes the runs so far (the file says it is partial).
    for (QAction* action : {m_saveAction, m_saveAsAction})
        action->setEnabled(hasResults && m_busy->allows(DocumentAction::Save));
    for (QAction* action : {m_csvAction, m_traceAction}) action->setEnabled(hasResults);
    for (QAction* language : findChildren<QAction*>())
        if (language->objectName().startsWith(QLatin1String("language_")))
            language->setEnabled(free);
}

}  // namespace ckptlab::ui
