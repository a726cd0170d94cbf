#pragma once
// The live forecast's thread side: measures the config's cost model as the runner does
// (ckptlab::measureCostModel on the same config) and keeps the last few, keyed by everything
// the measurement depends on: the depth only through the chain it measures
// (costMeasurementDepth), so deeper chains replay the same block costs.

#include <QObject>
#include <map>
#include <string>

#include "ckptlab/engine/runner.h"
#include "ckptlab/planning/cost_model.h"
#include "controllers/live_prediction.h"
#include "controllers/sweep_worker.h"

namespace ckptlab::ui {

class PredictionWorker : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

public Q_SLOTS:
    void predict(quint64 job, const ckptlab::ExperimentConfig& config,
                 const std::vector<ckptlab::Strategy>& strategies, ckptlab::ui::CancelFlag cancel);

Q_SIGNALS:
    void predicted(quint64 job, const ckptlab::ui::LivePrediction& prediction);
    // After every job, `predicted` or not (cancelled, superseded): the worker is free again.
    void done(quint64 job);

private:
    std::map<std::string, CostModel> m_cache;  // one block's units per shape
};

// What the measured costs depend on: the fields that change the cost model (kChangesCost in
// config_fields.h: the block's shape, the measurement settings) and the measured chain
// (costMeasurementDepth), not the depth itself.
std::string costKey(const ExperimentConfig& config);

}  // namespace ckptlab::ui
