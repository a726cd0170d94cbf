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
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <iterator>
#include <memory>
#include <set>

#include "charts/chart_builders.h"
#include "charts/chart_export.h"
#include "charts/chart_registry.h"
#include "charts/chart_style.h"
#include "charts/schedule_diagram.h"
#include "ckptlab/lesson.h"
#include "ckptlab/strategy.h"
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
            // The lesson file's name for a chart is its file stem ("schedule" → "schedules").
            QVERIFY2(chartFileStem(kind).startsWith(QString::fromStdString(toString(chart))),
                     toString(chart).c_str());
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
