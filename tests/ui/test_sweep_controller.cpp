// SweepController and SweepWorker without the window: results come through queued signals
// with their timeline already thinned, a superseded job's results are dropped, cancel stops a
// sweep, and errors before running arrive as a failure, not an exception.

#include <QThread>
#include <QtTest>

#include "ui_test_support.h"

#include "base/app_setup.h"
#include "controllers/sweep_controller.h"
#include "document/sweep_summary.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

class TestSweepController : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { initializeUi(); }
    void deliversThinnedResultsOnGuiThread();
    void dropsSupersededJob();
    void cancelStopsAndReportsCancelled();
    void refusedSweepIsAFailure();
    void keepsTheRunsBookkeeping();
    void startAndEndMessages();
};

void TestSweepController::deliversThinnedResultsOnGuiThread() {
    SweepController controller;
    QList<QThread*> threads;
    QList<MeasuredRun> runs;
    connect(&controller, &SweepController::measured, this, [&](const MeasuredRun& run) {
        threads << QThread::currentThread();
        runs << run;
    });
    QSignalSpy finished(&controller, &SweepController::finished);
    controller.start(tinyConfig(), parseStrategies({"none", "full"}));
    QVERIFY(controller.isRunning());
    QVERIFY(finished.wait(120000));
    QVERIFY(!controller.isRunning());
    QCOMPARE(finished.first().at(0).toBool(), false);
    QCOMPARE(runs.size(), 2);
    for (int i = 0; i < runs.size(); ++i) {
        QCOMPARE(threads[i], QThread::currentThread());  // queued to the GUI thread
        QVERIFY(!runs[i].thinned.empty());
        QVERIFY(runs[i].thinned.size() <= kTimelinePoints);
        QVERIFY(runs[i].thinned.size() <= runs[i].run.timeline.size());
    }
    QCOMPARE(runs[1].run.strategy.name(), std::string("full"));
}

void TestSweepController::dropsSupersededJob() {
    SweepController controller;
    QList<MeasuredRun> runs;
    connect(&controller, &SweepController::measured, this,
            [&](const MeasuredRun& run) { runs << run; });
    QSignalSpy finished(&controller, &SweepController::finished);
    const quint64 first =
        controller.start(slowConfig(), parseStrategies({"none", "full", "every:2"}));
    const quint64 second = controller.start(tinyConfig(), parseStrategies({"every:2"}));
    QVERIFY(second > first);
    QVERIFY(finished.wait(120000));
    QTest::qWait(200);  // anything late from the first job would arrive now
    QCOMPARE(finished.size(), 1);
    QCOMPARE(runs.size(), 1);
    QCOMPARE(runs[0].run.config.width, 32);  // the second job's
}

void TestSweepController::cancelStopsAndReportsCancelled() {
    SweepController controller;
    int measured = 0;
    connect(&controller, &SweepController::measured, this, [&] { ++measured; });
    QSignalSpy finished(&controller, &SweepController::finished);
    QSignalSpy progress(&controller, &SweepController::progress);
    controller.start(slowConfig(),
                     parseStrategies({"none", "full", "every:2", "every:3", "sqrt", "segments:3"}));
    QVERIFY(progress.wait(60000));
    controller.cancel();
    QVERIFY(controller.isCancelling());
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.first().at(0).toBool(), true);
    QVERIFY(measured < 6);
}

void TestSweepController::refusedSweepIsAFailure() {
    SweepController controller;
    QSignalSpy failed(&controller, &SweepController::failed);
    QSignalSpy idle(&controller, &SweepController::idle);
    ExperimentConfig bad = tinyConfig();
    bad.block = BlockKind::Transformer;
    bad.heads = 3;  // does not divide 32
    controller.start(bad, parseStrategies({"none"}));
    QVERIFY(failed.wait(30000));
    QCOMPARE(failed.first().at(0).toString(), QStringLiteral("Invalid configuration"));
    QVERIFY(failed.first().at(1).toString().contains(QStringLiteral("heads")));
    QCOMPARE(idle.size(), 1);

    controller.start(tinyConfig(), parseStrategies({"segments:99"}));
    QVERIFY(failed.wait(30000));
    QCOMPARE(failed.last().at(0).toString(), QStringLiteral("Invalid strategy"));
}

// The bookkeeping the window used to keep: the sweep's kind, its runs so far, its time, and
// one signal before the first result so the old results are replaced only then.
void TestSweepController::keepsTheRunsBookkeeping() {
    SweepController controller;
    QStringList order;
    connect(&controller, &SweepController::firstRunMeasured, this,
            [&] { order << QStringLiteral("first:%1").arg(controller.runsThisSweep()); });
    connect(&controller, &SweepController::measured, this,
            [&](const MeasuredRun&) { order << QStringLiteral("run"); });
    QSignalSpy finished(&controller, &SweepController::finished);
    SweepRequestData request;
    request.kind = SweepKind::Sweep;
    request.config = tinyConfig();
    request.checked = parseStrategies({"none", "full"});
    const std::uint64_t validations = validateCalls();
    controller.start(request);
    QCOMPARE(controller.kind(), SweepKind::Sweep);
    QCOMPARE(controller.runsThisSweep(), 0);
    QVERIFY(finished.wait(120000));
    // The worker hands the request to Runner::run as it came: one check of its config.
    QCOMPARE(validateCalls() - validations, std::uint64_t{1});
    QCOMPARE(order, (QStringList{QStringLiteral("first:1"), QStringLiteral("run"),
                                 QStringLiteral("run")}));
    QCOMPARE(controller.runsThisSweep(), 2);
    QVERIFY(controller.elapsedSeconds() >= 0);

    // A refused sweep measures nothing: no signal to replace what is on screen.
    QSignalSpy first(&controller, &SweepController::firstRunMeasured);
    QSignalSpy failed(&controller, &SweepController::failed);
    ExperimentConfig bad = tinyConfig();
    bad.depth = 0;
    controller.start(bad, {Strategy{}});
    QVERIFY(failed.wait(60000));
    QCOMPARE(first.count(), 0);
    QCOMPARE(controller.runsThisSweep(), 0);
}

void TestSweepController::startAndEndMessages() {
    QCOMPARE(sweepStartMessage(SweepKind::Pareto, 3, 0),
             QStringLiteral("Measuring the cost model for the Pareto curve…"));
    QVERIFY(sweepStartMessage(SweepKind::Scaling, 3, 2).contains(QStringLiteral("scaling")));
    ResultSet empty;
    const QString done = sweepEndMessage(SweepKind::Sweep, false, 2, 1.5, empty);
    QVERIFY(done.startsWith(QStringLiteral("Sweep finished: 2 run(s)")));
    QVERIFY(sweepEndMessage(SweepKind::Pareto, true, 1, 1, empty)
                .startsWith(QStringLiteral("Cancelled after 1 run(s)")));
    // A cancelled curve sweep gives no verdict.
    QVERIFY(!sweepEndMessage(SweepKind::Pareto, true, 1, 1, empty)
                 .contains(QStringLiteral("Hand-written")));
}

QTEST_GUILESS_MAIN(TestSweepController)
#include "test_sweep_controller.moc"
