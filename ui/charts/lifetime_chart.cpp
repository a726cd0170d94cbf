// Chart 3: for one run, a bar per block from when its activations are saved to when they are
// freed, and with the chain's ends a row for the embedding above block 0 and one for the LM
// head below the last block. Each phase (forward, recompute) is one QAreaSeries holding all its
// bars, so even hundreds of blocks cost two series.
#include <QAreaSeries>
#include <QCategoryAxis>
#include <QChart>
#include <QFontMetricsF>
#include <QLineSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <iterator>
#include <memory>

#include "charts/chart_builders.h"
#include "charts/chart_interaction.h"
#include "charts/chart_style.h"
#include "charts/run_text.h"
#include "ckptlab/model/summary.h"

namespace ckptlab::ui {

namespace {

struct Bar {
    int block;  // the row: a block, or the chain's ends placed around them (lifetimeRow)
    Phase phase;
    double begin;
    double end;
    std::int64_t bytes;
};

// Bars of one phase sorted by block then time, overlapping ones of a block merged: an area
// path is filled odd-even, so overlaps would punch holes.
std::vector<Bar> barsOf(const RunResult& run, Phase phase) {
    std::vector<Bar> bars;
    for (const BlockLifetime& b : run.blocks)
        if (b.phase == phase && b.freed_ms >= b.saved_ms)
            if (const std::optional<int> row = lifetimeRow(run, b.block))
                bars.push_back({*row, b.phase, b.saved_ms, b.freed_ms, b.bytes});
    std::sort(bars.begin(), bars.end(), [](const Bar& a, const Bar& b) {
        return a.block != b.block ? a.block < b.block : a.begin < b.begin;
    });
    std::vector<Bar> merged;
    for (const Bar& bar : bars) {
        if (!merged.empty() && merged.back().block == bar.block && bar.begin <= merged.back().end) {
            merged.back().end = std::max(merged.back().end, bar.end);
            merged.back().bytes = std::max(merged.back().bytes, bar.bytes);
        } else {
            merged.push_back(bar);
        }
    }
    return merged;
}

double halfHeight(std::int64_t bytes, std::int64_t maxBytes) {
    // Thickness shows size: the biggest bar fills 80 % of its row, none is thinner than 24 %.
    if (maxBytes <= 0) return 0.3;
    return 0.12 + 0.28 * double(bytes) / double(maxBytes);
}

// Rectangles joined along their rows' centre lines; upper and lower lines retrace the same
// joins, which therefore enclose no area.
QAreaSeries* barArea(const std::vector<Bar>& bars, std::int64_t maxBytes) {
    auto* upper = new QLineSeries;
    auto* lower = new QLineSeries;
    QList<QPointF> up, down;
    for (const Bar& bar : bars) {
        const double y = bar.block;
        const double h = halfHeight(bar.bytes, maxBytes);
        const double end = std::max(bar.end, bar.begin + 1e-9);  // keep zero-length bars drawable
        up << QPointF(bar.begin, y) << QPointF(bar.begin, y + h) << QPointF(end, y + h)
           << QPointF(end, y);
        down << QPointF(bar.begin, y) << QPointF(bar.begin, y - h) << QPointF(end, y - h)
             << QPointF(end, y);
    }
    upper->replace(up);
    lower->replace(down);
    return new QAreaSeries(upper, lower);
}

// The row's name when it is a chain's end (the embedding above block 0, the LM head below
// the last block), else empty.
QString endRowName(int row, int depth) {
    return row == -1      ? chainEndName(kEmbeddingBlock)
           : row == depth ? chainEndName(kHeadBlock)
                          : QString();
}

QString barText(const QString& strategy, const Bar& bar, int depth) {
    const QString end = endRowName(bar.block, depth);
    if (!end.isEmpty()) {
        //: %2 is a part of the chain: the embedding or the LM head
        const QString text = bar.phase == Phase::Recompute
                                 ? ChartText::tr(
                                       "%1, %2: recomputed activations\n"
                                       "saved at %3, freed at %4 (%5 alive)\n%6")
                                 : ChartText::tr(
                                       "%1, %2: forward activations\n"
                                       "saved at %3, freed at %4 (%5 alive)\n%6");
        return text.arg(strategy, end, formatMs(bar.begin), formatMs(bar.end),
                        formatMs(bar.end - bar.begin), formatMiB(double(bar.bytes) / kMiB));
    }
    const QString text = bar.phase == Phase::Recompute
                             ? ChartText::tr(
                                   "%1, block %2: recomputed activations\n"
                                   "saved at %3, freed at %4 (%5 alive)\n%6")
                             : ChartText::tr(
                                   "%1, block %2: forward activations\n"
                                   "saved at %3, freed at %4 (%5 alive)\n%6");
    return text.arg(strategy, QString::number(bar.block), formatMs(bar.begin), formatMs(bar.end),
                    formatMs(bar.end - bar.begin), formatMiB(double(bar.bytes) / kMiB));
}

// The block axis's title; projector fonts leave the plot too short for the long one.
QString blockAxisTitle() {
    return isProjectorLook() ? ChartText::tr("Block")
                             : ChartText::tr("Block (bar thickness = bytes kept)");
}

constexpr int kTickSteps[] = {1, 2, 5, 10, 20, 25, 50, 100};

// Blocks between ticks, so labels never collide (projector labels are taller).
int blockTickInterval(int depth) {
    for (int step : kTickSteps)
        if (depth / step <= (isProjectorLook() ? 6 : 20)) return step;
    return 100;
}

// The same, and few enough labels for the axis's height: Qt Charts gives each label the
// axis's height over the number of ticks, less 4 px of padding above and below, and prints
// "…" for a label that is taller (a handout's chart is laid out smaller than the window's).
// `extraRows`: labelled rows beside the blocks (the chain's ends).
int fittingTickInterval(int depth, int extraRows, qreal height) {
    const qreal need = QFontMetricsF(axisLabelFont()).height() + 2 * 4 + 3;
    for (int step : kTickSteps) {
        if (step < blockTickInterval(depth)) continue;
        const int ticks = (std::max(depth, 1) - 1) / step + 1 + extraRows;
        if (height / ticks >= need) return step;
    }
    return kTickSteps[std::size(kTickSteps) - 1];
}

// Blocks down the side, block 0 on top as in a Gantt chart; ticks thinned so labels never
// collide.
QValueAxis* makeBlockAxis(int depth) {
    auto* y = makeValueAxis(blockAxisTitle());
    y->setReverse(true);
    y->setRange(-0.6, depth - 0.4);
    y->setTickType(QValueAxis::TicksDynamic);
    y->setTickAnchor(0);
    y->setTickInterval(blockTickInterval(depth));
    y->setLabelFormat(QStringLiteral("%d"));
    y->setGridLineVisible(false);
    return y;
}

// The chain axis's labels: "embedding", every `step`-th block, "LM head".
void labelChainAxis(QCategoryAxis* y, int depth, int step) {
    for (const QString& label : y->categoriesLabels()) y->remove(label);
    y->append(endRowName(-1, depth), -1);
    for (int b = 0; b < depth; b += step) y->append(QString::number(b), b);
    y->append(endRowName(depth, depth), depth);
}

// With the chain's ends: the same block rows and ticks, a row named "embedding" above block 0
// and one named "LM head" below the last block. A category axis, since a value axis writes
// numbers only; each label sits on its row's value.
QValueAxis* makeChainAxis(int depth) {
    auto* y = new QCategoryAxis;
    y->setTitleText(blockAxisTitle());
    y->setTitleFont(axisTitleFont());
    y->setLabelsFont(axisLabelFont());
    y->setReverse(true);
    y->setRange(-1.6, depth + 0.6);
    y->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    y->setStartValue(-1.6);
    labelChainAxis(y, depth, blockTickInterval(depth));
    y->setGridLineVisible(false);
    return y;
}

// Thins the block labels whenever the plot's height changes, so none is elided to "…".
void fitBlockLabels(QChart* chart, QValueAxis* y, int depth) {
    auto* chain = qobject_cast<QCategoryAxis*>(y);
    auto step = std::make_shared<int>(blockTickInterval(depth));
    QObject::connect(
        chart, &QChart::plotAreaChanged, y, [y, chain, depth, step](const QRectF& plot) {
            const int wanted = fittingTickInterval(depth, chain ? 2 : 0, plot.height());
            if (wanted == *step) return;
            *step = wanted;
            if (chain)
                labelChainAxis(chain, depth, wanted);
            else
                y->setTickInterval(wanted);
        });
}

// The forward activations light, the recomputed ones dark, in the strategy's colour.
void addLayers(QChart* chart, QAbstractAxis* x, QAbstractAxis* y, const QString& name,
               const QColor& color, const std::vector<Bar>& forward,
               const std::vector<Bar>& recompute, std::int64_t maxBytes) {
    QColor light = color.lighter(135);
    light.setAlpha(170);
    const QColor dark = color.darker(180);
    struct Layer {
        const std::vector<Bar>* bars;
        QString label;
        QColor color;
    };
    for (const Layer& layer : {Layer{&forward, ChartText::tr("forward activations"), light},
                               Layer{&recompute, ChartText::tr("recomputed activations"), dark}}) {
        if (layer.bars->empty()) continue;
        QAreaSeries* area = barArea(*layer.bars, maxBytes);
        area->setName(layer.label);
        area->setProperty("ckptlabRecompute", layer.bars == &recompute);  // names are translated
        area->setProperty(kStrategyProperty, name);
        area->setBrush(layer.color);
        area->setPen(Qt::NoPen);
        attachArea(chart, area, x, y);
    }
}

// A bar's tooltip: its block, when it was saved and freed, and its bytes.
void addInteraction(QChart* chart, const QString& name, const std::vector<Bar>& forward,
                    const std::vector<Bar>& recompute, int depth) {
    auto* interaction = new ChartInteraction(chart);
    interaction->pointTooltip = [name, forward, recompute, depth](QAbstractSeries* series,
                                                                  const QPointF& value) {
        const bool isRecompute = series->property("ckptlabRecompute").toBool();
        const int block = int(std::lround(value.y()));
        for (const Bar& bar : isRecompute ? recompute : forward)
            if (bar.block == block && bar.begin <= value.x() && value.x() <= bar.end)
                return barText(name, bar, depth);
        return QString();
    };
    interaction->pointStrategy = [name](QAbstractSeries*, const QPointF&) { return name; };
}

}  // namespace

QChart* buildLifetimeChart(const ResultSet& results, const RunResult& run) {
    const QString name = QString::fromStdString(run.name());
    if (run.error)
        return makeEmptyChart(ChartText::tr("No results for %1: the run failed").arg(name));
    const std::vector<Bar> forward = barsOf(run, Phase::Forward);
    const std::vector<Bar> recompute = barsOf(run, Phase::Recompute);
    if (forward.empty() && recompute.empty())
        return makeEmptyChart(ChartText::tr("No activation lifetimes recorded for %1").arg(name));

    const int depth = lifetimeBlockRows(run);
    double maxT = 0;
    std::int64_t maxBytes = 0;
    bool ends = false;
    for (const auto* bars : {&forward, &recompute})
        for (const Bar& bar : *bars) {
            ends = ends || bar.block < 0 || bar.block >= depth;
            maxT = std::max(maxT, bar.end);
            maxBytes = std::max(maxBytes, bar.bytes);
        }

    auto* chart = new QChart;
    // Projector fonts leave no width for the count: the legend shows the recomputed bars.
    styleChart(chart,
               isProjectorLook()
                   ? ChartText::tr("%1: %2").arg(chartTitle(ChartKind::Lifetimes), name)
                   : ChartText::tr("%1: %2 (%n recomputed bar(s))", nullptr, int(recompute.size()))
                         .arg(chartTitle(ChartKind::Lifetimes), name));
    const bool big = isProjectorLook();
    auto* x = makeValueAxis(big ? ChartText::tr("Time (ms)")
                                : ChartText::tr("Time since the step began (ms)"));
    auto* y = ends ? makeChainAxis(depth) : makeBlockAxis(depth);
    setNiceRange(x, 0, maxT, 0.01, true, big ? 7 : 12, false);
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    fitBlockLabels(chart, y, depth);
    addLayers(chart, x, y, name, strategyColor(name, strategyOrder(results)), forward, recompute,
              maxBytes);
    addInteraction(chart, name, forward, recompute, depth);
    return chart;
}

int lifetimeBlockRows(const RunResult& run) {
    int depth = std::max(1, run.config.depth);
    for (const BlockLifetime& b : run.blocks) depth = std::max(depth, b.block + 1);
    return depth;
}

std::optional<int> lifetimeRow(const RunResult& run, int block) {
    if (block >= 0) return block;
    if (block == kEmbeddingBlock) return -1;
    if (block == kHeadBlock) return lifetimeBlockRows(run);
    return std::nullopt;
}

}  // namespace ckptlab::ui
