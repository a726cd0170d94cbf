#pragma once
// A class's path through the lessons: `<lessons>/paths/<id>.json` lists lessons' steps in the
// order a class takes them, with the minutes each takes (docs/LESSONS.md, "Paths").
// `ckptlab-cli lesson --paths`, the app's path chooser and the printable plan read it.

#include <map>
#include <string>
#include <vector>

#include "ckptlab/teaching/lesson.h"

namespace ckptlab {

struct LessonPathEntry {
    std::string lesson;  // a lesson's id
    std::string step;    // one of its steps' ids
    int minutes = 0;     // 1 to 240
};

struct LessonPath {
    std::string id;  // the file's stem: [a-z0-9-]+
    LocalizedText title;
    LocalizedText summary;
    std::vector<LessonPathEntry> entries;  // at least one
    int totalMinutes() const;
};

// Reads one path file and checks it against `lessons`: every lesson and step exists, a step
// comes once, minutes in range. Throws LessonError naming the file, the entry and the field.
LessonPath parseLessonPath(const std::string& json, const std::string& sourceName,
                           const std::vector<Lesson>& lessons);

// The paths of `<lessonsDir>/paths/`, by id, beside what is wrong with the others (each broken
// file left out and named). No folder: no paths, no problem.
struct LessonPathFolder {
    std::vector<LessonPath> paths;
    std::vector<std::string> problems;
};
LessonPathFolder loadLessonPaths(const std::string& lessonsDir, const std::vector<Lesson>& lessons);

// The printable plan of a class in `lang` (Markdown): each entry with its lesson, step title,
// minutes, the time it starts at, and the question the class answers there. `recordings` (by
// lesson id) fill the placeholders of those texts ({term(memory)}); one left out stays as written.
std::string lessonPathPlan(const LessonPath& path, const std::vector<Lesson>& lessons,
                           const std::string& lang,
                           const std::map<std::string, LessonResults>& recordings = {});

}  // namespace ckptlab
