// Bad inputs give messages, never crashes: an impossible config is refused with its predicted
// memory, a sweep the runner refuses in the worker becomes a message, and invalid parameters
// and strategies are named.

#include <QLabel>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QtTest>

#include "ui_test_support.h"

#include "window/main_window.h"
#include "panels/memory_estimate_label.h"
#include "window/messages.h"
#include "panels/parameter_panel.h"
#include "document/results_document.h"
#include "panels/strategy_list.h"
#include "controllers/sweep_controller.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

namespace {

}  // namespace

class TestBadInputs : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();

    void impossibleConfigGivesMessage();
    void refusedInWorkerGivesMessage();
    void badInputsGiveMessages();

private:
    MessageRecorder m_recorder;
};

void TestBadInputs::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("ckptlab-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_bad_inputs"));
}

void TestBadInputs::init()
{
    m_recorder.reset();
}


void TestBadInputs::impossibleConfigGivesMessage()
{
    MainWindow window;
    ExperimentConfig huge = tinyConfig();
    huge.width = 16384;
    huge.seq = 65536;
    huge.batch = 4096;
    window.parameterPanel()->setConfig(huge);
    window.strategyList()->setCheckedStrategies({"none", "full"});
    QVERIFY(!window.memoryEstimate()->forecast().fits());
    QVERIFY(window.memoryEstimate()->text().contains(QStringLiteral("Cannot fit")));
    QVERIFY(!window.memoryEstimate()->styleSheet().isEmpty());  // warning colour

    QVERIFY(!window.startSweep());
    QVERIFY(!window.isRunning());
    QCOMPARE(m_recorder.messages.size(), 1);
    QCOMPARE(m_recorder.messages[0].kind, MessageKind::Warning);
    QVERIFY(m_recorder.messages[0].text.contains(QStringLiteral("MiB")));  // the predicted number
}

void TestBadInputs::refusedInWorkerGivesMessage()
{
    // The worker's own error path: a sweep the runner refuses before running.
    MainWindow window;
    runTinySweep(window, {"none"}, m_recorder);
    QCOMPARE(window.document()->runCount(), 1);
    ExperimentConfig huge = tinyConfig();
    huge.width = 16384;
    huge.seq = 65536;
    huge.batch = 4096;
    QSignalSpy ended(&window, &MainWindow::sweepEnded);
    window.sweepController()->start(huge, {"none"});
    QVERIFY(ended.wait(60000));
    QCOMPARE(ended.first().at(1).toBool(), true);  // failed
    QCOMPARE(m_recorder.messages.size(), 1);
    QCOMPARE(m_recorder.messages[0].kind, MessageKind::Error);
    QCOMPARE(m_recorder.messages[0].title, QStringLiteral("Not enough memory"));
    // The earlier results stay on screen.
    QCOMPARE(window.document()->runCount(), 1);
    QVERIFY(window.runAction()->isEnabled());
}

void TestBadInputs::badInputsGiveMessages()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    // Heads must divide the width: shown under the form and refused on Run.
    ExperimentConfig bad = tinyConfig();
    bad.block = BlockKind::Transformer;
    bad.heads = 3;
    window.parameterPanel()->setConfig(bad);
    QVERIFY(!window.parameterPanel()->problems().isEmpty());
    QVERIFY(!window.startSweep());
    QCOMPARE(m_recorder.messages.size(), 1);
    QCOMPARE(m_recorder.messages.last().title, QStringLiteral("Invalid configuration"));

    // A custom strategy is checked by parseStrategy and its message shown.
    window.parameterPanel()->setConfig(tinyConfig());
    auto* custom = window.findChild<QLineEdit*>(QStringLiteral("customStrategy"));
    auto* error = window.findChild<QLabel*>(QStringLiteral("customError"));
    QVERIFY(custom && error);
    custom->setFocus();
    QTest::keyClicks(custom, QStringLiteral("segments:99"));
    QTest::keyClick(custom, Qt::Key_Return);
    QVERIFY(error->text().contains(QStringLiteral("segments")));
    QCOMPARE(custom->text(), QStringLiteral("segments:99"));  // kept for correcting
    custom->clear();
    QTest::keyClicks(custom, QStringLiteral("segments:3"));
    QTest::keyClick(custom, Qt::Key_Return);
    QVERIFY(error->text().isEmpty());
    QVERIFY(window.strategyList()->checkedStrategies().contains(QStringLiteral("segments:3")));
    QVERIFY(!window.strategyList()->addStrategy(QStringLiteral("bogus")).isEmpty());

    // A strategy that does not apply to this model is refused on Run.
    window.strategyList()->setCheckedStrategies({"none", "attn"});  // attn needs transformer
    QCOMPARE(window.strategyList()->invalidChecked().size(), 1);
    m_recorder.messages.clear();
    QVERIFY(!window.startSweep());
    QCOMPARE(m_recorder.messages.size(), 1);
    QCOMPARE(m_recorder.messages.last().title, QStringLiteral("Invalid strategy"));

    // Nothing checked.
    window.strategyList()->setCheckedStrategies({});
    QVERIFY(!window.startSweep());
    QCOMPARE(m_recorder.messages.last().title, QStringLiteral("No strategy"));

    // Presets check the seed's sets.
    window.parameterPanel()->setConfig(ExperimentConfig{});
    window.strategyList()->applyPreset(QStringLiteral("experiment-1"));
    QCOMPARE(window.strategyList()->checkedStrategies(),
             QStringList({"none", "every:1", "every:2", "every:4", "every:8"}));
}

QTEST_MAIN(TestBadInputs)
#include "test_bad_inputs.moc"
