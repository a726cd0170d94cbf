// A filled lesson on stdout, and as one JSON file (the texts in one language, the results of
// each step as the results file writes them, so a reader needs no second format).
#include <cstdio>
#include <iostream>

#include <nlohmann/json.hpp>

#include "ckptlab/number_text.h"
#include "ckptlab/output_paths.h"
#include "ckptlab/results_io.h"
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
    std::string text = toString(c.block) + " L=" + size(e, ScalingAxis::Depth, c.depth) +
                       " d=" + size(e, ScalingAxis::Width, c.width) +
                       " S=" + size(e, ScalingAxis::Seq, c.seq) +
                       " B=" + size(e, ScalingAxis::Batch, c.batch);
    if (c.block != BlockKind::Ffn) text += " heads=" + std::to_string(c.heads);
    if (c.block == BlockKind::Llama)
        text += " kv-heads=" + std::to_string(kvHeadsOf(c)) +
                " head-dim=" + std::to_string(headDimOf(c));
    if (c.block != BlockKind::Ffn) text += " attention=" + toString(c.attention);
    if (c.keep_grads) text += " keep-grads";
    if (c.memory_limit_mib > 0)
        text += " memory-limit=" + formatGeneral(c.memory_limit_mib) + " MiB";
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

}  // namespace

void printLesson(const Lesson& lesson, const LessonResults& results, bool live,
                 const std::string& lang, std::vector<std::string>* unresolved) {
    auto fill = [&](const LocalizedText& text, const std::string& step) {
        return fillPlaceholders(text.in(lang), lesson, step, results, lang, unresolved);
    };
    std::cout << label(LessonLabel::Lesson, lang) << " " << lesson.order << ": "
              << fill(lesson.title, "") << "\n"
              << fill(lesson.summary, "") << "\n";
    for (const TutorialQuote& q : lesson.tutorial)
        std::cout << label(LessonLabel::Tutorial, lang) << ": " << q.heading << " — "
                  << q.translation << "\n";
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
        std::cout << "  " << label(LessonLabel::Chart, lang) << ": " << toString(s.chart);
        if (s.focus)
            std::cout << " (" << label(LessonLabel::Focus, lang) << ": " << s.focus->name() << ")";
        std::cout << "\n  " << label(LessonLabel::Observe, lang) << ": " << fill(s.observe, s.id)
                  << "\n  " << label(LessonLabel::Question, lang) << ": " << fill(s.question, s.id)
                  << "\n  " << label(LessonLabel::Answer, lang) << ": " << fill(s.answer, s.id)
                  << "\n";
    }
}

bool writeLessonJson(const Lesson& lesson, const LessonResults& results, bool live,
                     const std::string& lang, const std::string& path, std::string* error) {
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
    json doc = {{"id", lesson.id},
                {"lang", lang},
                {"source", live ? "live" : "recording"},
                {"machine", machineOf(results)},
                {"title", fill(lesson.title, "", nullptr)},
                {"summary", fill(lesson.summary, "", nullptr)},
                {"tutorial", json::array()},
                {"steps", json::array()}};
    for (const TutorialQuote& q : lesson.tutorial)
        doc["tutorial"].push_back({{"heading", q.heading}, {"translation", q.translation}});
    for (const LessonStep& s : lesson.steps) {
        std::vector<std::string> unresolved;
        json step = {{"id", s.id},
                     {"title", fill(s.title, s.id, &unresolved)},
                     {"chart", toString(s.chart)},
                     {"focus", s.focus ? s.focus->name() : std::string()},
                     {"observe", fill(s.observe, s.id, &unresolved)},
                     {"question", fill(s.question, s.id, &unresolved)},
                     {"answer", fill(s.answer, s.id, &unresolved)},
                     {"unresolved", unresolved},
                     {"results", nullptr}};
        if (const auto it = results.find(s.id); it != results.end())
            step["results"] = json::parse(resultsToJson(it->second));
        doc["steps"].push_back(std::move(step));
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
