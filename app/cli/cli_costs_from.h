#pragma once
// plan --costs-from: the full-size plan's times moved to another machine (a GPU) by one ratio,
// that machine's measured `none` step over this machine's prediction of the same step.

#include <string>

#include "ckptlab/full_size.h"
#include "ckptlab/result.h"

namespace ckptlab::cli {

struct MachineTimeScale {
    double ratio = 1;  // measured there / predicted here: multiplies every step time
    double measured_none_ms = 0;
    double predicted_none_ms = 0;
    int batch = 0, seq = 0, depth = 0;  // the file's `none` run, where both were taken
    std::string machine;                // "NVIDIA H200 (cuda:0)"
};

// The file's `none` run, checked before anything is measured: it exists, was timed, and its
// model has the shape of `target` (the fields that set a step's time per token). Throws
// std::invalid_argument naming --costs-from and the first field that differs.
RunResult costsFromRun(const ResultSet& results, const ExperimentConfig& target,
                       const std::string& path);

// The ratio of `none`'s measured step to this machine's prediction for the run's own batch,
// sequence and depth, from `fit` (costsAt, predict).
MachineTimeScale timeScaleFrom(const ResultSet& results, const RunResult& none, const CostFit& fit);

// Every predicted time of `plan` multiplied by the ratio, its tokens per second divided by it.
void applyTimeScale(const MachineTimeScale& scale, FullSizePlan& plan);

}  // namespace ckptlab::cli
