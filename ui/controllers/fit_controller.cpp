#include "controllers/fit_controller.h"

#include <QCoreApplication>

namespace ckptlab::ui {

FitController::FitController(QObject* parent)
    : QObject(parent),
      m_worker(new FitWorker(QCoreApplication::applicationFilePath().toStdString())) {
    setObjectName(QStringLiteral("fitController"));
    qRegisterMetaType<FitRequest>();
    qRegisterMetaType<FitOutcomePtr>();
    qRegisterMetaType<CancelFlag>();
    m_thread.setObjectName(QStringLiteral("ckptlab-fit"));
    m_worker->moveToThread(&m_thread);
    connect(m_worker, &FitWorker::progress, this,
            [this](quint64 job, bool measuring, const QString& stage, int done, int total) {
                if (job == m_job && m_running) Q_EMIT progress(measuring, stage, done, total);
            });
    connect(m_worker, &FitWorker::planned, this, &FitController::onPlanned);
    connect(m_worker, &FitWorker::failed, this, &FitController::onFailed);
    connect(m_worker, &FitWorker::done, this, &FitController::onDone);
    m_thread.start();
}

FitController::~FitController() { shutdown(); }

bool FitController::start(const FitRequest& request) {
    if (m_running || !m_worker) return false;
    m_request = request;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const quint64 job = ++m_job;
    m_running = true;
    FitWorker* worker = m_worker;
    const CancelFlag flag = m_cancel;
    QMetaObject::invokeMethod(
        worker, [=] { worker->plan(job, request, flag); }, Qt::QueuedConnection);
    Q_EMIT started();
    return true;
}

void FitController::cancel() {
    if (m_running && m_cancel) m_cancel->store(true);
}

void FitController::onPlanned(quint64 job, const FitOutcomePtr& outcome) {
    if (job != m_job) return;
    m_latest = outcome;
    Q_EMIT planned(outcome);
}

void FitController::onFailed(quint64 job, const QString& message) {
    if (job == m_job) Q_EMIT failed(message);
}

void FitController::onDone(quint64 job, bool wasCancelled) {
    if (job != m_job || !m_running) return;
    m_running = false;
    if (wasCancelled) Q_EMIT cancelled();
    Q_EMIT finished();
}

void FitController::shutdown() {
    if (!m_worker) return;
    if (m_cancel) m_cancel->store(true);
    m_thread.quit();
    m_thread.wait();
    delete m_worker;
    m_worker = nullptr;
    m_running = false;
}

}  // namespace ckptlab::ui
