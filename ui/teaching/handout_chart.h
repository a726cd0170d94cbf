#pragma once
// A lesson step's chart for the handout: the chart registry's entry for the step's chart
// (teaching/lesson_chart.h), built from its results around its focus run and with its focus
// strategy emphasised, or the schedule diagram. A students' handout draws it blank: the frame
// with nothing measured in it (docs/LESSONS.md, "Handouts").

#include <QRectF>
#include <memory>

#include "ckptlab/teaching/lesson.h"

class QChart;
class QPainter;

namespace ckptlab::ui {

// The step's chart as a QChart, owned by the caller: the registry's builder around the run of
// the step's focus, that strategy emphasised; nullptr for the painted schedule diagram.
std::unique_ptr<QChart> buildStepChart(const LessonStep& step, const ResultSet& results);
// The same chart with nothing measured in it: its kind's title, its axes' titles and grid
// with no values, the categories that name the runs (strategies), no series, no legend.
std::unique_ptr<QChart> buildBlankStepChart(const LessonStep& step, const ResultSet& results);
// The height the step's chart takes at `width` (blank or not).
qreal stepChartHeight(const LessonStep& step, const ResultSet& results, qreal width,
                      bool blank = false);
// Paints it over `area` (its width; the height stepChartHeight gave), blank when `blank`.
// Needs a QApplication.
void paintStepChart(QPainter& painter, const LessonStep& step, const ResultSet& results,
                    const QRectF& area, bool blank = false);

}  // namespace ckptlab::ui
