#pragma once
// The values placeholders stand for (docs/LESSONS.md's metric tables), formatted for a
// language. Private to ckptlab_teaching; the comparisons against `none` come from summary.h
// and the fits from scaling.h, so each rule lives once.

#include <optional>
#include <string>

#include "ckptlab/teaching/lesson.h"

namespace ckptlab::teaching {

// The text of a value, or why there is none; `number` is the value the text rounds (the right
// choice of a question compares it), absent where the text is no number: a word, "≈ 0 [...]"
// for a time within noise, "— (...)" for an undefined ratio.
struct MetricText {
    std::optional<std::string> text;
    std::string why;
    std::optional<double> number = std::nullopt;
};

// A metric of one run; `none` is the run to compare with (same step, same axis value).
MetricText runMetric(const std::string& metric, const RunResult& run, const RunResult* none,
                     const std::string& lang);

// A metric fitted or read over every run of `strategy` in a scaling step.
MetricText scalingMetric(const std::string& metric, const ResultSet& results,
                         const Strategy& strategy, ScalingAxis axis, const std::string& lang);

// The run of `strategy` in a step's results; in a scaling step (`axis` set) the one at axis value
// `at`, which must then be given. Null when there is none.
const RunResult* findRun(const ResultSet& results, const Strategy& strategy,
                         std::optional<ScalingAxis> axis, std::optional<int> at);

// A field of the step's config.
MetricText configField(const std::string& field, const ExperimentConfig& config);

// A placeholder expression (no braces) resolved against the lesson's results, as a text for
// `lang` and its number (lesson_placeholders.cpp): one place for fillPlaceholders and
// placeholderNumber.
MetricText resolvePlaceholder(const std::string& expression, const Lesson& lesson,
                              const std::string& stepId, const LessonResults& results,
                              const std::string& lang);

}  // namespace ckptlab::teaching
