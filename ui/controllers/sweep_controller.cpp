#include "controllers/sweep_controller.h"

#include <QPointer>

namespace ckptlab::ui {

SweepController::SweepController(QObject* parent) : QObject(parent), m_worker(new SweepWorker) {
    setObjectName(QStringLiteral("sweepController"));
    m_thread.setObjectName(QStringLiteral("ckptlab-sweep"));
    m_worker->moveToThread(&m_thread);
    // Worker and controller live on different threads, so these connections are queued.
    connect(m_worker, &SweepWorker::progress, this, &SweepController::onProgress);
    connect(m_worker, &SweepWorker::traced, this, &SweepController::onTraced);
    connect(m_worker, &SweepWorker::measured, this, &SweepController::onMeasured);
    connect(m_worker, &SweepWorker::timing, this,
            [this](quint64 jobId, const TimingRounds& timing) {
                if (jobId == m_job && m_running) Q_EMIT timingReported(timing);
            });
    connect(m_worker, &SweepWorker::frontier, this, [this](quint64 jobId, const Frontier& points) {
        if (jobId == m_job && m_running) Q_EMIT frontierPlanned(points);
    });
    connect(m_worker, &SweepWorker::notes, this, [this](quint64 jobId, const QStringList& notes) {
        if (jobId == m_job && m_running) Q_EMIT notesReported(notes);
    });
    connect(m_worker, &SweepWorker::finished, this, &SweepController::onFinished);
    connect(m_worker, &SweepWorker::failed, this, &SweepController::onFailed);
    m_thread.start();
}

SweepController::~SweepController() { shutdown(); }

quint64 SweepController::start(const ExperimentConfig& config,
                               const std::vector<Strategy>& strategies) {
    SweepRequestData request;
    request.config = config;
    request.checked = strategies;
    return start(request);
}

quint64 SweepController::start(const SweepRequestData& request, const StartGate& gate) {
    if (!m_worker) return 0;  // shut down: the window is closing
    if (m_cancel)
        m_cancel->store(true);  // a superseded job stops early; its signals are dropped below
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const quint64 job = ++m_job;
    m_running = true;
    m_kind = request.kind;
    m_runs = 0;
    m_awaitingTimes = 0;
    m_clock.start();
    CancelFlag flag = m_cancel;
    auto go = [self = QPointer<SweepController>(this), job, request, flag] {
        // Gone, shut down or superseded while the gate was closed: nobody waits for this job.
        if (!self || !self->m_worker || job != self->m_job) return;
        SweepWorker* worker = self->m_worker;
        QMetaObject::invokeMethod(
            worker, [worker, job, request, flag] { worker->run(job, request, flag); },
            Qt::QueuedConnection);
    };
    Q_EMIT started(job);
    if (gate)
        gate(go);
    else
        go();
    return job;
}

void SweepController::cancel() {
    if (m_cancel) m_cancel->store(true);
}

void SweepController::shutdown() {
    if (!m_worker) return;
    cancel();
    m_thread.quit();  // processed once the running sweep has returned
    m_thread.wait();
    delete m_worker;  // safe: its thread has stopped
    m_worker = nullptr;
    m_running = false;
}

void SweepController::onProgress(quint64 jobId, double fraction, const QString& message) {
    if (jobId == m_job && m_running) Q_EMIT progress(fraction, message);
}

void SweepController::onTraced(quint64 jobId, const MeasuredRun& run) {
    if (jobId != m_job || !m_running) return;
    if (m_runs++ == 0) Q_EMIT firstRunMeasured();
    ++m_awaitingTimes;
    Q_EMIT traced(run);
}

void SweepController::onMeasured(quint64 jobId, const MeasuredRun& run) {
    if (jobId != m_job || !m_running) return;
    // The complete run of one traced before (the runner hands each on in the same order), or
    // a run that never had a traced step (the model could not be built).
    if (m_awaitingTimes > 0) {
        --m_awaitingTimes;
    } else if (m_runs++ == 0) {
        Q_EMIT firstRunMeasured();
    }
    Q_EMIT measured(run);
}

void SweepController::onFinished(quint64 jobId, bool cancelled, const Environment& environment) {
    if (jobId != m_job || !m_running) return;
    m_running = false;
    Q_EMIT finished(cancelled, environment);
    Q_EMIT idle();
}

void SweepController::onFailed(quint64 jobId, const QString& title, const QString& message,
                               const Environment& environment) {
    if (jobId != m_job || !m_running) return;
    m_running = false;
    Q_EMIT failed(title, message, environment);
    Q_EMIT idle();
}

}  // namespace ckptlab::ui
