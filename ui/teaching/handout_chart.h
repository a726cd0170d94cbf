#pragma once
// A lesson step's chart for the handout, built from its results with the window's own chart
// builders (or the schedule diagram), its focus strategy emphasised.

#include <QRectF>

#include "ckptlab/lesson.h"

class QPainter;

namespace ckptlab::ui {

// The height the step's chart takes at `width`.
qreal stepChartHeight(const LessonStep& step, const ResultSet& results, qreal width);
// Paints it over `area` (its width; the height stepChartHeight gave). Needs a QApplication.
void paintStepChart(QPainter& painter, const LessonStep& step, const ResultSet& results,
                    const QRectF& area);

}  // namespace ckptlab::ui
