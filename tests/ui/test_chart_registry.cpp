// The chart registry: every kind builds its chart, and the charts panel, export-all, the app's
// All Charts to Folder and the lesson handout all take their charts from it (no LibTorch).
#include <QAreaSeries>
#include <QBarSet>
#include <QChart>
#include <QHorizontalStackedBarSeries>
#include <QImage>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QScatterSeries>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest>
#include <algorithm>
#include <array>
#include <iterator>
#include <memory>
#include <set>
#include <utility>

#include "base/app_setup.h"
#include "base/language.h"
#include "charts/chart_builders.h"
#include "charts/chart_export.h"
#include "charts/chart_registry.h"
#include "charts/chart_style.h"
#include "charts/schedule_diagram.h"
#include "charts/segment_map.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/caching_allocator.h"
#include "ckptlab/teaching/lesson.h"
#include "document/results_document.h"
#include "document/settings.h"
#include "panels/charts_panel.h"
#include "teaching/handout_chart.h"
#include "teaching/lesson_chart.h"
#include "window/chart_exporter.h"

#include "ui_test_support.h"  // the offscreen platform, before QApplication exists

using namespace ckptlab;
using namespace ckptlab::ui;

namespace {

constexpr std::int64_t kBlockBytes = 1 << 20;  // one block's activations

// The caching allocator's segments of a traced run, by hand: segment 0 (4 blocks' worth, from
// before the step) holds the parameters (3) and the input (1); segment 1 (a block per block of
// the model) each block's kept or recomputed activations at the block's offset, reserved with
// the first of them; segment 2, of the small pool, the loss's 4 bytes from the end of the
// forward to after the step.
void addAllocatorTrace(RunResult& run) {
    AllocatorTrace trace;
    const int depth = run.config.depth;
    trace.segments.push_back({4 * kBlockBytes, false, std::nullopt, std::nullopt});
    trace.blocks.push_back(
        {0, 0, 3 * kBlockBytes, 3 * kBlockBytes, std::nullopt, std::nullopt, Phase::Idle, -1});
    trace.blocks.push_back({0, 3 * kBlockBytes, kBlockBytes, kBlockBytes, std::nullopt,
                            std::nullopt, Phase::Idle, -1});
    double first = depth;
    for (const BlockLifetime& b : run.blocks) first = std::min(first, b.saved_ms);
    trace.segments.push_back({depth * kBlockBytes, false, first, std::nullopt});
    for (const BlockLifetime& b : run.blocks)
        trace.blocks.push_back({1, b.block * kBlockBytes, kBlockBytes, kBlockBytes - 100,
                                b.saved_ms, b.freed_ms, b.phase, b.block});
    trace.segments.push_back({2 * kBlockBytes, true, double(depth), std::nullopt});
    trace.blocks.push_back({2, 0, 512, 4, double(depth), std::nullopt, Phase::Loss, -1});
    run.allocator_trace = trace;
    run.allocator = AllocatorStats{AllocatorSource::CachingModel, 4 * kBlockBytes,
                                   4 * kBlockBytes + run.metrics.peak_bytes + 512, 4 * kBlockBytes,
                                   (6 + depth) * kBlockBytes};
}

// A traced step on `depth` ffn blocks as the runner records it: the blocks in `recomputed`
// keep only their input and run again in backward, the others keep their activations.
RunResult tracedRun(const std::string& strategy, int depth, const std::set<int>& recomputed) {
    RunResult run;
    run.config.depth = depth;
    run.strategy = parseStrategy(strategy, depth, run.config.block);
    std::int64_t total = 0;
    auto event = [&](double t, std::int64_t delta, Phase phase, int block) {
        total += delta;
        run.timeline.push_back({t, delta, total, phase, block});
    };
    for (int b = 0; b < depth; ++b) {
        run.phases.push_back({Phase::Forward, b, double(b), b + 1.0});
        if (!recomputed.count(b)) event(b + 0.5, kBlockBytes, Phase::Forward, b);
    }
    double t = depth;
    for (int b = depth - 1; b >= 0; --b, t += 2) {
        run.phases.push_back({Phase::Backward, b, t, t + 2});
        if (recomputed.count(b)) {
            run.phases.push_back({Phase::Recompute, b, t, t + 1});
            event(t + 0.5, kBlockBytes, Phase::Recompute, b);
            run.blocks.push_back({b, Phase::Recompute, t + 0.5, t + 1.5, kBlockBytes});
        } else {
            run.blocks.push_back({b, Phase::Forward, b + 0.5, t + 1.5, kBlockBytes});
        }
        event(t + 1.5, -kBlockBytes, Phase::Backward, b);
    }
    for (const TimelineEvent& e : run.timeline)
        run.metrics.peak_bytes = std::max(run.metrics.peak_bytes, e.total);
    run.metrics.activation_bytes = run.metrics.peak_bytes;
    run.metrics.step_ms = 10.0 + 2.0 * double(recomputed.size()) + depth;
    run.metrics.recomputed_blocks = int(recomputed.size());
    run.breakdown = {4 * kBlockBytes, kBlockBytes, 0, kBlockBytes, run.metrics.peak_bytes, 0};
    run.grad_check = GradCheck{true, 1e-7, 1e-5};
    addAllocatorTrace(run);
    return run;
}

// A step of `depth` ffn blocks (width 512, seq 512, batch 2: a block's input 2 MiB, its hidden
// layer 8 MiB) placed by the caching allocator's model as the engine's CPU allocator would:
// the parameters before the step, per block `smallOnes` small temporaries beside the big
// tensors, the blocks in `recomputed` keeping only their output and running again in
// backward, and the parameters' gradients kept after the step.
RunResult allocatorRun(const std::string& strategy, int depth, const std::set<int>& recomputed,
                       int smallOnes = 4) {
    RunResult run;
    run.config.depth = depth;
    run.strategy = parseStrategy(strategy, depth, run.config.block);
    CachingAllocatorModel model;
    AllocatorTrace trace;
    std::vector<CachingAllocatorModel::Block> held;
    double t = 0;
    bool started = false;
    auto alloc = [&](std::int64_t bytes, Phase phase, int block) {
        const std::size_t before = model.segments().size();
        const CachingAllocatorModel::Block b = model.allocate(bytes);
        const std::optional<double> at = started ? std::optional<double>(t) : std::nullopt;
        if (model.segments().size() > before)
            trace.segments.push_back({model.segments().back().size,
                                      model.segments().back().small_pool, at, std::nullopt});
        trace.blocks.push_back(
            {b.segment, b.offset, b.size, bytes, at, std::nullopt, phase, block});
        held.push_back(b);
        t += 0.01;
        return int(held.size()) - 1;
    };
    auto release = [&](int id) {
        model.free(held[std::size_t(id)]);
        trace.blocks[std::size_t(id)].freed_ms = t;
        t += 0.01;
    };
    const std::int64_t x = 2 * 512 * 512 * 4, weight = 512 * 2048 * 4;
    for (int b = 0; b < depth; ++b)
        for (std::int64_t bytes : {weight, std::int64_t(8192), weight, std::int64_t(2048)})
            alloc(bytes, Phase::Idle, -1);
    int input = alloc(x, Phase::Idle, -1);
    run.allocator = AllocatorStats{AllocatorSource::CachingModel, model.allocated(),
                                   model.allocated(), model.reserved(), model.reserved()};
    model.resetPeaks();
    started = true;
    struct Saved {
        int ln = -1, h = -1, act = -1, out = -1;
    };
    std::vector<Saved> saved(static_cast<std::size_t>(depth));
    auto blockForward = [&](int b, Phase phase) {
        Saved& s = saved[std::size_t(b)];
        s.ln = alloc(x, phase, b);
        for (int i = 0; i < smallOnes; ++i) release(alloc(4096 + 512 * i, phase, b));
        s.h = alloc(4 * x, phase, b);
        s.act = alloc(4 * x, phase, b);
        if (phase == Phase::Forward) s.out = alloc(x, phase, b);
        if (phase == Phase::Forward && recomputed.count(b))
            for (int* id : {&s.ln, &s.h, &s.act}) release(std::exchange(*id, -1));
    };
    for (int b = 0; b < depth; ++b) {
        const double begin = t;
        blockForward(b, Phase::Forward);
        run.phases.push_back({Phase::Forward, b, begin, t});
        t += 0.5;
    }
    const int loss = alloc(4, Phase::Loss, -1);
    int grad = alloc(x, Phase::Backward, -1);
    std::vector<int> paramGrads;
    for (int b = depth - 1; b >= 0; --b) {
        const double begin = t;
        Saved& s = saved[std::size_t(b)];
        if (recomputed.count(b)) blockForward(b, Phase::Recompute);
        const int gAct = alloc(4 * x, Phase::Backward, b);
        for (int i = 0; i < smallOnes; ++i) release(alloc(2048 + 512 * i, Phase::Backward, b));
        for (int i = 0; i < 2; ++i) paramGrads.push_back(alloc(weight, Phase::Backward, b));
        release(s.act);
        const int gH = alloc(4 * x, Phase::Backward, b);
        release(gAct);
        release(s.h);
        const int gIn = alloc(x, Phase::Backward, b);
        release(gH);
        release(s.ln);
        release(grad);
        release(s.out);
        grad = gIn;
        run.phases.push_back({Phase::Backward, b, begin, t});
        t += 0.5;
    }
    release(grad);
    release(loss);
    (void)input;
    run.allocator->allocated_peak = model.peakAllocated();
    run.allocator->reserved_peak = model.peakReserved();
    run.allocator_trace = trace;
    run.metrics.step_ms = t;
    run.grad_check = GradCheck{true, 1e-7, 1e-5};
    return run;
}

// none, full and every:2 on four blocks: every:2 both keeps and recomputes, so it is the
// representative run the files are drawn around.
ResultSet plainSet() {
    ResultSet set;
    set.runs.push_back(tracedRun("none", 4, {}));
    set.runs.push_back(tracedRun("full", 4, {0, 1, 2, 3}));
    set.runs.push_back(tracedRun("every:2", 4, {0, 2}));
    return set;
}

// none and full at 2, 4 and 8 blocks: a depth sweep.
ResultSet scalingSet() {
    ResultSet set;
    for (int depth : {2, 4, 8}) {
        std::set<int> all;
        for (int b = 0; b < depth; ++b) all.insert(b);
        set.runs.push_back(tracedRun("none", depth, {}));
        set.runs.push_back(tracedRun("full", depth, all));
    }
    return set;
}

std::vector<std::vector<TimelineEvent>> timelinesOf(const ResultSet& set) {
    std::vector<std::vector<TimelineEvent>> timelines;
    for (const RunResult& run : set.runs) timelines.push_back(run.timeline);
    return timelines;
}

// The strategy each series of type T draws (kStrategyProperty), in the chart's order.
template <typename T>
QStringList strategiesOf(QChart* chart) {
    QStringList names;
    for (QAbstractSeries* s : chart->series())
        if (qobject_cast<T*>(s) && s->property(kStrategyProperty).isValid())
            names << s->property(kStrategyProperty).toString();
    return names;
}

QStringList seriesNames(QChart* chart) {
    QStringList names;
    for (QAbstractSeries* s : chart->series()) names << s->name();
    return names;
}

QStringList sorted(QStringList list) {
    list.sort();
    list.removeDuplicates();
    return list;
}

// What each kind's chart of `results` (plainSet, or scalingSet for the scaling kinds) holds,
// built around representativeRun (every:2). Fails for a kind without expectations here.
void checkChart(ChartKind kind, QChart* chart, const ResultSet& results) {
    const QStringList three{"every:2", "full", "none"};
    switch (kind) {
    case ChartKind::Tradeoff:
        QCOMPARE(sorted(strategiesOf<QScatterSeries>(chart)), three);
        QVERIFY(chart->title().contains(chartTitle(kind)));
        return;
    case ChartKind::Timeline:  // the focus first, then its baseline, then the rest
        QCOMPARE(strategiesOf<QLineSeries>(chart), (QStringList{"every:2", "none", "full"}));
        QVERIFY(chart->title().contains(chartTitle(kind)));
        return;
    case ChartKind::Lifetimes:  // kept and recomputed bars of the focus run
        QCOMPARE(strategiesOf<QAreaSeries>(chart), (QStringList{"every:2", "every:2"}));
        QVERIFY(chart->title().contains(chartTitle(kind)));
        return;
    case ChartKind::Segments: {  // every:2's three segments and the seven blocks in them
        QVERIFY(chart->title().contains(chartTitle(kind)));
        QVERIFY(chart->title().contains(QLatin1String("every:2")));
        const SegmentMapItem* map = SegmentMapItem::of(chart);
        QVERIFY(map);
        const SegmentLayout& layout = map->layout();
        QCOMPARE(layout.stepEndMs, 12.0);  // the last backward's end
        QCOMPARE(layout.bands.size(), std::size_t(3));
        // Stacked in the order reserved, 0.8 % of the 10 MiB reserved apart.
        const double gap = 0.08;
        const double lows[] = {0, 4 + gap, 8 + 2 * gap}, heights[] = {4, 4, 2};
        const double reserved[] = {0, 1.5, 4};  // before the step, first activation, loss
        for (int i = 0; i < 3; ++i) {
            const SegmentBand& band = layout.bands[std::size_t(i)];
            QCOMPARE(band.segment, i);
            QVERIFY(qFuzzyCompare(1 + band.rect.low, 1 + lows[i]));
            QVERIFY(qFuzzyCompare(band.rect.high - band.rect.low, heights[i]));
            QCOMPARE(band.rect.t0, reserved[i]);
            QCOMPARE(band.rect.t1, 12.0);  // never released: to the step's end
        }
        QVERIFY(qFuzzyCompare(layout.top, 10 + 2 * gap));
        QCOMPARE(layout.blocks.size(), std::size_t(7));
        std::array<int, kSegmentLayerCount> perLayer{};
        for (const BlockRect& b : layout.blocks) ++perLayer[std::size_t(b.layer)];
        QCOMPARE(perLayer[std::size_t(SegmentLayer::BeforeStep)], 2);  // parameters, input
        QCOMPARE(perLayer[std::size_t(SegmentLayer::Forward)], 2);     // blocks 1 and 3 kept
        QCOMPARE(perLayer[std::size_t(SegmentLayer::Recompute)], 2);   // blocks 0 and 2
        QCOMPARE(perLayer[std::size_t(SegmentLayer::Loss)], 1);
        // Block 2's recomputed activations: its offset in segment 1, from 6.5 to 7.5 ms.
        const BlockRect& recomputed = layout.blocks[3];
        QCOMPARE(recomputed.layer, SegmentLayer::Recompute);
        QVERIFY(qFuzzyCompare(recomputed.rect.low, 4 + gap + 2));
        QVERIFY(qFuzzyCompare(recomputed.rect.high, 4 + gap + 3));
        QCOMPARE(recomputed.rect.t0, 6.5);
        QCOMPARE(recomputed.rect.t1, 7.5);
        // The loss's block stays to the step's end; the parameters span the whole step.
        QCOMPARE(layout.blocks[6].rect.t0, 4.0);
        QCOMPARE(layout.blocks[6].rect.t1, 12.0);
        QCOMPARE(layout.blocks[0].rect.t0, 0.0);
        QVERIFY(qFuzzyCompare(layout.blocks[0].rect.high, 3.0));
        // The legend: the four layers used and the free space.
        QCOMPARE(strategiesOf<QAreaSeries>(chart).size(), 0);  // no run's series to select
        QCOMPARE(chart->series().size(), 5);
        return;
    }
    case ChartKind::Breakdown: {
        QList<QHorizontalStackedBarSeries*> bars;
        for (QAbstractSeries* s : chart->series())
            if (auto* stack = qobject_cast<QHorizontalStackedBarSeries*>(s)) bars << stack;
        QCOMPARE(bars.size(), 1);
        QCOMPARE(bars[0]->barSets().size(), 6);  // parameters … other
        for (QBarSet* set : bars[0]->barSets()) QCOMPARE(set->count(), 3);
        QVERIFY(chart->title().contains(chartTitle(kind)));
        return;
    }
    case ChartKind::Scaling:
    case ChartKind::ScalingTime: {
        QCOMPARE(sorted(strategiesOf<QScatterSeries>(chart)), (QStringList{"full", "none"}));
        QVERIFY(qobject_cast<QLogValueAxis*>(chart->axes(Qt::Vertical).value(0)));
        const QString metric = kind == ChartKind::Scaling ? QStringLiteral("activation memory")
                                                          : QStringLiteral("step time");
        QVERIFY2(chart->title().contains(metric), qPrintable(chart->title()));
        return;
    }
    case ChartKind::Schedule: {  // painted, not a QChart: its rows
        QVERIFY(!chart);
        const auto rows = scheduleRows(results);
        QCOMPARE(rows.size(), size_t(3));
        QCOMPARE(rows[0].extraForwards, 0);  // none
        QCOMPARE(rows[1].extraForwards, 4);  // full: every block once more
        QCOMPARE(rows[2].extraForwards, 2);  // every:2
        return;
    }
    }
    QFAIL(qPrintable(QStringLiteral("no expectations for %1").arg(chartFileStem(kind))));
}

}  // namespace

class TestChartRegistry : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void everyKindHasOneRow() {
        const auto& registry = chartRegistry();
        QCOMPARE(registry.size(), kChartKindCount);
        std::set<QString> stems;
        for (std::size_t i = 0; i < kChartKindCount; ++i) {
            const ChartKind kind = ChartKind(i);
            QCOMPARE(chartEntry(kind).kind, kind);
            QVERIFY(!chartTitle(kind).isEmpty());
            QVERIFY(stems.insert(chartFileStem(kind)).second);  // one file name each
        }
        QVERIFY(stems.count(QStringLiteral("scaling_time")));
        QCOMPARE(chartFileStem(ChartKind::Schedule), QStringLiteral("schedules"));
    }

    void everyKindBuildsItsChart() {
        const ResultSet plain = plainSet(), scaling = scalingSet();
        for (const ChartEntry& entry : chartRegistry()) {
            const ResultSet& results = entry.scalingOnly ? scaling : plain;
            QVERIFY(chartApplies(entry.kind, results));
            std::unique_ptr<QChart> chart(buildChart(entry.kind, results, nullptr));
            QCOMPARE(isPainted(entry.kind), chart == nullptr);
            checkChart(entry.kind, chart.get(), results);
            if (QTest::currentTestFailed()) QFAIL(entry.stem);
        }
        // The scaling charts say what is wrong with a set that is no scaling sweep.
        QVERIFY(!chartApplies(ChartKind::Scaling, plain));
        std::unique_ptr<QChart> notScaling(buildChart(ChartKind::ScalingTime, plain, nullptr));
        QCOMPARE(notScaling->title(), ChartText::tr("Not a scaling sweep"));
    }

    void oneRuleForTheFocusRun() {
        ResultSet set = plainSet();
        QCOMPARE(chartFocus(set, nullptr), &set.runs[2]);       // representativeRun
        QCOMPARE(chartFocus(set, &set.runs[1]), &set.runs[1]);  // the one asked for
        set.runs[1].error = "gradient check failed";
        QCOMPARE(chartFocus(set, &set.runs[1]), &set.runs[2]);  // nothing to draw: the default
        std::unique_ptr<QChart> lifetimes(buildChart(ChartKind::Lifetimes, set, &set.runs[1]));
        QCOMPARE(strategiesOf<QAreaSeries>(lifetimes.get()).value(0), QStringLiteral("every:2"));
    }

    void segmentsChartSaysWhyWithoutATrace() {
        ResultSet set = plainSet();
        RunResult& every = set.runs[2];
        every.allocator_trace.reset();
        const auto titleOf = [&] {
            const std::unique_ptr<QChart> chart(buildChart(ChartKind::Segments, set, &every));
            if (SegmentMapItem::of(chart.get()) || !chart->series().isEmpty()) return QString();
            return chart->title();
        };
        every.config.allocator = AllocatorKind::System;  // and every file from before the field
        QCOMPARE(titleOf(),
                 QStringLiteral("No segments for every:2: it ran with the system allocator "
                                "(malloc)"));
        every.config.allocator = AllocatorKind::Caching;
        every.config.device = "cuda:0";
        every.allocator->source = AllocatorSource::Cuda;
        QCOMPARE(titleOf(),
                 QStringLiteral("No segments for every:2: CUDA's allocator does not list them"));
        every.config.device = "cpu";
        every.allocator->source = AllocatorSource::CachingModel;
        QCOMPARE(titleOf(), QStringLiteral("No segments for every:2: its file is older than the "
                                           "allocator's trace"));
        every.allocator_trace = AllocatorTrace{};
        QCOMPARE(titleOf(),
                 QStringLiteral("No segments for every:2: its traced step reserved none"));
        // Files too: the chart is written, with the sentence.
        QTemporaryDir dir;
        QString error;
        const QStringList written = exportAllCharts(set, dir.path(), true, false, 1, &error);
        QVERIFY(written.contains(dir.filePath(QStringLiteral("segments.png"))));
    }

    // The map is painted into files: PNG pixels and SVG paths in the phases' colours where the
    // layout puts the blocks, and the hover texts say what is where.
    void segmentsChartPaintsBlocksAndFreeSpace() {
        const ResultSet set = plainSet();
        const std::unique_ptr<QChart> chart(buildChart(ChartKind::Segments, set, nullptr));
        const SegmentMapItem* map = SegmentMapItem::of(chart.get());
        QVERIFY(map);
        QTemporaryDir dir;
        QString error;
        const QString png = dir.filePath(QStringLiteral("segments.png"));
        QVERIFY2(exportChartPng(chart.get(), png, 1, &error), qPrintable(error));
        const QImage image(png);
        // The chart keeps the export's layout (renderChart), so its plot area is the image's.
        auto* axisX = qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal).value(0));
        auto* axisY = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).value(0));
        const QRectF plot = chart->plotArea();
        const auto pixel = [&](double t, double v) {
            const double px =
                plot.left() + (t - axisX->min()) / (axisX->max() - axisX->min()) * plot.width();
            const double py =
                plot.bottom() - (v - axisY->min()) / (axisY->max() - axisY->min()) * plot.height();
            return image.pixelColor(int(px), int(py));
        };
        const double gap = 0.08;
        // Block 2's recomputed activations (6.5–7.5 ms at 2–3 MiB of segment 1), block 1's
        // kept ones (1.5–9.5 ms at 1–2 MiB), the parameters, and free space in segment 1.
        QCOMPARE(pixel(7.0, 4 + gap + 2.5), layerColor(SegmentLayer::Recompute));
        QCOMPARE(pixel(5.0, 4 + gap + 1.5), layerColor(SegmentLayer::Forward));
        QCOMPARE(pixel(5.0, 1.5), layerColor(SegmentLayer::BeforeStep));
        QCOMPARE(pixel(2.5, 4 + gap + 2.5), freeSpaceColor());
        QCOMPARE(pixel(0.5, 4 + gap + 2.5), QColor(Qt::white));  // not reserved yet
        QCOMPARE(map->drawnRectangles(), 7);

        const QString svg = dir.filePath(QStringLiteral("segments.svg"));
        QVERIFY2(exportChartSvg(chart.get(), svg, chart->title(), QString(), &error),
                 qPrintable(error));
        QVERIFY(QSvgRenderer(svg).isValid());
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        for (SegmentLayer layer : {SegmentLayer::Recompute, SegmentLayer::Forward,
                                   SegmentLayer::BeforeStep, SegmentLayer::Loss})
            QVERIFY2(text.contains("fill=\"" + layerColor(layer).name().toLatin1() + "\""),
                     qPrintable(layerColor(layer).name()));

        const QString block = map->textAt(QPointF(7.0, 4 + gap + 2.5));
        for (const char* part : {"recompute of block 2", "requested 1023.9 KiB, held 1.00 MiB",
                                 "allocated at 6.50 ms", "freed at 7.50 ms", "segment 1"})
            QVERIFY2(block.contains(QLatin1String(part)), qPrintable(block));
        const QString free = map->textAt(QPointF(5.0, 4 + gap + 2.5));
        for (const char* part : {"Segment 1 of the large pool: 4.00 MiB reserved",
                                 "reserved at 1.50 ms", "2.00 MiB allocated in it, 2.00 MiB"})
            QVERIFY2(free.contains(QLatin1String(part)), qPrintable(free));
        QVERIFY(map->textAt(QPointF(0.5, 4 + gap + 2.5)).isEmpty());
    }

    // Thousands of blocks under a pixel each: drawn as the pixels they cover, not one by one.
    void manyBlocksCostFewRectangles() {
        ResultSet set;
        set.runs.push_back(allocatorRun("none", 64, {}, 100));
        const std::size_t blocks = set.runs[0].allocator_trace->blocks.size();
        QVERIFY2(blocks > 10000, qPrintable(QString::number(blocks)));
        const std::unique_ptr<QChart> chart(buildChart(ChartKind::Segments, set, nullptr));
        QTemporaryDir dir;
        QString error;
        QVERIFY2(exportChartPng(chart.get(), dir.filePath(QStringLiteral("many.png")), 1, &error),
                 qPrintable(error));
        const int drawn = SegmentMapItem::of(chart.get())->drawnRectangles();
        qInfo("%d rectangles drawn for %zu blocks", drawn, blocks);
        QVERIFY2(drawn > 0 && std::size_t(drawn) < blocks / 4,
                 qPrintable(QStringLiteral("%1 of %2").arg(drawn).arg(blocks)));
    }

    // To look at it: CKPTLAB_CHART_DIR=/some/dir test_chart_registry dumpSegments
    void dumpSegments() {
        const QString dir = qEnvironmentVariable("CKPTLAB_CHART_DIR");
        if (dir.isEmpty()) QSKIP("set CKPTLAB_CHART_DIR to write the charts there");
        ResultSet set;
        set.runs.push_back(allocatorRun("none", 8, {}));
        set.runs.push_back(allocatorRun("every:2", 8, {0, 2, 4, 6}));
        set.runs.push_back(allocatorRun("none", 64, {}, 100));
        QString error;
        for (std::size_t i = 0; i < set.runs.size(); ++i) {
            const std::unique_ptr<QChart> chart(buildChart(ChartKind::Segments, set, &set.runs[i]));
            const QString stem = dir + QStringLiteral("/segments_%1").arg(i);
            QVERIFY2(exportChartPng(chart.get(), stem + ".png", 1, &error), qPrintable(error));
            QVERIFY2(exportChartSvg(chart.get(), stem + ".svg", chart->title(), {}, &error),
                     qPrintable(error));
        }
        // In Chinese too: the legend must still fit under the plot.
        initializeUi();
        QVERIFY(installLanguage(QStringLiteral("zh_CN")));
        const std::unique_ptr<QChart> chinese(buildChart(ChartKind::Segments, set, &set.runs[1]));
        QVERIFY(exportChartPng(chinese.get(), dir + QStringLiteral("/segments_zh.png"), 1, &error));
        QVERIFY(installLanguage(QStringLiteral("en")));
    }

    void exportAllWritesOneFilePerEntry() {
        for (const bool scaling : {false, true}) {
            const ResultSet set = scaling ? scalingSet() : plainSet();
            QTemporaryDir dir;
            QString error;
            const QStringList written = exportAllCharts(set, dir.path(), true, false, 1, &error);
            QVERIFY2(error.isEmpty(), qPrintable(error));
            QStringList expected;
            for (const ChartEntry& entry : chartRegistry())
                if (scaling || !entry.scalingOnly)
                    expected << dir.filePath(QLatin1String(entry.stem) + QStringLiteral(".png"));
            QCOMPARE(written, expected);
            for (const QString& path : written) QCOMPARE(QImage(path).width(), kExportSize.width());
        }
    }

    void panelTabsAreTheRegistrysPanelEntries() {
        ResultsDocument document;
        ChartsPanel panel(&document);
        const std::vector<ChartKind> kinds = panelChartKinds();
        QCOMPARE(panel.count(), int(kinds.size()));
        for (int i = 0; i < panel.count(); ++i)  // scaling_time is for files only
            QVERIFY(panel.tabText(i) != chartTitle(ChartKind::ScalingTime));
        for (int i = 0; i < panel.count(); ++i) {
            QCOMPARE(panel.tabText(i), chartTitle(kinds[std::size_t(i)]));
            panel.setCurrentIndex(i);
            if (panel.isTabVisible(i)) QCOMPARE(panel.currentKind(), kinds[std::size_t(i)]);
        }
        for (const ChartEntry& entry : chartRegistry())
            QCOMPARE(panel.view(entry.kind) != nullptr, entry.inPanel && entry.build != nullptr);

        // The selected run is the focus: first in the timeline, its baseline next.
        const ResultSet plain = plainSet();
        document.reset(plain, timelinesOf(plain));
        document.select(1);
        QCOMPARE(strategiesOf<QLineSeries>(panel.chart(ChartKind::Timeline)),
                 (QStringList{"full", "none", "every:2"}));
        QCOMPARE(strategiesOf<QAreaSeries>(panel.chart(ChartKind::Lifetimes)).value(0),
                 QStringLiteral("full"));
        const int scalingTab =
            int(std::find(kinds.begin(), kinds.end(), ChartKind::Scaling) - kinds.begin());
        QVERIFY(!panel.isTabVisible(scalingTab));

        const ResultSet scaling = scalingSet();
        document.reset(scaling, timelinesOf(scaling));
        QVERIFY(panel.isTabVisible(scalingTab));
        QCOMPARE(panel.currentKind(), ChartKind::Scaling);  // what a scaling sweep is for
        QCOMPARE(seriesNames(panel.chart(ChartKind::Scaling)),
                 seriesNames(std::unique_ptr<QChart>(
                                 buildChart(ChartKind::Scaling, scaling, document.selected()))
                                 .get()));
    }

    void appExportWritesTheRegistrysFiles() {
        QWidget window;
        ResultsDocument document;
        ChartsPanel panel(&document, &window);
        Settings settings;  // not read by exportAll
        ChartExporter exporter(&panel, &document, &settings, &window);
        const ResultSet scaling = scalingSet();
        document.reset(scaling, timelinesOf(scaling));
        QTemporaryDir dir;
        const QStringList written = exporter.exportAll(dir.filePath(QStringLiteral("slides")));
        QStringList expected;
        for (const ChartEntry& entry : chartRegistry())
            for (const char* suffix : {".png", ".svg"})
                expected << QDir(dir.filePath(QStringLiteral("slides")))
                                .filePath(QLatin1String(entry.stem) + QLatin1String(suffix));
        QCOMPARE(written, expected);
        QCOMPARE(QImage(expected[0]).width(), 2 * kExportSize.width());  // PNG at 2×
    }

    void everyLessonChartMapsOntoTheRegistry() {
        std::set<ChartKind> kinds;
        for (LessonChart chart : kLessonCharts) {
            const ChartKind kind = lessonChartKind(chart);
            QCOMPARE(chartEntry(kind).kind, kind);
            QVERIFY(chartEntry(kind).inPanel);  // lesson mode shows it in the panel
            QVERIFY(kinds.insert(kind).second);
            // A lesson file names a chart by the registry's id, its file stem.
            QCOMPARE(chartFileStem(kind), QString::fromStdString(toString(chart)));
        }
        QCOMPARE(kinds.size(), std::size(kLessonCharts));
    }

    void handoutDrawsTheRegistrysChart() {
        const ResultSet plain = plainSet(), scaling = scalingSet();
        for (LessonChart lessonChart : kLessonCharts) {
            const ChartKind kind = lessonChartKind(lessonChart);
            const ResultSet& results = chartEntry(kind).scalingOnly ? scaling : plain;
            LessonStep step;
            step.chart = lessonChart;
            step.focus = parseStrategy("full", 4, BlockKind::Ffn);
            const std::unique_ptr<QChart> handout = buildStepChart(step, results);
            const std::unique_ptr<QChart> registry(
                buildChart(kind, results, results.find(*step.focus)));
            QCOMPARE(handout == nullptr, registry == nullptr);
            if (!handout) continue;  // the schedules, painted
            QCOMPARE(handout->title(), registry->title());
            QCOMPARE(seriesNames(handout.get()), seriesNames(registry.get()));
        }
        // Drawn around the step's focus, not the files' representative run.
        LessonStep step;
        step.chart = LessonChart::Timeline;
        step.focus = parseStrategy("full", 4, BlockKind::Ffn);
        QCOMPARE(strategiesOf<QLineSeries>(buildStepChart(step, plain).get()).value(0),
                 QStringLiteral("full"));
        // The schedules: the diagram of the step's runs, painted on the page.
        step.chart = LessonChart::Schedule;
        const qreal height = stepChartHeight(step, plain, 600);
        QVERIFY(height > 100);
        QImage page(600, int(height), QImage::Format_RGB32);
        page.fill(Qt::white);
        QPainter painter(&page);
        paintStepChart(painter, step, plain, QRectF(0, 0, 600, height));
        painter.end();
        int ink = 0;
        for (int y = 0; y < page.height(); y += 2)
            for (int x = 0; x < page.width(); x += 2)
                ink += page.pixel(x, y) != qRgb(255, 255, 255);
        QVERIFY2(ink > page.width() * page.height() / 4 / 20, qPrintable(QString::number(ink)));
    }
};

QTEST_MAIN(TestChartRegistry)
#include "test_chart_registry.moc"
