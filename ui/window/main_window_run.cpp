// MainWindow: starting, following and ending a sweep.

#include <QAction>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>

#include "ckptlab/runner.h"
#include "ckptlab/sweep_policy.h"
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
#include "window/messages.h"

namespace ckptlab::ui {

namespace {

QString bulletList(const QStringList& items) {
    return QStringLiteral("• ") + items.join(QStringLiteral("\n• "));
}

}  // namespace

bool MainWindow::startSweep() {
    return startHeld(DocumentAction::Sweep, SweepRequest::Kind::Sweep);
}

bool MainWindow::startParetoSweep() {
    return startHeld(DocumentAction::Pareto, SweepRequest::Kind::Pareto);
}

bool MainWindow::startScalingSweep() {
    return startHeld(DocumentAction::Scaling, SweepRequest::Kind::Scaling);
}

bool MainWindow::startLessonRun(bool scaling) {
    return startHeld(DocumentAction::LessonLiveRun,
                     scaling ? SweepRequest::Kind::Scaling : SweepRequest::Kind::Sweep);
}

bool MainWindow::startHeld(DocumentAction action, SweepRequest::Kind kind) {
    // Held from before the first question: nothing else replaces the results while the sweep
    // asks, starts or runs.
    DocumentHold hold(m_busy, action, this);
    if (!hold) return false;
    SweepRequest request;
    request.kind = kind;
    if (kind == SweepRequest::Kind::Pareto) request.paretoPoints = m_curves->paretoPoints();
    if (kind == SweepRequest::Kind::Scaling) {
        request.scalingAxis = m_curves->scalingAxis();
        QString error;
        request.scalingValues = m_curves->scalingValues(&error);
        if (request.scalingValues.empty()) {
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

QStringList toQStringList(const std::vector<std::string>& texts) {
    QStringList list;
    for (const std::string& text : texts) list << QString::fromStdString(text);
    return list;
}

}  // namespace

// Shows why core's checkSweep refuses a sweep, or asks before one close to the memory limit.
// Returns whether the sweep may start.
bool MainWindow::confirmSweep(const SweepRequest& request, const SweepCheck& check) {
    const QString axis = scalingAxisText(request.scalingAxis);
    auto sizeNote = [&](const SweepCheck::At& at) {
        return at.value ? tr(" (at %1 = %2)").arg(axis).arg(*at.value) : QString();
    };
    switch (check.verdict) {
    case SweepCheck::Verdict::InvalidConfig:
        showMessage(this, MessageKind::Warning, tr("Invalid configuration"),
                    tr("Fix these parameters first:\n%1")
                        .arg(bulletList({configErrorText(check.configError)})));
        return false;
    case SweepCheck::Verdict::NoStrategy:
        showMessage(this, MessageKind::Warning, tr("No strategy"),
                    tr("Check at least one strategy to run (include \"none\" as the baseline)."));
        return false;
    case SweepCheck::Verdict::InvalidStrategy:
        showMessage(this, MessageKind::Warning, tr("Invalid strategy"),
                    tr("These strategies do not fit this model:\n%1")
                        .arg(bulletList([&] {
                        QStringList errors;
                        for (const std::string& e : check.invalid) errors << strategyErrorText(e);
                        return errors;
                    }())));
        return false;
    case SweepCheck::Verdict::InvalidSize:
        showMessage(this, MessageKind::Warning, tr("Invalid scaling values"),
                    tr("At %1 = %2: %3")
                        .arg(axis)
                        .arg(check.size->value)
                        .arg(configErrorText(check.size->message)));
        return false;
    case SweepCheck::Verdict::DoesNotFit: {
        // Refused here, before anything runs, with the predicted number: the runner would
        // refuse it the same way, only later.
        const SweepCheck::At& at = check.forecasts.back();
        showMessage(
            this, MessageKind::Warning, tr("Sweep cannot fit"),
            tr("%1%2\n\nPredicted %3, available %4. Make the model smaller (width, "
               "sequence, batch, depth) or uncheck the hungriest strategies.")
                .arg(QString::fromStdString(at.forecast.refusal), sizeNote(at),
                     formatBytes(at.forecast.runnerPredicted), formatBytes(at.forecast.available)));
        return false;
    }
    case SweepCheck::Verdict::Ok: break;
    }
    for (const SweepCheck::At& at : check.forecasts) {
        const FitForecast& f = at.forecast;
        if (f.nearLimit() &&
            !confirm(
                this, tr("Sweep close to the memory limit"),
                tr("The largest checked strategy (%1) is predicted to need %2 of the %3 "
                   "available on %4%5. The system may start swapping.\n\nRun anyway?")
                    .arg(QString::fromStdString(f.largestStrategy) +
                             (f.largestIsBound ? tr(", its budget as the upper bound") : QString()),
                         formatBytes(f.largest), formatBytes(f.available),
                         QString::fromStdString(request.config.device), sizeNote(at))))
            return false;
    }
    return true;
}

bool MainWindow::beginSweep(SweepRequest request) {
    // Only under startHeld's hold on the document (window/document_busy.h).
    if (m_sweep->isRunning() || !m_busy->isHeldBy(m_sweepAction)) return false;
    const QStringList problems = m_parameters->problems();
    if (!problems.isEmpty()) {
        showMessage(this, MessageKind::Warning, tr("Invalid configuration"),
                    tr("Fix these parameters first:\n%1").arg(bulletList(problems)));
        return false;
    }
    request.config = m_parameters->config();
    SweepRequestData data;
    data.kind = request.kind;
    data.config = request.config;
    for (const QString& text : m_strategies->checkedStrategies())
        data.checked.push_back(text.toStdString());
    data.axis = request.scalingAxis;
    data.values = request.scalingValues;
    const SweepCheck check = checkSweep(data, availableMemory(request.config.device));
    if (!confirmSweep(request, check)) return false;
    request.strategies = toQStringList(check.strategies);
    const QStringList& strategies = request.strategies;

    m_settings.setLastConfig(request.config);
    if (request.kind == SweepRequest::Kind::Sweep) m_settings.setCheckedStrategies(strategies);
    m_progress->begin(
        sweepStartMessage(request.kind, int(strategies.size()), int(request.scalingValues.size())));
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
