#pragma once
// Pieces of `ckptlab-cli lesson` (cli_lesson*.cpp): measuring a lesson, printing it, writing
// it as JSON or as a PDF handout.

#include <string>
#include <vector>

#include "ckptlab/teaching/lesson.h"
#include "cli_options.h"

namespace ckptlab::cli {

// Checks every step of every lesson as the runner would (config, strategies, memory) before
// anything runs; throws like Runner::check.
void checkLessonRuns(const std::vector<const Lesson*>& lessons);

// Runs every step now (Runner::run), progress on stderr unless quiet.
// Stops early with *cancelled set on Ctrl+C; the finished steps are returned.
// Each group of steps with the same experiment once, timed with the adaptive repeats within
// `timeLimitS` a step (timedAsLesson).
LessonResults measureLesson(const Lesson& lesson, bool quiet, double timeLimitS, bool* cancelled);

// "Xeon 8375C (cpu), 2025-01-01T10:00:00Z": the machine of the first step that has results.
std::string machineOf(const LessonResults& results);

// The lesson's texts with its answers filled, in `lang`, to stdout; adds what did not resolve
// (and each question whose right choice the results cannot decide). Each step's prediction comes
// before its chart and observe text, the quiz after the last step. Without `answers` (a
// student's copy, --no-answers): no answers, right choices, measured values or machine.
void printLesson(const Lesson& lesson, const LessonResults& results, bool live,
                 const std::string& lang, std::vector<std::string>* unresolved,
                 bool answers = true);

// The filled lesson and each step's results (the results file's object) as one JSON file;
// without `answers` no answer, right choice, measured value, results or machine.
bool writeLessonJson(const Lesson& lesson, const LessonResults& results, bool live,
                     const std::string& lang, const std::string& path, std::string* error,
                     bool answers = true);

// The PDF handout (ui/teaching/handout.h) in o.lang to o.pdfPath: the students' sheet with
// o.noAnswers, the teacher's key with o.teacher; false with the reason when this build has no
// charts.
bool writeLessonPdf(const Lesson& lesson, const LessonResults& results, const LessonOptions& o,
                    std::string* error);

}  // namespace ckptlab::cli
