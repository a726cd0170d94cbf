#include "teaching/handout_chart.h"

#include <QChart>
#include <QPainter>
#include <memory>

#include "charts/chart_builders.h"
#include "charts/chart_render.h"
#include "charts/chart_style.h"
#include "charts/schedule_diagram.h"
#include "ckptlab/strategy.h"

namespace ckptlab::ui {

namespace {

// Charts are laid out at this size, then scaled to the page: text keeps the proportions of
// an exported PNG made narrower.
constexpr qreal kLayoutWidth = 820;
constexpr qreal kLayoutHeight = 500;

QString focusOf(const LessonStep& step) {
    const ExperimentConfig& c = step.experiment.config;
    const auto parsed = tryParseStrategy(step.focus, c.depth, c.block);
    return QString::fromStdString(parsed ? parsed->name() : step.focus);
}

const RunResult* focusRun(const LessonStep& step, const ResultSet& results) {
    const std::string focus = focusOf(step).toStdString();
    for (const RunResult* run : plottedRuns(results))
        if (run->strategy == focus) return run;
    return representativeRun(results);
}

std::unique_ptr<QChart> buildStepChart(const LessonStep& step, const ResultSet& results) {
    QChart* chart = nullptr;
    switch (step.chart) {
    case LessonChart::Tradeoff: chart = buildTradeoffChart(results); break;
    case LessonChart::Timeline:
        chart = buildTimelineChart(results,
                                   makeTimelineData(results, focusRun(step, results), 2000, 6));
        break;
    case LessonChart::Lifetimes: {
        const RunResult* run = focusRun(step, results);
        chart = run ? buildLifetimeChart(results, *run) : makeEmptyChart();
        break;
    }
    case LessonChart::Breakdown: chart = buildBreakdownChart(results); break;
    case LessonChart::Scaling: {
        ScalingAxis axis;
        chart = detectScaling(results, &axis)
                    ? buildScalingChart(results, axis, ScalingMetric::ActivationBytes)
                    : makeEmptyChart();
        break;
    }
    case LessonChart::Schedule: break;  // painted, not a QChart
    }
    if (chart && !step.focus.empty()) setSelectedStrategy(chart, focusOf(step));
    return std::unique_ptr<QChart>(chart);
}

int selectedRow(const LessonStep& step, const ResultSet& results) {
    const std::string focus = focusOf(step).toStdString();
    for (size_t i = 0; i < results.runs.size(); ++i)
        if (results.runs[i].strategy == focus) return int(i);
    return -1;
}

}  // namespace

qreal stepChartHeight(const LessonStep& step, const ResultSet& results, qreal width) {
    const qreal scale = width / kLayoutWidth;
    if (step.chart == LessonChart::Schedule) {
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
    if (step.chart == LessonChart::Schedule) {
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
