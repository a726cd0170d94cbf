#include "controllers/fit_worker.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QStringList>
#include <stdexcept>

#include "ckptlab/engine/runner.h"
#include "ckptlab/model/config_fields.h"
#include "ckptlab/planning/plan_of_strategy.h"
#include "document/core_text.h"
#include "document/full_size_refusal.h"

namespace ckptlab::ui {

FitWorker::FitWorker(std::string executablePath, QObject* parent)
    : QObject(parent), m_executable(std::move(executablePath)) {}

QString FitWorker::modelErrorText(const QString& key, const ModelConfigError& error) {
    const QString field = QString::fromStdString(error.field());
    const QString what = QString::fromStdString(error.what());
    return field.isEmpty() ? tr("%1 cannot be used.\n\n%2").arg(QDir::toNativeSeparators(key), what)
                           : tr("%1 cannot be used because of its field %2.\n\n%3")
                                 .arg(QDir::toNativeSeparators(key), field, what);
}

FitRequest FitWorker::reread(const FitRequest& request) const {
    FitRequest fresh = request;
    fresh.config = fitConfig(
        loadModel(QFile::encodeName(request.model).toStdString(), m_executable), request.config);
    fresh.strategies = fullSizeStrategies(fresh.config);
    return fresh;
}

void FitWorker::plan(quint64 job, const FitRequest& asked, CancelFlag cancel) {
    QElapsedTimer clock;
    clock.start();
    const auto stopped = [&cancel] { return cancel && cancel->load(); };
    try {
        // Read here, off the window's thread: the file as it is now, whatever was read before.
        const FitRequest request = asked.readModel ? reread(asked) : asked;
        if (const FullSizeCheck check =
                checkFullSize({request.config, request.capacity, request.strategies});
            !check.ok()) {
            Q_EMIT failed(job, fullSizeRefusal(check));
            Q_EMIT done(job, false);
            return;
        }
        auto outcome = std::make_shared<FitOutcome>();
        outcome->request = request;
        // The fit depends on the model, the precision, the optimizer and the shape asked for
        // (its small shapes follow the target's); not on the capacity or the strategies.
        const std::string key = fieldsKey(request.config, kChangesCost | kChangesWork);
        if (!m_fit || key != m_key) {
            m_fit.reset();
            auto fit = std::make_shared<CostFit>(measureCostFit(
                request.config,
                [&](const std::string& stage, int done, int total) {
                    Q_EMIT progress(job, true, QString::fromStdString(stage), done, total);
                },
                cancel.get()));
            if (stopped()) {
                Q_EMIT done(job, true);
                return;
            }
            m_fit = std::move(fit);
            m_key = key;
            outcome->measured = true;
        }
        outcome->fit = m_fit;
        FullSizeProgress planning;
        planning.cancel = cancel.get();  // Cancel stops planning too (PlanningCancelled)
        planning.step = [&](const std::string& stage, int done, int total) {
            Q_EMIT progress(job, false, QString::fromStdString(stage), done, total);
        };
        outcome->plan = planFullSize(*m_fit, request.capacity, request.strategies, planning);
        outcome->seconds = double(clock.nsecsElapsed()) / 1e9;
        if (stopped()) {
            Q_EMIT done(job, true);
            return;
        }
        Q_EMIT planned(job, outcome);
        Q_EMIT done(job, false);
    } catch (const ModelConfigError& e) {
        Q_EMIT failed(job, modelErrorText(asked.model, e));
        Q_EMIT done(job, false);
    } catch (const std::exception& e) {
        if (stopped()) {
            Q_EMIT done(job, true);
            return;
        }
        // LibTorch's errors with their first line only (c10::Error adds a C++ backtrace).
        Q_EMIT failed(job, coreErrorText(e).section(QLatin1Char('\n'), 0, 0));
        Q_EMIT done(job, false);
    }
}

ExperimentConfig fitConfig(const ModelDescription& model, const ExperimentConfig& choices) {
    ExperimentConfig config;
    applyModel(model, config);
    config.seq = choices.seq;
    config.batch = choices.batch;
    config.dtype = choices.dtype;
    config.optimizer = choices.optimizer;
    return config;
}

Prediction predictFitRow(const CostFit& fit, const FullSizePlan& plan, int row) {
    const int count = int(plan.strategies.size());
    if (row < 0 || row > count || (row == count && !plan.fastest))
        throw std::out_of_range("no such row of the plan");
    const CostModel costs = costsAt(fit, plan.config.batch, plan.config.seq, plan.config.depth);
    const Plan schedule = row < count ? resolvePlan(plan.strategies[size_t(row)].strategy, costs)
                                      : plan.fastest->plan;
    return predict(costs, schedule, ReplayAllocator::Yes, PredictTimeline::Yes);
}

}  // namespace ckptlab::ui
