#pragma once
// Lessons for teaching a class: data files in resources/lessons/ (docs/LESSONS.md describes
// the format), each a few steps with an experiment, a chart to bring forward and texts in
// English and Simplified Chinese whose answers carry placeholders filled from measured results.
// Plain C++: the CLI, the app and the tests share it; the experiments themselves are run by
// the caller (Runner::run).

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/result.h"
#include "ckptlab/planning/scaling.h"
#include "ckptlab/planning/sweep_check.h"

namespace ckptlab {

// The two languages of the app. Codes as the CLI and the app take them.
inline constexpr const char* kLangEnglish = "en";
inline constexpr const char* kLangChinese = "zh_CN";
bool isSupportedLanguage(const std::string& lang);

// A text in both languages; a lesson file must give both.
struct LocalizedText {
    std::string en;
    std::string zh_CN;
    const std::string& in(const std::string& lang) const;  // English for an unknown code
};

// The app's charts a step may show; a file names each by the chart registry's id, its file
// stem (ui/charts/chart_registry.cpp), and the older "schedule" still reads as Schedule.
enum class LessonChart { Tradeoff, Timeline, Lifetimes, Segments, Breakdown, Scaling, Schedule };
// Every value, for the parser and for the tests that each maps onto a chart of the app.
inline constexpr LessonChart kLessonCharts[] = {
    LessonChart::Tradeoff,  LessonChart::Timeline, LessonChart::Lifetimes, LessonChart::Segments,
    LessonChart::Breakdown, LessonChart::Scaling,  LessonChart::Schedule};
std::string toString(LessonChart chart);  // "tradeoff", ..., "schedules"
std::optional<LessonChart> parseLessonChart(const std::string& text);

// A step answered by the full-size plan (ckptlab-cli plan --capacity) instead of runs: a
// published model (`config` filled from its preset or config.json, then the step's own
// fields) at its real size on a device of `capacity_gib`. Its recording is the plan's JSON
// (lesson_plan.h), measured on one layer at small shapes; `strategies` are the plan's rows.
struct LessonPlanRequest {
    std::string model;        // a preset name (ckptlab-cli models)
    double capacity_gib = 0;  // the device's memory, GiB (> 0)
};

// What one step measures: a sweep of `strategies` on `config`, or, when `scaling_axis` is
// set, a scaling sweep over `scaling_values` of that axis, or, when `plan` is set, the
// full-size plan of a published model.
struct LessonExperiment {
    // config.keep_grads reproduces the tutorial's protocol (question 1); config.memory_limit_mib
    // draws the device's capacity on the charts (question 2).
    ExperimentConfig config;
    std::vector<Strategy> strategies;  // parsed once, when the file is read
    std::optional<ScalingAxis> scaling_axis;
    std::vector<int> scaling_values;
    std::optional<LessonPlanRequest> plan;  // not with scaling_axis
};

// One choice of a multiple-choice question. Which choice is right is decided by the
// measurement, never written in the file: `value` is a placeholder expression without braces
// ("saving_pct(full)", "keep/peak_mib(none)") or a plain number ("0"), and the right choice
// is the one whose value is the largest (or the smallest, ChoicePick).
struct LessonChoice {
    LocalizedText text;
    std::string value;
};
enum class ChoicePick { Largest, Smallest };

// A multiple-choice question of a lesson's quiz, on the results of one of its steps.
struct LessonQuizQuestion {
    std::string step;  // the step whose results decide (and fill its placeholders)
    LocalizedText question;
    std::vector<LessonChoice> choices;  // 2 to 6
    ChoicePick pick = ChoicePick::Largest;
    LocalizedText explanation;  // shown with the right answer; may carry placeholders
};

// What the class predicts before a step's chart and observe text are shown: a number in a
// unit, compared with the measured value after Run or Show, or a multiple choice.
struct LessonPrediction {
    LocalizedText prompt;
    // A number: the placeholder expression (no braces) of the measured value, and its unit.
    std::string measured;
    LocalizedText unit;
    // A multiple choice (then `measured` is empty).
    std::vector<LessonChoice> choices;
    ChoicePick pick = ChoicePick::Largest;
    bool isNumber() const { return !measured.empty(); }
};

// A piece of code shown with a step, side by side with the others of the step (the tutorial's
// segment code with its closure bug beside the fixed code).
struct LessonCode {
    LocalizedText caption;
    std::string language;  // "python"
    std::string text;      // verbatim, the same in both languages
};

// The step's experiment as the pre-run check (checkSweep, Runner::check) takes it: a sweep, or a
// scaling sweep when `scaling_axis` is set.
SweepRequestData sweepRequestOf(const LessonExperiment& experiment);

struct LessonStep {
    std::string id;  // unique within the lesson: [a-z0-9_-]+; names its recording
    LocalizedText title;
    LessonExperiment experiment;
    LessonChart chart = LessonChart::Tradeoff;
    std::optional<Strategy>
        focus;  // the strategy the chart selects (timeline, lifetimes, schedule)
    LocalizedText observe;
    LocalizedText question;
    LocalizedText answer;                     // carries placeholders, see fillPlaceholders
    std::optional<LessonPrediction> predict;  // asked before the chart and `observe`
    std::vector<LessonCode> code;
};

// The tutorial's own words: its heading verbatim (Chinese) and our translation.
struct TutorialQuote {
    std::string heading;
    std::string translation;
};

struct Lesson {
    std::string id;  // [a-z0-9-]+, the file's stem without its order prefix
    int order = 0;   // position in the list of lessons
    LocalizedText title;
    LocalizedText summary;
    std::vector<TutorialQuote> tutorial;
    std::vector<LessonStep> steps;
    std::vector<LessonQuizQuestion> quiz;  // after the last step; may be empty
    const LessonStep* step(const std::string& id) const;
};

// A lesson file that is not valid: names the file, the step and the field.
struct LessonError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

Lesson parseLesson(const std::string& json, const std::string& sourceName);
Lesson loadLesson(const std::string& path);

// The lessons of a folder that read, beside what is wrong with the others: one broken file (or
// a second file with a lesson's id) is left out and named, and the rest stay usable.
struct LessonFolder {
    std::vector<Lesson> lessons;        // every *.json directly in the folder, by order then id
    std::vector<std::string> problems;  // one per file left out, naming the file and field
};
// Throws LessonError only when the folder itself cannot be listed.
LessonFolder loadLessonFolder(const std::string& dir);

// Where the lessons are: $CKPTLAB_LESSONS_DIR, else the installed share/ckptlab/lessons next
// to the executable, else the source tree's resources/lessons. Empty when none exists.
std::string lessonsDirectory(const std::string& executablePath);

// Measured results of a lesson's steps, by step id.
using LessonResults = std::map<std::string, ResultSet>;

// Recordings: one results file per step, `<dir>/<lesson id>/<step id>.json`, in the usual
// results format (so the app can also open one directly). Its environment says the machine.
std::string recordingPath(const std::string& recordingsDir, const std::string& lessonId,
                          const std::string& stepId);
// Loads every step's recording; a missing or unreadable one is left out and named in *problems.
LessonResults loadRecording(const std::string& recordingsDir, const Lesson& lesson,
                            std::vector<std::string>* problems = nullptr);

// What a step's recording lacks for the step as the lesson now describes it (a lesson edited
// after it was recorded): each strategy, at each axis value of a scaling step, without a run of
// the step's model (block, sizes, numerics, seed, keep_grads, memory limit). Empty when it
// matches.
std::vector<std::string> recordingMismatches(const LessonStep& step, const ResultSet& results);

// The placeholders of a text, as written between braces, e.g. "saving_pct(full)".
std::vector<std::string> placeholdersIn(const std::string& text);

// `text` with each placeholder replaced by its value from `results` (step `stepId` unless the
// placeholder names another step), formatted for `lang`. A placeholder that cannot be
// resolved stays as "{…}" in the text and is added to *unresolved as "{…}: why", e.g.
// "{saving_pct(full)}: step \"keep\" has no run of \"full\"".
std::string fillPlaceholders(const std::string& text, const Lesson& lesson,
                             const std::string& stepId, const LessonResults& results,
                             const std::string& lang,
                             std::vector<std::string>* unresolved = nullptr);

// Fills every text of the lesson (title, summary, each step's texts, predictions, code captions,
// quiz) in both languages and returns each placeholder that does not resolve, as
// "lesson ID, step STEP, FIELD (LANG): {…}: why" ("lesson ID, title (LANG): …" above the steps),
// each prediction whose measured value has no number and each question (prediction or quiz)
// whose right choice the results cannot decide (rightChoice).
std::vector<std::string> unresolvedPlaceholders(const Lesson& lesson, const LessonResults& results);

// The number a placeholder expression (no braces: "saving_pct(full)", or a plain number such
// as "0") stands for in `results`, unrounded; nullopt with *why when it has none (a missing
// run, a failed run, a time within noise for a time metric).
std::optional<double> placeholderNumber(const std::string& expression, const Lesson& lesson,
                                        const std::string& stepId, const LessonResults& results,
                                        std::string* why = nullptr);

// The index of the right choice: the largest (smallest) value; nullopt with *why when a value
// is missing or two values tie at the largest (smallest).
std::optional<std::size_t> rightChoice(const std::vector<LessonChoice>& choices, ChoicePick pick,
                                       const Lesson& lesson, const std::string& stepId,
                                       const LessonResults& results, std::string* why = nullptr);

// The words a front end prints around a lesson, in both languages (the CLI's labels; the app
// has its own in its .ts files).
enum class LessonLabel {
    Lesson,
    Step,
    Runs,
    Scaling,
    Chart,
    Focus,
    Observe,
    Question,
    Answer,
    Tutorial,
    Recorded,
    Live,
    Unresolved,
    Passed,
    Failed,
    None,
    Predict,      // the prediction asked before the chart
    Measured,     // the measured value a numeric prediction is compared with
    RightChoice,  // the choice the measurement makes right
    Quiz,
    Code,
    Explanation,
    Minutes,  // "min" after a number of minutes
};
const std::string& lessonLabel(LessonLabel label, const std::string& lang);
// A chart's name as a class reads it: "timeline" in English (the file's value), 时间线 in Chinese.
const std::string& lessonChartLabel(LessonChart chart, const std::string& lang);

}  // namespace ckptlab
