// Measuring a lesson's steps now, with the same Runner the other subcommands use.
#include <iostream>

#include "ckptlab/lesson.h"
#include "ckptlab/runner.h"
#include "cli_common.h"
#include "cli_lesson.h"

namespace ckptlab::cli {

void checkLessonRuns(const std::vector<const Lesson*>& lessons) {
    for (const Lesson* lesson : lessons) {
        for (const LessonStep& step : lesson->steps) {
            try {
                Runner::check(sweepRequestOf(step.experiment));
            } catch (const MemoryError& error) {
                // Name the step: the lesson, not the user's command line, asked for it.
                throw MemoryError(
                    {MessageCode::AtLessonStep, {lesson->id, step.id}, {error.message}},
                    error.predicted, error.available);
            }
        }
    }
}

LessonResults measureLesson(const Lesson& lesson, bool quiet, bool* cancelled) {
    LessonResults results;
    const RunnerHooks hooks = makeHooks(quiet);
    for (const LessonStep& step : lesson.steps) {
        if (!quiet) std::cerr << "lesson " << lesson.id << ", step " << step.id << "\n";
        const LessonExperiment& e = step.experiment;
        Runner runner;
        ResultSet set = e.scaling_axis ? runner.scaling(e.config, *e.scaling_axis, e.scaling_values,
                                                        e.strategies, hooks)
                                       : runner.sweep(e.config, e.strategies, hooks);
        const bool stop = set.cancelled;
        results.emplace(step.id, std::move(set));
        if (stop) {
            *cancelled = true;
            return results;
        }
    }
    return results;
}

std::string machineOf(const LessonResults& results) {
    for (const auto& [step, set] : results) {
        const Environment& env = set.environment;
        std::string text = env.device_name.empty() ? "an unnamed machine" : env.device_name;
        if (!env.device.empty()) text += " (" + env.device + ")";
        if (!env.created_utc.empty()) text += ", " + env.created_utc;
        return text;
    }
    return "no results";
}

}  // namespace ckptlab::cli
