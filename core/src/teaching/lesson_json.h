#pragma once
// Reading a lesson file's JSON values (private to ckptlab_teaching). Every error is a
// LessonError naming the file, the step and the field: "03-recompute.json: step \"cost\":
// experiment.config.depth: expected a whole number in [1, 512], got 0".

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ckptlab/teaching/lesson.h"

namespace ckptlab::teaching {

using Json = nlohmann::json;

struct Where {
    std::string file;
    std::string step;  // "step \"timeline\"", or "steps[2]" before its id is read; empty above
    [[noreturn]] void fail(const std::string& field, const std::string& message) const;
};

// "a string", "an integer", ...: what a value is, for a message.
std::string kindOf(const Json& j);

// Refuses keys outside `allowed` (a typo would otherwise be ignored silently).
void onlyKeys(const Json& object, const std::string& field, const std::vector<const char*>& allowed,
              const Where& where);
const Json& objectIn(const Json& j, const std::string& field, const Where& where);
// A required member of an object; its field name is `parent.key`.
const Json& member(const Json& object, const std::string& parent, const char* key,
                   const Where& where);
std::string field(const std::string& parent, const std::string& key);

std::string stringIn(const Json& j, const std::string& field, const Where& where);
long long integerIn(const Json& j, const std::string& field, long long min, long long max,
                    const Where& where);

// The experiment of a step (lesson_experiment.cpp): config, strategies (parsed once, here) and
// optional scaling, checked by the runner's own pre-run check (checkSweep, sweep_check.h).
LessonExperiment readExperiment(const Json& j, const Where& where);
// The value of experiment.config (the object itself) onto `start`, then validate() across
// fields; errors name experiment.config.FIELD.
ExperimentConfig readConfig(const Json& config, const Where& where,
                            const ExperimentConfig& start = {});
// Each strategy text parsed once; `at` names the list ("experiment.strategies").
std::vector<Strategy> readStrategies(const Json& list, const std::string& at, const Where& where);

// A text in both languages (lesson_file.cpp): non-empty, each placeholder well formed, the same
// placeholders in both. Its field name is `at.key`.
LocalizedText readText(const Json& parent, const std::string& at, const char* key,
                       const Where& where);

// What one placeholder expression (no braces) refers to exists in `lesson` (lesson_file.cpp):
// the step (`owner` unless it names one), the strategy's run, `none` where it compares, the
// axis value. Fails naming `fieldName`.
void checkReference(const Lesson& lesson, const LessonStep* owner, const std::string& expression,
                    const std::string& fieldName, const Where& where);

// The class fields (lesson_class_fields.cpp): a step's `predict` and `code`, the lesson's
// `quiz`, read and checked on their own; checkClassReferences then checks what their
// placeholders and choice values refer to, once every step is read.
LessonPrediction readPrediction(const Json& j, const Where& where);
std::vector<LessonCode> readCode(const Json& j, const Where& where);
std::vector<LessonQuizQuestion> readQuiz(const Json& j, const Where& where);
void checkClassReferences(const Lesson& lesson, const Where& top);

}  // namespace ckptlab::teaching
