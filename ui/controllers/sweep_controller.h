#pragma once
// Owns the sweep thread and its worker, hands out job ids and forwards only the current job's
// signals. Lives on the GUI thread.

#include <QElapsedTimer>
#include <QObject>
#include <QThread>

#include <functional>

#include "controllers/sweep_worker.h"

namespace ckptlab::ui {

class SweepController : public QObject {
    Q_OBJECT
public:
    explicit SweepController(QObject* parent = nullptr);
    ~SweepController() override;

    // Called with the function that hands the sweep to its worker thread; calls it (on this
    // thread) once the sweep may run, e.g. when another LibTorch worker has stopped.
    using StartGate = std::function<void(std::function<void()> go)>;

    // Starts a sweep, cancelling any sweep still running (its later results are dropped).
    // With a gate, the sweep counts as running at once (started, isRunning, cancel) but its
    // worker begins only when the gate says go; cancelled meanwhile, it ends at once then.
    quint64 start(const SweepRequestData& request, const StartGate& gate = {});
    quint64 start(const ExperimentConfig& config, const std::vector<Strategy>& strategies);
    // Asks the current sweep to stop; the runner honours it within about a second.
    void cancel();
    bool isRunning() const { return m_running; }
    bool isCancelling() const { return m_running && m_cancel && m_cancel->load(); }

    // The current (or last) sweep's bookkeeping, for the window's status line.
    SweepKind kind() const { return m_kind; }
    int runsThisSweep() const { return m_runs; }
    double elapsedSeconds() const { return m_clock.isValid() ? m_clock.elapsed() / 1000.0 : 0; }

    // Cancels and joins the thread; called on window close. Idempotent.
    void shutdown();

Q_SIGNALS:
    void started(quint64 jobId);
    // Just before the first `measured` of a sweep: the results on screen may be replaced now
    // (a sweep refused before it runs leaves them).
    void firstRunMeasured();
    void progress(double fraction, const QString& message);
    // A run after its traced step, times to come (MeasuredRun::timesPending), then the same
    // run complete. Both count as one run in runsThisSweep().
    void traced(const ckptlab::ui::MeasuredRun& run);
    void measured(const ckptlab::ui::MeasuredRun& run);
    // The sweep's timed rounds (ResultSet::timing), before `finished`.
    void timingReported(const ckptlab::TimingRounds& timing);
    void frontierPlanned(const ckptlab::ui::Frontier& points);
    // The sweep's notes (ResultSet::notes), before `finished`.
    void notesReported(const QStringList& notes);
    void finished(bool cancelled, const ckptlab::Environment& environment);
    void failed(const QString& title, const QString& message,
                const ckptlab::Environment& environment);
    // After finished or failed: the controller is idle again.
    void idle();

private:
    void onProgress(quint64 jobId, double fraction, const QString& message);
    void onTraced(quint64 jobId, const MeasuredRun& run);
    void onMeasured(quint64 jobId, const MeasuredRun& run);
    void onFinished(quint64 jobId, bool cancelled, const Environment& environment);
    void onFailed(quint64 jobId, const QString& title, const QString& message,
                  const Environment& environment);

    QThread m_thread;
    SweepWorker* m_worker = nullptr;
    CancelFlag m_cancel;
    quint64 m_job = 0;
    bool m_running = false;
    SweepKind m_kind = SweepKind::Sweep;
    int m_runs = 0;
    int m_awaitingTimes = 0;  // runs traced whose complete result has not come yet
    QElapsedTimer m_clock;
};

}  // namespace ckptlab::ui
