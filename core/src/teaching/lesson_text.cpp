// The small vocabulary of lessons: languages, localized texts, chart names, step lookup.
#include "ckptlab/teaching/lesson.h"

namespace ckptlab {

bool isSupportedLanguage(const std::string& lang) {
    return lang == kLangEnglish || lang == kLangChinese;
}

const std::string& LocalizedText::in(const std::string& lang) const {
    return lang == kLangChinese ? zh_CN : en;
}

std::string toString(LessonChart chart) {
    switch (chart) {
    case LessonChart::Tradeoff: return "tradeoff";
    case LessonChart::Timeline: return "timeline";
    case LessonChart::Lifetimes: return "lifetimes";
    case LessonChart::Segments: return "segments";
    case LessonChart::Breakdown: return "breakdown";
    case LessonChart::Scaling: return "scaling";
    case LessonChart::Schedule: return "schedules";
    }
    return "tradeoff";
}

std::optional<LessonChart> parseLessonChart(const std::string& text) {
    for (LessonChart chart : kLessonCharts)
        if (toString(chart) == text) return chart;
    if (text == "schedule") return LessonChart::Schedule;  // its name before it was the id
    return std::nullopt;
}

const LessonStep* Lesson::step(const std::string& stepId) const {
    for (const LessonStep& s : steps)
        if (s.id == stepId) return &s;
    return nullptr;
}

}  // namespace ckptlab
