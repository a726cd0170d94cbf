// ckptlab-cli lesson: list the lessons, show one with its answers filled from its recording or
// from runs made now, check every lesson against its recordings, or record them again.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

#include "ckptlab/formats/output_paths.h"
#include "ckptlab/formats/results_io.h"
#include "ckptlab/teaching/lesson.h"
#include "ckptlab/teaching/lesson_path.h"
#include "ckptlab/teaching/lesson_time_checks.h"
#include "cli_commands.h"
#include "cli_lesson.h"

namespace ckptlab::cli {
namespace {

namespace fs = std::filesystem;

#ifdef CKPTLAB_WITH_CHARTS
constexpr bool kHasCharts = true;
#else
constexpr bool kHasCharts = false;
#endif

int badInput(const std::string& message) {
    std::cerr << "ckptlab-cli: " << message << "\n";
    return kBadInput;
}

std::string idList(const std::vector<Lesson>& lessons) {
    std::string out;
    for (const Lesson& l : lessons) out += (out.empty() ? "" : ", ") + l.id;
    return out.empty() ? "none: the folder holds no lessons" : out;
}

const Lesson* findLesson(const std::vector<Lesson>& lessons, const std::string& id) {
    for (const Lesson& l : lessons)
        if (l.id == id) return &l;
    return nullptr;
}

// A recording that does not fit the lesson any more, step by step.
void addMismatches(const Lesson& lesson, const LessonResults& results,
                   std::vector<std::string>* problems) {
    for (const LessonStep& step : lesson.steps)
        if (const auto it = results.find(step.id); it != results.end())
            for (auto& m : recordingMismatches(step, it->second))
                problems->push_back("lesson " + lesson.id + ", " + m);
}

// A lesson's title filled from its recording ({term(memory)} reads as its device's word).
std::string titleOf(const Lesson& lesson, const std::string& recordings, const std::string& lang) {
    const LessonResults results = loadRecording(recordings, lesson);
    return fillPlaceholders(lesson.title.in(lang), lesson, "", results, lang);
}

int listLessons(const std::vector<Lesson>& lessons, const std::string& recordings,
                const std::string& lang) {
    for (const Lesson& l : lessons)
        std::cout << l.id << "\t" << titleOf(l, recordings, lang) << "\t" << l.steps.size()
                  << (lang == kLangChinese  ? " 个步骤"
                      : l.steps.size() == 1 ? " step"
                                            : " steps")
                  << "\n";
    return kOk;
}

int listPaths(const std::vector<Lesson>& lessons, const std::string& dir, const std::string& lang) {
    const LessonPathFolder folder = loadLessonPaths(dir, lessons);
    for (const std::string& problem : folder.problems)
        std::cerr << "ckptlab-cli: left out: " << problem << "\n";
    const bool zh = lang == kLangChinese;
    for (const LessonPath& p : folder.paths) {
        const std::size_t n = p.entries.size();
        std::cout << p.id << "\t" << p.title.in(lang) << "\t" << p.totalMinutes() << " "
                  << lessonLabel(LessonLabel::Minutes, lang) << "\t" << n
                  << (zh       ? " 个环节"
                      : n == 1 ? " step"
                               : " steps")
                  << "\n";
    }
    if (folder.paths.empty() && folder.problems.empty())
        std::cerr << "ckptlab-cli: no paths in " << (fs::path(dir) / "paths").string() << "\n";
    return folder.problems.empty() ? kOk : kRunFailed;
}

int printPath(const std::vector<Lesson>& lessons, const std::string& dir,
              const std::string& recordings, const LessonOptions& o) {
    const LessonPathFolder folder = loadLessonPaths(dir, lessons);
    const LessonPath* path = nullptr;
    std::string ids;
    for (const LessonPath& p : folder.paths) {
        if (p.id == o.pathId) path = &p;
        ids += (ids.empty() ? "" : ", ") + p.id;
    }
    if (!path) {
        for (const std::string& problem : folder.problems)
            std::cerr << "ckptlab-cli: left out: " << problem << "\n";
        return badInput("--path: unknown path \"" + o.pathId +
                        "\" (valid: " + (ids.empty() ? "none" : ids) + ")");
    }
    std::map<std::string, LessonResults> results;
    for (const LessonPathEntry& e : path->entries)
        if (const Lesson* l = findLesson(lessons, e.lesson); l && !results.count(l->id))
            results[l->id] = loadRecording(recordings, *l);
    std::cout << lessonPathPlan(*path, lessons, o.lang, results);
    return kOk;
}

// Every file on its own, so one broken lesson does not hide the problems of the others.
int checkLessons(const std::string& dir, const std::string& recordings) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return badInput("--lessons: folder " + dir + " does not exist");
    std::vector<std::string> paths, problems;
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.is_regular_file() && entry.path().extension() == ".json")
            paths.push_back(entry.path().string());
    std::sort(paths.begin(), paths.end());
    if (paths.empty()) problems.push_back("no lessons (*.json) in " + dir);
    std::set<std::string> ids;
    std::size_t steps = 0, placeholders = 0;
    for (const std::string& path : paths) {
        Lesson lesson;
        try {
            lesson = loadLesson(path);
        } catch (const LessonError& e) {
            problems.push_back(e.what());
            continue;
        }
        if (!ids.insert(lesson.id).second)
            problems.push_back(path + ": id: \"" + lesson.id + "\" is used by another lesson");
        const LessonResults results = loadRecording(recordings, lesson, &problems);
        addMismatches(lesson, results, &problems);
        for (auto& u : unresolvedPlaceholders(lesson, results)) problems.push_back(u);
        for (auto& t : timingProblems(lesson, results)) problems.push_back(t);
        steps += lesson.steps.size();
        for (const LessonStep& s : lesson.steps)
            for (const LocalizedText* t : {&s.title, &s.observe, &s.question, &s.answer})
                placeholders += placeholdersIn(t->en).size() + placeholdersIn(t->zh_CN).size();
    }
    // The class paths, against the lessons that loaded.
    std::vector<Lesson> loaded;
    for (const std::string& path : paths) {
        try {
            loaded.push_back(loadLesson(path));
        } catch (const LessonError&) {
            // reported above
        }
    }
    const LessonPathFolder pathFolder = loadLessonPaths(dir, loaded);
    for (const auto& p : pathFolder.problems) problems.push_back(p);
    if (!problems.empty()) {
        for (const auto& p : problems) std::cout << p << "\n";
        std::cerr << "ckptlab-cli: lesson check failed: " << problems.size() << " problem"
                  << (problems.size() == 1 ? "" : "s") << "\n";
        return kRunFailed;
    }
    std::cout << "lessons ok: " << paths.size() << (paths.size() == 1 ? " lesson, " : " lessons, ")
              << steps << " steps, " << placeholders
              << " placeholders resolved in en and zh_CN against " << recordings << ", "
              << pathFolder.paths.size() << (pathFolder.paths.size() == 1 ? " path" : " paths")
              << "\n";
    return kOk;
}

int recordLessons(const std::vector<Lesson>& lessons, const LessonOptions& o) {
    if (std::string error = checkOutputDir(o.recordDir, "--record"); !error.empty())
        return badInput(error);
    std::vector<const Lesson*> chosen;
    for (const std::string& id : o.ids) {
        const Lesson* l = findLesson(lessons, id);
        if (!l) return badInput("unknown lesson \"" + id + "\" (valid: " + idList(lessons) + ")");
        chosen.push_back(l);
    }
    if (o.ids.empty())
        for (const Lesson& l : lessons) chosen.push_back(&l);
    checkLessonRuns(chosen);  // bad configs or too little memory: exit 2 before any run
    std::vector<std::string> problems;
    for (const Lesson* lesson : chosen) {
        bool cancelled = false;
        const LessonResults results = measureLesson(*lesson, o.quiet, o.timeLimitS, &cancelled);
        if (cancelled) {
            std::cerr << "ckptlab-cli: interrupted; lesson " << lesson->id << " not written\n";
            return kInterrupted;
        }
        fs::create_directories(fs::path(o.recordDir) / lesson->id);
        for (const auto& [step, set] : results) {
            const std::string path = recordingPath(o.recordDir, lesson->id, step);
            saveResults(set, path);
            std::cout << "wrote " << path << "\n";
        }
        for (auto& u : unresolvedPlaceholders(*lesson, results)) problems.push_back(u);
    }
    for (const auto& p : problems) std::cout << p << "\n";
    return problems.empty() ? kOk : kRunFailed;
}

int showLesson(const Lesson& lesson, const LessonOptions& o, const std::string& recordings) {
    if (!o.jsonPath.empty())
        if (std::string error = checkOutputFile(o.jsonPath, "--json"); !error.empty())
            return badInput(error);
    if (!o.pdfPath.empty()) {
        if (!kHasCharts) return badInput("--pdf: this build has no charts (built without the GUI)");
        if (std::string error = checkOutputFile(o.pdfPath, "--pdf"); !error.empty())
            return badInput(error);
    }
    LessonResults results;
    std::vector<std::string> problems;
    if (o.live) {
        checkLessonRuns({&lesson});
        bool cancelled = false;
        results = measureLesson(lesson, o.quiet, o.timeLimitS, &cancelled);
        if (cancelled) {
            std::cerr << "ckptlab-cli: interrupted\n";
            return kInterrupted;
        }
    } else {
        results = loadRecording(recordings, lesson, &problems);
        addMismatches(lesson, results, &problems);
    }
    for (const auto& p : problems) std::cerr << "ckptlab-cli: " << p << "\n";
    if (!problems.empty())
        std::cerr << "ckptlab-cli: measure it now with --live, or record it with --record DIR\n";

    std::vector<std::string> unresolved;
    printLesson(lesson, results, o.live, o.lang, &unresolved, !o.noAnswers);
    if (!unresolved.empty()) {
        std::cout << "\n" << lessonLabel(LessonLabel::Unresolved, o.lang) << ":\n";
        for (const auto& u : unresolved) std::cout << "  " << u << "\n";
    }
    bool written = true;
    std::string error;
    if (!o.jsonPath.empty() &&
        !writeLessonJson(lesson, results, o.live, o.lang, o.jsonPath, &error, !o.noAnswers)) {
        std::cerr << "ckptlab-cli: " << error << "\n";
        written = false;
    }
    if (!o.pdfPath.empty() && !writeLessonPdf(lesson, results, o, &error)) {
        std::cerr << "ckptlab-cli: --pdf: " << error << "\n";
        written = false;
    }
    return written && unresolved.empty() && problems.empty() ? kOk : kRunFailed;
}

// The running executable, so an installed ckptlab-cli finds <prefix>/share/ckptlab/lessons.
std::string executablePath() {
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : self.string();
}

}  // namespace

#ifndef CKPTLAB_WITH_CHARTS
bool writeLessonPdf(const Lesson&, const LessonResults&, const LessonOptions&, std::string* error) {
    *error = "this build has no charts (built without the GUI)";
    return false;
}
#endif

int runLesson(const LessonOptions& o) {
    if (!isSupportedLanguage(o.lang))
        return badInput("--lang must be en or zh_CN (got \"" + o.lang + "\")");
    const int modes = int(o.list) + int(o.check) + int(!o.recordDir.empty()) + int(o.paths) +
                      int(!o.pathId.empty()) + int(o.recordDir.empty() && !o.ids.empty());
    if (modes != 1)
        return badInput(
            "lesson: give one of ID, --list, --check or --record DIR [ID...] (or --paths, "
            "--path ID)");
    if (!o.recordDir.empty() || o.list || o.check || o.paths || !o.pathId.empty()) {
        if (o.live) return badInput("--live: only when showing a lesson (lesson ID --live)");
        if (!o.jsonPath.empty() || !o.pdfPath.empty())
            return badInput("--json/--pdf: only when showing a lesson (lesson ID --json FILE)");
        if (o.noAnswers || o.teacher)
            return badInput(
                "--no-answers/--teacher: only when showing a lesson (lesson ID --no-answers)");
    }
    if (o.noAnswers && o.teacher)
        return badInput("--no-answers and --teacher: give one (a student's copy or the key)");
    const std::string dir =
        o.lessonsDir.empty() ? lessonsDirectory(executablePath()) : o.lessonsDir;
    if (dir.empty())
        return badInput(
            "no lessons folder found: give --lessons DIR or set CKPTLAB_LESSONS_DIR "
            "to an existing folder");
    const std::string recordings =
        o.recordingsDir.empty() ? (fs::path(dir) / "recordings").string() : o.recordingsDir;
    if (o.check) return checkLessons(dir, recordings);

    // A broken lesson file is named and left out; the others still list, show and record
    // (--check fails on it).
    std::vector<Lesson> lessons;
    try {
        LessonFolder folder = loadLessonFolder(dir);
        if (folder.lessons.empty() && !folder.problems.empty())
            return badInput(folder.problems.front());
        for (const std::string& problem : folder.problems)
            std::cerr << "ckptlab-cli: left out: " << problem << "\n";
        lessons = std::move(folder.lessons);
    } catch (const LessonError& e) {
        return badInput(e.what());
    }
    if (o.list) return listLessons(lessons, recordings, o.lang);
    if (o.paths) return listPaths(lessons, dir, o.lang);
    if (!o.pathId.empty()) return printPath(lessons, dir, recordings, o);
    if (!o.recordDir.empty()) return recordLessons(lessons, o);
    if (o.ids.size() != 1) return badInput("lesson: give one lesson id to show (see --list)");
    const Lesson* lesson = findLesson(lessons, o.ids.front());
    if (!lesson)
        return badInput("unknown lesson \"" + o.ids.front() + "\" (valid: " + idList(lessons) +
                        ")");
    return showLesson(*lesson, o, recordings);
}

}  // namespace ckptlab::cli
