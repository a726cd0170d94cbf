#pragma once
// A lesson step's chart for the handout: the chart registry's entry for the step's chart
// (teaching/lesson_chart.h), built from its results around its focus run and with its focus
// strategy emphasised, or the schedule diagram.

#include <QRectF>
#include <memory>

#include "ckptlab/lesson.h"

class QChart;
class QPainter;

namespace ckptlab::ui {

// The step's chart as a QChart, owned by the caller: the registry's builder around the run of
// the step's focus, that strategy emphasised; nullptr for the painted schedule diagram.
std::unique_ptr<QChart> buildStepChart(const LessonStep& step, const ResultSet& results);
// The height the step's chart takes at `width`.
qreal stepChartHeight(const LessonStep& step, const ResultSet& results, qreal width);
// Paints it over `area` (its width; the height stepChartHeight gave). Needs a QApplication.
void paintStepChart(QPainter& painter, const LessonStep& step, const ResultSet& results,
                    const QRectF& area);

}  // namespace ckptlab::ui
