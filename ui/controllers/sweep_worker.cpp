#include "controllers/sweep_worker.h"

#include <QElapsedTimer>

#include "ckptlab/engine/runner.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/model/summary.h"
#include "document/core_text.h"

namespace ckptlab::ui {

namespace {

// Progress comes from the runner far more often than a progress bar can show it; more than
// ~30 signals a second only floods the GUI thread's queue.
constexpr qint64 kProgressIntervalMs = 33;

QString errorTitle(const std::exception& e) {
    if (dynamic_cast<const ConfigError*>(&e)) return QObject::tr("Invalid configuration");
    if (dynamic_cast<const StrategyError*>(&e)) return QObject::tr("Invalid strategy");
    if (dynamic_cast<const MemoryError*>(&e)) return QObject::tr("Not enough memory");
    return QObject::tr("Sweep failed");
}

Environment environmentOrEmpty(const ExperimentConfig& config) {
    try {
        return describeEnvironment(config);
    } catch (const std::exception&) {
        return {};
    }
}

}  // namespace

void SweepWorker::run(quint64 jobId, const SweepRequestData& request, CancelFlag cancel) {
    const ExperimentConfig& config = request.config;
    if (cancel && cancel->load()) {
        // Cancelled before it began (SweepController's start gate): nothing to build or run.
        Q_EMIT finished(jobId, true, environmentOrEmpty(config));
        return;
    }

    QElapsedTimer sinceProgress;
    RunnerHooks hooks;
    hooks.cancel = cancel.get();
    hooks.progress = [&](double fraction, const CoreMessage& message) {
        if (sinceProgress.isValid() && sinceProgress.elapsed() < kProgressIntervalMs &&
            fraction < 1.0)
            return;
        sinceProgress.start();
        Q_EMIT progress(jobId, fraction, coreMessageText(message));
    };
    hooks.traced = [&](const RunResult& run) {
        MeasuredRun m{run, downsampleTimeline(run.timeline, kTimelinePoints), true};
        Q_EMIT traced(jobId, m);
    };
    hooks.result = [&](const RunResult& run) {
        MeasuredRun m{run, downsampleTimeline(run.timeline, kTimelinePoints)};
        Q_EMIT measured(jobId, m);
    };

    try {
        Runner runner;
        const ResultSet set = runner.run(request, hooks);
        if (!set.notes.empty()) {
            QStringList lines;
            for (const std::string& note : set.notes) lines << QString::fromStdString(note);
            Q_EMIT notes(jobId, lines);
        }
        if (!set.predicted_frontier.empty()) Q_EMIT frontier(jobId, set.predicted_frontier);
        if (set.timing) Q_EMIT timing(jobId, *set.timing);
        Q_EMIT finished(jobId, set.cancelled, set.environment);
    } catch (const std::exception& e) {
        Q_EMIT failed(jobId, errorTitle(e), coreErrorText(e), environmentOrEmpty(config));
    } catch (...) {
        Q_EMIT failed(jobId, tr("Sweep failed"), tr("Unknown error"), environmentOrEmpty(config));
    }
}

}  // namespace ckptlab::ui
