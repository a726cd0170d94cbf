#pragma once
// The live forecast's thread side: measures one block (ckptlab::measureCostModel) and keeps
// the last few cost models, keyed by everything but the depth.

#include <QObject>
#include <map>
#include <string>

#include "ckptlab/cost_model.h"
#include "ckptlab/runner.h"
#include "controllers/live_prediction.h"
#include "controllers/sweep_worker.h"

namespace ckptlab::ui {

class PredictionWorker : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

public Q_SLOTS:
    void predict(quint64 job, const ckptlab::ExperimentConfig& config,
                 const QStringList& strategies, ckptlab::ui::CancelFlag cancel);

Q_SIGNALS:
    void predicted(quint64 job, const ckptlab::ui::LivePrediction& prediction);

private:
    std::map<std::string, CostModel> m_cache;  // one block's units per shape
};

// The block's shape and measurement settings: what a block's costs depend on (not the depth).
std::string costKey(const ExperimentConfig& config);

}  // namespace ckptlab::ui
