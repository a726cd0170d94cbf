#pragma once
// A lesson step answered by the full-size plan (private to ckptlab_teaching): reading its
// experiment, checking its placeholders against it, their values from the plan in its
// recording, and what a recording lacks for it. The public side is ckptlab/teaching/lesson_plan.h.

#include <optional>
#include <string>
#include <vector>

#include "ckptlab/teaching/lesson.h"
#include "teaching/lesson_json.h"
#include "teaching/lesson_metrics.h"
#include "teaching/placeholder_syntax.h"

namespace ckptlab::teaching {

// A plan step's experiment ("plan" is set): the preset's shape, then the step's own config
// fields on top of it (as `--model NAME` then options), validated there; `strategies` default
// to fullSizeStrategies. Refuses "scaling". Errors name the field.
LessonExperiment readPlanExperiment(const Json& experiment, const Where& where);

// A placeholder checked against its step when the lesson loads: nullopt when the placeholder
// is no plan metric and the step no plan step (the other rules apply), an empty text when it is
// fine, else why not (a plan metric outside a plan step, a run metric in one, a row the plan
// does not have). config(...) is left to the other rules.
std::optional<std::string> planReferenceProblem(const Placeholder& p, const LessonStep& step);

// The value of a placeholder from a plan step's recording; nullopt when the placeholder is no
// plan metric and the step no plan step. term(memory) in a plan step is the GPU's (显存): the
// plan is for a device's capacity whatever machine measured it.
std::optional<MetricText> planPlaceholder(const Placeholder& p, const LessonStep& step,
                                          const ResultSet& results, const std::string& lang);

// What a plan step's recording lacks: its plan, the model, the capacity, the config's shape
// and numerics, a row per strategy.
std::vector<std::string> planRecordingMismatches(const LessonStep& step, const ResultSet& results);

}  // namespace ckptlab::teaching
