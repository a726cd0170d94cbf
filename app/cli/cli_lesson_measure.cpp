// Measuring a lesson's steps now, with the same Runner the other subcommands use.
#include <algorithm>
#include <atomic>
#include <iostream>
#include <optional>

#include "ckptlab/engine/runner.h"
#include "ckptlab/planning/full_size.h"
#include "ckptlab/teaching/lesson.h"
#include "ckptlab/teaching/lesson_plan.h"
#include "ckptlab/teaching/lesson_time_checks.h"
#include "cli_common.h"
#include "cli_lesson.h"

namespace ckptlab::cli {

namespace {

// What a step runs: its experiment, or for a plan step one layer at the first shape the fit
// measures (never the whole model, which is what the plan is for).
LessonExperiment checkedExperiment(const LessonExperiment& e) {
    if (!e.plan) return e;
    LessonExperiment layer;
    layer.config = e.config;
    layer.config.depth = 1;
    const MeasuredShape shape = fitShapes(e.config).front();
    layer.config.batch = shape.batch;
    layer.config.seq = shape.seq;
    layer.config.vocab = shape.vocab;
    if (shape.attention_chunk > 0) layer.config.attention_chunk = shape.attention_chunk;
    layer.strategies = {Strategy{}};
    return layer;
}

// A plan step: one layer and the chain's ends measured at small shapes, then the plan at the
// step's capacity (as `plan --capacity`). Progress on stderr unless quiet.
ResultSet measurePlanStep(const LessonStep& step, bool quiet, const std::atomic<bool>* cancel) {
    const ExperimentConfig& config = step.experiment.config;
    auto progress = [&](const std::string& stage, int done, int total) {
        if (!quiet && done < total)
            std::cerr << "  " << stage << " (" << done + 1 << " of " << total << ")\n";
    };
    const CostFit fit = measureCostFit(config, progress, cancel);
    FullSizeProgress planning;
    planning.step = progress;
    planning.cancel = cancel;  // Ctrl+C stops the planning too, not only the measuring
    return planStepResults(step, fit, describeEnvironment(config), planning);
}

// A step's memory refusal, naming the step: the lesson, not the user's command line, asked
// for it.
MemoryError atStep(const Lesson& lesson, const LessonStep& step, const MemoryError& error) {
    return MemoryError({MessageCode::AtLessonStep, {lesson.id, step.id}, {error.message}},
                       error.predicted, error.available);
}

}  // namespace

void checkLessonRuns(const std::vector<const Lesson*>& lessons) {
    for (const Lesson* lesson : lessons) {
        for (const LessonStep& step : lesson->steps) {
            try {
                Runner::check(sweepRequestOf(checkedExperiment(step.experiment)));
            } catch (const MemoryError& error) {
                // A plan step measures one layer alone (measureCostFit, as `plan --capacity`),
                // without the sweep's reference run and gradient check that this check counts:
                // its configuration was checked, its memory is not the sweep's: that is
                // measureCostFit's own check, below.
                if (!step.experiment.plan) throw atStep(*lesson, step, error);
            }
            // A plan step too large to measure here is refused before any step runs, not when
            // its turn comes after the others were measured.
            if (!step.experiment.plan) continue;
            try {
                checkFitMeasurable(step.experiment.config);
            } catch (const MemoryError& error) {
                throw atStep(*lesson, step, error);
            }
        }
    }
}

LessonResults measureLesson(const Lesson& lesson, bool quiet, double timeLimitS, bool* cancelled) {
    LessonResults results;
    const RunnerHooks hooks = makeHooks(quiet);
    // Steps with the same experiment are measured once, with every strategy any of them runs,
    // so that a lesson never shows two measurements of one thing.
    for (const auto& group : stepsSharingAMeasurement(lesson)) {
        const LessonStep& step = *lesson.step(group.front());
        if (!quiet) std::cerr << "lesson " << lesson.id << ", step " << step.id << "\n";
        if (step.experiment.plan) {
            try {
                results.emplace(step.id, measurePlanStep(step, quiet, hooks.cancel));
            } catch (const std::exception&) {
                if (!hooks.cancel || !hooks.cancel->load()) throw;
                *cancelled = true;  // interrupted: the engine threw
                return results;
            }
            continue;
        }
        LessonExperiment e = step.experiment;
        for (std::size_t i = 1; i < group.size(); ++i)
            for (const Strategy& s : lesson.step(group[i])->experiment.strategies)
                if (std::find(e.strategies.begin(), e.strategies.end(), s) == e.strategies.end())
                    e.strategies.push_back(s);
        e.config = timedAsLesson(e.config, timeLimitS);
        Runner runner;
        ResultSet set = runner.run(sweepRequestOf(e), hooks);
        const bool stop = set.cancelled;
        for (const std::string& id : group) results.emplace(id, set);
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
