// A class's path through the lessons (docs/LESSONS.md, "Paths"): read as strictly as a lesson
// file, checked against the lessons that loaded, and printed as a plan a teacher can hand out.
#include <algorithm>
#include <filesystem>
#include <set>

#include "ckptlab/formats/results_io.h"
#include "ckptlab/teaching/lesson_path.h"
#include "formats/file_io.h"
#include "formats/json_parse.h"
#include "teaching/lesson_json.h"

namespace ckptlab {

using teaching::field;
using teaching::integerIn;
using teaching::Json;
using teaching::member;
using teaching::objectIn;
using teaching::onlyKeys;
using teaching::stringIn;
using teaching::Where;

namespace {

constexpr int kMaxMinutes = 240;

bool isPathId(const std::string& id) {
    return !id.empty() && std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    });
}

const Lesson* findLesson(const std::vector<Lesson>& lessons, const std::string& id) {
    for (const Lesson& l : lessons)
        if (l.id == id) return &l;
    return nullptr;
}

// A path's texts are read before any results exist: no placeholders.
LocalizedText readPlainText(const Json& doc, const char* key, const Where& where) {
    LocalizedText text = teaching::readText(doc, "", key, where);
    for (const char* lang : {kLangEnglish, kLangChinese})
        if (!placeholdersIn(text.in(lang)).empty())
            where.fail(field(key, lang), "a path's texts carry no placeholders");
    return text;
}

std::string clock(int minutes) {
    const int m = minutes % 60;
    return std::to_string(minutes / 60) + ":" + (m < 10 ? "0" : "") + std::to_string(m);
}

// One line of a Markdown table cell: no row breaks, no column breaks.
std::string cell(std::string text) {
    std::string out;
    for (char c : text) {
        if (c == '\n' || c == '\r')
            out += ' ';
        else if (c == '|')
            out += "\\|";
        else
            out += c;
    }
    return out;
}

}  // namespace

int LessonPath::totalMinutes() const {
    int total = 0;
    for (const LessonPathEntry& e : entries) total += e.minutes;
    return total;
}

LessonPath parseLessonPath(const std::string& json, const std::string& sourceName,
                           const std::vector<Lesson>& lessons) {
    const Where top{sourceName, ""};
    Json doc;
    try {
        detail::checkText(json);
        doc = detail::parseStrict(json);
    } catch (const ResultsFileError& e) {
        throw LessonError(sourceName + ": " + e.what());
    }
    onlyKeys(objectIn(doc, "", top), "", {"id", "title", "summary", "entries"}, top);
    LessonPath path;
    path.id = stringIn(member(doc, "", "id", top), "id", top);
    if (!isPathId(path.id))
        top.fail("id", "\"" + path.id + "\" must be lower-case letters, digits or '-'");
    path.title = readPlainText(doc, "title", top);
    path.summary = readPlainText(doc, "summary", top);
    const Json& entries = member(doc, "", "entries", top);
    if (!entries.is_array() || entries.empty())
        top.fail("entries",
                 "expected a non-empty array of entries, got " +
                     (entries.is_array() ? "an empty array" : teaching::kindOf(entries)));
    std::set<std::pair<std::string, std::string>> seen;
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const std::string at = "entries[" + std::to_string(i) + "]";
        onlyKeys(objectIn(entries[i], at, top), at, {"lesson", "step", "minutes"}, top);
        LessonPathEntry e;
        e.lesson = stringIn(member(entries[i], at, "lesson", top), at + ".lesson", top);
        e.step = stringIn(member(entries[i], at, "step", top), at + ".step", top);
        e.minutes = static_cast<int>(integerIn(member(entries[i], at, "minutes", top),
                                               at + ".minutes", 1, kMaxMinutes, top));
        const Lesson* lesson = findLesson(lessons, e.lesson);
        if (!lesson) {
            std::string ids;
            for (const Lesson& l : lessons) ids += (ids.empty() ? "" : ", ") + l.id;
            top.fail(at + ".lesson", "no lesson \"" + e.lesson +
                                         "\" (lessons: " + (ids.empty() ? "none" : ids) + ")");
        }
        if (!lesson->step(e.step)) {
            std::string ids;
            for (const LessonStep& s : lesson->steps) ids += (ids.empty() ? "" : ", ") + s.id;
            top.fail(at + ".step", "lesson \"" + e.lesson + "\" has no step \"" + e.step +
                                       "\" (steps: " + ids + ")");
        }
        if (!seen.insert({e.lesson, e.step}).second)
            top.fail(at + ".step",
                     "\"" + e.lesson + "/" + e.step + "\" comes twice in the path (once per step)");
        path.entries.push_back(std::move(e));
    }
    return path;
}

LessonPathFolder loadLessonPaths(const std::string& lessonsDir,
                                 const std::vector<Lesson>& lessons) {
    namespace fs = std::filesystem;
    LessonPathFolder folder;
    const fs::path dir = fs::path(lessonsDir) / "paths";
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return folder;
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.is_regular_file() && entry.path().extension() == ".json")
            files.push_back(entry.path().string());
    if (ec) {
        folder.problems.push_back("cannot list " + dir.string() + ": " + ec.message());
        return folder;
    }
    std::sort(files.begin(), files.end());
    for (const std::string& file : files) {
        // Each file on its own: a broken one must not hide the others.
        try {
            LessonPath path = parseLessonPath(detail::readFile(file), file, lessons);
            const std::string stem = fs::path(file).stem().string();
            if (stem != path.id)
                throw LessonError(file + ": id: \"" + path.id +
                                  "\" does not match the file name (expected " + path.id +
                                  ".json)");
            folder.paths.push_back(std::move(path));
        } catch (const LessonError& e) {
            folder.problems.push_back(e.what());
        } catch (const std::exception& e) {
            folder.problems.push_back(file + ": " + e.what());
        }
    }
    std::sort(folder.paths.begin(), folder.paths.end(),
              [](const LessonPath& a, const LessonPath& b) { return a.id < b.id; });
    return folder;
}

std::string lessonPathPlan(const LessonPath& path, const std::vector<Lesson>& lessons,
                           const std::string& lang,
                           const std::map<std::string, LessonResults>& recordings) {
    const bool zh = lang == kLangChinese;
    static const LessonResults kNoResults;
    auto fill = [&](const Lesson& lesson, const std::string& step, const LocalizedText& text) {
        const auto it = recordings.find(lesson.id);
        return fillPlaceholders(text.in(lang), lesson, step,
                                it == recordings.end() ? kNoResults : it->second, lang);
    };
    const int total = path.totalMinutes();
    const std::size_t n = path.entries.size();
    std::string out = "# " + path.title.in(lang) + "\n\n" + path.summary.in(lang) + "\n\n";
    out += zh ? "共 " + std::to_string(total) + " 分钟，" + std::to_string(n) + " 个环节。\n\n"
              : std::to_string(total) + " minutes, " + std::to_string(n) +
                    (n == 1 ? " step.\n\n" : " steps.\n\n");
    out += zh ? "| # | 开始 | 分钟 | 课程 | 步骤 | 课堂问题 |\n"
              : "| # | Start | Minutes | Lesson | Step | The class answers |\n";
    out += "|---|---|---|---|---|---|\n";
    int start = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const LessonPathEntry& e = path.entries[i];
        std::string lessonTitle = e.lesson, stepTitle = e.step, question;
        if (const Lesson* lesson = findLesson(lessons, e.lesson)) {
            lessonTitle = fill(*lesson, "", lesson->title);
            if (const LessonStep* step = lesson->step(e.step)) {
                stepTitle = fill(*lesson, step->id, step->title);
                question = fill(*lesson, step->id, step->question);
            }
        }
        out += "| " + std::to_string(i + 1) + " | " + clock(start) + " | " +
               std::to_string(e.minutes) + " | " + cell(lessonTitle) + " | " + cell(stepTitle) +
               " | " + cell(question) + " |\n";
        start += e.minutes;
    }
    out += "| | " + clock(start) + " | " + std::to_string(total) + " | " + (zh ? "结束" : "End") +
           " | | |\n";
    return out;
}

}  // namespace ckptlab
