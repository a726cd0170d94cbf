#include "teaching/handout_chart.h"

#include <QBarCategoryAxis>
#include <QCategoryAxis>
#include <QChart>
#include <QLegend>
#include <QLineSeries>
#include <QPainter>
#include <QValueAxis>
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

// An axis of the blank frame like `axis`: the same title and side, no values; the names of
// bar categories (the runs' strategies, what the step runs) kept. The values are 0 to 1 in
// an invisible ink, so the frame is laid out as a chart with labels is (Qt elides the title
// of an axis without them) and nothing in the file tells the measurement.
QAbstractAxis* blankAxis(QAbstractAxis* axis) {
    if (auto* bars = qobject_cast<QBarCategoryAxis*>(axis)) {
        auto* copy = new QBarCategoryAxis;
        copy->append(bars->categories());
        copy->setTitleText(bars->titleText());
        copy->setTitleFont(axisTitleFont());
        copy->setLabelsFont(axisLabelFont());
        copy->setGridLineVisible(false);
        return copy;
    }
    auto* copy = makeValueAxis(axis->titleText());
    copy->setRange(0, 1);
    copy->setTickCount(5);
    copy->setLabelsColor(Qt::transparent);
    copy->setGridLineVisible(true);
    return copy;
}

ScheduleDiagram diagramOf(const ResultSet& results, bool blank) {
    ScheduleDiagram diagram(scheduleRows(results), strategyOrder(results));
    diagram.setBlank(blank);
    return diagram;
}

}  // namespace

std::unique_ptr<QChart> buildStepChart(const LessonStep& step, const ResultSet& results) {
    std::unique_ptr<QChart> chart(
        buildChart(lessonChartKind(step.chart), results, wantedRun(step, results)));
    if (step.focus) setSelectedStrategy(chart.get(), QString::fromStdString(step.focus->name()));
    return chart;
}

std::unique_ptr<QChart> buildBlankStepChart(const LessonStep& step, const ResultSet& results) {
    const std::unique_ptr<QChart> full = buildStepChart(step, results);
    auto blank = std::make_unique<QChart>();
    // The kind's own title: the built one may name what it measured ("0 recomputed bars").
    styleChart(blank.get(), chartTitle(lessonChartKind(step.chart)));
    blank->legend()->setVisible(false);
    // An empty series on the axes: Qt lays out an axis no series uses without room for its
    // title (it prints "…").
    auto* none = new QLineSeries;
    blank->addSeries(none);
    for (QAbstractAxis* axis : full->axes()) {
        const Qt::Alignment side = axis->alignment();
        QAbstractAxis* copy = blankAxis(axis);
        blank->addAxis(
            copy, side ? side
                       : (axis->orientation() == Qt::Horizontal ? Qt::AlignBottom : Qt::AlignLeft));
        none->attachAxis(copy);
    }
    return blank;
}

qreal stepChartHeight(const LessonStep& step, const ResultSet& results, qreal width, bool blank) {
    const qreal scale = width / kLayoutWidth;
    if (isPainted(lessonChartKind(step.chart)))
        return diagramOf(results, blank).heightFor(kLayoutWidth) * scale;
    return kLayoutHeight * scale;
}

void paintStepChart(QPainter& painter, const LessonStep& step, const ResultSet& results,
                    const QRectF& area, bool blank) {
    const qreal scale = area.width() / kLayoutWidth;
    painter.save();
    painter.translate(area.topLeft());
    painter.scale(scale, scale);
    painter.setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing);
    if (isPainted(lessonChartKind(step.chart))) {
        const ScheduleDiagram diagram = diagramOf(results, blank);
        const QRectF layout(0, 0, kLayoutWidth, diagram.heightFor(kLayoutWidth));
        diagram.paint(painter, layout, blank ? -1 : selectedRow(step, results), Qt::black);
    } else {
        std::unique_ptr<QChart> chart =
            blank ? buildBlankStepChart(step, results) : buildStepChart(step, results);
        renderChart(chart.get(), &painter, QSizeF(kLayoutWidth, kLayoutHeight));
    }
    painter.restore();
}

}  // namespace ckptlab::ui
