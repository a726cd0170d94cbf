// The charts with the chain's ends (ExperimentConfig::vocab: the token embedding labelled
// kEmbeddingBlock, the LM head and loss kHeadBlock) and the breakdown's optional parts (bf16
// weight copies, logits), on hand-made runs: the new rows, cells, bars and words appear with
// them, and a run without them draws as before.
#include <QAreaSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QHorizontalStackedBarSeries>
#include <QImage>
#include <QLineSeries>
#include <QPainter>
#include <QValueAxis>
#include <QtTest>
#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>
#include <set>

#include "charts/chart_builders.h"
#include "charts/chart_interaction.h"
#include "charts/chart_style.h"
#include "charts/phase_bands.h"
#include "charts/run_text.h"
#include "charts/schedule_diagram.h"
#include "playback/step_playback.h"

#include "ui_test_support.h"  // the offscreen platform, before QApplication exists

using namespace ckptlab;
using namespace ckptlab::ui;

namespace {

constexpr int kDepth = 4;
constexpr std::int64_t kAct = 1024 * 1024;

// A traced step of `full` on four ffn blocks; with `ends`, an embedding before them and an LM
// head and its loss after, each with its spans, allocations and saved bytes.
RunResult makeRun(bool ends) {
    RunResult run;
    run.config.depth = kDepth;
    run.config.vocab = ends ? 1000 : 0;
    run.strategy = parseStrategy("full", kDepth, run.config.block);
    run.grad_check = GradCheck{true, 1e-7, 1e-5};
    std::int64_t total = 0;
    auto span = [&](Phase phase, int block, double begin, double end, std::int64_t bytes) {
        run.phases.push_back({phase, block, begin, end});
        total += bytes;
        run.timeline.push_back({(begin + end) / 2, bytes, total, phase, block});
    };
    double t = 0;
    if (ends) {
        span(Phase::Forward, kEmbeddingBlock, t, t + 1, kAct);
        run.blocks.push_back({kEmbeddingBlock, Phase::Forward, t + 1, 20, kAct});
        t += 1;
    }
    for (int b = 0; b < kDepth; ++b, t += 1) span(Phase::Forward, b, t, t + 1, kAct / 4);
    if (ends) {
        span(Phase::Forward, kHeadBlock, t, t + 1, 3 * kAct);
        run.blocks.push_back({kHeadBlock, Phase::Forward, t + 1, t + 3, 3 * kAct});
        t += 1;
    }
    span(Phase::Loss, ends ? kHeadBlock : -1, t, t + 0.5, 1024);
    t += 0.5;
    if (ends) {
        span(Phase::Backward, kHeadBlock, t, t + 1.5, -3 * kAct);
        t += 1.5;
    }
    for (int b = kDepth - 1; b >= 0; --b, t += 2) {
        run.phases.push_back({Phase::Backward, b, t, t + 2});
        span(Phase::Recompute, b, t, t + 0.5, kAct);
        run.blocks.push_back({b, Phase::Recompute, t + 0.5, t + 1.8, kAct});
        run.timeline.push_back({t + 1.8, -kAct, total -= kAct, Phase::Backward, b});
    }
    if (ends) span(Phase::Backward, kEmbeddingBlock, t, t + 1, -kAct);
    std::int64_t peak = 0;
    for (const TimelineEvent& e : run.timeline) peak = std::max(peak, e.total);
    run.metrics.peak_bytes = peak;
    run.metrics.step_ms = t + 1;
    run.breakdown = {8 * kAct, kAct, 0, kAct, kAct, kAct / 2};
    return run;
}

ResultSet setOf(std::initializer_list<RunResult> runs) {
    ResultSet set;
    set.runs.assign(runs.begin(), runs.end());
    return set;
}

template <typename T>
QList<T*> seriesOf(QChart* chart) {
    QList<T*> out;
    for (QAbstractSeries* s : chart->series())
        if (auto* typed = qobject_cast<T*>(s)) out << typed;
    return out;
}

QAbstractSeries* named(QChart* chart, const QString& objectName) {
    for (QAbstractSeries* s : chart->series())
        if (s->objectName() == objectName) return s;
    return nullptr;
}

// The y values the bars of a lifetimes chart sit on (their rows).
std::set<int> lifetimeRows(QChart* chart) {
    std::set<int> rows;
    for (QAreaSeries* area : seriesOf<QAreaSeries>(chart))
        for (const QPointF& p : area->upperSeries()->points()) rows.insert(int(std::lround(p.y())));
    return rows;
}

}  // namespace

class TestChainEndCharts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void whereNamesTheEnds() {
        QCOMPARE(whereText(Phase::Forward, kHeadBlock), QStringLiteral("forward of the LM head"));
        QCOMPARE(whereText(Phase::Backward, kEmbeddingBlock),
                 QStringLiteral("backward of the embedding"));
        QCOMPARE(whereText(Phase::Forward, 3), QStringLiteral("forward of block 3"));
        QCOMPARE(whereText(Phase::Loss, -1), QStringLiteral("loss"));
        QVERIFY(chainEndName(0).isEmpty());
    }

    void timelineMarksAndNamesTheEnds() {
        const ResultSet set = setOf({makeRun(true)});
        std::unique_ptr<QChart> chart(buildTimelineChart(set, makeTimelineData(set, nullptr)));
        auto* strip = qobject_cast<QAreaSeries*>(named(chart.get(), QStringLiteral("chainEnds")));
        QVERIFY(strip);
        QCOMPARE(strip->name(), QStringLiteral("embedding and LM head"));
        // The embedding's forward [0, 1), the head's forward, loss and backward [5, 8) merged,
        // and the embedding's backward at the end: three bars.
        QCOMPARE(strip->upperSeries()->count(), 3 * 4);
        QCOMPARE(strip->upperSeries()->at(0).x(), 0.0);
        QCOMPARE(strip->upperSeries()->at(4).x(), 5.0);
        QCOMPARE(strip->upperSeries()->at(7).x(), 8.0);
        QCOMPARE(strip->upperSeries()->at(11).x(), set.runs[0].phases.back().end_ms);

        // Boundaries at the embedding's, the blocks' and the head's starts.
        const std::vector<double> starts = blockBoundaries(set.runs[0].phases, 0.01);
        QVERIFY(std::find(starts.begin(), starts.end(), 0.0) != starts.end());
        QVERIFY(std::find(starts.begin(), starts.end(), 5.0) != starts.end());

        QLineSeries* line = nullptr;
        for (QLineSeries* s : seriesOf<QLineSeries>(chart.get()))
            if (s->property(kStrategyProperty).isValid()) line = s;
        QVERIFY(line);
        auto* interaction = ChartInteraction::of(chart.get());
        const QString head = interaction->pointTooltip(line, QPointF(5.5, 1));
        QVERIFY2(head.contains(QLatin1String("forward of the LM head")), qPrintable(head));
        const QString embedding = interaction->pointTooltip(line, QPointF(0.5, 1));
        QVERIFY2(embedding.contains(QLatin1String("forward of the embedding")),
                 qPrintable(embedding));
        const QString block = interaction->pointTooltip(line, QPointF(2.5, 1));
        QVERIFY2(block.contains(QLatin1String("forward of block 1")), qPrintable(block));
    }

    void timelineWithoutEndsIsUnchanged() {
        const ResultSet set = setOf({makeRun(false)});
        std::unique_ptr<QChart> chart(buildTimelineChart(set, makeTimelineData(set, nullptr)));
        QVERIFY(!named(chart.get(), QStringLiteral("chainEnds")));
        QStringList names;
        for (QAbstractSeries* s : chart->series()) names << s->name();
        QCOMPARE(names, (QStringList{"forward", "loss", "recompute", "backward", "block boundaries",
                                     "full"}));
    }

    void lifetimesHaveARowForEachEnd() {
        const ResultSet set = setOf({makeRun(true)});
        std::unique_ptr<QChart> chart(buildLifetimeChart(set, set.runs[0]));
        QVERIFY(lifetimeRows(chart.get()) == (std::set<int>{-1, 0, 1, 2, 3, kDepth}));
        auto* y = qobject_cast<QCategoryAxis*>(chart->axes(Qt::Vertical).value(0));
        QVERIFY(y && y->isReverse());
        const QStringList labels = y->categoriesLabels();
        QCOMPARE(labels.first(), QStringLiteral("embedding"));
        QCOMPARE(labels.last(), QStringLiteral("LM head"));
        QCOMPARE(y->endValue(labels.first()), -1.0);
        QCOMPARE(y->endValue(labels.last()), double(kDepth));
        QVERIFY(y->min() < -1 && y->max() > kDepth);
        QVERIFY(lifetimeRow(set.runs[0], kEmbeddingBlock) == std::optional<int>(-1));
        QVERIFY(lifetimeRow(set.runs[0], kHeadBlock) == std::optional<int>(kDepth));
        QVERIFY(lifetimeRow(set.runs[0], -1) == std::optional<int>());

        auto* interaction = ChartInteraction::of(chart.get());
        const QString tip = interaction->pointTooltip(seriesOf<QAreaSeries>(chart.get())[0],
                                                      QPointF(6.5, double(kDepth)));
        QVERIFY2(tip.contains(QLatin1String("LM head: forward activations")) &&
                     tip.contains(QLatin1String("3.00 MiB")),
                 qPrintable(tip));
    }

    void lifetimesWithoutEndsAreUnchanged() {
        const ResultSet set = setOf({makeRun(false)});
        std::unique_ptr<QChart> chart(buildLifetimeChart(set, set.runs[0]));
        QVERIFY(lifetimeRows(chart.get()) == (std::set<int>{0, 1, 2, 3}));
        QVERIFY(!qobject_cast<QCategoryAxis*>(chart->axes(Qt::Vertical).value(0)));
        auto* y = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).value(0));
        QVERIFY(y && y->min() == -0.6 && y->max() == kDepth - 0.4);
    }

    void breakdownShowsTheOptionalPartsOnlyWhenARunHasThem() {
        auto labels = [](const ResultSet& set) {
            std::unique_ptr<QChart> chart(buildBreakdownChart(set));
            QStringList out;
            for (QBarSet* s : seriesOf<QHorizontalStackedBarSeries>(chart.get())[0]->barSets())
                out << s->label();
            return out;
        };
        const QStringList six{"parameters", "input",       "optimizer state",
                              "gradients",  "activations", "other"};
        RunResult plain = makeRun(false);
        QCOMPARE(labels(setOf({plain})), six);

        RunResult withLogits = makeRun(true);
        withLogits.breakdown.logits = 3 * kAct;
        QCOMPARE(labels(setOf({plain, withLogits})), six + QStringList(QStringLiteral("logits")));

        RunResult mixed = withLogits;
        mixed.breakdown.weight_copies = 4 * kAct;
        const ResultSet both = setOf({plain, mixed});
        QCOMPARE(labels(both), (six + QStringList{"weight copies (bf16)", "logits"}));
        std::unique_ptr<QChart> chart(buildBreakdownChart(both));
        const auto sets = seriesOf<QHorizontalStackedBarSeries>(chart.get())[0]->barSets();
        // Rows from the bottom: the second run, then the first (which has none of them).
        QCOMPARE(sets[6]->at(0), 4.0);
        QCOMPARE(sets[7]->at(0), 3.0);
        QCOMPARE(sets[7]->at(1), 0.0);
    }

    void scheduleDrawsTheEndsAsFixedCells() {
        const ResultSet set = setOf({makeRun(true), makeRun(false)});
        const ScheduleDiagram diagram(scheduleRows(set));
        QVERIFY(diagram.rows()[0].ends && !diagram.rows()[1].ends);
        const QRectF area(0, 0, 900, diagram.heightFor(900));
        const QRectF embedding = diagram.cellsRect(area, 0, -1, 0);
        const QRectF blocks = diagram.cellsRect(area, 0, 0, kDepth);
        const QRectF head = diagram.cellsRect(area, 0, kDepth, kDepth + 1);
        QVERIFY(!embedding.isEmpty() && !head.isEmpty());
        QCOMPARE(embedding.right(), blocks.left());
        QCOMPARE(head.left(), blocks.right());
        QCOMPARE(embedding.width(), blocks.width() / kDepth);  // a block's width each
        // The row without ends lines up with the other's blocks and has no end cells.
        QCOMPARE(diagram.cellsRect(area, 1, 0, kDepth).left(), blocks.left());
        QVERIFY(diagram.cellsRect(area, 1, -1, 0).isEmpty());
        QVERIFY(diagram.cellsRect(area, 1, kDepth, kDepth + 1).isEmpty());

        QImage image(area.size().toSize(), QImage::Format_RGB32);
        image.fill(Qt::white);
        QPainter painter(&image);
        diagram.paint(painter, area, -1, Qt::black);
        painter.end();
        // Sampled off the cell's centre, where the name is written.
        for (const QRectF& cell : {embedding, head})
            QCOMPARE(QColor(image.pixel(cell.topLeft().toPoint() + QPoint(3, 3))), chainEndColor());
        QCOMPARE(QColor(image.pixel(blocks.topLeft().toPoint() + QPoint(3, 3))),
                 forwardCountColor(2));  // full recomputes every block once
    }

    void scheduleWithoutEndsIsUnchanged() {
        const ResultSet set = setOf({makeRun(false)});
        const ScheduleDiagram diagram(scheduleRows(set));
        const QRectF area(0, 0, 900, diagram.heightFor(900));
        QVERIFY(diagram.cellsRect(area, 0, -1, 0).isEmpty());
        // The cells fill the span between label and summary as before: no room kept for ends.
        const ResultSet withEnds = setOf({makeRun(true)});
        const ScheduleDiagram other(scheduleRows(withEnds));
        const QRectF cells = diagram.cellsRect(area, 0, 0, kDepth);
        const QRectF narrower = other.cellsRect(area, 0, 0, kDepth);
        QVERIFY(cells.width() > narrower.width());
        QCOMPARE(cells.width(), narrower.width() * (kDepth + 2) / kDepth);
    }

    void playbackNarratesTheEnds() {
        const RunResult run = makeRun(true);
        const StepPlayback step(run);
        QStringList texts;
        for (int i = 0; i < int(step.events().size()); ++i) texts << step.narrationOf(i);
        QVERIFY2(texts.first().startsWith(QLatin1String("forward of the embedding:")),
                 qPrintable(texts.first()));
        QVERIFY(texts.filter(QLatin1String("forward of the LM head:")).size() == 1);
        QVERIFY(texts.filter(QLatin1String("loss: cross-entropy")).size() == 1);
        QVERIFY(texts.filter(QLatin1String("backward of the LM head:")).size() == 1);
        QVERIFY2(texts.last().startsWith(QLatin1String("backward of the embedding:")),
                 qPrintable(texts.last()));
        QVERIFY(texts.filter(QLatin1String("of block 2")).size() >= 2);  // the blocks as before
        QVERIFY(step.lifetimeRow(kEmbeddingBlock) == std::optional<int>(-1));
        QVERIFY(step.lifetimeRow(kHeadBlock) == std::optional<int>(kDepth));
        QVERIFY(step.lifetimeRow(-1) == std::optional<int>());
        QCOMPARE(step.units(), kDepth);

        const StepPlayback plain{makeRun(false)};
        QStringList plainTexts;
        for (int i = 0; i < int(plain.events().size()); ++i) plainTexts << plain.narrationOf(i);
        QVERIFY(plainTexts.filter(QLatin1String("LM head")).isEmpty());
        QVERIFY(plainTexts.filter(QLatin1String("embedding")).isEmpty());
        QVERIFY(plainTexts.filter(QLatin1String("loss: the output of the last block")).size() == 1);
    }

    // Loss chunks: the head's backward recomputes each chunk's logits (spans as the engine
    // labels them: a short backward entry, then recompute and backward of the head per chunk).
    void playbackNarratesTheLossChunks() {
        RunResult run;
        run.config.depth = 2;
        run.config.vocab = 500;
        run.config.loss_chunks = 2;
        run.strategy = parseStrategy("none", 2, run.config.block);
        const std::vector<std::pair<Phase, int>> spans{{Phase::Forward, kEmbeddingBlock},
                                                       {Phase::Forward, 0},
                                                       {Phase::Forward, 1},
                                                       {Phase::Forward, kHeadBlock},
                                                       {Phase::Backward, kHeadBlock},
                                                       {Phase::Recompute, kHeadBlock},
                                                       {Phase::Backward, kHeadBlock},
                                                       {Phase::Recompute, kHeadBlock},
                                                       {Phase::Backward, kHeadBlock},
                                                       {Phase::Backward, 1},
                                                       {Phase::Backward, 0},
                                                       {Phase::Backward, kEmbeddingBlock}};
        double t = 0;
        for (const auto& [phase, block] : spans) {
            // As the engine measures them: the backward's entry before the first recompute is
            // shorter than the recompute, the recomputes shorter than the backward they serve.
            const double length = t == 4                                             ? 0.2
                                  : phase == Phase::Recompute && block == kHeadBlock ? 0.5
                                                                                     : 1;
            run.phases.push_back({phase, block, t, t + length});
            t += length;
        }
        const StepPlayback step(run);
        QStringList texts;
        for (int i = 0; i < int(step.events().size()); ++i) texts << step.narrationOf(i);
        QCOMPARE(texts.filter(QLatin1String("recomputing a chunk's logits")).size(), 2);
        QCOMPARE(texts.filter(QLatin1String("through the logits just recomputed")).size(), 2);
        QVERIFY(texts.filter(QLatin1String("-3")).isEmpty());
        QVERIFY(
            std::none_of(texts.begin(), texts.end(), [](const QString& t) { return t.isEmpty(); }));
    }
};

QTEST_MAIN(TestChainEndCharts)
#include "test_chain_end_charts.moc"
