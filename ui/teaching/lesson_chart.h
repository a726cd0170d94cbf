#pragma once
// The chart a lesson step names (core's LessonChart, from its file) as a kind of the chart
// registry: the one place the two meet, for the charts panel's tab and the handout's chart.

#include "charts/chart_registry.h"
#include "ckptlab/teaching/lesson.h"

namespace ckptlab::ui {

ChartKind lessonChartKind(LessonChart chart);

}  // namespace ckptlab::ui
