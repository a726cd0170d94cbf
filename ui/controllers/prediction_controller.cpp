#include "controllers/prediction_controller.h"

#include "controllers/prediction_worker.h"

namespace ckptlab::ui {

namespace {

// Long enough that typing "2048" measures once, short enough to feel live.
constexpr int kDebounceMs = 350;

}  // namespace

PredictionController::PredictionController(QObject* parent)
    : QObject(parent), m_worker(new PredictionWorker) {
    setObjectName(QStringLiteral("predictions"));
    qRegisterMetaType<LivePrediction>();
    m_thread.setObjectName(QStringLiteral("ckptlab-predict"));
    m_worker->moveToThread(&m_thread);
    connect(m_worker, &PredictionWorker::predicted, this, &PredictionController::onPredicted);
    connect(m_worker, &PredictionWorker::done, this, &PredictionController::onJobDone);
    m_thread.start();
    m_debounce.setSingleShot(true);
    m_debounce.setInterval(kDebounceMs);
    connect(&m_debounce, &QTimer::timeout, this, &PredictionController::dispatch);
}

PredictionController::~PredictionController() { shutdown(); }

void PredictionController::request(const ExperimentConfig& config,
                                   const std::vector<Strategy>& strategies) {
    m_config = config;
    m_strategies = strategies;
    m_pending = true;
    if (!m_paused) m_debounce.start();
}

void PredictionController::clear() {
    m_pending = false;
    m_debounce.stop();
    if (m_cancel) m_cancel->store(true);
    ++m_job;  // whatever is running now reports into nothing
    m_busy = false;
}

void PredictionController::setPaused(bool paused) {
    m_paused = paused;
    if (paused) {
        m_debounce.stop();
        if (m_busy) {
            // Stop the measurement and ask again later.
            m_cancel->store(true);
            ++m_job;
            m_busy = false;
            m_pending = true;
        }
    } else if (m_pending) {
        m_debounce.start();
    }
}

void PredictionController::dispatch() {
    if (!m_worker || m_paused || !m_pending) return;
    m_pending = false;
    if (m_cancel) m_cancel->store(true);  // the worker finishes the old one quickly and drops it
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    const quint64 job = ++m_job;
    m_busy = true;
    ++m_inFlight;
    PredictionWorker* worker = m_worker;
    const CancelFlag flag = m_cancel;
    const ExperimentConfig config = m_config;
    const std::vector<Strategy> strategies = m_strategies;
    QMetaObject::invokeMethod(
        worker, [=] { worker->predict(job, config, strategies, flag); }, Qt::QueuedConnection);
    Q_EMIT measuring();
}

void PredictionController::onPredicted(quint64 job, const LivePrediction& prediction) {
    if (job != m_job) return;
    m_busy = false;
    m_latest = prediction;
    Q_EMIT updated(prediction);
}

void PredictionController::onJobDone() {
    if (m_inFlight > 0) --m_inFlight;
    if (m_inFlight == 0) runIdleCallbacks();
}

void PredictionController::whenIdle(std::function<void()> then) {
    if (isWorkerIdle()) {
        then();
        return;
    }
    m_whenIdle.push_back(std::move(then));
}

void PredictionController::runIdleCallbacks() {
    // A callback may ask for more (or start a measurement): take the list first.
    std::vector<std::function<void()>> waiting;
    waiting.swap(m_whenIdle);
    Q_EMIT workerIdle();
    for (auto& then : waiting) then();
}

void PredictionController::shutdown() {
    if (!m_worker) return;
    m_debounce.stop();
    if (m_cancel) m_cancel->store(true);
    m_thread.quit();
    m_thread.wait();
    delete m_worker;
    m_worker = nullptr;
    // The thread has stopped: whatever waited for it may go on (its `done` signals, still
    // queued, are never delivered now).
    m_inFlight = 0;
    runIdleCallbacks();
}

}  // namespace ckptlab::ui
