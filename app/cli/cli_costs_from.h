#pragma once
// plan --costs-from: the full-size plan's times moved to another machine (a GPU) by one ratio,
// that machine's measured `none` step over this machine's prediction of the same step.

#include <string>

#include "ckptlab/model/result.h"
#include "ckptlab/planning/full_size.h"

namespace ckptlab::cli {

struct MachineTimeScale {
    double ratio = 1;  // measured there / predicted here: multiplies every step time
    double measured_none_ms = 0;
    double predicted_none_ms = 0;
    int batch = 0, seq = 0, depth = 0;  // the file's `none` run, where both were taken
    std::string machine;                // "NVIDIA H200 (cuda:0)"
};

// A measured none step that can scale times: from a microsecond (no step of a model is
// shorter; 1e-300 ms would print tokens per second with 300 digits) to about 11.6 days (the
// longest a run can be timed, a billion ms).
inline constexpr double kCostsFromMinStepMs = 1e-3;
inline constexpr double kCostsFromMaxStepMs = 1e9;

// The file's `none` run, checked before anything is measured: the file holds runs (not a
// plan), its none run exists and was timed in the range above, and it did the same work as
// `target` in every field of the work (config_fields.h, kChangesWork) but batch, seq and depth.
// Throws std::invalid_argument naming --costs-from, the first field that differs and both
// values.
RunResult costsFromRun(const ResultSet& results, const ExperimentConfig& target,
                       const std::string& path);

// The ratio of `none`'s measured step to this machine's prediction for the run's own batch,
// sequence and depth, from `fit` (costsAt, predict).
MachineTimeScale timeScaleFrom(const ResultSet& results, const RunResult& none, const CostFit& fit);

// Every predicted time of `plan` multiplied by the ratio, its tokens per second divided by it.
void applyTimeScale(const MachineTimeScale& scale, FullSizePlan& plan);

}  // namespace ckptlab::cli
