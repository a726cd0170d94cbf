// Chart builders, the interactive view and PNG/SVG export, on hand-made results (no LibTorch).
#include <QAbstractBarSeries>
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QFile>
#include <QGraphicsSimpleTextItem>
#include <QHorizontalStackedBarSeries>
#include <QImage>
#include <QLegend>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QValueAxis>
#include <QtTest>
#include <cmath>
#include <memory>
#include <set>

#include "charts/chart_builders.h"
#include "charts/chart_export.h"
#include "charts/chart_interaction.h"
#include "charts/chart_style.h"
#include "charts/chart_view.h"
#include "charts/pareto.h"
#include "charts/phase_bands.h"
#include "charts/point_labels.h"
#include "charts/prediction_overlay.h"
#include "charts/run_text.h"
#include "ckptlab/model/summary.h"
#include "ckptlab/planning/scaling.h"
#include "tolerance.h"

#include "ui_test_support.h"  // the offscreen platform, before QApplication exists

using namespace ckptlab;
using namespace ckptlab::ui;

namespace {

constexpr int kDepth = 8;
constexpr std::int64_t kAct = 4 * 1024 * 1024;  // bytes a kept block holds

// A plausible traced step: forward, loss, backward with recompute of the checkpointed blocks
// nested in their backward spans, optimizer. Metrics are set apart so the scatter is known.
RunResult makeRun(const std::string& strategy, double peakMiB, double stepMs,
                  const std::set<int>& checkpointed, int depth = kDepth) {
    RunResult run;
    run.config.depth = depth;
    // Names that are no strategy ("seed-bug:2", the scaling set's "square") are labels.
    if (const auto parsed = tryParseStrategy(strategy, depth, run.config.block))
        run.strategy = *parsed;
    else
        run.label = strategy;
    run.metrics.peak_bytes = std::int64_t(peakMiB * kMiB);
    run.metrics.step_ms = stepMs;
    run.metrics.recomputed_blocks = int(checkpointed.size());
    run.grad_check = GradCheck{true, 1e-7, 1e-5};
    std::int64_t total = 0;
    auto event = [&](double t, std::int64_t delta, Phase phase, int block) {
        total += delta;
        run.timeline.push_back({t, delta, total, phase, block});
    };
    double t = 0;
    std::vector<double> savedAt(size_t(depth), 0.0);
    for (int b = 0; b < depth; ++b, t += 1) {
        run.phases.push_back({Phase::Forward, b, t, t + 1});
        event(t + 0.3, kAct / 2, Phase::Forward, b);  // a temporary
        event(t + 0.6, -kAct / 2, Phase::Forward, b);
        if (!checkpointed.count(b)) event(t + 0.9, kAct, Phase::Forward, b);
        savedAt[b] = t + 1;
    }
    run.phases.push_back({Phase::Loss, -1, t, t + 0.5});
    event(t + 0.2, 1024, Phase::Loss, -1);
    t += 0.5;
    for (int b = depth - 1; b >= 0; --b, t += 2) {
        run.phases.push_back({Phase::Backward, b, t, t + 2});
        if (checkpointed.count(b)) {
            run.phases.push_back({Phase::Recompute, b, t, t + 0.6});
            event(t + 0.3, kAct, Phase::Recompute, b);
            run.blocks.push_back({b, Phase::Recompute, t + 0.6, t + 1.8, kAct});
        } else {
            run.blocks.push_back({b, Phase::Forward, savedAt[b], t + 1.8, kAct});
        }
        event(t + 1.0, kAct / 4, Phase::Backward, b);
        event(t + 1.5, -kAct / 4, Phase::Backward, b);
        event(t + 1.8, -kAct, Phase::Backward, b);
    }
    run.phases.push_back({Phase::Optimizer, -1, t, t + 1});
    event(t + 0.5, 2048, Phase::Optimizer, -1);
    run.breakdown = {
        10 * kAct, kAct, 0, 2 * kAct, kAct * std::int64_t(depth - int(checkpointed.size())),
        kAct / 2};
    if (peakMiB < 0) {  // derive the scatter from the trace, as a real run would
        std::int64_t peak = 0;
        for (const TimelineEvent& e : run.timeline) peak = std::max(peak, e.total);
        run.metrics.peak_bytes = peak;
    }
    return run;
}

// none and four strategies; every:4 is dominated by every:2, the rest form the frontier.
ResultSet makeSet() {
    ResultSet set;
    set.runs.push_back(makeRun("none", 100, 50, {}));
    set.runs.push_back(makeRun("full", 40, 70, {0, 1, 2, 3, 4, 5, 6, 7}));
    set.runs.push_back(makeRun("every:2", 60, 60, {0, 2, 4, 6}));
    set.runs.push_back(makeRun("every:4", 80, 65, {0, 4}));
    set.runs.push_back(makeRun("segments:2", 70, 55, {0, 3}));
    return set;
}

// A crowded sweep on 24 blocks (the seed's experiments 1-3 and more), points from the traces.
ResultSet makeSweep() {
    const int depth = 24;
    ResultSet set;
    auto add = [&](const std::string& name, std::set<int> ckpt) {
        const double step = 50 + 1.1 * double(ckpt.size()) + double(name.size() % 3);
        set.runs.push_back(makeRun(name, -1, step, ckpt, depth));
    };
    add("none", {});
    for (int n : {1, 2, 4, 8}) {
        std::set<int> c;
        for (int b = 0; b < depth; b += n) c.insert(b);
        add("every:" + std::to_string(n), c);
    }
    for (int k : {2, 4, 12}) {
        std::set<int> c;
        for (int b = 0; b < depth; ++b)
            if (b % (depth / k) != 0) c.insert(b);
        add("segments:" + std::to_string(k), c);
    }
    for (int k : {0, 6, 12, 18}) {
        std::set<int> c;
        for (int b = k; b < depth; ++b) c.insert(b);
        add("from:" + std::to_string(k), c);
    }
    add("sqrt", {0, 5, 10, 15, 20});
    RunResult failed = makeRun("seed-bug:2", 10, 10, {}, depth);
    failed.error = "gradient check failed";
    set.runs.push_back(failed);
    return set;
}

// makeSet with cost-model predictions on three runs; with `pareto`, also two planner runs and
// the predicted frontier, as `ckptlab-cli pareto` writes them.
ResultSet makePredictedSet(bool pareto) {
    ResultSet set = makeSet();
    auto predict = [](RunResult& run, double peakMiB, double stepMs) {
        run.prediction = PredictedMetrics{std::int64_t(peakMiB * kMiB),
                                          std::int64_t(peakMiB * kMiB / 2), stepMs};
    };
    predict(set.runs[0], 95, 48);
    predict(set.runs[1], 30, 72);  // below every measured point: the axes must reach it
    predict(set.runs[2], 62, 58);
    if (pareto) {
        RunResult low = makeRun("optimal:45", 45, 62, {0, 1, 2, 4, 5, 6});
        RunResult high = makeRun("optimal:75", 75, 52, {0, 4});
        predict(low, 44, 61);
        set.runs.push_back(high);  // out of order: the curve sorts by peak
        set.runs.push_back(low);
        set.predicted_frontier = {{std::int64_t(40 * kMiB), 69},
                                  {std::int64_t(60 * kMiB), 56},
                                  {std::int64_t(90 * kMiB), 50}};
    }
    return set;
}

// A depth sweep as `ckptlab-cli scaling --vary depth` writes it: activations of `none` grow as
// L, `square` exactly as L² (in MiB), `sqrt` about as √L; times linear in L.
ResultSet makeScalingSet() {
    ResultSet set;
    for (int depth : {4, 8, 16, 32})
        for (const char* name : {"none", "sqrt", "square"}) {
            RunResult run = makeRun(name, 10.0 * depth, 2.0 * depth, {}, depth);
            const double act = std::string(name) == "none"   ? depth
                               : std::string(name) == "sqrt" ? 3 * std::sqrt(double(depth))
                                                             : double(depth) * depth;
            run.metrics.activation_bytes = std::int64_t(act * kMiB);
            set.runs.push_back(run);
        }
    return set;
}

template <typename T>
QList<T*> seriesOf(QChart* chart) {
    QList<T*> out;
    for (QAbstractSeries* s : chart->series())
        if (auto* typed = qobject_cast<T*>(s)) out << typed;
    return out;
}

QList<QScatterSeries*> strategyDots(QChart* chart) {
    QList<QScatterSeries*> out;
    for (QScatterSeries* s : seriesOf<QScatterSeries>(chart))
        if (s->property(kStrategyProperty).isValid()) out << s;
    return out;
}

QList<QLineSeries*> runLines(QChart* chart) {
    QList<QLineSeries*> out;
    for (QLineSeries* s : seriesOf<QLineSeries>(chart))
        if (s->property(kStrategyProperty).isValid()) out << s;
    return out;
}

// Share of pixels that are not (nearly) white, and how many colours the image has.
std::pair<double, int> inkAndColors(const QImage& image) {
    const QImage img = image.convertToFormat(QImage::Format_RGB32);
    std::set<QRgb> colors;
    qint64 ink = 0;
    for (int y = 0; y < img.height(); y += 2)
        for (int x = 0; x < img.width(); x += 2) {
            const QRgb c = img.pixel(x, y);
            colors.insert(c);
            if (qRed(c) < 240 || qGreen(c) < 240 || qBlue(c) < 240) ++ink;
        }
    return {double(ink) / (double(img.width() / 2) * (img.height() / 2)), int(colors.size())};
}

}  // namespace

class TestCharts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void paretoFrontierOnKnownSets() {
        const std::vector<QPointF> pts{{60, 60}, {40, 70}, {80, 65}, {100, 50}, {70, 55}};
        QCOMPARE(paretoFrontier(pts), (std::vector<int>{1, 0, 4, 3}));
        // Same x: only the faster one; exact duplicates both stay; one point is its own frontier.
        QCOMPARE(paretoFrontier({{10, 5}, {10, 3}, {20, 1}}), (std::vector<int>{1, 2}));
        QCOMPARE(paretoFrontier({{10, 5}, {10, 5}}), (std::vector<int>{0, 1}));
        QCOMPARE(paretoFrontier({{1, 1}}), (std::vector<int>{0}));
        QVERIFY(paretoFrontier({}).empty());
    }

    void tradeoffChart() {
        const ResultSet set = makeSet();
        std::unique_ptr<QChart> chart(buildTradeoffChart(set));
        const auto dots = strategyDots(chart.get());
        QCOMPARE(dots.size(), 5);  // one series per strategy, in the set's order
        QStringList names;
        for (QScatterSeries* s : dots) {
            names << s->name();
            QCOMPARE(s->count(), 1);
        }
        auto* labels = chart->findChild<PointLabels*>();
        QVERIFY(labels);
        QCOMPARE(labels->count(), 5);
        QCOMPARE(labels->text(3), QStringLiteral("every:4"));
        QCOMPARE(names, strategyOrder(set));
        QCOMPARE(dots[2]->at(0), QPointF(60, 60));
        QVERIFY(dots[0]->markerSize() > dots[1]->markerSize());  // the baseline stands out

        auto* frontier = chart->findChild<QLineSeries*>(QStringLiteral("paretoFrontier"));
        QVERIFY(frontier);
        const QList<QPointF> expected{{40, 70}, {60, 60}, {70, 55}, {100, 50}};
        QCOMPARE(frontier->points(), expected);

        int baselineLines = 0;
        for (QLineSeries* s : seriesOf<QLineSeries>(chart.get()))
            if (s->name() == QLatin1String("none baseline")) {
                ++baselineLines;
                QCOMPARE(s->count(), 2);
            }
        QCOMPARE(baselineLines, 2);
        const auto axes = chart->axes();
        QCOMPARE(axes.size(), 2);
        QVERIFY(axes[0]->titleText().contains(QLatin1String("MiB")));
        QVERIFY(axes[1]->titleText().contains(QLatin1String("ms")));
        QVERIFY(!chart->title().isEmpty());
    }

    void predictedPointsBesideMeasured() {
        const ResultSet set = makePredictedSet(false);
        std::unique_ptr<QChart> chart(buildTradeoffChart(set));
        QCOMPARE(strategyDots(chart.get()).size(), 5);  // measured dots as before
        QList<QScatterSeries*> predicted;
        for (QScatterSeries* s : seriesOf<QScatterSeries>(chart.get()))
            if (s->property(kPredictedProperty).isValid()) predicted << s;
        QCOMPARE(predicted.size(), 3);
        for (QScatterSeries* s : predicted) QCOMPARE(s->count(), 1);
        QCOMPARE(predicted[1]->property(kPredictedProperty).toString(), QStringLiteral("full"));
        QCOMPARE(predicted[1]->at(0), QPointF(30, 72));
        QCOMPARE(predicted[1]->pen().color(), strategyColor("full", strategyOrder(set)));
        int ties = 0;
        for (QLineSeries* s : seriesOf<QLineSeries>(chart.get()))
            if (s->name() == QLatin1String("prediction error")) {
                ++ties;
                QCOMPARE(s->count(), 2);
            }
        QCOMPARE(ties, 3);
        QVERIFY(chart->findChild<QScatterSeries*>(QStringLiteral("predictedLegend")));
        QVERIFY(!chart->findChild<QLineSeries*>(QStringLiteral("predictedFrontier")));
        QVERIFY(!chart->findChild<QLineSeries*>(QStringLiteral("optimalCurve")));
        QVERIFY(qobject_cast<QValueAxis*>(chart->axes(Qt::Horizontal)[0])->min() <= 30);

        const QString tip = ChartInteraction::of(chart.get())->pointTooltip(predicted[1], {30, 72});
        for (const char* part : {"full (predicted)", "predicted peak 30.00 MiB",
                                 "measured 40.00 MiB", "error -25.0 %", "error +2.9 %"})
            QVERIFY2(tip.contains(QLatin1String(part)), qPrintable(tip));
        QCOMPARE(ChartInteraction::of(chart.get())->pointStrategy(predicted[1], {30, 72}),
                 QStringLiteral("full"));
        QVERIFY(runTooltip(set.runs[1], &set.runs[0]).contains(QLatin1String("error -25.0 %")));

        // No prediction anywhere: nothing of the overlay.
        std::unique_ptr<QChart> plain(buildTradeoffChart(makeSet()));
        QVERIFY(!plain->findChild<QScatterSeries*>(QStringLiteral("predictedLegend")));
    }

    void paretoCurves() {
        const ResultSet set = makePredictedSet(true);
        std::unique_ptr<QChart> chart(buildTradeoffChart(set));
        auto* frontier = chart->findChild<QLineSeries*>(QStringLiteral("predictedFrontier"));
        QVERIFY(frontier);
        QCOMPARE(frontier->name(), QStringLiteral("predicted optimal frontier"));
        QCOMPARE(frontier->count(), 3);
        QCOMPARE(frontier->pen().style(), Qt::DashLine);
        auto* curve = chart->findChild<QLineSeries*>(QStringLiteral("optimalCurve"));
        QVERIFY(curve);
        QCOMPARE(curve->name(), QStringLiteral("measured optimal curve"));
        QCOMPARE(curve->points(), (QList<QPointF>{{45, 62}, {75, 52}}));
        QCOMPARE(curve->pen().style(), Qt::SolidLine);
        int predicted = 0;
        for (QScatterSeries* s : seriesOf<QScatterSeries>(chart.get()))
            if (s->property(kPredictedProperty).isValid()) predicted += s->count();
        QCOMPARE(predicted, 4);
    }

    void scalingDetection() {
        ScalingAxis axis = ScalingAxis::Batch;
        QVERIFY(detectScaling(makeScalingSet(), &axis));
        QVERIFY(axis == ScalingAxis::Depth);
        QVERIFY(!detectScaling(makeSet(), &axis));  // one config for all
        QVERIFY(!detectScaling(makePredictedSet(true), &axis));
        QVERIFY(!detectScaling(ResultSet{}, &axis));

        ResultSet seq = makeScalingSet();
        for (RunResult& run : seq.runs)
            run.config.seq = 16 * run.config.depth, run.config.depth = 8;
        QVERIFY(detectScaling(seq, &axis));
        QVERIFY(axis == ScalingAxis::Seq);

        ResultSet two = makeScalingSet();  // depth and width both vary: not one axis
        two.runs[0].config.width = 7;
        QVERIFY(!detectScaling(two, nullptr));
        ResultSet failed = two;  // ... unless the odd run failed and is not plotted
        failed.runs[0].error = "out of memory";
        QVERIFY(detectScaling(failed, nullptr));
    }

    void scalingChart() {
        const ResultSet set = makeScalingSet();
        std::unique_ptr<QChart> chart(
            buildScalingChart(set, ScalingAxis::Depth, ScalingMetric::ActivationBytes));
        QCOMPARE(strategyDots(chart.get()).size(), 3);
        for (QScatterSeries* s : strategyDots(chart.get())) QCOMPARE(s->count(), 4);
        QCOMPARE(runLines(chart.get()).size(), 3);
        QList<QLineSeries*> fits;
        for (QLineSeries* s : seriesOf<QLineSeries>(chart.get()))
            if (s->objectName() == QLatin1String("scalingFit")) fits << s;
        QCOMPARE(fits.size(), 3);
        QCOMPARE(fits[2]->name(), QStringLiteral("square: k=2.00"));
        std::vector<const RunResult*> squares;
        for (const RunResult& run : set.runs)
            if (run.name() == "square") squares.push_back(&run);
        const PowerFit fit = fitRuns(squares, ScalingAxis::Depth, ScalingMetric::ActivationBytes);
        QCOMPARE(fits[2]->name(), QStringLiteral("square: k=%1").arg(fit.exponent, 0, 'f', 2));
        QCOMPARE(fits[2]->pen().style(), Qt::DashLine);
        QCOMPARE(fits[2]->count(), 2);
        // MiB, exactly on y = x²: the fit carries about 16 roundings (libm's included) of
        // ln y into its exponent, and exp turns them into a relative error of y.
        QVERIFY(qAbs(fits[2]->at(1).y() - 32.0 * 32.0) <
                32.0 * 32.0 * ckptlab::test::tolerance::formula(std::log(32.0 * 32.0), 16));
        QVERIFY(fits[1]->name().startsWith(QLatin1String("sqrt: k=0.50")));
        QCOMPARE(fits[0]->name(), QStringLiteral("none: k=1.00"));
        const auto axes = chart->axes();
        QCOMPARE(axes.size(), 2);
        for (QAbstractAxis* a : axes) {
            auto* log = qobject_cast<QLogValueAxis*>(a);
            QVERIFY(log);
            QCOMPARE(log->base(), 2.0);
        }
        QVERIFY(axes[0]->titleText().contains(QLatin1String("Depth")));
        QVERIFY(axes[1]->titleText().contains(QLatin1String("MiB")));
        const QString tip =
            ChartInteraction::of(chart.get())->pointTooltip(strategyDots(chart.get())[2], {8, 64});
        QVERIFY2(tip.contains(QLatin1String("k=2.00")), qPrintable(tip));

        std::unique_ptr<QChart> time(
            buildScalingChart(set, ScalingAxis::Depth, ScalingMetric::StepMs));
        QVERIFY(time->axes()[1]->titleText().contains(QLatin1String("ms")));
        std::unique_ptr<QChart> empty(
            buildScalingChart(ResultSet{}, ScalingAxis::Depth, ScalingMetric::StepMs));
        QCOMPARE(empty->title(), noResultsTitle());
    }

    void exportAllAddsScalingForSweeps() {
        QTemporaryDir dir;
        QString error;
        const QStringList written =
            exportAllCharts(makeScalingSet(), dir.path(), true, true, 1, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        // six charts, the scaling time chart and the schedules
        QCOMPARE(written.size(), 16);
        for (const char* name :
             {"scaling.png", "scaling.svg", "scaling_time.png", "scaling_time.svg"})
            QVERIFY2(written.contains(dir.filePath(QLatin1String(name))), name);
        QVERIFY(inkAndColors(QImage(dir.filePath("scaling.png"))).first > 0.01);
        QCOMPARE(chartFileStem(ChartKind::Scaling), QStringLiteral("scaling"));
    }

    void timelineChart() {
        const ResultSet set = makeSet();
        const auto data = makeTimelineData(set, &set.runs[2], 20);
        QCOMPARE(data.size(), size_t(5));
        QCOMPARE(data.front().run, &set.runs[2]);  // the chosen run first, then the baseline
        QCOMPARE(data[1].run, &set.runs[0]);
        const auto three = makeTimelineData(set, &set.runs[3], 100, 3);
        QCOMPARE(three.size(), size_t(3));
        QCOMPARE(three[2].run->name(), std::string("full"));
        std::unique_ptr<QChart> chart(buildTimelineChart(set, data));
        const auto lines = runLines(chart.get());
        QCOMPARE(lines.size(), 5);
        QCOMPARE(lines[0]->name(), QStringLiteral("every:2"));
        for (int i = 0; i < lines.size(); ++i) {
            // Drawn as steps: each event after the first adds a horizontal and a vertical point.
            const int events = int(data[size_t(i)].points.size());
            QVERIFY(events > 0 && events <= 20);  // downsampled
            QCOMPARE(lines[i]->count(), 2 * events - 1);
            QCOMPARE(lines[i]->at(lines[i]->count() - 1).y(),
                     double(data[size_t(i)].points.back().total) / kMiB);
        }
        QStringList bands;
        for (QAreaSeries* a : seriesOf<QAreaSeries>(chart.get())) bands << a->name();
        QCOMPARE(bands, (QStringList{"forward", "loss", "recompute", "backward", "optimizer"}));
        bool boundaries = false;
        for (QLineSeries* s : seriesOf<QLineSeries>(chart.get()))
            if (s->name() == QLatin1String("block boundaries"))
                boundaries = s->count() >= 3 * kDepth;
        QVERIFY(boundaries);
        QVERIFY(chart->title().contains(QLatin1String("every:2")));
    }

    void phaseBandsFlattenNested() {
        const std::vector<PhaseSpan> spans{{Phase::Forward, 0, 0, 1},
                                           {Phase::Forward, 1, 1, 2},
                                           {Phase::Backward, 1, 2, 4},
                                           {Phase::Recompute, 1, 2, 3}};
        const auto flat = flattenPhases(spans);
        QCOMPARE(flat.size(), size_t(3));
        QVERIFY(flat[0].phase == Phase::Forward);
        QCOMPARE(flat[0].end_ms, 2.0);  // the two forward spans merged
        QVERIFY(flat[1].phase == Phase::Recompute);
        QVERIFY(flat[2].phase == Phase::Backward);
        QCOMPARE(flat[2].begin_ms, 3.0);
        QVERIFY(phaseAt(flat, 3.5)->phase == Phase::Backward);
        QVERIFY(!phaseAt(flat, 5));
    }

    void lifetimeChart() {
        const ResultSet set = makeSet();
        std::unique_ptr<QChart> chart(buildLifetimeChart(set, set.runs[2]));  // every:2
        const auto areas = seriesOf<QAreaSeries>(chart.get());
        QCOMPARE(areas.size(), 2);  // all forward bars in one series, all recompute bars in another
        QCOMPARE(areas[0]->upperSeries()->count(), 4 * 4);  // 4 kept blocks, 4 corners each
        QCOMPARE(areas[1]->upperSeries()->count(), 4 * 4);  // 4 recomputed blocks
        QVERIFY(areas[0]->color() != areas[1]->color());
        auto* y = qobject_cast<QValueAxis*>(chart->axes(Qt::Vertical).value(0));
        QVERIFY(y && y->isReverse() && y->min() < 0 && y->max() > kDepth - 1);

        std::unique_ptr<QChart> none(buildLifetimeChart(set, set.runs[0]));
        QCOMPARE(seriesOf<QAreaSeries>(none.get()).size(), 1);  // no recompute

        // Deep models stay at two series.
        ResultSet deep;
        RunResult big = makeRun("full", 10, 10, {});
        for (int b = 0; b < 300; ++b) {
            big.blocks.push_back({b, Phase::Forward, double(b), 600.0 - b, kAct});
            big.blocks.push_back({b, Phase::Recompute, 600.0 - b - 0.5, 600.0 - b, kAct});
        }
        deep.runs.push_back(big);
        std::unique_ptr<QChart> deepChart(buildLifetimeChart(deep, deep.runs[0]));
        QCOMPARE(seriesOf<QAreaSeries>(deepChart.get()).size(), 2);
    }

    void breakdownChart() {
        const ResultSet set = makeSet();
        std::unique_ptr<QChart> chart(buildBreakdownChart(set));
        const auto stacks = seriesOf<QHorizontalStackedBarSeries>(chart.get());
        QCOMPARE(stacks.size(), 1);
        const auto sets = stacks[0]->barSets();
        QCOMPARE(sets.size(), 6);
        QCOMPARE(sets[4]->label(), QStringLiteral("activations"));
        for (QBarSet* s : sets) QCOMPARE(s->count(), 5);
        QCOMPARE(sets[0]->at(4), 10 * kAct / kMiB);
        QCOMPARE(sets[4]->at(3), 0.0);  // full (second from the top) keeps no block activations
        auto* names = qobject_cast<QBarCategoryAxis*>(chart->axes(Qt::Vertical).value(0));
        QVERIFY(names);
        QStringList topDown = names->categories();  // the axis counts from the bottom
        std::reverse(topDown.begin(), topDown.end());
        QCOMPARE(topDown, strategyOrder(set));
        QVERIFY(chart->axes(Qt::Horizontal).value(0)->titleText().contains(QLatin1String("MiB")));
        QCOMPARE(strategyDots(chart.get()).size(), 5);
    }

    void coloursMatchAcrossCharts() {
        ResultSet set = makeSet();
        const QStringList order = strategyOrder(set);
        std::unique_ptr<QChart> tradeoff(buildTradeoffChart(set));
        std::unique_ptr<QChart> timeline(buildTimelineChart(set, makeTimelineData(set, nullptr)));
        std::unique_ptr<QChart> breakdown(buildBreakdownChart(set));
        const auto dots = strategyDots(tradeoff.get());
        const auto lines = runLines(timeline.get());
        const auto tops = strategyDots(breakdown.get());
        for (int i = 0; i < order.size(); ++i) {
            const QColor c = strategyColor(order[i], order);
            QCOMPARE(dots[i]->color(), c);
            QCOMPARE(lines[i]->pen().color(), c);
            QCOMPARE(tops[order.size() - 1 - i]->color(), c);  // bars are listed bottom-up
            QCOMPARE(tops[order.size() - 1 - i]->property(kStrategyProperty).toString(), order[i]);
        }
        std::set<QRgb> distinct;
        for (const QString& s : order) distinct.insert(strategyColor(s, order).rgb());
        QCOMPARE(int(distinct.size()), order.size());
        // Adding a run never recolours earlier ones.
        QStringList longer = order;
        longer << QStringLiteral("sqrt");
        for (const QString& s : order) QCOMPARE(strategyColor(s, longer), strategyColor(s, order));
    }

    void failedRunsAreSkipped() {
        ResultSet set = makeSet();
        RunResult failed = makeRun("seed-bug:2", 0, 0, {});
        failed.error = "out of memory";
        failed.timeline.clear();
        set.runs.insert(set.runs.begin() + 1, failed);
        std::unique_ptr<QChart> tradeoff(buildTradeoffChart(set));
        QCOMPARE(strategyDots(tradeoff.get()).size(), 5);
        std::unique_ptr<QChart> breakdown(buildBreakdownChart(set));
        QCOMPARE(seriesOf<QHorizontalStackedBarSeries>(breakdown.get())[0]->barSets()[0]->count(),
                 5);
        const auto data = makeTimelineData(set, &set.runs[1]);
        QCOMPARE(data.size(), size_t(5));
        std::unique_ptr<QChart> timeline(buildTimelineChart(set, {TimelineData{&set.runs[1], {}}}));
        QCOMPARE(timeline->title(), noResultsTitle());
        std::unique_ptr<QChart> lifetimes(buildLifetimeChart(set, set.runs[1]));
        QVERIFY(lifetimes->title().contains(QLatin1String("failed")));
        QVERIFY(lifetimes->series().isEmpty());
        QCOMPARE(representativeRun(set)->name(), std::string("every:2"));  // keeps and recomputes
    }

    // makeSet under a 31 MiB limit with 10 MiB of parameters: `none` runs out in the forward of
    // block 5, 5.3 ms into the step, with 20 MiB of activations; the others fit.
    static ResultSet makeLimitedSet() {
        ResultSet set = makeSet();
        for (RunResult& run : set.runs) {
            run.config.memory_limit_mib = 31;
            run.metrics.baseline_bytes = 10 * std::int64_t(kMiB);
        }
        RunResult& none = set.runs[0];
        std::vector<TimelineEvent> kept;
        for (const TimelineEvent& e : none.timeline)
            if (e.t_ms < 5.0) kept.push_back(e);
        none.metrics.peak_bytes = kept.back().total;
        // As the runner records it: after the stop, the unwinding frees everything, and the
        // last phase runs on until then.
        std::int64_t total = kept.back().total;
        double t = 5.5;
        while (total > 0) {
            kept.push_back({t, -kAct, total - kAct, Phase::Forward, 5});
            total -= kAct, t += 0.1;
        }
        none.timeline = kept;
        std::vector<PhaseSpan> spans;
        for (PhaseSpan s : none.phases)
            if (s.begin_ms < 5.3) spans.push_back(s);
        spans.back().end_ms = t;
        none.phases = spans;
        none.metrics.step_ms = 0;
        none.grad_check = GradCheck{};
        none.out_of_memory = OutOfMemory{kAct / 2,
                                         10 * std::int64_t(kMiB) + kept.back().total,
                                         31 * std::int64_t(kMiB),
                                         Phase::Forward,
                                         5,
                                         5.3};
        none.error = "none: " + describe(*none.out_of_memory);
        none.prediction = PredictedMetrics{std::int64_t(36 * kMiB), 0, 49, {}};
        return set;
    }

    void outOfMemoryRunsDrawnWhereTheyStopped() {
        const ResultSet set = makeLimitedSet();
        const RunResult& none = set.runs[0];
        QVERIFY(hasPartialTrace(none));
        const double level = double(none.metrics.peak_bytes) / kMiB;  // 20 MiB

        // Timeline: none's line holds its last level up to where it stopped, and ends there in
        // a labelled cross; the limit is a line 21 MiB above the step's start.
        const auto data = makeTimelineData(set, &set.runs[2]);
        QCOMPARE(data.size(), size_t(5));
        QCOMPARE(data[1].run, &none);
        std::unique_ptr<QChart> timeline(buildTimelineChart(set, data));
        QLineSeries* noneLine = nullptr;
        for (QLineSeries* line : runLines(timeline.get()))
            if (line->name() == QLatin1String("none")) noneLine = line;
        QVERIFY(noneLine);
        QCOMPARE(noneLine->at(noneLine->count() - 1), QPointF(5.3, level));
        for (const QPointF& p : noneLine->points()) QVERIFY(p.x() <= 5.3);  // not the unwinding
        QScatterSeries* cross = nullptr;
        QLineSeries* limit = nullptr;
        for (QAbstractSeries* s : timeline->series()) {
            if (s->objectName() == QLatin1String("outOfMemory"))
                cross = qobject_cast<QScatterSeries*>(s);
            if (s->objectName() == QLatin1String("memoryLimit"))
                limit = qobject_cast<QLineSeries*>(s);
        }
        QVERIFY(cross && limit);
        QCOMPARE(cross->at(0), QPointF(5.3, level));
        QVERIFY(!cross->lightMarker().isNull());
        QCOMPARE(limit->at(0).y(), 21.0);
        QVERIFY(limit->name().contains(QLatin1String("31.00 MiB")));
        auto* labels = timeline->findChild<PointLabels*>();
        QVERIFY(labels);
        QCOMPARE(labels->text(0), QStringLiteral("none: out of memory at forward of block 5"));
        auto* interaction = ChartInteraction::of(timeline.get());
        QVERIFY(interaction->pointTooltip(cross, cross->at(0)).contains(QLatin1String("limit")));
        // With none first, its phases are shaded up to where it stopped.
        std::unique_ptr<QChart> first(buildTimelineChart(set, makeTimelineData(set, &none)));
        auto* x = qobject_cast<QValueAxis*>(first->axes(Qt::Horizontal).front());
        QVERIFY(x->max() >= 5.3);
        for (QAreaSeries* area : seriesOf<QAreaSeries>(first.get()))
            for (const QPointF& p : area->upperSeries()->points())
                QVERIFY(p.x() <= 5.3 + ckptlab::test::tolerance::formula(5.3, 2));  // ms to s
        QCOMPARE(interaction->pointStrategy(cross, cross->at(0)), QStringLiteral("none"));

        // Tradeoff: no measured point and no frontier for none, a cross at its partial peak
        // (at its predicted step time) and the capacity on the memory axis.
        std::unique_ptr<QChart> tradeoff(buildTradeoffChart(set));
        QStringList dots;
        for (QScatterSeries* s : strategyDots(tradeoff.get()))
            if (s->property("ckptlabBaseMarker").isValid()) dots << s->name();
        QCOMPARE(dots, (QStringList{"full", "every:2", "every:4", "segments:2"}));
        QScatterSeries* tradeoffCross = nullptr;
        QLineSeries* capacity = nullptr;
        for (QAbstractSeries* s : tradeoff->series()) {
            if (s->objectName() == QLatin1String("outOfMemory"))
                tradeoffCross = qobject_cast<QScatterSeries*>(s);
            if (s->objectName() == QLatin1String("memoryCapacity"))
                capacity = qobject_cast<QLineSeries*>(s);
        }
        QVERIFY(tradeoffCross && capacity);
        QCOMPARE(tradeoffCross->at(0), QPointF(level, 49));
        QCOMPARE(capacity->at(0).x(), 21.0);
        auto* memory = qobject_cast<QValueAxis*>(tradeoff->axes(Qt::Horizontal).front());
        QVERIFY(memory->min() <= 20 && memory->max() >= 80);
        bool labelled = false;
        auto* tradeoffLabels = tradeoff->findChild<PointLabels*>();
        for (int i = 0; i < tradeoffLabels->count(); ++i)
            labelled |= tradeoffLabels->text(i) ==
                        QLatin1String("none: out of memory at forward of block 5");
        QVERIFY(labelled);

        // Breakdown: skipped. Everything renders.
        std::unique_ptr<QChart> breakdown(buildBreakdownChart(set));
        QCOMPARE(seriesOf<QHorizontalStackedBarSeries>(breakdown.get())[0]->barSets()[0]->count(),
                 4);
        bool limitBar = false;  // the bars are totals, so the limit itself
        for (QLineSeries* s : seriesOf<QLineSeries>(breakdown.get()))
            limitBar |= s->objectName() == QLatin1String("memoryLimit") && s->at(0).x() == 31.0;
        QVERIFY(limitBar);
        QTemporaryDir dir;
        QString error;
        QCOMPARE(exportAllCharts(set, dir.path(), true, true, 1, &error).size(), 12);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QString out = qEnvironmentVariable("CKPTLAB_CHART_DIR");
        if (!out.isEmpty()) exportAllCharts(set, out + "/limited", true, false, 1, &error);

        // Only failed runs: still a chart, not "No results yet".
        ResultSet alone;
        alone.runs.push_back(none);
        std::unique_ptr<QChart> lone(buildTradeoffChart(alone));
        QVERIFY(lone->title() != noResultsTitle());
        std::unique_ptr<QChart> loneTimeline(
            buildTimelineChart(alone, makeTimelineData(alone, nullptr)));
        QVERIFY(loneTimeline->title() != noResultsTitle());
    }

    void emptySetsGiveEmptyCharts() {
        const ResultSet empty;
        std::vector<std::unique_ptr<QChart>> charts;
        charts.emplace_back(buildTradeoffChart(empty));
        charts.emplace_back(buildTimelineChart(empty, {}));
        charts.emplace_back(buildBreakdownChart(empty));
        for (auto& chart : charts) {
            QCOMPARE(chart->title(), noResultsTitle());
            QVERIFY(chart->series().isEmpty());
        }
        QVERIFY(!representativeRun(empty));
        RunResult bare;              // a run with nothing traced
        bare.strategy = Strategy{};  // none
        std::unique_ptr<QChart> lifetimes(buildLifetimeChart(empty, bare));
        QVERIFY(lifetimes->series().isEmpty());
        QTemporaryDir dir;
        QString error;
        QCOMPARE(exportAllCharts(empty, dir.path(), true, true, 1, &error).size(), 12);
        QVERIFY2(error.isEmpty(), qPrintable(error));
    }

    void pngExportAtOneAndTwoTimes() {
        const ResultSet set = makeSet();
        QTemporaryDir dir;
        for (int scale : {1, 2}) {
            std::unique_ptr<QChart> chart(buildTradeoffChart(set));
            const QString path = dir.filePath(QStringLiteral("t%1.png").arg(scale));
            QString error;
            QVERIFY2(exportChartPng(chart.get(), path, scale, &error), qPrintable(error));
            QImage image(path);
            QCOMPARE(image.size(), kExportSize * scale);
            const auto [ink, colours] = inkAndColors(image);
            QVERIFY2(ink > 0.01 && ink < 0.6, qPrintable(QString::number(ink)));
            QVERIFY(colours > 20);
        }
        std::unique_ptr<QChart> chart(buildTradeoffChart(set));
        QString error;
        QVERIFY(!exportChartPng(chart.get(), dir.filePath("x.png"), 3, &error));
        QVERIFY(!error.isEmpty());
        QVERIFY(!exportChartPng(chart.get(), dir.filePath("missing/dir/x.png"), 1, &error));
    }

    void exportFromAViewKeepsTheView() {
        const ResultSet set = makeSet();
        ChartView view;
        view.resize(520, 340);
        view.showChart(buildBreakdownChart(set));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QSizeF before = view.chart()->size();
        QTemporaryDir dir;
        QString error;
        QVERIFY2(exportChartPng(view.chart(), dir.filePath("b.png"), 1, &error), qPrintable(error));
        QCOMPARE(QImage(dir.filePath("b.png")).size(), kExportSize);
        QCOMPARE(view.chart()->size(), before);
    }

    void svgExportHasTitleAndDescription() {
        ResultSet set = makeSet();
        std::unique_ptr<QChart> chart(buildTimelineChart(set, makeTimelineData(set, nullptr)));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("timeline.svg"));
        const QString description = describeConfig(set.runs[0].config);
        QString error;
        QVERIFY2(exportChartSvg(chart.get(), path, QStringLiteral("Timeline title"), description,
                                &error),
                 qPrintable(error));
        QSvgRenderer renderer(path);
        QVERIFY(renderer.isValid());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString svg = QString::fromUtf8(file.readAll());
        QVERIFY(svg.contains(QLatin1String("<title>Timeline title</title>")));
        QVERIFY(svg.contains(QStringLiteral("<desc>%1</desc>").arg(description)));
    }

    void describeConfigIsOneLine() {
        ExperimentConfig config;
        config.block = BlockKind::Transformer;
        config.depth = 20, config.width = 256, config.seq = 512, config.batch = 2;  // not defaults
        const QString text = describeConfig(config);
        QVERIFY(!text.contains(QLatin1Char('\n')));
        // Each field the registry shows, under its label (ckptlab::describeConfig).
        for (const char* part :
             {"block transformer", "depth 20", "width 256", "seq 512", "batch 2", "heads 4",
              "MLP width 1024", "dropout 0", "precision float32", "device cpu", "seed 0"})
            QVERIFY2(text.contains(QLatin1String(part)), qPrintable(text));
        // Not what a transformer does not read, nor a switch that is off.
        for (const char* absent : {"key/value heads", "rotary", "kept gradients", "vocabulary"})
            QVERIFY2(!text.contains(QLatin1String(absent)), qPrintable(text));
        config.keep_grads = true;
        QVERIFY(describeConfig(config).contains(QLatin1String("kept gradients")));
    }

    void exportAllWritesChartsAndSchedulesPerFormat() {
        const ResultSet set = makeSet();
        QTemporaryDir dir;
        QString error;
        const QString sub = dir.filePath(QStringLiteral("slides/charts"));  // created on demand
        const QStringList both = exportAllCharts(set, sub, true, true, 2, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(both.size(), 12);
        const QImage schedules(QDir(sub).filePath(QStringLiteral("schedules.png")));
        QCOMPARE(schedules.width(), kExportSize.width() * 2);
        QVERIFY(inkAndColors(schedules).first > 0.01);
        QVERIFY(QSvgRenderer(QDir(sub).filePath(QStringLiteral("schedules.svg"))).isValid());
        for (const char* stem : {"tradeoff", "timeline", "lifetimes", "breakdown"}) {
            const QString png = QDir(sub).filePath(QLatin1String(stem) + ".png");
            QVERIFY(both.contains(png));
            QCOMPARE(QImage(png).size(), kExportSize * 2);
            QVERIFY(inkAndColors(QImage(png)).first > 0.01);
            QVERIFY(QSvgRenderer(QDir(sub).filePath(QLatin1String(stem) + ".svg")).isValid());
        }
        QCOMPARE(exportAllCharts(set, dir.filePath("png"), true, false, 1, &error).size(), 6);
        QCOMPARE(exportAllCharts(set, dir.filePath("svg"), false, true, 1, &error).size(), 6);
    }

    void viewReportsClicksAndHover() {
        const ResultSet set = makeSet();
        ChartView view;
        view.resize(900, 600);
        view.showChart(buildTradeoffChart(set));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        // Labels sit inside the plot, clear of each other, even for close points.
        QList<QRectF> rects;
        for (QGraphicsItem* item : view.chart()->childItems())
            if (auto* text = dynamic_cast<QGraphicsSimpleTextItem*>(item);
                text && text->isVisible())
                rects << text->mapRectToScene(text->boundingRect());
        QCOMPARE(rects.size(), 5);
        for (int i = 0; i < rects.size(); ++i) {
            QVERIFY(view.chart()->plotArea().contains(rects[i]));
            for (int j = i + 1; j < rects.size(); ++j) QVERIFY(!rects[i].intersects(rects[j]));
        }
        QSignalSpy clicked(&view, &ChartView::strategyClicked);
        QSignalSpy hovered(&view, &ChartView::hoverTextChanged);
        QScatterSeries* every2 = strategyDots(view.chart())[2];

        Q_EMIT every2->hovered(every2->at(0), true);
        QCOMPARE(hovered.size(), 1);
        const QString tip = hovered.at(0).at(0).toString();
        for (const char* part : {"every:2", "60.00 MiB", "60.00 ms", "memory saved 40.0 %",
                                 "time added 20.0 %", "gradient check passed"})
            QVERIFY2(tip.contains(QLatin1String(part)), qPrintable(tip));

        // A real mouse click on the point's position.
        const QPoint at = view.mapFromScene(view.chart()->mapToPosition(every2->at(0), every2));
        QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(clicked.size(), 0);  // after the mouse release is done (chart_view.cpp)
        QTRY_COMPARE(clicked.size(), 1);
        QCOMPARE(clicked.at(0).at(0).toString(), QStringLiteral("every:2"));

        // Bars report their strategy too; replacing the chart deletes the old one.
        QPointer<QChart> old = view.chart();
        view.showChart(buildBreakdownChart(set));
        QVERIFY(old.isNull());
        auto* bars = seriesOf<QHorizontalStackedBarSeries>(view.chart())[0];
        Q_EMIT bars->clicked(1, bars->barSets()[4]);  // second from the bottom
        QTRY_COMPARE(clicked.size(), 2);
        QCOMPARE(clicked.at(1).at(0).toString(), QStringLiteral("every:4"));
        Q_EMIT bars->hovered(true, 1, bars->barSets()[4]);
        QVERIFY(hovered.last().at(0).toString().contains(QLatin1String("activations")));
    }

    // To look at the charts as a person would: CKPTLAB_CHART_DIR=/some/dir test_charts dump
    void dump() {
        const QString dir = qEnvironmentVariable("CKPTLAB_CHART_DIR");
        if (dir.isEmpty()) QSKIP("set CKPTLAB_CHART_DIR to write the charts there");
        QString error;
        QVERIFY(!exportAllCharts(makeSet(), dir + "/basic", true, true, 1, &error).isEmpty());
        QVERIFY(!exportAllCharts(makeSweep(), dir + "/sweep", true, true, 1, &error).isEmpty());
        QVERIFY(!exportAllCharts(makePredictedSet(true), dir + "/pareto", true, false, 1, &error)
                     .isEmpty());
        QVERIFY(
            !exportAllCharts(makeScalingSet(), dir + "/scaling", true, false, 1, &error).isEmpty());
        // As the window shows them, in a smallish view.
        const ResultSet sweep = makeSweep();
        ChartView view;
        view.resize(760, 480);
        view.show();
        const auto data = makeTimelineData(sweep, &sweep.runs[2]);
        std::vector<QChart*> charts{buildTradeoffChart(sweep), buildTimelineChart(sweep, data),
                                    buildLifetimeChart(sweep, sweep.runs[2]),
                                    buildBreakdownChart(sweep)};
        for (size_t i = 0; i < charts.size(); ++i) {
            view.showChart(charts[i]);
            setSelectedStrategy(charts[i], QStringLiteral("every:2"));
            QTest::qWait(50);
            view.grab().save(QStringLiteral("%1/view%2.png").arg(dir).arg(i));
        }
    }

    void tooltipsCarryTheNumbers() {
        const ResultSet set = makeSet();
        std::unique_ptr<QChart> timeline(
            buildTimelineChart(set, makeTimelineData(set, &set.runs[2])));
        QLineSeries* line = runLines(timeline.get())[0];  // point 3: 1.3 ms, in block 1
        const QString lineTip =
            ChartInteraction::of(timeline.get())->pointTooltip(line, line->at(3));
        QVERIFY2(lineTip.contains(QLatin1String("every:2")) &&
                     lineTip.contains(QLatin1String("MiB")) &&
                     lineTip.contains(QLatin1String("forward of block 1")),
                 qPrintable(lineTip));

        std::unique_ptr<QChart> lifetimes(buildLifetimeChart(set, set.runs[2]));
        auto* interaction = ChartInteraction::of(lifetimes.get());
        const auto areas = seriesOf<QAreaSeries>(lifetimes.get());
        // Block 1 is kept from 2 ms (its forward's end) to its backward; block 2 is recomputed.
        const QString kept = interaction->pointTooltip(areas[0], QPointF(5, 1.1));
        QVERIFY2(
            kept.contains(QLatin1String("block 1")) && kept.contains(QLatin1String("4.00 MiB")),
            qPrintable(kept));
        const QLineSeries* bursts = areas[1]->upperSeries();  // first bar: block 0's recompute
        const QPointF inBurst(bursts->at(1).x() + 0.1, bursts->at(0).y());
        QVERIFY(interaction->pointTooltip(areas[1], inBurst).contains(QLatin1String("recomputed")));
        QVERIFY(interaction->pointTooltip(areas[0], QPointF(0.5, 5)).isEmpty());  // no bar there
    }

    void selectionEmphasisesOneStrategy() {
        const ResultSet set = makeSet();
        std::unique_ptr<QChart> chart(buildTradeoffChart(set));
        const auto dots = strategyDots(chart.get());
        const qreal before = dots[3]->markerSize();
        setSelectedStrategy(chart.get(), QStringLiteral("every:4"));
        QVERIFY(dots[3]->markerSize() > before);
        QCOMPARE(dots[2]->markerSize(), before);
        setSelectedStrategy(chart.get(), QString());
        QCOMPARE(dots[3]->markerSize(), before);
    }
};

QTEST_MAIN(TestCharts)
#include "test_charts.moc"
