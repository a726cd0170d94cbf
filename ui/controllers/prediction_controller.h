#pragma once
// Keeps the live forecast current while the user edits: after a short pause in editing it
// measures the config's cost model on a worker thread, as the runner does (cached per block
// shape and measured chain, so most depth and strategy changes only replay), then predicts
// every strategy. Paused while a sweep runs, and a sweep starts only once the worker has
// stopped (whenIdle), so the two never compete for the CPU, the allocator or LibTorch's
// process-wide state.

#include <QObject>
#include <QStringList>
#include <QThread>
#include <QTimer>

#include <functional>
#include <vector>

#include "controllers/live_prediction.h"
#include "controllers/sweep_worker.h"

namespace ckptlab::ui {

class PredictionWorker;

class PredictionController : public QObject {
    Q_OBJECT
public:
    explicit PredictionController(QObject* parent = nullptr);
    ~PredictionController() override;

    // Asks for a forecast of `strategies` on `config` after the debounce delay. A config that
    // cannot fit (the analytic check says so) should not be sent: measuring would allocate it.
    void request(const ExperimentConfig& config, const std::vector<Strategy>& strategies);
    // Drops the pending request and stops a measurement in progress.
    void clear();
    // While paused requests are remembered, not run; resume runs the latest. Pausing stops a
    // measurement in progress, which ends within its next timing round: see whenIdle.
    void setPaused(bool paused);
    bool isMeasuring() const { return m_busy; }
    // No measurement running or queued on the worker thread, cancelled ones included.
    bool isWorkerIdle() const { return m_inFlight == 0; }
    // Calls `then` on this thread once the worker is idle: at once if it is, otherwise when
    // its last measurement has returned (the event loop runs meanwhile). Pause first, or a
    // new request may start another measurement afterwards.
    void whenIdle(std::function<void()> then);
    const LivePrediction& latest() const { return m_latest; }
    // Milliseconds of quiet editing before measuring (tests set 0).
    void setDelay(int ms) { m_debounce.setInterval(ms); }

    void shutdown();

Q_SIGNALS:
    // A measurement started (the label shows "measuring…").
    void measuring();
    void updated(const ckptlab::ui::LivePrediction& prediction);
    // The worker has returned from its last measurement (isWorkerIdle() is true again).
    void workerIdle();

private:
    void dispatch();
    void onPredicted(quint64 job, const LivePrediction& prediction);
    void onJobDone();
    void runIdleCallbacks();

    QThread m_thread;
    PredictionWorker* m_worker = nullptr;
    QTimer m_debounce;
    CancelFlag m_cancel;
    quint64 m_job = 0;
    bool m_pending = false;
    bool m_paused = false;
    bool m_busy = false;
    int m_inFlight = 0;  // jobs sent to the worker that have not returned
    std::vector<std::function<void()>> m_whenIdle;
    ExperimentConfig m_config;
    std::vector<Strategy> m_strategies;
    LivePrediction m_latest;
};

}  // namespace ckptlab::ui
