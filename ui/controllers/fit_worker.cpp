#include "controllers/fit_worker.h"

#include <QElapsedTimer>
#include <stdexcept>

#include "ckptlab/config_fields.h"
#include "ckptlab/runner.h"
#include "ckptlab/sweep_policy.h"
#include "document/core_text.h"

namespace ckptlab::ui {

void FitWorker::plan(quint64 job, const FitRequest& request, CancelFlag cancel) {
    QElapsedTimer clock;
    clock.start();
    const auto stopped = [&cancel] { return cancel && cancel->load(); };
    try {
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
