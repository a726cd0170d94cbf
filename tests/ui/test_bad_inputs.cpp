// Bad inputs give messages, never crashes: an impossible config is refused with its predicted
// memory, a sweep the runner refuses in the worker becomes a message, invalid parameters and
// strategies are named by their panels and refused on Run.

#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include "ui_test_support.h"

#include "base/messages.h"
#include "controllers/sweep_controller.h"
#include "document/core_text.h"
#include "document/results_document.h"
#include "panels/memory_estimate_label.h"
#include "panels/parameter_panel.h"
#include "panels/strategy_list.h"
#include "panels/strategy_table.h"
#include "window/main_window.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

class TestBadInputs : public WindowTest {
    Q_OBJECT
private Q_SLOTS:
    void impossibleConfigGivesMessage();
    void refusedInWorkerGivesMessage();
    void panelsNameBadInputs();
    void runRefusesBadInputs();
    void undecodableNamesAreRefused();
};

void TestBadInputs::impossibleConfigGivesMessage() {
    ExperimentConfig huge = tinyConfig();
    huge.width = 16384;
    huge.seq = 65536;
    huge.batch = 4096;

    // The estimate says so before anything runs.
    MemoryEstimateLabel memory;
    QVERIFY(!memory.refresh(huge, parseStrategies({"none", "full"})));
    QVERIFY(!memory.forecast().fits());
    QVERIFY(memory.text().contains(QStringLiteral("Cannot fit")));
    QVERIFY(!memory.styleSheet().isEmpty());  // warning colour

    // Run refuses it with the predicted number.
    MainWindow window;
    part<ParameterPanel>(window, "parameters")->setConfig(huge);
    part<StrategyList>(window, "strategies")->setCheckedStrategies({"none", "full"});
    QVERIFY(!window.startSweep());
    QVERIFY(!part<SweepController>(window, "sweepController")->isRunning());
    QCOMPARE(m_recorder.messages.size(), 1);
    QCOMPARE(m_recorder.messages[0].kind, MessageKind::Warning);
    QVERIFY(m_recorder.messages[0].text.contains(QStringLiteral("MiB")));  // the predicted number
}

void TestBadInputs::refusedInWorkerGivesMessage() {
    // The worker's own error path: a sweep the runner refuses before running.
    MainWindow window;
    runTinySweep(window, {"none"}, m_recorder);
    QCOMPARE(part<ResultsDocument>(window, "document")->runCount(), 1);
    ExperimentConfig huge = tinyConfig();
    huge.width = 16384;
    huge.seq = 65536;
    huge.batch = 4096;
    QSignalSpy ended(&window, &MainWindow::sweepEnded);
    part<SweepController>(window, "sweepController")->start(huge, {Strategy{}});
    QVERIFY(ended.wait(60000));
    QCOMPARE(ended.first().at(1).toBool(), true);  // failed
    QCOMPARE(m_recorder.messages.size(), 1);
    QCOMPARE(m_recorder.messages[0].kind, MessageKind::Error);
    QCOMPARE(m_recorder.messages[0].title, QStringLiteral("Not enough memory"));
    // The earlier results stay on screen.
    QCOMPARE(part<ResultsDocument>(window, "document")->runCount(), 1);
    QVERIFY(part<QAction>(window, "runAction")->isEnabled());
}

void TestBadInputs::panelsNameBadInputs() {
    // Heads must divide the width: shown under the form.
    ParameterPanel parameters;
    ExperimentConfig bad = tinyConfig();
    bad.block = BlockKind::Transformer;
    bad.heads = 3;
    parameters.setConfig(bad);
    QVERIFY(!parameters.problems().isEmpty());

    // Key/value heads sit beside the heads, enabled in a llama block, which reads them; a
    // count that does not divide the heads is named, and the value reaches the config.
    auto* kvHeads = parameters.findChild<QSpinBox*>(QStringLiteral("kvHeads"));
    QVERIFY(kvHeads && !kvHeads->isEnabled());
    bad.block = BlockKind::Llama;
    bad.heads = 4;
    bad.kv_heads = 3;
    parameters.setConfig(bad);
    QCOMPARE(parameters.config().kv_heads, 3);
    QVERIFY2(parameters.problems()
                 .join(QLatin1Char('\n'))
                 .contains(QStringLiteral("kv-heads must divide heads (heads 4, kv-heads 3)")),
             qPrintable(parameters.problems().join(QLatin1Char('\n'))));
    bad.kv_heads = 2;
    parameters.setConfig(bad);
    QVERIFY(parameters.problems().isEmpty());
    QCOMPARE(parameters.config().kv_heads, 2);
    bad.block = BlockKind::Ffn;
    parameters.setConfig(bad);
    QVERIFY(!kvHeads->isEnabled());

    // A custom strategy is checked by parseStrategy and its message shown. The list knows the
    // model as the window tells it (tinyConfig: no attention).
    StrategyList strategies;
    const ExperimentConfig tiny = tinyConfig();
    strategies.setModel(tiny.depth, tiny.block);
    strategies.show();
    QVERIFY(QTest::qWaitForWindowExposed(&strategies));
    auto* custom = strategies.findChild<QLineEdit*>(QStringLiteral("customStrategy"));
    auto* error = strategies.findChild<QLabel*>(QStringLiteral("customError"));
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
    QVERIFY(strategies.checkedNames().contains(QStringLiteral("segments:3")));
    QVERIFY(!strategies.addStrategy(QStringLiteral("bogus")).isEmpty());

    // A strategy that does not apply to this model says why on its row, where a row that
    // applies shows its kind's help.
    strategies.setCheckedStrategies({"none", "attn"});  // attn needs transformer
    const auto attnTip = [&] {
        StrategyTable* table = strategies.table();
        return table->item(table->ensureRow(Strategy{StrategyKind::Attn}), 0)->toolTip();
    };
    const QString attnHelp = strategyHelpText(StrategyKind::Attn);
    QVERIFY(!attnHelp.isEmpty());
    QVERIFY2(!attnTip().isEmpty() && attnTip() != attnHelp, qPrintable(attnTip()));
    strategies.setModel(tiny.depth, BlockKind::Transformer);
    QCOMPARE(attnTip(), attnHelp);

    // Presets check the seed's sets.
    const ExperimentConfig defaults;
    strategies.setModel(defaults.depth, defaults.block);
    strategies.applyPreset(QStringLiteral("experiment-1"));
    QCOMPARE(strategies.checkedNames(),
             QStringList({"none", "every:1", "every:2", "every:4", "every:8"}));
}

void TestBadInputs::runRefusesBadInputs() {
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* parameters = part<ParameterPanel>(window, "parameters");
    auto* strategies = part<StrategyList>(window, "strategies");

    // Heads must divide the width: refused on Run.
    ExperimentConfig bad = tinyConfig();
    bad.block = BlockKind::Transformer;
    bad.heads = 3;
    parameters->setConfig(bad);
    QVERIFY(!window.startSweep());
    QCOMPARE(m_recorder.messages.size(), 1);
    QCOMPARE(m_recorder.messages.last().title, QStringLiteral("Invalid configuration"));

    // A strategy that does not apply to this model is refused on Run.
    parameters->setConfig(tinyConfig());
    strategies->setCheckedStrategies({"none", "attn"});  // attn needs transformer
    m_recorder.messages.clear();
    QVERIFY(!window.startSweep());
    QCOMPARE(m_recorder.messages.size(), 1);
    QCOMPARE(m_recorder.messages.last().title, QStringLiteral("Invalid strategy"));

    // A text that is no strategy at all (a hand-edited settings file) stays a row that says
    // why, and Run names it.
    strategies->setCheckedStrategies({"none", "bogus"});
    m_recorder.messages.clear();
    QVERIFY(!window.startSweep());
    QCOMPARE(m_recorder.messages.size(), 1);
    QCOMPARE(m_recorder.messages.last().title, QStringLiteral("Invalid strategy"));
    QVERIFY2(m_recorder.lastText().contains(QStringLiteral("bogus")),
             qPrintable(m_recorder.lastText()));

    // Nothing checked.
    strategies->setCheckedStrategies(QStringList());
    QVERIFY(!window.startSweep());
    QCOMPARE(m_recorder.messages.last().title, QStringLiteral("No strategy"));

    // A Pareto sweep on a chain longer than the planner takes is refused here, before the
    // worker, by the check the CLI and the runner apply (depth 129 of ffn blocks: 129 units).
    ExperimentConfig deep = tinyConfig();
    deep.depth = 129;
    parameters->setConfig(deep);
    strategies->setCheckedStrategies({"none"});
    m_recorder.messages.clear();
    QVERIFY(!window.startParetoSweep());
    QCOMPARE(m_recorder.messages.size(), 1);
    QCOMPARE(m_recorder.messages.last().title, QStringLiteral("Invalid configuration"));
    QVERIFY2(m_recorder.lastText().contains(QStringLiteral("plans at most 128 units")),
             qPrintable(m_recorder.lastText()));
    QVERIFY2(m_recorder.lastText().contains(QStringLiteral("129")),
             qPrintable(m_recorder.lastText()));
    QVERIFY(!part<SweepController>(window, "sweepController")->isRunning());
}

// A name whose bytes were not UTF-8 reaches Qt with U+FFFD in their place: writing it would
// create a file under another name, so every save and export refuses it with a message.
void TestBadInputs::undecodableNamesAreRefused() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("caf") + QChar(QChar::ReplacementCharacter) +
                                      QStringLiteral(".json"));
    const QString reason = refuseUnwritableFile(nullptr, path, QStringLiteral("Cannot save"));
    QVERIFY2(reason.contains(QStringLiteral("UTF-8")), qPrintable(reason));
    QCOMPARE(m_recorder.messages.size(), 1);
    QVERIFY(!QFileInfo::exists(path));
    QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());
    // A plain name passes.
    QVERIFY(refuseUnwritableFile(nullptr, dir.filePath(QStringLiteral("café.json")),
                                 QStringLiteral("Cannot save"))
                .isEmpty());
}

QTEST_MAIN(TestBadInputs)
#include "test_bad_inputs.moc"
