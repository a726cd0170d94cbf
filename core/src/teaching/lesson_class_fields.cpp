// The fields that run a class from a lesson (docs/LESSONS.md): a step's `predict` (what the
// class guesses before the chart), its `code` and the lesson's `quiz`. Which choice is right is
// never written in the file: each choice carries a value the measurement decides
// (rightChoice), so its expression is checked here like any placeholder.
#include <algorithm>

#include "ckptlab/model/number_text.h"
#include "teaching/lesson_json.h"
#include "teaching/placeholder_syntax.h"

namespace ckptlab::teaching {
namespace {

constexpr std::size_t kMinChoices = 2;
constexpr std::size_t kMaxChoices = 6;
constexpr std::size_t kMaxQuiz = 10;

const Json& arrayIn(const Json& j, const std::string& name, const Where& where) {
    if (!j.is_array()) where.fail(name, "expected an array, got " + kindOf(j));
    return j;
}

ChoicePick readPick(const Json& parent, const std::string& at, const Where& where) {
    const std::string name = field(at, "pick");
    const std::string pick = stringIn(member(parent, at, "pick", where), name, where);
    if (pick == "largest") return ChoicePick::Largest;
    if (pick == "smallest") return ChoicePick::Smallest;
    where.fail(name, "unknown value \"" + pick + "\" (allowed: largest, smallest)");
}

// A plain number, or a placeholder expression without braces that names a number.
std::string readValue(const Json& parent, const std::string& at, const char* key,
                      const Where& where) {
    const std::string name = field(at, key);
    const std::string value = stringIn(member(parent, at, key, where), name, where);
    if (parseDecimal(value)) return value;
    if (value.find_first_of("{}") != std::string::npos)
        where.fail(name, "\"" + value + "\": write the expression without braces");
    std::string error;
    const auto p = parsePlaceholder(value, &error);
    if (!p)
        where.fail(name,
                   "\"" + value + "\" is neither a number nor a placeholder expression: " + error);
    // Words have no number to compare.
    if (p->metric == "grad_check" || p->metric == "time_change" ||
        scopeOf(p->metric) == MetricScope::Term)
        where.fail(name, "\"" + value + "\" is a word, not a number");
    return value;
}

std::vector<LessonChoice> readChoices(const Json& parent, const std::string& at,
                                      const Where& where) {
    const std::string name = field(at, "choices");
    const Json& list = arrayIn(member(parent, at, "choices", where), name, where);
    if (list.size() < kMinChoices || list.size() > kMaxChoices)
        where.fail(name, "expected " + std::to_string(kMinChoices) + " to " +
                             std::to_string(kMaxChoices) + " choices, got " +
                             std::to_string(list.size()));
    std::vector<LessonChoice> choices;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string item = name + "[" + std::to_string(i) + "]";
        onlyKeys(objectIn(list[i], item, where), item, {"text", "value"}, where);
        LessonChoice choice;
        choice.text = readText(list[i], item, "text", where);
        choice.value = readValue(list[i], item, "value", where);
        choices.push_back(std::move(choice));
    }
    return choices;
}

bool isLanguageName(const std::string& name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '#' || c == '-';
    });
}

void checkChoices(const Lesson& lesson, const LessonStep* owner,
                  const std::vector<LessonChoice>& choices, const std::string& at,
                  const Where& where) {
    for (std::size_t i = 0; i < choices.size(); ++i) {
        const std::string item = at + ".choices[" + std::to_string(i) + "]";
        for (const char* lang : {kLangEnglish, kLangChinese})
            for (const std::string& p : placeholdersIn(choices[i].text.in(lang)))
                checkReference(lesson, owner, p, item + ".text." + lang, where);
        if (!parseDecimal(choices[i].value))
            checkReference(lesson, owner, choices[i].value, item + ".value", where);
    }
}

void checkTexts(const Lesson& lesson, const LessonStep* owner, const LocalizedText& text,
                const std::string& name, const Where& where) {
    for (const char* lang : {kLangEnglish, kLangChinese})
        for (const std::string& p : placeholdersIn(text.in(lang)))
            checkReference(lesson, owner, p, name + "." + lang, where);
}

}  // namespace

LessonPrediction readPrediction(const Json& j, const Where& where) {
    const std::string at = "predict";
    objectIn(j, at, where);
    LessonPrediction p;
    const bool number = j.contains("measured");
    if (number)
        onlyKeys(j, at, {"prompt", "measured", "unit"}, where);
    else
        onlyKeys(j, at, {"prompt", "choices", "pick"}, where);
    p.prompt = readText(j, at, "prompt", where);
    if (number) {
        p.measured = readValue(j, at, "measured", where);
        if (parseDecimal(p.measured))
            where.fail(at + ".measured", "\"" + p.measured +
                                             "\" is a number; give the placeholder expression "
                                             "of the measured value, e.g. saving_pct(full)");
        p.unit = readText(j, at, "unit", where);
        return p;
    }
    if (!j.contains("choices"))
        where.fail(at, "give \"measured\" and \"unit\" (a number) or \"choices\" and \"pick\"");
    p.choices = readChoices(j, at, where);
    p.pick = readPick(j, at, where);
    return p;
}

std::vector<LessonCode> readCode(const Json& j, const Where& where) {
    const Json& list = arrayIn(j, "code", where);
    if (list.empty()) where.fail("code", "expected at least one piece of code, got an empty array");
    std::vector<LessonCode> code;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string at = "code[" + std::to_string(i) + "]";
        onlyKeys(objectIn(list[i], at, where), at, {"caption", "language", "text"}, where);
        LessonCode c;
        c.caption = readText(list[i], at, "caption", where);
        c.language = stringIn(member(list[i], at, "language", where), at + ".language", where);
        if (!isLanguageName(c.language))
            where.fail(at + ".language", "\"" + c.language +
                                             "\" must be lower-case letters, digits, '+', '#' "
                                             "or '-' (e.g. python)");
        c.text = stringIn(member(list[i], at, "text", where), at + ".text", where);
        if (c.text.find_first_not_of(" \t\r\n") == std::string::npos)
            where.fail(at + ".text", "must not be empty");
        code.push_back(std::move(c));
    }
    return code;
}

std::vector<LessonQuizQuestion> readQuiz(const Json& j, const Where& where) {
    const Json& list = arrayIn(j, "quiz", where);
    if (list.size() > kMaxQuiz)
        where.fail("quiz", "expected at most " + std::to_string(kMaxQuiz) + " questions, got " +
                               std::to_string(list.size()));
    std::vector<LessonQuizQuestion> quiz;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string at = "quiz[" + std::to_string(i) + "]";
        onlyKeys(objectIn(list[i], at, where), at,
                 {"step", "question", "choices", "pick", "explanation"}, where);
        LessonQuizQuestion q;
        q.step = stringIn(member(list[i], at, "step", where), at + ".step", where);
        q.question = readText(list[i], at, "question", where);
        q.choices = readChoices(list[i], at, where);
        q.pick = readPick(list[i], at, where);
        q.explanation = readText(list[i], at, "explanation", where);
        quiz.push_back(std::move(q));
    }
    return quiz;
}

void checkClassReferences(const Lesson& lesson, const Where& top) {
    for (const LessonStep& s : lesson.steps) {
        const Where where{top.file, "step \"" + s.id + "\""};
        if (s.predict) {
            checkTexts(lesson, &s, s.predict->prompt, "predict.prompt", where);
            if (s.predict->isNumber()) {
                checkReference(lesson, &s, s.predict->measured, "predict.measured", where);
                checkTexts(lesson, &s, s.predict->unit, "predict.unit", where);
            }
            checkChoices(lesson, &s, s.predict->choices, "predict", where);
        }
        for (std::size_t i = 0; i < s.code.size(); ++i)
            checkTexts(lesson, &s, s.code[i].caption, "code[" + std::to_string(i) + "].caption",
                       where);
    }
    for (std::size_t i = 0; i < lesson.quiz.size(); ++i) {
        const LessonQuizQuestion& q = lesson.quiz[i];
        const std::string at = "quiz[" + std::to_string(i) + "]";
        const LessonStep* step = lesson.step(q.step);
        if (!step) {
            std::string ids;
            for (const LessonStep& s : lesson.steps) ids += (ids.empty() ? "" : ", ") + s.id;
            top.fail(at + ".step",
                     "the lesson has no step \"" + q.step + "\" (steps: " + ids + ")");
        }
        checkTexts(lesson, step, q.question, at + ".question", top);
        checkTexts(lesson, step, q.explanation, at + ".explanation", top);
        checkChoices(lesson, step, q.choices, at, top);
    }
}

}  // namespace ckptlab::teaching
