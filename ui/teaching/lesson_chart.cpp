#include "teaching/lesson_chart.h"

namespace ckptlab::ui {

ChartKind lessonChartKind(LessonChart chart) {
    switch (chart) {
    case LessonChart::Tradeoff: return ChartKind::Tradeoff;
    case LessonChart::Timeline: return ChartKind::Timeline;
    case LessonChart::Lifetimes: return ChartKind::Lifetimes;
    case LessonChart::Segments: return ChartKind::Segments;
    case LessonChart::Breakdown: return ChartKind::Breakdown;
    case LessonChart::Scaling: return ChartKind::Scaling;
    case LessonChart::Schedule: return ChartKind::Schedule;
    }
    return ChartKind::Tradeoff;  // not reached: every value has its case
}

}  // namespace ckptlab::ui
