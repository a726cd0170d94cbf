// The rules of lesson_time_checks.h: recorded step times against the cost model's forecast,
// against the words of the texts, and against each other.
#include "ckptlab/teaching/lesson_time_checks.h"

#include <algorithm>
#include <cmath>

#include "ckptlab/model/config_fields.h"
#include "ckptlab/model/number_text.h"
#include "ckptlab/model/summary.h"
#include "teaching/lesson_metrics.h"
#include "teaching/placeholder_syntax.h"

namespace ckptlab {
namespace {

// The `none` run to compare `run` with: the same axis value in a scaling step.
const RunResult* noneAt(const ResultSet& set, const RunResult& run,
                        const std::optional<ScalingAxis>& axis) {
    const std::optional<int> at =
        axis ? std::optional<int>(axisValue(run.config, *axis)) : std::nullopt;
    return teaching::findRun(set, Strategy{}, axis, at);
}

std::string where(const Lesson& lesson, const LessonStep& step, const RunResult& run,
                  const std::optional<ScalingAxis>& axis) {
    std::string text = "lesson " + lesson.id + ", step " + step.id + ", " + run.strategy.name();
    if (axis)
        text += " at " + toString(*axis) + " = " + std::to_string(axisValue(run.config, *axis));
    return text;
}

std::string pct(double v) { return formatFixedSigned(v, 1) + " %"; }

// A recorded time added against the forecast stored with it.
void checkAgainstForecast(const Lesson& lesson, const LessonStep& step, const ResultSet& set,
                          std::vector<std::string>& problems) {
    const auto& axis = step.experiment.scaling_axis;
    for (const RunResult& run : set.runs) {
        if (run.strategy.kind == StrategyKind::None || run.error || !run.prediction) continue;
        const RunResult* none = noneAt(set, run, axis);
        if (!none || none->error || !none->prediction || !(none->prediction->step_ms > 0) ||
            none->metrics.step_ms < kCheckedStepMs)
            continue;
        const double forecast = (run.prediction->step_ms / none->prediction->step_ms - 1) * 100;
        if (std::abs(forecast) < kCheckedPredictedAddedPct) continue;
        const SummaryRow row = summarizeRun(run, none);
        if (!row.time_added_low_pct || !row.time_added_high_pct) continue;
        const double low = *row.time_added_low_pct, high = *row.time_added_high_pct;
        const std::string range =
            " [" + formatFixedSigned(low, 1) + ", " + formatFixedSigned(high, 1) + "] %";
        const bool otherSide = forecast > 0 ? high < 0 : low > 0;
        if (otherSide) {
            problems.push_back(where(lesson, step, run, axis) + ": recorded time added" + range +
                               " has the other sign than the cost model's " + pct(forecast) +
                               " (re-record on a quiet machine)");
            continue;
        }
        // The whole interval outside [forecast / 2, 2 x forecast] (both taken by size).
        const double small = std::abs(forecast) / kAllowedTimeFactor;
        const double large = std::abs(forecast) * kAllowedTimeFactor;
        const double nearLow = forecast > 0 ? low : -high, nearHigh = forecast > 0 ? high : -low;
        if (nearLow > large || nearHigh < small)
            problems.push_back(where(lesson, step, run, axis) + ": recorded time added" + range +
                               " is more than " + formatFixed(kAllowedTimeFactor, 0) +
                               "x away from the cost model's " + pct(forecast) +
                               " (re-record on a quiet machine)");
    }
}

// The sentences of a text: split after '.', '!', '?', '。', '！', '？', ';' and '；'.
std::vector<std::string> sentencesOf(const std::string& text) {
    static const std::vector<std::string> kEnds = {". ", "! ", "? ", "; ", "。",
                                                   "！", "？", "；", "\n"};
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = std::string::npos, width = 0;
        for (const auto& mark : kEnds) {
            const std::size_t at = text.find(mark, start);
            if (at != std::string::npos && (end == std::string::npos || at < end)) {
                end = at;
                width = mark.size();
            }
        }
        if (end == std::string::npos) {
            out.push_back(text.substr(start));
            break;
        }
        out.push_back(text.substr(start, end + width - start));
        start = end + width;
    }
    return out;
}

bool isTimeMetric(const std::string& metric) {
    return metric == "time_added_pct" || metric == "step_ms" || metric == "ratio" ||
           metric == "time_change";
}

// Whether a measured time added supports `direction` (+1 slower, -1 faster): its interval
// lies wholly on that side of 0.
bool supports(const SummaryRow& row, int direction) {
    if (!row.time_added_low_pct || !row.time_added_high_pct) return false;
    return direction > 0 ? *row.time_added_low_pct > 0 : *row.time_added_high_pct < 0;
}

// Each sentence that states a direction, against the intervals of the strategies whose time
// placeholders it carries. `{time_change(...)}` writes its own direction from the interval
// and is exempt: it is the way to say one.
void checkStatedDirections(const Lesson& lesson, const LessonStep& step, const std::string& text,
                           const LessonResults& results, std::vector<std::string>& problems) {
    for (const std::string& sentence : sentencesOf(text)) {
        const auto direction = statedTimeDirection(sentence);
        if (!direction) continue;
        for (const std::string& inner : placeholdersIn(sentence)) {
            std::string error;
            const auto p = teaching::parsePlaceholder(inner, &error);
            if (!p || !isTimeMetric(p->metric) || p->metric == "time_change") continue;
            const std::string stepId = p->step.empty() ? step.id : p->step;
            const LessonStep* named = lesson.step(stepId);
            const auto found = results.find(stepId);
            if (!named || found == results.end()) continue;
            const auto strategy = parseStrategyForm(p->argument, &error);
            if (!strategy || strategy->kind == StrategyKind::None) continue;
            const auto& axis = named->experiment.scaling_axis;
            if (axis.has_value() != p->at.has_value()) continue;  // refused when the file loads
            const RunResult* run = teaching::findRun(found->second, *strategy, axis, p->at);
            if (!run || run->error) continue;
            const RunResult* none = noneAt(found->second, *run, axis);
            if (none && !supports(summarizeRun(*run, none), *direction))
                problems.push_back("lesson " + lesson.id + ", step " + step.id + ": \"" + sentence +
                                   "\" says " + (*direction > 0 ? "slower" : "faster") + " of " +
                                   strategy->name() +
                                   ", which its recorded interval does not support (write "
                                   "{time_change(" +
                                   p->argument + ")} instead)");
        }
    }
}

std::vector<const LocalizedText*> textsOf(const LessonStep& step) {
    std::vector<const LocalizedText*> texts{&step.observe, &step.question, &step.answer};
    if (step.predict) texts.push_back(&step.predict->prompt);
    return texts;
}

// A step's config as a recording measures it: its own repeats give way to the adaptive ones.
ExperimentConfig asRecorded(const ExperimentConfig& config) {
    ExperimentConfig c = timedAsLesson(config);
    c.repeats = ExperimentConfig{}.repeats;
    return c;
}

// Steps whose experiments are the same in every field as recorded: one measurement.
bool sameExperiment(const LessonExperiment& a, const LessonExperiment& b) {
    return !a.plan && !b.plan && a.scaling_axis == b.scaling_axis &&
           a.scaling_values == b.scaling_values &&
           sameFields(asRecorded(a.config), asRecorded(b.config), ~0u);
}

bool sameMeasurement(const ResultSet& a, const ResultSet& b) {
    if (a.environment.created_utc != b.environment.created_utc) return false;
    for (const RunResult& ra : a.runs)
        for (const RunResult& rb : b.runs)
            if (ra.strategy == rb.strategy && sameFields(ra.config, rb.config, ~0u) &&
                ra.metrics.step_ms != rb.metrics.step_ms)
                return false;
    return true;
}

}  // namespace

ExperimentConfig timedAsLesson(ExperimentConfig config, double limitS) {
    config.repeats_auto = true;
    config.time_limit_s = limitS;
    return config;
}

std::optional<int> statedTimeDirection(const std::string& sentence) {
    std::string lower = sentence;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    static const std::vector<std::string> kSlower = {
        "slower", "slows", "more time", "longer step", "更慢", "变慢", "慢了", "减慢", "多花"};
    static const std::vector<std::string> kFaster = {"faster",  "speeds up", "sped up", "less time",
                                                     "quicker", "更快",      "变快",    "快了",
                                                     "加快",    "省时"};
    auto any = [&](const std::vector<std::string>& words) {
        return std::any_of(words.begin(), words.end(), [&](const std::string& w) {
            return lower.find(w) != std::string::npos;
        });
    };
    const bool slower = any(kSlower), faster = any(kFaster);
    if (slower == faster) return std::nullopt;
    return slower ? 1 : -1;
}

std::vector<std::vector<std::string>> stepsSharingAMeasurement(const Lesson& lesson) {
    std::vector<std::vector<std::string>> groups;
    std::vector<bool> placed(lesson.steps.size(), false);
    for (std::size_t i = 0; i < lesson.steps.size(); ++i) {
        if (placed[i]) continue;
        std::vector<std::string> group{lesson.steps[i].id};
        for (std::size_t j = i + 1; j < lesson.steps.size(); ++j)
            if (!placed[j] &&
                sameExperiment(lesson.steps[i].experiment, lesson.steps[j].experiment)) {
                group.push_back(lesson.steps[j].id);
                placed[j] = true;
            }
        groups.push_back(std::move(group));
    }
    return groups;
}

std::vector<std::string> timingProblems(const Lesson& lesson, const LessonResults& results) {
    std::vector<std::string> problems;
    for (const LessonStep& step : lesson.steps) {
        const auto found = results.find(step.id);
        if (found != results.end()) checkAgainstForecast(lesson, step, found->second, problems);
        for (const LocalizedText* text : textsOf(step))
            for (const std::string* lang : {&text->en, &text->zh_CN})
                checkStatedDirections(lesson, step, *lang, results, problems);
    }
    for (const auto& group : stepsSharingAMeasurement(lesson)) {
        const auto first = results.find(group.front());
        if (first == results.end()) continue;
        for (std::size_t i = 1; i < group.size(); ++i) {
            const auto other = results.find(group[i]);
            if (other != results.end() && !sameMeasurement(first->second, other->second))
                problems.push_back("lesson " + lesson.id + ": steps " + group.front() + " and " +
                                   group[i] +
                                   " run the same experiment but their recordings are two "
                                   "measurements (record the lesson again)");
        }
    }
    return problems;
}

}  // namespace ckptlab
