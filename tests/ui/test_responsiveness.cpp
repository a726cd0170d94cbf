// The GUI thread keeps its event loop turning while a sweep runs: a 10 ms timer's largest gap
// must stay under 100 ms, with results arriving and the heaviest chart (the timeline) rebuilt
// on every one of them.
//
// Two numbers per gap: wall-clock time, and the GUI thread's own CPU time in it. Only the
// second is ours alone: on a machine with more runnable threads than cores the scheduler also
// stretches the wall-clock gaps. So the CPU time is always held under 100 ms, and the
// wall-clock gap too unless the machine was overloaded during the sweep (then it is reported).

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>
#include <QtTest>

#include <ctime>
#include "ui_test_support.h"

#include "base/messages.h"
#include "document/results_document.h"
#include "panels/charts_panel.h"
#include "panels/parameter_panel.h"
#include "panels/strategy_list.h"
#include "window/main_window.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

namespace {

qint64 threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1000 + ts.tv_nsec / 1000000;
}

// One-minute load average: runnable threads competing for the cores.
double loadAverage() {
    QFile file(QStringLiteral("/proc/loadavg"));
    if (!file.open(QIODevice::ReadOnly)) return 0;
    return file.readAll().split(' ').value(0).toDouble();
}

}  // namespace

class TestResponsiveness : public WindowTest {
    Q_OBJECT
private Q_SLOTS:
    void eventLoopNeverStallsDuringSweep();
};

void TestResponsiveness::eventLoopNeverStallsDuringSweep() {
    MainWindow window;
    auto* strategies = part<StrategyList>(window, "strategies");
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    ExperimentConfig config;
    // Several seconds of real work, so results and progress arrive while we measure.
    config.depth = 16;
    config.width = 256;
    config.seq = 256;
    config.batch = 2;
    config.warmup = 0;
    config.repeats = 2;
    config.threads = 1;  // leave a core for the GUI thread on small machines
    part<ParameterPanel>(window, "parameters")->setConfig(config);
    strategies->setCheckedStrategies({"none", "full", "every:2", "sqrt", "segments:2"});
    part<ChartsPanel>(window, "charts")->setCurrentKind(ChartKind::Timeline);

    // Every gap between two ticks is time the event loop could not run.
    qint64 maxGap = 0, maxBusy = 0;
    QElapsedTimer clock;
    qint64 lastWall = 0, lastCpu = 0;
    QTimer ticker;
    ticker.setTimerType(Qt::PreciseTimer);
    ticker.setInterval(10);
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        const qint64 wall = clock.elapsed();
        const qint64 cpu = threadCpuMs();
        maxGap = std::max(maxGap, wall - lastWall);
        maxBusy = std::max(maxBusy, cpu - lastCpu);
        lastWall = wall;
        lastCpu = cpu;
    });

    const double loadBefore = loadAverage();
    QSignalSpy ended(&window, &MainWindow::sweepEnded);
    QVERIFY(window.startSweep());
    clock.start();
    lastCpu = threadCpuMs();
    ticker.start();
    QVERIFY(ended.wait(240000));
    ticker.stop();
    const double load = std::max(loadBefore, loadAverage());

    QVERIFY(m_recorder.messages.isEmpty());
    QCOMPARE(part<ResultsDocument>(window, "document")->runCount(), 5);
    QVERIFY(part<ChartsPanel>(window, "charts")->buildCount(ChartKind::Timeline) >= 5);
    const int cores = QThread::idealThreadCount();
    qInfo(
        "largest event-loop gap: %lld ms wall, %lld ms GUI-thread CPU, over %lld ms; "
        "load %.1f on %d cores",
        maxGap, maxBusy, clock.elapsed(), load, cores);
    QVERIFY2(maxBusy < 100, qPrintable(QStringLiteral("GUI thread busy for %1 ms").arg(maxBusy)));
    if (maxGap >= 100 && load > cores)
        qWarning(
            "wall-clock gap of %lld ms not held against the limit: the machine was "
            "overloaded (load %.1f on %d cores)",
            maxGap, load, cores);
    else
        QVERIFY2(maxGap < 100, qPrintable(QStringLiteral("stalled for %1 ms").arg(maxGap)));
}

QTEST_MAIN(TestResponsiveness)
#include "test_responsiveness.moc"
