// Cancel (Esc) stops a running sweep before its strategies are done and keeps every finished
// result; closing the window mid-sweep asks, then cancels and joins the sweep thread. How many
// seconds a cancel takes depends on the machine's load: bench/timing_claims.sh measures it.

#include <QTemporaryDir>
#include <QtTest>

#include "ui_test_support.h"

#include "base/messages.h"
#include "controllers/sweep_controller.h"
#include "document/results_document.h"
#include "document/results_table_model.h"
#include "panels/parameter_panel.h"
#include "panels/strategy_list.h"
#include "window/main_window.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

namespace {

const QStringList kSlowStrategies{"none",       "full",       "every:2", "every:3",
                                  "segments:2", "segments:3", "sqrt",    "from:4"};

}  // namespace

class TestCancel : public WindowTest {
    Q_OBJECT
private Q_SLOTS:
    void cancelKeepsFinishedResults();
    void closingMidSweepStopsCleanly();
};

void TestCancel::cancelKeepsFinishedResults() {
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    part<ParameterPanel>(window, "parameters")->setConfig(slowConfig());
    part<StrategyList>(window, "strategies")->setCheckedStrategies(kSlowStrategies);
    QSignalSpy ended(&window, &MainWindow::sweepEnded);
    QVERIFY(window.startSweep());
    QTRY_VERIFY_WITH_TIMEOUT(part<ResultsDocument>(window, "document")->runCount() >= 1, 180000);
    QVERIFY(part<SweepController>(window, "sweepController")->isRunning());

    QTest::keyClick(&window, Qt::Key_Escape);      // the Cancel action's shortcut
    QVERIFY(ended.wait(180000));                   // a watchdog against a hang, not a claim
    QCOMPARE(ended.first().at(0).toBool(), true);  // cancelled

    const int runs = part<ResultsDocument>(window, "document")->runCount();
    // Every run whose traced step ended before the cancel landed: how many is the machine's
    // speed against the event loop's, so only the bounds are held.
    QVERIFY(runs >= 1);
    QVERIFY(runs <= kSlowStrategies.size());
    QCOMPARE(part<ResultsTableModel>(window, "resultsModel")->rowCount(), runs);
    // Runs show after their traced step; the timed rounds come after all of them, so a cancel
    // keeps complete rounds only: no row still waits for its times ("…"), and runs without a
    // round show their memory with "—" for the time.
    for (int row = 0; row < runs; ++row) {
        QVERIFY(!part<ResultsDocument>(window, "document")->isTimesPending(row));
        const QString step = part<ResultsTableModel>(window, "resultsModel")
                                 ->index(row, ResultsTableModel::StepMsColumn)
                                 .data()
                                 .toString();
        QVERIFY2(step != QStringLiteral("…"), qPrintable(step));
    }
    QVERIFY(part<ResultsDocument>(window, "document")->results().cancelled);
    QVERIFY(part<QAction>(window, "runAction")->isEnabled());
    QVERIFY(m_recorder.messages.isEmpty());
}

void TestCancel::closingMidSweepStopsCleanly() {
    auto* window = new MainWindow;
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window));
    auto* sweep = part<SweepController>(*window, "sweepController");
    part<ParameterPanel>(*window, "parameters")->setConfig(slowConfig());
    part<StrategyList>(*window, "strategies")->setCheckedStrategies(kSlowStrategies);
    QSignalSpy progress(sweep, &SweepController::progress);
    QVERIFY(window->startSweep());
    QVERIFY(progress.wait(60000));
    m_recorder.answer = true;  // "Stop the sweep?": measured runs are never dropped unasked
    QVERIFY(window->close());  // sets cancel and joins the sweep thread
    QCOMPARE(m_recorder.messages.size(), 1);
    QCOMPARE(m_recorder.messages.first().kind, MessageKind::Question);
    QVERIFY(!sweep->isRunning());  // joined: close returned after the thread ended
    delete window;
}

QTEST_MAIN(TestCancel)
#include "test_cancel.moc"
