// Recorded results of lessons: one ordinary results file per step, so the app opens one too.
#include <filesystem>

#include "ckptlab/lesson.h"
#include "ckptlab/results_io.h"
#include "ckptlab/strategy.h"

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

// The fields that change what a run measures; warm-up, repeats and threads only its timing.
bool sameModel(const ExperimentConfig& a, const ExperimentConfig& b) {
    return a.block == b.block && a.depth == b.depth && a.width == b.width && a.seq == b.seq &&
           a.batch == b.batch && a.dtype == b.dtype && a.optimizer == b.optimizer &&
           a.seed == b.seed && a.keep_grads == b.keep_grads &&
           a.memory_limit_mib == b.memory_limit_mib &&
           (a.block == BlockKind::Ffn || (a.heads == b.heads && a.dropout == b.dropout));
}

}  // namespace

std::vector<std::string> recordingMismatches(const LessonStep& step, const ResultSet& results) {
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
    for (const std::string& text : e.strategies) {
        for (const ExperimentConfig& c : configs) {
            const auto strategy = tryParseStrategy(text, c.depth, c.block);
            const std::string name = strategy ? strategy->name() : text;
            bool found = false;
            for (const RunResult& run : results.runs)
                found = found || (run.strategy == name && sameModel(run.config, c));
            if (found) continue;
            std::string where = "step \"" + step.id + "\": no run of \"" + name + "\"";
            if (e.scaling_axis)
                where += " at " + toString(*e.scaling_axis) + " = " +
                         std::to_string(axisValue(c, *e.scaling_axis));
            missing.push_back(where + " with the lesson's config (re-record it)");
        }
    }
    return missing;
}

}  // namespace ckptlab
