#pragma once
// "Will it fit?" on its worker thread: measures the model's cost fit (measureCostFit, a minute
// or more of LibTorch) and plans every strategy at the real size against the capacity
// (planFullSize). The last fit is kept, so a new capacity or strategy list only plans again;
// it is kept by what decides it (the config's fields), never by a file's name.

#include <QMetaType>
#include <QObject>
#include <QString>
#include <cstdint>
#include <memory>
#include <vector>

#include "ckptlab/formats/model_config.h"
#include "ckptlab/planning/full_size.h"
#include "controllers/sweep_worker.h"

namespace ckptlab::ui {

struct FitRequest {
    QString model;            // the preset's name or the config file's path (loadModel)
    ExperimentConfig config;  // the model applied, with the asked sequence, batch, precision...
    // True: the worker reads `model` again before planning and applies `config`'s sequence,
    // batch, precision and optimizer over it, so what is planned is the file as it is at Plan,
    // not as it was when it was opened. False: `config` is planned as it is.
    bool readModel = false;
    std::int64_t capacity = 0;
    std::vector<Strategy> strategies;
};

struct FitOutcome {
    FitRequest request;
    std::shared_ptr<const CostFit> fit;
    FullSizePlan plan;
    bool measured = false;  // false: the fit of the previous request was reused
    double seconds = 0;     // measuring and planning
};
using FitOutcomePtr = std::shared_ptr<const FitOutcome>;

class FitWorker : public QObject {
    Q_OBJECT
public:
    // `executablePath` finds the presets (loadModel).
    explicit FitWorker(std::string executablePath = {}, QObject* parent = nullptr);

    // Why `key` (a preset or a file) cannot be used, naming the field when there is one.
    static QString modelErrorText(const QString& key, const ModelConfigError& error);

public Q_SLOTS:
    void plan(quint64 job, const ckptlab::ui::FitRequest& request, ckptlab::ui::CancelFlag cancel);

Q_SIGNALS:
    // `measuring`: a shape of the fit is measured (else a strategy is planned); `stage` is
    // core's description of it.
    void progress(quint64 job, bool measuring, const QString& stage, int done, int total);
    void planned(quint64 job, const ckptlab::ui::FitOutcomePtr& outcome);
    void failed(quint64 job, const QString& message);
    // After every job, whatever its end (cancelled ones included).
    void done(quint64 job, bool cancelled);

private:
    // `request` with its model read again (readModel): the config and its strategies.
    FitRequest reread(const FitRequest& request) const;

    std::string m_executable;
    std::string m_key;  // what the kept fit was measured for
    std::shared_ptr<const CostFit> m_fit;
};

// The config "Will it fit?" plans: `model` applied (applyModel) with the sequence, batch,
// precision and optimizer of `choices` over it.
ExperimentConfig fitConfig(const ModelDescription& model, const ExperimentConfig& choices);

// The predicted step of row `row` of fullSizeRows(plan) (full_size_record.h) at the plan's batch
// and sequence, with its timeline and phases; plain arithmetic on the fit.
Prediction predictFitRow(const CostFit& fit, const FullSizePlan& plan, int row);

}  // namespace ckptlab::ui

Q_DECLARE_METATYPE(ckptlab::ui::FitRequest)
Q_DECLARE_METATYPE(ckptlab::ui::FitOutcomePtr)
