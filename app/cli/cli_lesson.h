#pragma once
// Pieces of `ckptlab-cli lesson` (cli_lesson*.cpp): measuring a lesson, printing it, writing
// it as JSON or as a PDF handout.

#include <string>
#include <vector>

#include "ckptlab/lesson.h"

namespace ckptlab::cli {

// Checks every step of every lesson as the runner would (config, strategies, memory) before
// anything runs; throws like Runner::check.
void checkLessonRuns(const std::vector<const Lesson*>& lessons);

// Runs every step now (Runner::sweep or Runner::scaling), progress on stderr unless quiet.
// Stops early with *cancelled set on Ctrl+C; the finished steps are returned.
LessonResults measureLesson(const Lesson& lesson, bool quiet, bool* cancelled);

// "Xeon 8375C (cpu), 2025-01-01T10:00:00Z": the machine of the first step that has results.
std::string machineOf(const LessonResults& results);

// The lesson's texts with its answers filled, in `lang`, to stdout; adds what did not resolve.
void printLesson(const Lesson& lesson, const LessonResults& results, bool live,
                 const std::string& lang, std::vector<std::string>* unresolved);

// The filled lesson and each step's results (the results file's object) as one JSON file.
bool writeLessonJson(const Lesson& lesson, const LessonResults& results, bool live,
                     const std::string& lang, const std::string& path, std::string* error);

// The PDF handout (ui/teaching/handout.h); false with the reason when this build has no charts.
bool writeLessonPdf(const Lesson& lesson, const LessonResults& results, const std::string& lang,
                    const std::string& path, std::string* error);

}  // namespace ckptlab::cli
