#pragma once
// Which run on screen a sweep's complete result belongs to: the run shown after its traced step
// (RunnerHooks::traced) whose times were still being measured, matched by strategy and config.

#include <vector>

#include "ckptlab/model/result.h"

namespace ckptlab::ui {

// Whether two configs describe the same experiment: equal in every field that changes a run's
// identity (kChangesIdentity in config_fields.h, which every field has).
bool sameExperiment(const ExperimentConfig& a, const ExperimentConfig& b);

// The first run of `runs` still waiting for its times (`waiting`, parallel to runs) with the
// strategy and config of `complete`; -1 when there is none.
int waitingRunFor(const std::vector<RunResult>& runs, const std::vector<bool>& waiting,
                  const RunResult& complete);

}  // namespace ckptlab::ui
