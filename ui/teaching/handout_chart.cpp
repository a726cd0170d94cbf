#include "teaching/handout_chart.h"

#include <QChart>
#include <QPainter>
#include <memory>

#include "charts/chart_builders.h"
#include "charts/chart_render.h"
#include "charts/chart_style.h"
#include "charts/schedule_diagram.h"
#include "teaching/lesson_chart.h"

namespace ckptlab::ui {

namespace {

// Charts are laid out at this size, then scaled to the page: text keeps the proportions of
// an exported PNG made narrower.
constexpr qreal kLayoutWidth = 820;
constexpr qreal kLayoutHeight = 500;

// The run the step asks the chart to show (the registry's chartFocus decides), or null.
const RunResult* wantedRun(const LessonStep& step, const ResultSet& results) {
    return step.focus ? results.find(*step.focus) : nullptr;
}

int selectedRow(const LessonStep& step, const ResultSet& results) {
    const RunResult* run = wantedRun(step, results);
    return run ? int(run - results.runs.data()) : -1;
}

}  // namespace

std::unique_ptr<QChart> buildStepChart(const LessonStep& step, const ResultSet& results) {
    std::unique_ptr<QChart> chart(
        buildChart(lessonChartKind(step.chart), results, wantedRun(step, results)));
    if (step.focus) setSelectedStrategy(chart.get(), QString::fromStdString(step.focus->name()));
    return chart;
}

qreal stepChartHeight(const LessonStep& step, const ResultSet& results, qreal width) {
    const qreal scale = width / kLayoutWidth;
    if (isPainted(lessonChartKind(step.chart))) {
        const ScheduleDiagram diagram(scheduleRows(results), strategyOrder(results));
        return diagram.heightFor(kLayoutWidth) * scale;
    }
    return kLayoutHeight * scale;
}

void paintStepChart(QPainter& painter, const LessonStep& step, const ResultSet& results,
                    const QRectF& area) {
    const qreal scale = area.width() / kLayoutWidth;
    painter.save();
    painter.translate(area.topLeft());
    painter.scale(scale, scale);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    if (isPainted(lessonChartKind(step.chart))) {
        const ScheduleDiagram diagram(scheduleRows(results), strategyOrder(results));
        const QRectF layout(0, 0, kLayoutWidth, diagram.heightFor(kLayoutWidth));
        diagram.paint(painter, layout, selectedRow(step, results), Qt::black);
    } else {
        std::unique_ptr<QChart> chart = buildStepChart(step, results);
        renderChart(chart.get(), &painter, QSizeF(kLayoutWidth, kLayoutHeight));
    }
    painter.restore();
}

}  // namespace ckptlab::ui
