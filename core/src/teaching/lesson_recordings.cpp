// Recorded results of lessons: one ordinary results file per step, so the app opens one too.
#include <filesystem>

#include "ckptlab/formats/results_io.h"
#include "ckptlab/model/config_fields.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/teaching/lesson.h"
#include "teaching/lesson_plan_step.h"

namespace ckptlab {

std::string recordingPath(const std::string& recordingsDir, const std::string& lessonId,
                          const std::string& stepId) {
    return (std::filesystem::path(recordingsDir) / lessonId / (stepId + ".json")).string();
}

LessonResults loadRecording(const std::string& recordingsDir, const Lesson& lesson,
                            std::vector<std::string>* problems) {
    LessonResults results;
    for (const LessonStep& step : lesson.steps) {
        const std::string path = recordingPath(recordingsDir, lesson.id, step.id);
        std::error_code ec;
        if (!std::filesystem::exists(path, ec)) {
            if (problems) problems->push_back(path + ": no recording for step \"" + step.id + "\"");
            continue;
        }
        try {
            results.emplace(step.id, loadResults(path));
        } catch (const std::exception& e) {
            if (problems) problems->push_back(e.what());  // loadResults names the path
        }
    }
    return results;
}

}  // namespace ckptlab

namespace ckptlab {
namespace {

// The fields that change what a run measures: the work's (config_fields.h; those the block
// does not use aside), the seed and the memory limit. Warm-up, repeats and threads change only
// its timing, and so does the allocator for what a lesson reads (the exact tracker's bytes are
// the same under both): the recordings, made before it existed, read as "system" while a
// lesson runs with the default.
bool sameModel(const ExperimentConfig& a, const ExperimentConfig& b) {
    for (const ConfigField& field : configFields()) {
        const std::string key = field.key;
        if (key == "allocator") continue;
        if (!(field.changes & kChangesWork) && key != "seed" && key != "memory-limit") continue;
        if (!fieldApplies(field, a)) continue;
        if (valueOf(field, a) != valueOf(field, b)) return false;  // block first: a's is b's
    }
    return true;
}

}  // namespace

std::vector<std::string> recordingMismatches(const LessonStep& step, const ResultSet& results) {
    if (step.experiment.plan) return teaching::planRecordingMismatches(step, results);
    const LessonExperiment& e = step.experiment;
    std::vector<ExperimentConfig> configs{e.config};
    if (e.scaling_axis) {
        configs.clear();
        for (int v : e.scaling_values) {
            ExperimentConfig c = e.config;
            setAxisValue(c, *e.scaling_axis, v);
            configs.push_back(c);
        }
    }
    std::vector<std::string> missing;
    for (const Strategy& strategy : e.strategies) {
        for (const ExperimentConfig& c : configs) {
            bool found = false;
            for (const RunResult& run : results.runs)
                found = found || (run.strategy == strategy && sameModel(run.config, c));
            if (found) continue;
            std::string where = "step \"" + step.id + "\": no run of \"" + strategy.name() + "\"";
            if (e.scaling_axis)
                where += " at " + toString(*e.scaling_axis) + " = " +
                         std::to_string(axisValue(c, *e.scaling_axis));
            missing.push_back(where + " with the lesson's config (re-record it)");
        }
    }
    return missing;
}

}  // namespace ckptlab
