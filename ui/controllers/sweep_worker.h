#pragma once
// Runs a request through ckptlab::Runner::run on a worker thread. Lives in that thread
// (moveToThread); every signal reaches the GUI queued. Each job carries an id so the controller can
// drop results of a superseded job, and its own cancel flag so cancelling one job never touches the
// next.

#include <QObject>
#include <QString>
#include <QStringList>
#include <atomic>
#include <memory>

#include <vector>

#include "base/metatypes.h"
#include "ckptlab/planning/scaling.h"
#include "ckptlab/planning/sweep_check.h"

namespace ckptlab::ui {

using CancelFlag = std::shared_ptr<std::atomic<bool>>;

class SweepWorker : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

public Q_SLOTS:
    // The request as core takes it (sweep_check.h): a sweep, the Pareto curve or a scaling
    // sweep, its strategies parsed at the app's boundary (the strategy table).
    void run(quint64 jobId, const ckptlab::SweepRequestData& request,
             ckptlab::ui::CancelFlag cancel);

Q_SIGNALS:
    void progress(quint64 jobId, double fraction, const QString& message);
    // A run right after its traced step, its times still to come (RunnerHooks::traced)...
    void traced(quint64 jobId, const ckptlab::ui::MeasuredRun& run);
    // ...and the run complete, its times measured in the interleaved rounds.
    void measured(quint64 jobId, const ckptlab::ui::MeasuredRun& run);
    // The timed rounds: how many, and what stopped them (ResultSet::timing), before `finished`.
    void timing(quint64 jobId, const ckptlab::TimingRounds& timing);
    // What the sweep left out and why (ResultSet::notes), just before `finished`; only sent
    // when there is something to say.
    void notes(quint64 jobId, const QStringList& notes);
    // A Pareto sweep's predicted frontier, just before `finished`.
    void frontier(quint64 jobId, const ckptlab::ui::Frontier& points);
    // The sweep ended normally or by cancel; `environment` describes where it ran.
    void finished(quint64 jobId, bool cancelled, const ckptlab::Environment& environment);
    // The sweep refused to start (bad config, strategy, memory) or failed part way.
    void failed(quint64 jobId, const QString& title, const QString& message,
                const ckptlab::Environment& environment);
};

}  // namespace ckptlab::ui

Q_DECLARE_METATYPE(ckptlab::ui::CancelFlag)
