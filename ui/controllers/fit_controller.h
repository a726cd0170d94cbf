#pragma once
// Runs "Will it fit?" behind its panel: one request at a time on a worker thread of its own
// (FitWorker), with cancel, as PredictionController runs the live forecast. It outlives the
// panel (a language switch rebuilds the panel, which then shows the controller's last request
// and plan again). Measurements on different threads take turns (runner.h), so a fit started
// during a sweep or a forecast waits for it, and the other way round.

#include <QObject>
#include <QString>
#include <QThread>
#include <optional>

#include "controllers/fit_worker.h"

namespace ckptlab::ui {

class FitController : public QObject {
    Q_OBJECT
public:
    explicit FitController(QObject* parent = nullptr);
    ~FitController() override;

    // Starts planning `request`; false (nothing started) while another one runs.
    bool start(const FitRequest& request);
    // Stops the running request; its end comes as `cancelled`.
    void cancel();
    bool isRunning() const { return m_running; }

    // The last request started, and the last plan (of the same or an earlier request).
    const std::optional<FitRequest>& lastRequest() const { return m_request; }
    const FitOutcomePtr& latest() const { return m_latest; }
    // Cancels and joins the worker (the window's close).
    void shutdown();

Q_SIGNALS:
    void started();
    // `measuring`: shape `done` of `total` of the fit is being measured; else strategy `done`
    // of `total` is being planned. `stage` is core's English description of it.
    void progress(bool measuring, const QString& stage, int done, int total);
    void planned(const ckptlab::ui::FitOutcomePtr& outcome);
    void failed(const QString& message);
    void cancelled();
    // After planned, failed or cancelled: isRunning() is false again.
    void finished();

private:
    void onPlanned(quint64 job, const FitOutcomePtr& outcome);
    void onFailed(quint64 job, const QString& message);
    void onDone(quint64 job, bool cancelled);

    QThread m_thread;
    FitWorker* m_worker = nullptr;
    CancelFlag m_cancel;
    quint64 m_job = 0;
    bool m_running = false;
    std::optional<FitRequest> m_request;
    FitOutcomePtr m_latest;
};

}  // namespace ckptlab::ui
