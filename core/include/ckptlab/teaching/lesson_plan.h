#pragma once
// A lesson's plan step (LessonExperiment::plan, docs/LESSONS.md "Plan steps"): a published
// model at its real size on a device of the step's capacity, answered by the full-size plan
// (full_size.h) instead of runs. Its recording is an ordinary results file without runs whose
// "plan" holds the plan (ResultSet::plan, full_size_record.h). Plain C++: the caller measures
// the fit (measureCostFit in runner.h, on the step's config); this plans and records it.

#include <cstdint>

#include "ckptlab/model/result.h"
#include "ckptlab/planning/full_size.h"
#include "ckptlab/teaching/lesson.h"

namespace ckptlab {

// The step's capacity in bytes (capacity_gib GiB, rounded to a byte).
std::int64_t planCapacityBytes(const LessonPlanRequest& request);

// The step's plan from `fit` (measured on step.experiment.config): planFullSize at the step's
// capacity over its strategies, as a results set with `plan` set, no runs, the plan's notes
// and `environment` (describeEnvironment of the config: the machine the times are from).
ResultSet planStepResults(const LessonStep& step, const CostFit& fit,
                          const Environment& environment, const FullSizeProgress& progress = {});

}  // namespace ckptlab
