// Filling a lesson's texts from measured results: finds each {placeholder}, works out which
// step, run and metric it names, and writes the value (lesson_metrics.cpp) in its place.
#include <functional>

#include "ckptlab/model/strategy.h"
#include "ckptlab/teaching/lesson.h"
#include "teaching/lesson_metrics.h"
#include "teaching/lesson_plan_step.h"
#include "teaching/placeholder_syntax.h"

namespace ckptlab {

using teaching::MetricScope;
using teaching::MetricText;
using teaching::Placeholder;

namespace {

// Calls `each(begin, end)` for every "{...}" in `text` (begin at '{', end after '}').
void forEachPlaceholder(const std::string& text,
                        const std::function<void(std::size_t, std::size_t)>& each) {
    std::size_t pos = 0;
    while ((pos = text.find('{', pos)) != std::string::npos) {
        const std::size_t close = text.find('}', pos + 1);
        if (close == std::string::npos) return;
        each(pos, close + 1);
        pos = close + 1;
    }
}

// The word for the memory the step's recording measured: a GPU's is 显存, the host's 内存.
MetricText memoryTerm(const ResultSet& set, const std::string& lang) {
    if (lang != kLangChinese) return {"memory", {}};
    const std::string& device = set.environment.device;
    if (device == "cpu") return {"内存", {}};
    if (device.rfind("cuda", 0) == 0) return {"显存", {}};
    return {std::nullopt, "the recording names no device (\"" + device + "\"): cpu or cuda"};
}

}  // namespace

MetricText teaching::resolvePlaceholder(const std::string& inner, const Lesson& lesson,
                                        const std::string& stepId, const LessonResults& results,
                                        const std::string& lang) {
    std::string error;
    const auto p = teaching::parsePlaceholder(inner, &error);
    if (!p) return {std::nullopt, error};
    std::string id = p->step.empty() ? stepId : p->step;
    // A term in a lesson-level text: the device of the first step recorded.
    if (id.empty() && teaching::scopeOf(p->metric) == MetricScope::Term)
        for (const LessonStep& s : lesson.steps)
            if (results.count(s.id)) {
                id = s.id;
                break;
            }
    const LessonStep* step = lesson.step(id);
    if (!step) return {std::nullopt, "lesson \"" + lesson.id + "\" has no step \"" + id + "\""};
    const LessonExperiment& e = step->experiment;
    if (p->metric == "config") return teaching::configField(p->argument, e.config);

    const auto found = results.find(id);
    if (found == results.end()) return {std::nullopt, "no results for step \"" + id + "\""};
    const ResultSet& set = found->second;
    if (auto plan = teaching::planPlaceholder(*p, *step, set, lang)) return *plan;  // a plan step
    if (teaching::scopeOf(p->metric) == MetricScope::Term) {
        MetricText word = memoryTerm(set, lang);
        if (word.text) word.why = "a word, not a number";
        return word;
    }
    // The placeholder's text, parsed once here: a lesson may write any spelling of a strategy.
    std::string why;
    const auto parsed = parseStrategyForm(p->argument, &why);
    if (!parsed) return {std::nullopt, why};
    const Strategy& strategy = *parsed;

    if (teaching::scopeOf(p->metric) == MetricScope::Scaling) {
        if (!e.scaling_axis) return {std::nullopt, "step \"" + id + "\" is not a scaling step"};
        return teaching::scalingMetric(p->metric, set, strategy, *e.scaling_axis, lang);
    }
    if (e.scaling_axis && !p->at)
        return {std::nullopt, "step \"" + id + "\" is a scaling step: say which " +
                                  toString(*e.scaling_axis) + " with @value"};
    if (!e.scaling_axis && p->at)
        return {std::nullopt, "@value is for scaling steps; step \"" + id + "\" is not one"};
    const RunResult* run = findRun(set, strategy, e.scaling_axis, p->at);
    if (!run) {
        const std::string where = p->at ? " at " + std::to_string(*p->at) : "";
        return {std::nullopt,
                "step \"" + id + "\" has no run of \"" + strategy.name() + "\"" + where};
    }
    return teaching::runMetric(p->metric, *run, findRun(set, Strategy{}, e.scaling_axis, p->at),
                               lang);
}

namespace {

// Fills `text` only to collect what does not resolve, as "WHERE (LANG): {…}: why".
void collectUnresolved(const std::string& where, const Lesson& lesson, const std::string& stepId,
                       const LocalizedText& text, const LessonResults& results,
                       std::vector<std::string>* problems) {
    for (const std::string lang : {kLangEnglish, kLangChinese}) {
        std::vector<std::string> unresolved;
        fillPlaceholders(text.in(lang), lesson, stepId, results, lang, &unresolved);
        for (const auto& u : unresolved) problems->push_back(where + " (" + lang + "): " + u);
    }
}

// A question's texts, and that the recording decides its right choice.
void collectChoices(const std::string& where, const Lesson& lesson, const std::string& stepId,
                    const std::vector<LessonChoice>& choices, ChoicePick pick,
                    const LessonResults& results, std::vector<std::string>* problems) {
    for (std::size_t i = 0; i < choices.size(); ++i)
        collectUnresolved(where + ".choices[" + std::to_string(i) + "].text", lesson, stepId,
                          choices[i].text, results, problems);
    std::string why;
    if (!rightChoice(choices, pick, lesson, stepId, results, &why))
        problems->push_back(where + ": the right choice cannot be decided: " + why);
}

}  // namespace

std::vector<std::string> placeholdersIn(const std::string& text) {
    std::vector<std::string> found;
    forEachPlaceholder(text, [&](std::size_t begin, std::size_t end) {
        found.push_back(text.substr(begin + 1, end - begin - 2));
    });
    return found;
}

std::string fillPlaceholders(const std::string& text, const Lesson& lesson,
                             const std::string& stepId, const LessonResults& results,
                             const std::string& lang, std::vector<std::string>* unresolved) {
    std::string out;
    std::size_t copied = 0;
    forEachPlaceholder(text, [&](std::size_t begin, std::size_t end) {
        out += text.substr(copied, begin - copied);
        const std::string written = text.substr(begin, end - begin);
        const MetricText value = teaching::resolvePlaceholder(written.substr(1, written.size() - 2),
                                                              lesson, stepId, results, lang);
        if (value.text) {
            out += *value.text;
        } else {
            out += written;
            if (unresolved) unresolved->push_back(written + ": " + value.why);
        }
        copied = end;
    });
    return out + text.substr(copied);
}

std::vector<std::string> unresolvedPlaceholders(const Lesson& lesson,
                                                const LessonResults& results) {
    std::vector<std::string> problems;
    auto check = [&](const std::string& where, const std::string& stepId,
                     const LocalizedText& text) {
        collectUnresolved(where, lesson, stepId, text, results, &problems);
    };
    check("lesson " + lesson.id + ", title", "", lesson.title);
    check("lesson " + lesson.id + ", summary", "", lesson.summary);
    for (const LessonStep& s : lesson.steps) {
        const std::string where = "lesson " + lesson.id + ", step " + s.id + ", ";
        check(where + "title", s.id, s.title);
        check(where + "observe", s.id, s.observe);
        check(where + "question", s.id, s.question);
        check(where + "answer", s.id, s.answer);
        if (const auto& p = s.predict) {
            check(where + "predict.prompt", s.id, p->prompt);
            if (p->isNumber()) {
                std::string why;
                if (!placeholderNumber(p->measured, lesson, s.id, results, &why))
                    problems.push_back(where + "predict.measured: {" + p->measured +
                                       "} has no number: " + why);
            } else {
                collectChoices(where + "predict", lesson, s.id, p->choices, p->pick, results,
                               &problems);
            }
        }
        for (std::size_t i = 0; i < s.code.size(); ++i)
            check(where + "code[" + std::to_string(i) + "].caption", s.id, s.code[i].caption);
    }
    for (std::size_t i = 0; i < lesson.quiz.size(); ++i) {
        const LessonQuizQuestion& q = lesson.quiz[i];
        const std::string where = "lesson " + lesson.id + ", quiz[" + std::to_string(i) + "]";
        check(where + ".question", q.step, q.question);
        check(where + ".explanation", q.step, q.explanation);
        collectChoices(where, lesson, q.step, q.choices, q.pick, results, &problems);
    }
    return problems;
}

}  // namespace ckptlab

namespace ckptlab::teaching {

const RunResult* findRun(const ResultSet& results, const Strategy& strategy,
                         std::optional<ScalingAxis> axis, std::optional<int> at) {
    for (const RunResult& run : results.runs) {
        if (run.strategy != strategy) continue;
        if (!axis || axisValue(run.config, *axis) == *at) return &run;
    }
    return nullptr;
}

}  // namespace ckptlab::teaching
