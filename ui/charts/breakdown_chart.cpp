// Chart 4: what the memory holds at each run's peak, stacked per strategy (with the chain's
// ends and mixed precision, also the logits and the bf16 weight copies). It shows why a small
// model saves little: checkpointing only shrinks the activations part of the bar. Bars run
// horizontally so long sweeps keep every strategy's name readable. Runs that ran out of memory
// have no peak to break down and are left out; a memory limit the runs share is a vertical line
// (the bars are totals, parameters included, like the limit).
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QCoreApplication>
#include <QHorizontalStackedBarSeries>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>
#include <array>

#include "charts/chart_builders.h"
#include "charts/chart_interaction.h"
#include "charts/chart_style.h"
#include "charts/point_labels.h"
#include "ckptlab/model/summary.h"

namespace ckptlab::ui {

namespace {

struct Part {
    const char* label;
    std::int64_t Breakdown::*field;
    QColor color;
};

// Muted colours for what checkpointing cannot change, a strong one for activations.
const std::array<Part, 6> kParts = {{
    {QT_TRANSLATE_NOOP("ChartText", "parameters"), &Breakdown::parameters,
     QColor(0x7b, 0x8e, 0xa8)},
    {QT_TRANSLATE_NOOP("ChartText", "input"), &Breakdown::input, QColor(0xa9, 0xbc, 0xcf)},
    {QT_TRANSLATE_NOOP("ChartText", "optimizer state"), &Breakdown::optimizer_state,
     QColor(0x9d, 0x8f, 0xb8)},
    {QT_TRANSLATE_NOOP("ChartText", "gradients"), &Breakdown::gradients, QColor(0xd4, 0xb9, 0x6a)},
    {QT_TRANSLATE_NOOP("ChartText", "activations"), &Breakdown::activations,
     QColor(0xe0, 0x5a, 0x3c)},
    {QT_TRANSLATE_NOOP("ChartText", "other"), &Breakdown::other, QColor(0xbd, 0xbd, 0xbd)},
}};

// Parts only some runs have, drawn after the others and only when a run holds any: mixed
// precision's bf16 copies of the weights (muted, like the parameters they copy) and the LM
// head's logits (strong: loss chunks shrink them, as checkpointing shrinks activations).
const std::array<Part, 2> kOptionalParts = {{
    {QT_TRANSLATE_NOOP("ChartText", "weight copies (bf16)"), &Breakdown::weight_copies,
     QColor(0x8f, 0xa8, 0x9b)},
    {QT_TRANSLATE_NOOP("ChartText", "logits"), &Breakdown::logits, QColor(0x6a, 0x3d, 0x9a)},
}};

// The parts the rows' bars show: the six every run has, then the optional ones some run has.
std::vector<Part> shownParts(const std::vector<const RunResult*>& runs) {
    std::vector<Part> parts(kParts.begin(), kParts.end());
    for (const Part& part : kOptionalParts)
        if (std::any_of(runs.begin(), runs.end(),
                        [&](const RunResult* run) { return run->breakdown.*part.field > 0; }))
            parts.push_back(part);
    return parts;
}

// The bars' rows from the top: display names (unique), the runs' strategies and their totals.
struct Rows {
    std::vector<const RunResult*> runs;
    QStringList categories, strategies;
    std::vector<double> totals;  // MiB
};

// A category axis counts from the bottom (and ignores setReverse for bars), so the runs go in
// backwards to put the set's first strategy on top, as in the table.
Rows barRows(const std::vector<const RunResult*>& runs) {
    Rows rows;
    rows.runs.assign(runs.rbegin(), runs.rend());
    for (const RunResult* run : runs) {
        // The category axis drops repeated names, so a repeated strategy gets a suffix.
        const QString strategy = QString::fromStdString(run->name());
        QString name = strategy;
        for (int n = 2; rows.categories.contains(name); ++n)
            name = QStringLiteral("%1 #%2").arg(strategy).arg(n);
        rows.categories << name;
        rows.strategies << strategy;
        rows.totals.push_back(double(run->breakdown.total()) / kMiB);
    }
    std::reverse(rows.categories.begin(), rows.categories.end());
    std::reverse(rows.strategies.begin(), rows.strategies.end());
    std::reverse(rows.totals.begin(), rows.totals.end());
    return rows;
}

// One stacked bar per run, one set per part of the breakdown.
QHorizontalStackedBarSeries* stackedBars(const Rows& rows) {
    auto* bars = new QHorizontalStackedBarSeries;
    bars->setBarWidth(0.62);
    for (const Part& part : shownParts(rows.runs)) {
        auto* set = new QBarSet(ChartText::tr(part.label));
        set->setColor(part.color);
        set->setBorderColor(part.color.darker(115));
        for (const RunResult* run : rows.runs)
            set->append(double(run->breakdown.*part.field) / kMiB);
        bars->append(set);
    }
    return bars;
}

// The runs' shared memory limit as a vertical line across every bar.
void addLimitLine(QChart* chart, QAbstractAxis* x, QAbstractAxis* y, double limit, int rowCount) {
    auto* line = new QLineSeries;
    line->setObjectName(QStringLiteral("memoryLimit"));
    line->setName(QCoreApplication::translate("ckptlab", "memory limit %1").arg(formatMiB(limit)));
    QPen pen(outOfMemoryColor(), 1.6, Qt::DashLine);
    pen.setCosmetic(true);
    line->setPen(pen);
    line->append(limit, -0.5);
    line->append(limit, double(rowCount) - 0.5);
    attach(chart, line, x, y);
}

// A dot in the strategy's colour at the end of each bar, labelled with the total, ties the
// bar to the other charts' colours.
void addTotals(QChart* chart, QAbstractAxis* x, QAbstractAxis* y, const Rows& rows,
               const QStringList& order) {
    auto* labels = new PointLabels(chart);
    for (int i = 0; i < rows.categories.size(); ++i) {
        auto* end = new QScatterSeries;
        end->setName(rows.categories[i]);
        end->setProperty(kStrategyProperty, rows.strategies[i]);
        end->setProperty("ckptlabBaseMarker", 11.0);
        end->setMarkerSize(11);
        end->setColor(strategyColor(rows.strategies[i], order));
        end->setBorderColor(Qt::white);
        end->append(rows.totals[i], i);
        attach(chart, end, x, y);
        hideFromLegend(chart, end);
        labels->add(end, 0, QStringLiteral("%1 MiB").arg(rows.totals[i], 0, 'f', 1));
    }
}

// Tooltips for a bar's part and a row's total; both select the row's strategy.
void addInteraction(QChart* chart, const Rows& rows) {
    const QStringList categories = rows.categories, strategies = rows.strategies;
    const std::vector<double> totals = rows.totals;
    auto* interaction = new ChartInteraction(chart);
    interaction->barTooltip = [categories, totals](QBarSet* set, int index) {
        if (index < 0 || index >= categories.size()) return QString();
        const double mib = set->at(index);
        const double share = totals[size_t(index)] > 0 ? 100.0 * mib / totals[size_t(index)] : 0.0;
        return ChartText::tr("%1: %2\n%3 (%4 % of %5)")
            .arg(categories[index], set->label(), formatMiB(mib), QString::number(share, 'f', 1),
                 formatMiB(totals[size_t(index)]));
    };
    interaction->barStrategy = [strategies](QBarSet*, int index) {
        return index >= 0 && index < strategies.size() ? strategies[index] : QString();
    };
    interaction->pointTooltip = [categories, totals](QAbstractSeries* series, const QPointF&) {
        const int index = categories.indexOf(series->name());
        return index < 0 ? QString()
                         : ChartText::tr("%1: %2 in total")
                               .arg(categories[index], formatMiB(totals[size_t(index)]));
    };
    interaction->pointStrategy = [](QAbstractSeries* series, const QPointF&) {
        return series->property(kStrategyProperty).toString();
    };
}

}  // namespace

QChart* buildBreakdownChart(const ResultSet& results) {
    const auto runs = plottedRuns(results);
    if (runs.empty()) return makeEmptyChart();

    auto* chart = new QChart;
    styleChart(chart, chartTitle(ChartKind::Breakdown));
    const Rows rows = barRows(runs);
    auto* bars = stackedBars(rows);
    chart->addSeries(bars);

    auto* y = new QBarCategoryAxis;
    y->append(rows.categories);
    y->setLabelsFont(axisLabelFont());
    auto* x = makeValueAxis(ChartText::tr(
        "Memory at the step's peak (MiB); checkpointing shrinks only the activations"));
    const double maxTotal = *std::max_element(rows.totals.begin(), rows.totals.end());
    double limit = runs.front()->config.memory_limit_mib;
    for (const RunResult& run : results.runs)
        if (run.config.memory_limit_mib != limit) limit = 0;  // no one line for all
    const bool drawLimit = limit > 0 && limit <= std::max(maxTotal, 1e-9) * 2.0;
    // Room for the total beside the longest bar.
    setNiceRange(x, 0, drawLimit ? std::max(maxTotal, limit) : maxTotal, 0.12, true, 10);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);
    bars->attachAxis(x);
    bars->attachAxis(y);

    if (drawLimit) addLimitLine(chart, x, y, limit, int(rows.categories.size()));
    addTotals(chart, x, y, rows, strategyOrder(results));
    addInteraction(chart, rows);
    return chart;
}

}  // namespace ckptlab::ui
