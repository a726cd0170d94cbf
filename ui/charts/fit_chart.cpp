// The "Will it fit?" bars: each strategy's peak at the model's real size, split as the
// breakdown chart splits a measured run, plus what the caching allocator reserves above it,
// against the GPU's capacity. Horizontal like the breakdown chart, so long schedule names stay
// readable; GB (10^9 bytes) because capacities are sold in them.
#include "charts/fit_chart.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QHorizontalStackedBarSeries>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <array>
#include <cmath>

#include "charts/chart_builders.h"
#include "charts/chart_interaction.h"
#include "charts/chart_style.h"
#include "charts/point_labels.h"
#include "ckptlab/model/summary.h"
#include "ckptlab/planning/full_size.h"

namespace ckptlab::ui {

namespace {

struct Part {
    const char* label;
    QColor color;
};

// The breakdown chart's colours for the same parts; the reserve is a pale grey, being neither
// data nor state, only room the allocator keeps.
const std::array<Part, 8> kParts = {{
    {QT_TRANSLATE_NOOP("ChartText", "weights"), QColor(0x7b, 0x8e, 0xa8)},
    {QT_TRANSLATE_NOOP("ChartText", "weight copies (bf16)"), QColor(0x8f, 0xa8, 0x9b)},
    {QT_TRANSLATE_NOOP("ChartText", "gradients"), QColor(0xd4, 0xb9, 0x6a)},
    {QT_TRANSLATE_NOOP("ChartText", "optimizer state"), QColor(0x9d, 0x8f, 0xb8)},
    {QT_TRANSLATE_NOOP("ChartText", "activations"), QColor(0xe0, 0x5a, 0x3c)},
    {QT_TRANSLATE_NOOP("ChartText", "logits"), QColor(0x6a, 0x3d, 0x9a)},
    {QT_TRANSLATE_NOOP("ChartText", "other"), QColor(0xbd, 0xbd, 0xbd)},
    {QT_TRANSLATE_NOOP("ChartText", "reserved, not allocated"), QColor(0xe4, 0xe4, 0xe4)},
}};

double gb(std::int64_t bytes) { return double(bytes) / kGB; }

// A size on the chart (kept in GB for the axis) as core writes sizes: MB below a gigabyte, so a
// small model's bars never read "0.00 GB".
QString gbText(double value) {
    return QString::fromStdString(readableSize(std::llround(value * kGB)));
}

// The capacity as a vertical line across every bar.
void addCapacityLine(QChart* chart, QAbstractAxis* x, QAbstractAxis* y, double capacity, int rows) {
    auto* line = new QLineSeries;
    line->setObjectName(QStringLiteral("capacity"));
    line->setName(ChartText::tr("capacity %1").arg(gbText(capacity)));
    QPen pen(outOfMemoryColor(), 1.8, Qt::DashLine);
    pen.setCosmetic(true);
    line->setPen(pen);
    line->append(capacity, -0.5);
    line->append(capacity, double(rows) - 0.5);
    attach(chart, line, x, y);
}

// A dot in the row's colour at the end of each bar, labelled with what it reserves.
void addTotals(QChart* chart, QAbstractAxis* x, QAbstractAxis* y, const QStringList& names,
               const std::vector<double>& totals) {
    auto* labels = new PointLabels(chart);
    for (int i = 0; i < names.size(); ++i) {
        auto* end = new QScatterSeries;
        end->setName(names[i]);
        end->setProperty(kStrategyProperty, names[i]);
        end->setProperty("ckptlabBaseMarker", 11.0);
        end->setMarkerSize(11);
        end->setColor(strategyColor(names[i], names));
        end->setBorderColor(Qt::white);
        end->append(totals[size_t(i)], i);
        attach(chart, end, x, y);
        hideFromLegend(chart, end);
        labels->add(end, 0, gbText(totals[size_t(i)]));
    }
}

void addInteraction(QChart* chart, const QStringList& names, const std::vector<double>& totals) {
    auto* interaction = new ChartInteraction(chart);
    interaction->barTooltip = [names, totals](QBarSet* set, int index) {
        if (index < 0 || index >= names.size()) return QString();
        return ChartText::tr("%1: %2\n%3 of %4 reserved")
            .arg(names[index], set->label(), gbText(set->at(index)), gbText(totals[size_t(index)]));
    };
    interaction->barStrategy = [names](QBarSet*, int index) {
        return index >= 0 && index < names.size() ? names[index] : QString();
    };
    interaction->pointTooltip = [names, totals](QAbstractSeries* series, const QPointF&) {
        const int index = names.indexOf(series->name());
        return index < 0 ? QString()
                         : ChartText::tr("%1: %2 reserved at the peak")
                               .arg(names[index], gbText(totals[size_t(index)]));
    };
    interaction->pointStrategy = [](QAbstractSeries* series, const QPointF&) {
        return series->property(kStrategyProperty).toString();
    };
}

}  // namespace

QStringList fitRowNames(const FullSizePlan& plan) {
    QStringList names;
    for (const StrategyAtSize& s : plan.strategies)
        names << QString::fromStdString(s.strategy.name());
    if (plan.fastest_at_size) names << ChartText::tr("fastest that fits");
    return names;
}

QStringList fitPartNames() {
    QStringList names;
    for (const Part& part : kParts) names << ChartText::tr(part.label);
    return names;
}

std::vector<double> fitPartValues(const StrategyAtSize& row) {
    const PeakSplit& s = row.split;
    const std::int64_t reserve = std::max<std::int64_t>(0, row.reserved - row.allocated);
    return {gb(s.weights),     gb(s.weight_copies), gb(s.gradients), gb(s.optimizer_state),
            gb(s.activations), gb(s.logits),        gb(s.other),     gb(reserve)};
}

QChart* buildFitChart(const FullSizePlan& plan) {
    const std::vector<const StrategyAtSize*> rows = fullSizeRows(plan);
    if (rows.empty()) return makeEmptyChart();
    // A category axis counts from the bottom: the rows go in backwards to put the plan's first
    // strategy on top, as in the table.
    QStringList names = fitRowNames(plan);
    std::vector<double> totals;
    for (const StrategyAtSize* row : rows)
        totals.push_back(gb(std::max(row->reserved, row->allocated)));
    std::reverse(names.begin(), names.end());
    std::reverse(totals.begin(), totals.end());
    std::vector<const StrategyAtSize*> bottomUp(rows.rbegin(), rows.rend());

    auto* chart = new QChart;
    styleChart(chart, ChartText::tr("Memory at the peak: batch %1, sequence %2, capacity %3")
                          .arg(plan.config.batch)
                          .arg(plan.config.seq)
                          .arg(gbText(gb(plan.capacity))));
    auto* bars = new QHorizontalStackedBarSeries;
    bars->setBarWidth(0.62);
    const QStringList parts = fitPartNames();
    for (int p = 0; p < parts.size(); ++p) {
        auto* set = new QBarSet(parts[p]);
        set->setColor(kParts[size_t(p)].color);
        set->setBorderColor(kParts[size_t(p)].color.darker(115));
        for (const StrategyAtSize* row : bottomUp) set->append(fitPartValues(*row)[size_t(p)]);
        bars->append(set);
    }
    chart->addSeries(bars);

    auto* y = new QBarCategoryAxis;
    y->append(names);
    y->setLabelsFont(axisLabelFont());
    auto* x = makeValueAxis(ChartText::tr("Memory at the step's peak (GB, 10^9 bytes)"));
    const double capacity = gb(plan.capacity);
    const double most = *std::max_element(totals.begin(), totals.end());
    setNiceRange(x, 0, std::max(most, capacity), 0.12, true, 10);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    bars->attachAxis(x);
    bars->attachAxis(y);
    if (plan.capacity > 0) addCapacityLine(chart, x, y, capacity, int(names.size()));
    addTotals(chart, x, y, names, totals);
    addInteraction(chart, names, totals);
    placeLegend(chart);
    return chart;
}

RunResult predictedRun(const ExperimentConfig& config, const Strategy& strategy,
                       const Prediction& prediction, std::int64_t capacity) {
    RunResult run;
    run.config = config;
    run.config.memory_limit_mib = double(capacity) / kMiB;
    run.strategy = strategy;
    run.metrics.peak_bytes = prediction.peak_bytes;
    run.metrics.activation_bytes = prediction.activation_bytes;
    run.metrics.baseline_bytes = prediction.baseline_bytes;
    run.metrics.step_ms = prediction.step_ms;
    run.metrics.recompute_ms = prediction.recompute_ms;
    run.timeline = prediction.timeline;
    run.phases = prediction.phases;
    return run;
}

QChart* buildPredictedTimelineChart(const RunResult& run) {
    ResultSet results;
    results.runs.push_back(run);
    const RunResult& only = results.runs.front();
    const std::vector<TimelineData> data = makeTimelineData(results, &only, 2000, 1);
    QChart* chart = buildTimelineChart(results, data);
    if (!only.timeline.empty())
        chart->setTitle(ChartText::tr("Memory during one step of %1: predicted, not measured")
                            .arg(QString::fromStdString(only.name())));
    return chart;
}

}  // namespace ckptlab::ui
