// Reading a lesson file (docs/LESSONS.md): strict JSON (the results reader's parser: duplicate
// keys and invalid UTF-8 refused), then every field checked, so a teacher's typo is reported
// with the file, step and field instead of showing up in front of a class.
#include <algorithm>
#include <filesystem>
#include <set>

#include "ckptlab/formats/results_io.h"
#include "ckptlab/model/strategy.h"
#include "formats/file_io.h"
#include "formats/json_parse.h"
#include "teaching/lesson_json.h"
#include "teaching/lesson_plan_step.h"
#include "teaching/placeholder_syntax.h"

namespace ckptlab {

using teaching::field;
using teaching::integerIn;
using teaching::Json;
using teaching::member;
using teaching::objectIn;
using teaching::onlyKeys;
using teaching::readText;
using teaching::stringIn;
using teaching::Where;

namespace {

bool isId(const std::string& id, bool allowUnderscore) {
    return !id.empty() && std::all_of(id.begin(), id.end(), [&](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
               (allowUnderscore && c == '_');
    });
}

bool isBlank(const std::string& text) {
    return text.find_first_not_of(" \t\r\n") == std::string::npos;
}

std::string listOf(const std::set<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "{" : ", {") + n + "}";
    return out;
}

// "tradeoff, timeline, …": every chart a step may name, for the error that lists them.
std::string lessonChartNames() {
    std::string out;
    for (LessonChart chart : kLessonCharts) out += (out.empty() ? "" : ", ") + toString(chart);
    return out;
}

}  // namespace

namespace teaching {

LocalizedText readText(const Json& parent, const std::string& at, const char* key,
                       const Where& where) {
    const std::string name = field(at, key);
    const Json& j = objectIn(member(parent, at, key, where), name, where);
    onlyKeys(j, name, {kLangEnglish, kLangChinese}, where);
    LocalizedText text;
    std::set<std::string> placeholders[2];
    int i = 0;
    for (const char* lang : {kLangEnglish, kLangChinese}) {
        const std::string langField = field(name, lang);
        std::string value = stringIn(member(j, name, lang, where), langField, where);
        if (isBlank(value))
            where.fail(langField,
                       "must not be empty (give the text in both en "
                       "and zh_CN)");
        for (const std::string& p : placeholdersIn(value)) {
            std::string error;
            if (!teaching::parsePlaceholder(p, &error))
                where.fail(langField, "placeholder {" + p + "}: " + error);
            placeholders[i].insert(p);
        }
        (lang == std::string(kLangEnglish) ? text.en : text.zh_CN) = std::move(value);
        ++i;
    }
    if (placeholders[0] != placeholders[1]) {
        std::set<std::string> onlyEn, onlyZh;
        for (const auto& p : placeholders[0])
            if (!placeholders[1].count(p)) onlyEn.insert(p);
        for (const auto& p : placeholders[1])
            if (!placeholders[0].count(p)) onlyZh.insert(p);
        where.fail(name, "en and zh_CN must carry the same placeholders (only in en: " +
                             (onlyEn.empty() ? "-" : listOf(onlyEn)) +
                             "; only in zh_CN: " + (onlyZh.empty() ? "-" : listOf(onlyZh)) + ")");
    }
    return text;
}

// Values are checked when results fill it.
void checkReference(const Lesson& lesson, const LessonStep* owner, const std::string& written,
                    const std::string& fieldName, const Where& where) {
    auto bad = [&](const std::string& why) {
        where.fail(fieldName, "placeholder {" + written + "}: " + why);
    };
    std::string error;
    const auto p = parsePlaceholder(written, &error);
    if (!p) bad(error);
    const LessonStep* step = p->step.empty() ? owner : lesson.step(p->step);
    // A term at the lesson level takes the device of the lesson's recordings.
    if (!step && p->step.empty() && scopeOf(p->metric) == MetricScope::Term) return;
    if (!step)
        bad(p->step.empty() ? "a lesson-level text must name its step (step/metric(...))"
                            : "the lesson has no step \"" + p->step + "\"");
    // A plan step's values, and plan metrics elsewhere (lesson_plan_step.cpp).
    if (const auto why = teaching::planReferenceProblem(*p, *step); why && !why->empty()) bad(*why);
    if (step->experiment.plan || scopeOf(p->metric) == MetricScope::Plan) return;
    // A config field and a term need the step only (a term its recording's device).
    if (p->metric == "config" || scopeOf(p->metric) == MetricScope::Term) return;
    const LessonExperiment& e = step->experiment;
    const auto scope = scopeOf(p->metric);
    if (scope == MetricScope::Scaling && !e.scaling_axis)
        bad(p->metric + " needs a scaling step; \"" + step->id + "\" is not one");
    if (scope == MetricScope::Run && e.scaling_axis && !p->at)
        bad("step \"" + step->id + "\" is a scaling step: add @value (one of its " +
            toString(*e.scaling_axis) + " values)");
    if (p->at && !e.scaling_axis) bad("@value is only for scaling steps");
    if (p->at && std::find(e.scaling_values.begin(), e.scaling_values.end(), *p->at) ==
                     e.scaling_values.end())
        bad(std::to_string(*p->at) + " is not one of the step's " + toString(*e.scaling_axis) +
            " values");
    auto runs = [&](const std::optional<Strategy>& wanted) {
        return wanted &&
               std::find(e.strategies.begin(), e.strategies.end(), *wanted) != e.strategies.end();
    };
    // The placeholder's text is parsed here, once: its spelling is free.
    if (!runs(parseStrategyForm(p->argument)))
        bad("step \"" + step->id + "\" does not run \"" + p->argument + "\"");
    if (comparesWithNone(p->metric) && !runs(Strategy{}))
        bad(p->metric + " compares with \"none\", which step \"" + step->id + "\" does not run");
}

}  // namespace teaching

namespace {

std::vector<TutorialQuote> readTutorial(const Json& j, const Where& where) {
    if (!j.is_array()) where.fail("tutorial", "expected an array, got " + teaching::kindOf(j));
    std::vector<TutorialQuote> quotes;
    for (std::size_t i = 0; i < j.size(); ++i) {
        const std::string at = "tutorial[" + std::to_string(i) + "]";
        onlyKeys(objectIn(j[i], at, where), at, {"heading", "translation"}, where);
        TutorialQuote q;
        q.heading = stringIn(member(j[i], at, "heading", where), at + ".heading", where);
        q.translation =
            stringIn(member(j[i], at, "translation", where), at + ".translation", where);
        if (isBlank(q.heading)) where.fail(at + ".heading", "must not be empty");
        if (isBlank(q.translation)) where.fail(at + ".translation", "must not be empty");
        quotes.push_back(std::move(q));
    }
    return quotes;
}

LessonStep readStep(const Json& j, Where where) {
    onlyKeys(objectIn(j, "", where), "",
             {"id", "title", "experiment", "chart", "focus", "observe", "question", "answer",
              "predict", "code"},
             where);
    LessonStep step;
    step.id = stringIn(member(j, "", "id", where), "id", where);
    if (!isId(step.id, true))
        where.fail("id", "\"" + step.id + "\" must be lower-case letters, digits, '_' or '-'");
    where.step = "step \"" + step.id + "\"";
    step.title = readText(j, "", "title", where);
    step.experiment = teaching::readExperiment(member(j, "", "experiment", where), where);
    const std::string chart = stringIn(member(j, "", "chart", where), "chart", where);
    const auto parsedChart = parseLessonChart(chart);
    if (!parsedChart)
        where.fail("chart",
                   "unknown value \"" + chart + "\" (allowed: " + lessonChartNames() + ")");
    step.chart = *parsedChart;
    if (const auto it = j.find("focus"); it != j.end()) {
        // Parsed once, here; an empty text is no focus.
        const std::string focus = stringIn(*it, "focus", where);
        if (!focus.empty()) step.focus = parseStrategyForm(focus);
        const auto& listed = step.experiment.strategies;
        if (!focus.empty() &&
            (!step.focus || std::find(listed.begin(), listed.end(), *step.focus) == listed.end()))
            where.fail("focus", "\"" + focus + "\" is not one of the step's strategies");
    }
    step.observe = readText(j, "", "observe", where);
    step.question = readText(j, "", "question", where);
    step.answer = readText(j, "", "answer", where);
    if (const auto it = j.find("predict"); it != j.end())
        step.predict = teaching::readPrediction(*it, where);
    if (const auto it = j.find("code"); it != j.end()) step.code = teaching::readCode(*it, where);
    return step;
}

// Each placeholder of a text refers to what exists (teaching::checkReference).
void checkReferencesIn(const Lesson& lesson, const LessonStep* owner, const std::string& text,
                       const std::string& fieldName, const Where& where) {
    for (const std::string& written : placeholdersIn(text))
        teaching::checkReference(lesson, owner, written, fieldName, where);
}

void checkReferences(const Lesson& lesson, const Where& top) {
    auto check = [&](const LessonStep* owner, const std::string& name, const LocalizedText& t,
                     const Where& where) {
        checkReferencesIn(lesson, owner, t.en, field(name, kLangEnglish), where);
        checkReferencesIn(lesson, owner, t.zh_CN, field(name, kLangChinese), where);
    };
    check(nullptr, "title", lesson.title, top);
    check(nullptr, "summary", lesson.summary, top);
    for (const LessonStep& s : lesson.steps) {
        const Where where{top.file, "step \"" + s.id + "\""};
        check(&s, "title", s.title, where);
        check(&s, "observe", s.observe, where);
        check(&s, "question", s.question, where);
        check(&s, "answer", s.answer, where);
    }
}

}  // namespace

Lesson parseLesson(const std::string& json, const std::string& sourceName) {
    const Where top{sourceName, ""};
    Json doc;
    try {
        detail::checkText(json);
        doc = detail::parseStrict(json);
    } catch (const ResultsFileError& e) {
        throw LessonError(sourceName + ": " + e.what());
    }
    onlyKeys(objectIn(doc, "", top), "",
             {"id", "order", "title", "summary", "tutorial", "steps", "quiz"}, top);
    Lesson lesson;
    lesson.id = stringIn(member(doc, "", "id", top), "id", top);
    if (!isId(lesson.id, false))
        top.fail("id", "\"" + lesson.id + "\" must be lower-case letters, digits or '-'");
    lesson.order =
        static_cast<int>(integerIn(member(doc, "", "order", top), "order", 0, 9999, top));
    lesson.title = readText(doc, "", "title", top);
    lesson.summary = readText(doc, "", "summary", top);
    if (const auto it = doc.find("tutorial"); it != doc.end())
        lesson.tutorial = readTutorial(*it, top);
    const Json& steps = member(doc, "", "steps", top);
    if (!steps.is_array() || steps.empty())
        top.fail("steps", "expected a non-empty array of steps, got " +
                              (steps.is_array() ? "an empty array" : teaching::kindOf(steps)));
    std::set<std::string> ids;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        LessonStep step = readStep(steps[i], Where{sourceName, "steps[" + std::to_string(i) + "]"});
        if (!ids.insert(step.id).second)
            top.fail("steps[" + std::to_string(i) + "].id",
                     "\"" + step.id + "\" is used by another step of this lesson");
        lesson.steps.push_back(std::move(step));
    }
    if (const auto it = doc.find("quiz"); it != doc.end())
        lesson.quiz = teaching::readQuiz(*it, top);
    checkReferences(lesson, top);
    teaching::checkClassReferences(lesson, top);
    return lesson;
}

Lesson loadLesson(const std::string& path) {
    std::string text;
    try {
        text = detail::readFile(path);
    } catch (const ResultsFileError& e) {
        throw LessonError(e.what());
    }
    Lesson lesson = parseLesson(text, path);
    // NN-id.json: the stem without its order prefix is the id, so files and ids cannot drift.
    std::string stem = std::filesystem::path(path).stem().string();
    const auto digits = stem.find_first_not_of("0123456789");
    if (digits != std::string::npos && digits > 0 && stem[digits] == '-')
        stem = stem.substr(digits + 1);
    if (stem != lesson.id)
        throw LessonError(path + ": id: \"" + lesson.id + "\" does not match the file name (" +
                          "expected NN-" + lesson.id + ".json or " + lesson.id + ".json)");
    return lesson;
}

LessonFolder loadLessonFolder(const std::string& dir) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw LessonError("lessons folder " + dir + " does not exist");
    std::vector<std::string> paths;
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.is_regular_file() && entry.path().extension() == ".json")
            paths.push_back(entry.path().string());
    if (ec) throw LessonError("cannot list lessons folder " + dir + ": " + ec.message());
    std::sort(paths.begin(), paths.end());
    LessonFolder folder;
    for (const auto& path : paths) {
        // Each file on its own: a broken one must not hide the others.
        try {
            Lesson lesson = loadLesson(path);
            for (const Lesson& other : folder.lessons)
                if (other.id == lesson.id)
                    throw LessonError(path + ": id: \"" + lesson.id +
                                      "\" is used by another lesson");
            folder.lessons.push_back(std::move(lesson));
        } catch (const LessonError& e) {  // names the file already
            folder.problems.push_back(e.what());
        } catch (const std::exception& e) {
            folder.problems.push_back(path + ": " + e.what());
        }
    }
    std::stable_sort(folder.lessons.begin(), folder.lessons.end(),
                     [](const Lesson& a, const Lesson& b) {
                         return a.order != b.order ? a.order < b.order : a.id < b.id;
                     });
    return folder;
}

}  // namespace ckptlab
