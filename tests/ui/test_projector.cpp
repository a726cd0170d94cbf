// Projector mode: fonts at least 1.6× in the app and the charts, the high-contrast theme,
// thicker lines, charts rebuilt when it toggles, and the setting kept across a restart.
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QLabel>
#include <QLineSeries>
#include <QTemporaryDir>
#include <QtTest>

#include "tolerance.h"
#include "ui_test_support.h"

#include "base/projector_mode.h"
#include "charts/chart_builders.h"
#include "charts/chart_style.h"
#include "document/results_document.h"
#include "document/settings.h"
#include "panels/charts_panel.h"
#include "playback/charts_playback.h"
#include "playback/playback_controller.h"
#include "strategy_text.h"
#include "window/chart_exporter.h"
#include "window/main_window.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

namespace {

// A size the code scales by `factor`: at least factor × normal, less two roundings (the product
// may be taken in another order).
bool scaledAtLeast(double size, double factor, double normal) {
    return size >= factor * normal - ckptlab::test::tolerance::formula(factor * normal, 2);
}

// Two runs with a timeline each: enough for every builder to draw lines.
ResultSet smallResults() {
    ResultSet results;
    for (const char* name : {"none", "full"}) {
        RunResult run;
        run.strategy = ckptlab::test::strategy(name);
        run.config.depth = 2;
        run.grad_check = GradCheck{true, 0, 1e-5};
        run.metrics.peak_bytes = 3 << 20;
        run.metrics.step_ms = 10;
        run.timeline = {{0, 1 << 20, 1 << 20, Phase::Forward, 0},
                        {5, 1 << 20, 2 << 20, Phase::Forward, 1},
                        {10, -(2 << 20), 0, Phase::Backward, 0}};
        run.phases = {{Phase::Forward, 0, 0, 2.5},
                      {Phase::Forward, 1, 2.5, 5},
                      {Phase::Backward, 1, 5, 7.5},
                      {Phase::Backward, 0, 7.5, 10}};
        run.blocks = {{0, Phase::Forward, 2.5, 10, 1 << 20}, {1, Phase::Forward, 5, 7.5, 1 << 20}};
        results.runs.push_back(run);
    }
    return results;
}

std::vector<TimelineData> timelines(const ResultSet& results) {
    std::vector<TimelineData> data;
    for (const RunResult& run : results.runs) data.push_back({&run, run.timeline});
    return data;
}

qreal firstLineWidth(QChart* chart) {
    for (QAbstractSeries* s : chart->series())
        if (auto* line = qobject_cast<QLineSeries*>(s);
            line && s->property(kStrategyProperty).isValid())
            return line->pen().widthF();
    return 0;
}

}  // namespace

class TestProjector : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanup();
    void fontsGrowAtLeastOnePointSix();
    void chartsUseTheHighContrastThemeAndThickerLines();
    void menuTogglesPersistsAndRestyles();
    void exportsKeepTheNormalLook();
    void playbackFitsTheScreenInProjectorMode_data();
    void playbackFitsTheScreenInProjectorMode();
};

void TestProjector::initTestCase() {
    QVERIFY(QSettings().fileName().startsWith(configHome().path()));
    QVERIFY(!isProjectorMode());
}

void TestProjector::cleanup() { setProjectorMode(false); }

void TestProjector::fontsGrowAtLeastOnePointSix() {
    const ResultSet results = smallResults();
    const qreal appNormal = QApplication::font().pointSizeF();
    const qreal titleNormal = chartTitleFont().pointSizeF();
    std::unique_ptr<QChart> normal(buildTimelineChart(results, timelines(results)));
    const qreal chartTitleNormal = normal->titleFont().pointSizeF();
    QVERIFY(appNormal > 0 && titleNormal > 0);

    setProjectorMode(true);
    QVERIFY(isProjectorMode());
    QVERIFY(scaledAtLeast(QApplication::font().pointSizeF(), 1.6, appNormal));
    QVERIFY(scaledAtLeast(chartTitleFont().pointSizeF(), 1.6, titleNormal));
    for (const QFont& f : {axisTitleFont(), axisLabelFont(), legendFont(), pointLabelFont()})
        QVERIFY(scaledAtLeast(f.pointSizeF(), 1.6, 10));
    std::unique_ptr<QChart> big(buildTimelineChart(results, timelines(results)));
    QVERIFY(scaledAtLeast(big->titleFont().pointSizeF(), 1.6, chartTitleNormal));
    QVERIFY(scaledAtLeast(big->legend()->font().pointSizeF(), 1.6,
                          normal->legend()->font().pointSizeF()));
    const auto axes = big->axes();
    QVERIFY(!axes.isEmpty());
    QVERIFY(scaledAtLeast(axes.front()->labelsFont().pointSizeF(), 1.6,
                          normal->axes().front()->labelsFont().pointSizeF()));

    setProjectorMode(false);
    QCOMPARE(QApplication::font().pointSizeF(), appNormal);
    QCOMPARE(chartTitleFont().pointSizeF(), titleNormal);
}

void TestProjector::chartsUseTheHighContrastThemeAndThickerLines() {
    const ResultSet results = smallResults();
    std::unique_ptr<QChart> normal(buildTimelineChart(results, timelines(results)));
    QVERIFY(normal->theme() != QChart::ChartThemeHighContrast);
    const qreal thin = firstLineWidth(normal.get());
    applyProjectorLook(normal.get());  // off: changes nothing
    QCOMPARE(firstLineWidth(normal.get()), thin);

    setProjectorMode(true);
    std::unique_ptr<QChart> big(buildTimelineChart(results, timelines(results)));
    QCOMPARE(big->theme(), QChart::ChartThemeHighContrast);
    applyProjectorLook(big.get());
    QVERIFY(scaledAtLeast(firstLineWidth(big.get()), 2, thin));
    // The emphasis of a selected run scales with it.
    setSelectedStrategy(big.get(), QStringLiteral("none"));
    QVERIFY(scaledAtLeast(firstLineWidth(big.get()), 4, thin));
    std::unique_ptr<QChart> tradeoff(buildTradeoffChart(results));
    QCOMPARE(tradeoff->theme(), QChart::ChartThemeHighContrast);
}

void TestProjector::menuTogglesPersistsAndRestyles() {
    {
        MainWindow window;
        window.show();
        auto* action = part<QAction>(window, "projectorAction");
        QVERIFY(action->isCheckable());
        QVERIFY(!action->isChecked());
        auto* charts = part<ChartsPanel>(window, "charts");
        charts->setCurrentKind(ChartKind::Tradeoff);
        QTest::qWait(20);
        const int builds = charts->buildCount(ChartKind::Tradeoff);
        action->trigger();
        QVERIFY(isProjectorMode());
        QTRY_VERIFY(charts->buildCount(ChartKind::Tradeoff) > builds);
        QCOMPARE(charts->chart(ChartKind::Tradeoff)->theme(), QChart::ChartThemeHighContrast);
        QVERIFY(Settings().projectorMode());  // a new read sees it
    }
    setProjectorMode(false);
    {
        MainWindow restarted;  // comes back in projector mode
        QVERIFY(isProjectorMode());
        QVERIFY(part<QAction>(restarted, "projectorAction")->isChecked());
        part<QAction>(restarted, "projectorAction")->trigger();
        QVERIFY(!isProjectorMode());
        QVERIFY(!Settings().projectorMode());
    }
}

// Files never have the projector look: exported in projector mode, a chart and the schedules
// are the files exported without it; the screen keeps its look.
void TestProjector::exportsKeepTheNormalLook() {
    MessageRecorder recorder;
    MainWindow window;
    window.show();
    const ResultSet results = smallResults();
    std::vector<std::vector<TimelineEvent>> thinned;
    for (const RunResult& run : results.runs) thinned.push_back(run.timeline);
    part<ResultsDocument>(window, "document")->reset(results, std::move(thinned));
    auto* exporter = part<ChartExporter>(window, "chartExporter");
    QTemporaryDir dir;
    const auto readAll = [](const QString& path) {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    };
    const auto exportAll = [&](const QString& tag) {
        QVERIFY(exporter->exportChart(ChartKind::Timeline, ChartFormat::Png1x,
                                      dir.filePath(tag + QStringLiteral("-timeline.png"))));
        QVERIFY(exporter->exportChart(ChartKind::Tradeoff, ChartFormat::Png1x,
                                      dir.filePath(tag + QStringLiteral("-tradeoff.png"))));
        QVERIFY(exporter->exportSchedule(ChartFormat::Png1x,
                                         dir.filePath(tag + QStringLiteral("-schedules.png"))));
    };
    exportAll(QStringLiteral("normal"));
    setProjectorMode(true);
    QCoreApplication::processEvents();
    exportAll(QStringLiteral("projector"));
    QVERIFY(isProjectorLook());  // the screen's look is back after each export
    // Pixels, not SVG text: an SVG also records the painter's unused default font, the
    // application's, which projector mode enlarges.
    for (const char* file : {"-timeline.png", "-tradeoff.png", "-schedules.png"}) {
        const QByteArray normal = readAll(dir.filePath(QStringLiteral("normal") + file));
        QVERIFY(!normal.isEmpty());
        QVERIFY2(normal == readAll(dir.filePath(QStringLiteral("projector") + file)), file);
    }
}

void TestProjector::playbackFitsTheScreenInProjectorMode_data() {
    QTest::addColumn<QSize>("size");
    QTest::newRow("1920x1080") << QSize(1920, 1080);
    QTest::newRow("1280x720") << QSize(1280, 720);
}

// The window at a projector's sizes, playing a real step: the bar and its narration are
// inside the window and not cut. With CKPTLAB_SCREENSHOT_DIR set, saves what it shows there.
void TestProjector::playbackFitsTheScreenInProjectorMode() {
    QFETCH(QSize, size);
    MessageRecorder recorder;
    MainWindow window;
    setProjectorMode(true);
    window.resize(size);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QString file = qEnvironmentVariable("CKPTLAB_SCREENSHOT_RESULTS");  // else a sweep
    if (file.isEmpty()) {
        runTinySweep(window, {QStringLiteral("none"), QStringLiteral("segments:2")}, recorder);
        if (QTest::currentTestFailed()) return;
    } else {
        window.openResultsFile(file);
    }
    auto* charts = part<ChartsPanel>(window, "charts");
    auto* controller = charts->playback()->controller();
    QTRY_VERIFY(!controller->step().isEmpty());
    const auto& events = controller->step().events();
    // Mid-step, in a backward that recomputes.
    double t = controller->step().duration() / 2;
    for (const PlaybackEvent& e : events)
        if (e.phase == Phase::Recompute && e.begin_ms > controller->step().duration() * 0.4) {
            t = (e.begin_ms + e.end_ms) / 2;
            break;
        }
    // The screen holds the whole window: nothing forces it wider or taller.
    const QSize least = window.minimumSizeHint().expandedTo(window.minimumSize());
    QVERIFY2(least.width() <= size.width() && least.height() <= size.height(),
             qPrintable(QStringLiteral("needs %1x%2").arg(least.width()).arg(least.height())));
    QCOMPARE(window.size(), size);
    const QString dir = qEnvironmentVariable("CKPTLAB_SCREENSHOT_DIR");
    // The tabs with the playback bar under them: the timeline, the lifetimes, the schedules.
    for (ChartKind kind : {ChartKind::Timeline, ChartKind::Lifetimes, ChartKind::Schedule}) {
        charts->setCurrentKind(kind);
        const int tab = charts->currentIndex();
        QTest::qWait(100);
        controller->setTime(t);
        QTest::qWait(50);
        auto* bar = part<QWidget>(window, "playbackBar");
        QVERIFY(bar->isVisible());
        const QRect inWindow(bar->mapTo(&window, QPoint(0, 0)), bar->size());
        QVERIFY2(window.rect().contains(inWindow), qPrintable(QStringLiteral("bar at %1,%2 %3x%4")
                                                                  .arg(inWindow.x())
                                                                  .arg(inWindow.y())
                                                                  .arg(inWindow.width())
                                                                  .arg(inWindow.height())));
        auto* narration = part<QLabel>(window, "playbackNarration");
        QVERIFY(!narration->text().isEmpty());
        QVERIFY(narration->height() >= narration->heightForWidth(narration->width()));
        if (!dir.isEmpty())
            QVERIFY(window.grab().save(QStringLiteral("%1/projector-%2x%3-tab%4.png")
                                           .arg(dir)
                                           .arg(size.width())
                                           .arg(size.height())
                                           .arg(tab)));
    }
}

QTEST_MAIN(TestProjector)
#include "test_projector.moc"
