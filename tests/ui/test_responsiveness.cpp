// The GUI thread keeps its event loop turning while a sweep runs: a 10 ms timer's largest gap
// must stay under 100 ms, with results arriving and the heaviest chart (the timeline) rebuilt
// on every one of them.

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include "window/charts_panel.h"
#include "window/main_window.h"
#include "window/messages.h"
#include "window/parameter_panel.h"
#include "window/results_document.h"
#include "window/strategy_list.h"

using namespace ckptlab;
using namespace ckptlab::ui;

namespace {

QTemporaryDir& configHome()
{
    static QTemporaryDir dir;
    return dir;
}
const bool kEnvironment = [] {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(configHome().path()));
    return true;
}();

}  // namespace

class TestResponsiveness : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void eventLoopNeverStallsDuringSweep();
};

void TestResponsiveness::eventLoopNeverStallsDuringSweep()
{
    QCoreApplication::setOrganizationName(QStringLiteral("ckptlab-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_responsiveness"));
    QList<Message> messages;
    setMessageSink([&](const Message& m) {
        messages << m;
        return false;
    });

    MainWindow window;
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
    window.parameterPanel()->setConfig(config);
    window.strategyList()->setCheckedStrategies({"none", "full", "every:2", "sqrt", "segments:2"});
    window.chartsPanel()->setCurrentKind(ChartKind::Timeline);

    // Ticks from the moment the sweep starts: every gap between two ticks is time the event
    // loop could not run.
    qint64 maxGap = 0;
    QElapsedTimer clock;
    qint64 last = 0;
    QTimer ticker;
    ticker.setTimerType(Qt::PreciseTimer);
    ticker.setInterval(10);
    QObject::connect(&ticker, &QTimer::timeout, [&] {
        const qint64 now = clock.elapsed();
        maxGap = std::max(maxGap, now - last);
        last = now;
    });

    QSignalSpy ended(&window, &MainWindow::sweepEnded);
    QVERIFY(window.startSweep());
    clock.start();
    ticker.start();
    QVERIFY(ended.wait(240000));
    ticker.stop();

    QVERIFY(messages.isEmpty());
    QCOMPARE(window.document()->runCount(), 5);
    QVERIFY(window.chartsPanel()->buildCount(ChartKind::Timeline) >= 5);
    qInfo("largest event-loop gap during the sweep: %lld ms over %lld ms", maxGap, clock.elapsed());
    QVERIFY2(maxGap < 100, qPrintable(QStringLiteral("stalled for %1 ms").arg(maxGap)));
    setMessageSink({});
}

QTEST_MAIN(TestResponsiveness)
#include "test_responsiveness.moc"
