#pragma once
// Keeps the live forecast current while the user edits: after a short pause in editing it
// measures one block of the config on a worker thread (cached per block shape, so depth and
// strategy changes only replay), then predicts every strategy. Paused while a sweep runs, so
// the two never compete for the CPU or the allocator.

#include <QObject>
#include <QStringList>
#include <QThread>
#include <QTimer>

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
    void request(const ExperimentConfig& config, const QStringList& strategies);
    // Drops the pending request and stops a measurement in progress.
    void clear();
    // While paused requests are remembered, not run; resume runs the latest.
    void setPaused(bool paused);
    bool isMeasuring() const { return m_busy; }
    const LivePrediction& latest() const { return m_latest; }
    // Milliseconds of quiet editing before measuring (tests set 0).
    void setDelay(int ms) { m_debounce.setInterval(ms); }

    void shutdown();

Q_SIGNALS:
    // A measurement started (the label shows "measuring…").
    void measuring();
    void updated(const ckptlab::ui::LivePrediction& prediction);

private:
    void dispatch();
    void onPredicted(quint64 job, const LivePrediction& prediction);

    QThread m_thread;
    PredictionWorker* m_worker = nullptr;
    QTimer m_debounce;
    CancelFlag m_cancel;
    quint64 m_job = 0;
    bool m_pending = false;
    bool m_paused = false;
    bool m_busy = false;
    ExperimentConfig m_config;
    QStringList m_strategies;
    LivePrediction m_latest;
};

}  // namespace ckptlab::ui
