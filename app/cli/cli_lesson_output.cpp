// A filled lesson on stdout, and as one JSON file (the texts in one language, the results of
// each step as the results file writes them, so a reader needs no second format).
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "ckptlab/formats/output_paths.h"
#include "ckptlab/formats/results_io.h"
#include "ckptlab/model/config_fields.h"
#include "ckptlab/model/number_text.h"
#include "ckptlab/planning/scaling.h"
#include "cli_lesson.h"

namespace ckptlab::cli {
namespace {

std::string label(LessonLabel l, const std::string& lang) { return lessonLabel(l, lang); }

// A size as the step runs it: a scaling step's axis shows its values ("L=2,4,8").
std::string size(const LessonExperiment& e, ScalingAxis axis, int value) {
    if (!e.scaling_axis || *e.scaling_axis != axis) return std::to_string(value);
    std::string values;
    for (int v : e.scaling_values) values += (values.empty() ? "" : ",") + std::to_string(v);
    return values;
}

std::string describeRuns(const LessonExperiment& e) {
    const ExperimentConfig& c = e.config;
    // The model's fields as the registry describes them (describeConfig), a scaled size as its
    // values; the numerics only where they differ from the defaults.
    std::string text;
    for (const DescribedField& d : describeConfig(c, kShownModel)) {
        text += (text.empty() ? "" : " ") + std::string(d.field->key) + "=";
        ScalingAxis axis;
        text += parseScalingAxis(d.field->key, axis) ? size(e, axis, axisValue(c, axis)) : d.value;
    }
    if (const std::string numerics = configLine(c, kShownNumerics, true); !numerics.empty())
        text += " " + numerics;
    if (e.plan)  // planned at its real size for a device of that memory, not run
        text +=
            " plan=" + e.plan->model + " capacity=" + formatGeneral(e.plan->capacity_gib) + " GiB";
    text += ":";
    for (std::size_t i = 0; i < e.strategies.size(); ++i)
        text += (i ? ", " : " ") + e.strategies[i].name();
    return text;
}

std::string describeScaling(const LessonExperiment& e) {
    std::string text = toString(*e.scaling_axis) + " =";
    for (std::size_t i = 0; i < e.scaling_values.size(); ++i)
        text += (i ? ", " : " ") + std::to_string(e.scaling_values[i]);
    return text;
}

// "A", "B", ...: a choice's letter, the same in both languages.
std::string letter(std::size_t i) { return std::string(1, static_cast<char>('A' + i)); }

// A value the CLI prints as code, in backquotes: a strategy, a config value.
std::string code(const std::string& text) { return "`" + text + "`"; }

// "(…)" in English, "（…）" in Chinese.
std::string parenthesized(const std::string& text, const std::string& lang) {
    return lang == kLangChinese ? "（" + text + "）" : " (" + text + ")";
}

}  // namespace

void printLesson(const Lesson& lesson, const LessonResults& results, bool live,
                 const std::string& lang, std::vector<std::string>* unresolved, bool answers) {
    auto fill = [&](const LocalizedText& text, const std::string& step) {
        return fillPlaceholders(text.in(lang), lesson, step, results, lang, unresolved);
    };
    auto choices = [&](const std::vector<LessonChoice>& list, const std::string& step,
                       const std::string& indent) {
        for (std::size_t i = 0; i < list.size(); ++i)
            std::cout << indent << letter(i) << ". " << fill(list[i].text, step) << "\n";
    };
    // The right choice, decided by the results; an undecided one is reported like a placeholder.
    auto right = [&](const std::vector<LessonChoice>& list, ChoicePick pick,
                     const std::string& step, const std::string& where) -> std::string {
        std::string why;
        const auto index = rightChoice(list, pick, lesson, step, results, &why);
        if (!index) {
            if (unresolved) unresolved->push_back(where + ": " + why);
            return "?";
        }
        return letter(*index) + ". " + fill(list[*index].text, step);
    };
    std::cout << label(LessonLabel::Lesson, lang) << " " << lesson.order << ": "
              << fill(lesson.title, "") << "\n"
              << fill(lesson.summary, "") << "\n";
    // The heading is the tutorial's Chinese; the translation is for English readers only.
    for (const TutorialQuote& q : lesson.tutorial) {
        std::cout << label(LessonLabel::Tutorial, lang) << ": " << q.heading;
        if (lang != kLangChinese) std::cout << " — " << q.translation;
        std::cout << "\n";
    }
    if (answers)
        std::cout << label(live ? LessonLabel::Live : LessonLabel::Recorded, lang) << ": "
                  << machineOf(results) << "\n";
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
        const LessonStep& s = lesson.steps[i];
        std::cout << "\n"
                  << label(LessonLabel::Step, lang) << " " << i + 1 << "/" << lesson.steps.size()
                  << ": " << fill(s.title, s.id) << "\n"
                  << "  " << label(LessonLabel::Runs, lang) << ": " << describeRuns(s.experiment)
                  << "\n";
        if (s.experiment.scaling_axis)
            std::cout << "  " << label(LessonLabel::Scaling, lang) << ": "
                      << describeScaling(s.experiment) << "\n";
        for (const LessonCode& c : s.code) {
            std::cout << "  " << label(LessonLabel::Code, lang) << ": " << fill(c.caption, s.id)
                      << parenthesized(c.language, lang) << "\n";
            std::string line;
            for (std::size_t at = 0; at <= c.text.size(); ++at) {
                if (at == c.text.size() || c.text[at] == '\n') {
                    if (at < c.text.size() || !line.empty()) std::cout << "    | " << line << "\n";
                    line.clear();
                } else {
                    line += c.text[at];
                }
            }
        }
        // Asked before the chart and the observe text, which may give it away.
        if (const auto& p = s.predict) {
            std::cout << "  " << label(LessonLabel::Predict, lang) << ": " << fill(p->prompt, s.id);
            if (p->isNumber()) std::cout << parenthesized(fill(p->unit, s.id), lang);
            std::cout << "\n";
            choices(p->choices, s.id, "    ");
        }
        std::cout << "  " << label(LessonLabel::Chart, lang) << ": "
                  << lessonChartLabel(s.chart, lang);
        if (s.focus)
            std::cout << parenthesized(
                label(LessonLabel::Focus, lang) + ": " + code(s.focus->name()), lang);
        std::cout << "\n  " << label(LessonLabel::Observe, lang) << ": " << fill(s.observe, s.id)
                  << "\n  " << label(LessonLabel::Question, lang) << ": " << fill(s.question, s.id)
                  << "\n";
        if (!answers) continue;
        std::cout << "  " << label(LessonLabel::Answer, lang) << ": " << fill(s.answer, s.id)
                  << "\n";
        if (const auto& p = s.predict) {
            const std::string where = "lesson " + lesson.id + ", step " + s.id + ", predict";
            if (p->isNumber()) {
                std::string why;
                std::vector<std::string> missing;
                const std::string measured = fillPlaceholders("{" + p->measured + "}", lesson, s.id,
                                                              results, lang, &missing);
                if (!placeholderNumber(p->measured, lesson, s.id, results, &why) && unresolved)
                    unresolved->push_back(where + ".measured: " + why);
                std::cout << "  " << label(LessonLabel::Measured, lang) << ": " << measured << " "
                          << fill(p->unit, s.id) << "\n";
            } else {
                std::cout << "  " << label(LessonLabel::RightChoice, lang) << ": "
                          << right(p->choices, p->pick, s.id, where) << "\n";
            }
        }
    }
    if (lesson.quiz.empty()) return;
    std::cout << "\n" << label(LessonLabel::Quiz, lang) << "\n";
    for (std::size_t i = 0; i < lesson.quiz.size(); ++i) {
        const LessonQuizQuestion& q = lesson.quiz[i];
        std::cout << "  " << i + 1 << ". " << fill(q.question, q.step) << "\n";
        choices(q.choices, q.step, "     ");
        if (!answers) continue;
        const std::string where = "lesson " + lesson.id + ", quiz[" + std::to_string(i) + "]";
        std::cout << "     " << label(LessonLabel::RightChoice, lang) << ": "
                  << right(q.choices, q.pick, q.step, where) << "\n"
                  << "     " << label(LessonLabel::Explanation, lang) << ": "
                  << fill(q.explanation, q.step) << "\n";
    }
}

bool writeLessonJson(const Lesson& lesson, const LessonResults& results, bool live,
                     const std::string& lang, const std::string& path, std::string* error,
                     bool answers) {
    // Keys in the order written, so the file reads top-down like the printed lesson.
    using json = nlohmann::ordered_json;
    std::vector<std::string> all;
    auto fill = [&](const LocalizedText& text, const std::string& step,
                    std::vector<std::string>* unresolved) {
        std::vector<std::string> found;
        std::string out = fillPlaceholders(text.in(lang), lesson, step, results, lang, &found);
        for (const auto& u : found) {
            if (unresolved) unresolved->push_back(u);
            all.push_back(u);
        }
        return out;
    };
    // A question's choices, and its right one when answers are shown (null when undecided).
    auto question = [&](json& into, const std::vector<LessonChoice>& choices, ChoicePick pick,
                        const std::string& step, std::vector<std::string>* unresolved) {
        into["choices"] = json::array();
        for (const LessonChoice& c : choices)
            into["choices"].push_back(fill(c.text, step, unresolved));
        into["pick"] = pick == ChoicePick::Largest ? "largest" : "smallest";
        if (!answers) return;
        std::string why;
        const auto index = rightChoice(choices, pick, lesson, step, results, &why);
        into["right_choice"] = index ? json(*index) : json(nullptr);
        if (!index) {
            if (unresolved) unresolved->push_back(why);
            all.push_back(why);
        }
    };
    json doc = {{"id", lesson.id},
                {"lang", lang},
                {"source", live ? "live" : "recording"},
                {"machine", answers ? machineOf(results) : std::string()},
                {"answers", answers},
                {"title", fill(lesson.title, "", nullptr)},
                {"summary", fill(lesson.summary, "", nullptr)},
                {"tutorial", json::array()},
                {"steps", json::array()},
                {"quiz", json::array()}};
    for (const TutorialQuote& q : lesson.tutorial)
        doc["tutorial"].push_back({{"heading", q.heading}, {"translation", q.translation}});
    for (const LessonStep& s : lesson.steps) {
        std::vector<std::string> unresolved;
        json step = {{"id", s.id},
                     {"title", fill(s.title, s.id, &unresolved)},
                     {"chart", toString(s.chart)},
                     {"focus", s.focus ? s.focus->name() : std::string()}};
        if (const auto& p = s.predict) {
            json predict = {{"prompt", fill(p->prompt, s.id, &unresolved)}};
            if (p->isNumber()) {
                predict["unit"] = fill(p->unit, s.id, &unresolved);
                if (answers) {
                    const auto v = placeholderNumber(p->measured, lesson, s.id, results);
                    predict["measured"] = v ? json(*v) : json(nullptr);
                }
            } else {
                question(predict, p->choices, p->pick, s.id, &unresolved);
            }
            step["predict"] = std::move(predict);
        }
        step["code"] = json::array();
        for (const LessonCode& c : s.code)
            step["code"].push_back({{"caption", fill(c.caption, s.id, &unresolved)},
                                    {"language", c.language},
                                    {"text", c.text}});
        step["observe"] = fill(s.observe, s.id, &unresolved);
        step["question"] = fill(s.question, s.id, &unresolved);
        if (answers) step["answer"] = fill(s.answer, s.id, &unresolved);
        step["unresolved"] = unresolved;
        step["results"] = nullptr;
        if (const auto it = results.find(s.id); answers && it != results.end())
            step["results"] = json::parse(resultsToJson(it->second));
        doc["steps"].push_back(std::move(step));
    }
    for (const LessonQuizQuestion& q : lesson.quiz) {
        json item = {{"step", q.step}, {"question", fill(q.question, q.step, nullptr)}};
        question(item, q.choices, q.pick, q.step, nullptr);
        if (answers) item["explanation"] = fill(q.explanation, q.step, nullptr);
        doc["quiz"].push_back(std::move(item));
    }
    doc["unresolved"] = all;
    // The atomic write every other output goes through: never half a file, links and
    // permissions kept.
    try {
        writeTextFile(path, doc.dump(2) + "\n");
    } catch (const std::exception& e) {
        *error = e.what();
        return false;
    }
    return true;
}

}  // namespace ckptlab::cli
