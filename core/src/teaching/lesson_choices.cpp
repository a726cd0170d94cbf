// Which choice of a question is right, decided by the measurement: each choice's value is a
// placeholder expression resolved by the same code that fills the texts (lesson_metrics.cpp),
// so a question and the answer printed beside it never disagree.
#include <cmath>

#include "ckptlab/model/number_text.h"
#include "ckptlab/teaching/lesson.h"
#include "teaching/lesson_metrics.h"

namespace ckptlab {

std::optional<double> placeholderNumber(const std::string& expression, const Lesson& lesson,
                                        const std::string& stepId, const LessonResults& results,
                                        std::string* why) {
    if (const auto plain = parseDecimal(expression)) return *plain;
    // The language only changes words; the number is the same in both.
    const teaching::MetricText value =
        teaching::resolvePlaceholder(expression, lesson, stepId, results, kLangEnglish);
    if (value.number && std::isfinite(*value.number)) return value.number;
    if (why) {
        *why = "{" + expression +
               "}: " + (value.why.empty() ? std::string("a text, not a number") : value.why);
        if (value.text) *why += " (it reads \"" + *value.text + "\")";
    }
    return std::nullopt;
}

std::optional<std::size_t> rightChoice(const std::vector<LessonChoice>& choices, ChoicePick pick,
                                       const Lesson& lesson, const std::string& stepId,
                                       const LessonResults& results, std::string* why) {
    auto refuse = [&](const std::string& reason) -> std::optional<std::size_t> {
        if (why) *why = reason;
        return std::nullopt;
    };
    if (choices.empty()) return refuse("no choices");
    std::optional<std::size_t> best;
    double bestValue = 0;
    bool tied = false;
    std::size_t tiedWith = 0;
    for (std::size_t i = 0; i < choices.size(); ++i) {
        std::string reason;
        const auto v = placeholderNumber(choices[i].value, lesson, stepId, results, &reason);
        if (!v) return refuse("choice " + std::to_string(i + 1) + ": " + reason);
        const bool better = pick == ChoicePick::Largest ? *v > bestValue : *v < bestValue;
        if (!best || better) {
            best = i;
            bestValue = *v;
            tied = false;
        } else if (*v == bestValue) {
            tied = true;
            tiedWith = i;
        }
    }
    // Unrounded values that are equal leave nothing for the measurement to decide.
    if (tied)
        return refuse("choices " + std::to_string(*best + 1) + " and " +
                      std::to_string(tiedWith + 1) + " tie at " + formatShortest(bestValue));
    return best;
}

}  // namespace ckptlab
