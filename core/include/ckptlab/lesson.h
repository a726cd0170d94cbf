#pragma once
// Lessons for teaching a class: data files in resources/lessons/ (docs/LESSONS.md describes
// the format), each a few steps with an experiment, a chart to bring forward and texts in
// English and Simplified Chinese whose answers carry placeholders filled from measured results.
// Plain C++: the CLI, the app and the tests share it; the experiments themselves are run by
// the caller (Runner::sweep or Runner::scaling).

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ckptlab/config.h"
#include "ckptlab/result.h"
#include "ckptlab/scaling.h"
#include "ckptlab/sweep_policy.h"

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

enum class LessonChart { Tradeoff, Timeline, Lifetimes, Breakdown, Scaling, Schedule };
// Every value, for the parser and for the tests that each maps onto a chart of the app.
inline constexpr LessonChart kLessonCharts[] = {LessonChart::Tradeoff,  LessonChart::Timeline,
                                                LessonChart::Lifetimes, LessonChart::Breakdown,
                                                LessonChart::Scaling,   LessonChart::Schedule};
std::string toString(LessonChart chart);  // "tradeoff", ..., "schedule"
std::optional<LessonChart> parseLessonChart(const std::string& text);

// What one step measures: a sweep of `strategies` on `config`, or, when `scaling_axis` is
// set, a scaling sweep over `scaling_values` of that axis.
struct LessonExperiment {
    // config.keep_grads reproduces the tutorial's protocol (question 1); config.memory_limit_mib
    // draws the device's capacity on the charts (question 2).
    ExperimentConfig config;
    std::vector<Strategy> strategies;  // parsed once, when the file is read
    std::optional<ScalingAxis> scaling_axis;
    std::vector<int> scaling_values;
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
    LocalizedText answer;  // carries placeholders, see fillPlaceholders
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

// Fills every text of the lesson (title, summary, each step's texts) in both languages and
// returns each placeholder that does not resolve, as
// "lesson ID, step STEP, FIELD (LANG): {…}: why" ("lesson ID, title (LANG): …" above the steps).
std::vector<std::string> unresolvedPlaceholders(const Lesson& lesson, const LessonResults& results);

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
    None
};
const std::string& lessonLabel(LessonLabel label, const std::string& lang);

}  // namespace ckptlab
