// One action on the results at a time. For every ordered pair of the actions that replace or edit
// the results (open, add a file, save, Run, Pareto, Scaling, a lesson's Run live, a language
// switch, close): while the first is in flight, the second is disabled and, triggered anyway (as
// a shortcut or a queued signal would), refused with a message saying what is in flight; the
// results are then the first action's alone; and once it is done the second works. Also the two
// orders of Open and Run that lost or mixed results, closing mid-sweep, and a file saved
// mid-sweep, which says where it was measured and that it is partial.

#include <QActionGroup>
#include <QMenu>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>
#include <functional>
#include <memory>

#include "ui_test_support.h"

#include "base/language.h"
#include "base/messages.h"
#include "ckptlab/formats/results_io.h"
#include "controllers/file_controller.h"
#include "controllers/sweep_controller.h"
#include "document/document_busy.h"
#include "document/results_document.h"
#include "panels/curve_sweep_panel.h"
#include "panels/parameter_panel.h"
#include "panels/strategy_list.h"
#include "teaching/lesson_mode.h"
#include "window/main_window.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

namespace {

using Action = DocumentAction;

const QList<Action> kActions{Action::Open,          Action::AddFile,        Action::Save,
                             Action::Sweep,         Action::Pareto,         Action::Scaling,
                             Action::LessonLiveRun, Action::LanguageSwitch, Action::Close};

const char* name(Action action) {
    switch (action) {
    case Action::Open: return "open";
    case Action::AddFile: return "add";
    case Action::Save: return "save";
    case Action::Sweep: return "sweep";
    case Action::Pareto: return "pareto";
    case Action::Scaling: return "scaling";
    case Action::LessonStep: return "lessonStep";
    case Action::LessonLiveRun: return "lessonLive";
    case Action::LanguageSwitch: return "language";
    case Action::Close: return "close";
    }
    return "?";
}

QString otherLanguage() {
    return currentLanguage() == QLatin1String("en") ? QStringLiteral("zh_CN")
                                                    : QStringLiteral("en");
}

}  // namespace

class TestDocumentBusy : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void runDuringOpenIsRefusedAndNothingMixes();
    void openDuringRunIsRefusedAndTheRunsStay();
    void pairwise_data();
    void pairwise();
    void closingMidSweepAsks();
    void savedMidSweepSaysPartial();

private:
    // A window with the demo lesson open behind file F1 on screen: every action can run.
    void makeWindow();
    // Starts `action`; for Save and Close, `during` runs while its message is up (in flight).
    void start(Action action, std::function<void()> during = {});
    // Triggers `action` as a shortcut or a queued signal would, while another is in flight.
    void trigger(Action action);
    // Waits until the action in flight is done (a sweep is cancelled).
    void finish(Action action);
    // Runs `action` once nothing is in flight and checks that it did its work.
    void checkWorks(Action action);
    void waitForSweepEnd();
    QAction* actionFor(Action action);
    // Built again by a language switch, so looked up each time.
    LessonMode* lessons() { return part<LessonMode>(*m_window, "lessons"); }
    bool hasMessage(const QString& title, const QString& text = {}) const;

    QTemporaryDir m_dir;
    QString m_f1, m_f2, m_f3;
    int m_f1Runs = 0;
    QList<Message> m_messages;
    std::function<void()> m_during;  // run inside the next message, once
    bool m_answer = false;
    std::unique_ptr<MainWindow> m_window;
    FileController* m_files = nullptr;
    ResultsDocument* m_document = nullptr;
    DocumentBusy* m_busy = nullptr;
    SweepController* m_sweep = nullptr;
};

void TestDocumentBusy::initTestCase() {
    qputenv("CKPTLAB_LESSONS_DIR", CKPTLAB_TEST_LESSONS_DIR);
    installLanguage(QStringLiteral("en"));
    setMessageSink([this](const Message& message) {
        m_messages << message;
        if (m_during) std::exchange(m_during, nullptr)();
        return m_answer;
    });
    QVERIFY(m_dir.isValid());
    m_f1 = m_dir.filePath(QStringLiteral("f1.json"));
    m_f2 = m_dir.filePath(QStringLiteral("f2.json"));
    m_f3 = m_dir.filePath(QStringLiteral("f3.json"));
    MainWindow window;
    part<ParameterPanel>(window, "parameters")->setConfig(tinyConfig());
    part<StrategyList>(window, "strategies")->setCheckedStrategies({"none", "full"});
    QSignalSpy ended(&window, &MainWindow::sweepEnded);
    QVERIFY(window.startSweep());
    QVERIFY(ended.wait(180000));
    QVERIFY(part<FileController>(window, "files")->saveTo(m_f1));
    m_f1Runs = part<ResultsDocument>(window, "document")->runCount();
    QCOMPARE(m_f1Runs, 2);
    QVERIFY(QFile::copy(m_f1, m_f2));
    QVERIFY(QFile::copy(m_f1, m_f3));
}

void TestDocumentBusy::init() {
    installLanguage(QStringLiteral("en"));
    m_messages.clear();
    m_during = {};
    m_answer = false;
}

void TestDocumentBusy::cleanup() {
    if (m_window && m_sweep->isRunning()) {
        m_window->cancelSweep();
        waitForSweepEnd();
    }
    m_window.reset();
    installLanguage(QStringLiteral("en"));
}

void TestDocumentBusy::makeWindow() {
    m_window = std::make_unique<MainWindow>(lessonModeAddOn());
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_files = part<FileController>(*m_window, "files");
    m_document = part<ResultsDocument>(*m_window, "document");
    m_busy = part<DocumentBusy>(*m_window, "documentBusy");
    m_sweep = part<SweepController>(*m_window, "sweepController");
    QVERIFY(lessons()->openLesson(QStringLiteral("ui-demo")));
    QSignalSpy opened(m_files, &FileController::opened);
    m_window->openResultsFile(m_f1);
    QVERIFY(opened.wait(30000));
    QCOMPARE(m_document->filePath(), m_f1);
    // Small curves, so a sweep that is let run ends soon.
    auto* curves = part<CurveSweepPanel>(*m_window, "curveSweeps");
    curves->setScaling(ScalingAxis::Depth, QStringLiteral("2,4"));
    curves->paretoPointsBox()->setValue(curves->paretoPointsBox()->minimum());
    QVERIFY(!m_busy->isBusy());
    m_messages.clear();
}

QAction* TestDocumentBusy::actionFor(Action action) {
    switch (action) {
    case Action::Open: return part<QAction>(*m_window, "openAction");
    case Action::AddFile: return part<QAction>(*m_window, "addResultsAction");
    case Action::Save: return part<QAction>(*m_window, "saveAction");
    case Action::Sweep: return part<QAction>(*m_window, "runAction");
    case Action::Pareto: return part<QAction>(*m_window, "paretoAction");
    case Action::Scaling: return part<QAction>(*m_window, "scalingAction");
    case Action::LessonLiveRun: return part<QAction>(*m_window, "runLiveAction");
    case Action::LanguageSwitch:
        return part<QAction>(*m_window, qPrintable(QStringLiteral("language_") + otherLanguage()));
    default: return nullptr;  // Close stays enabled: it asks or refuses
    }
}

bool TestDocumentBusy::hasMessage(const QString& title, const QString& text) const {
    for (const Message& m : m_messages)
        if (m.title == title && (text.isEmpty() || m.text == text)) return true;
    return false;
}

void TestDocumentBusy::waitForSweepEnd() {
    if (!m_sweep->isRunning()) return;
    QSignalSpy ended(m_window.get(), &MainWindow::sweepEnded);
    QVERIFY(ended.wait(120000));
}

void TestDocumentBusy::start(Action action, std::function<void()> during) {
    switch (action) {
    case Action::Open: m_files->openFiles({m_f2}); break;
    case Action::AddFile: m_files->addFiles({m_f2}); break;
    case Action::Save:
        // In flight while it reports the unwritable target.
        m_during = std::move(during);
        QVERIFY(!m_files->saveTo(QStringLiteral("/nonexistent-folder/results.json")));
        break;
    case Action::Sweep: QVERIFY(m_window->startSweep()); break;
    case Action::Pareto: QVERIFY(m_window->startParetoSweep()); break;
    case Action::Scaling: QVERIFY(m_window->startScalingSweep()); break;
    case Action::LessonLiveRun: QVERIFY(lessons()->runLive()); break;
    case Action::LanguageSwitch: actionFor(action)->trigger(); break;  // queued, as from the menu
    case Action::Close:
        // In flight while it asks about the unsaved results (answered no).
        m_document->setModified(true);
        m_during = std::move(during);
        QVERIFY(!m_window->close());
        break;
    default: QFAIL("not an action of the list");
    }
    if (action != Action::Save && action != Action::Close) {
        QVERIFY2(m_busy->isHeldBy(action), name(action));
        if (during) during();
    }
}

void TestDocumentBusy::trigger(Action action) {
    switch (action) {
    case Action::Open: m_files->openFiles({m_f3}); break;
    case Action::AddFile: m_files->addFiles({m_f3}); break;
    case Action::Save: m_files->saveTo(m_dir.filePath(QStringLiteral("during.json"))); break;
    case Action::Sweep: QVERIFY(!m_window->startSweep()); break;
    case Action::Pareto: QVERIFY(!m_window->startParetoSweep()); break;
    case Action::Scaling: QVERIFY(!m_window->startScalingSweep()); break;
    case Action::LessonLiveRun: QVERIFY(!lessons()->runLive()); break;
    case Action::LanguageSwitch: QVERIFY(!m_window->setLanguage(otherLanguage())); break;
    case Action::Close: {
        const bool closed = m_window->close();
        QVERIFY(!closed || m_window->isVisible());  // Qt answers a close inside a close itself
        break;
    }
    default: QFAIL("not an action of the list");
    }
}

void TestDocumentBusy::finish(Action action) {
    switch (action) {
    case Action::Open:
    case Action::AddFile:
    case Action::LanguageSwitch: QTRY_VERIFY_WITH_TIMEOUT(!m_busy->isBusy(), 30000); break;
    case Action::Sweep:
    case Action::Pareto:
    case Action::Scaling:
    case Action::LessonLiveRun:
        m_window->cancelSweep();
        waitForSweepEnd();
        break;
    default: break;  // Save and Close were done when they returned
    }
    QVERIFY(!m_busy->isBusy());
}

void TestDocumentBusy::checkWorks(Action action) {
    m_messages.clear();
    m_answer = true;  // "replace the results?", "close anyway?"
    if (QAction* enabled = actionFor(action); enabled && action != Action::Save)
        QVERIFY2(enabled->isEnabled(), name(action));
    switch (action) {
    case Action::Open: {
        QSignalSpy opened(m_files, &FileController::opened);
        m_files->openFiles({m_f3});
        QVERIFY(opened.wait(30000));
        QCOMPARE(m_document->filePath(), m_f3);
        break;
    }
    case Action::AddFile: {
        QSignalSpy opened(m_files, &FileController::opened);
        m_files->addFiles({m_f3});
        if (hasMessage(FileController::tr("Save the results first"))) break;  // measured here
        QVERIFY(opened.wait(30000));
        QVERIFY(m_document->sourceCount() >= 2);
        QCOMPARE(m_document->sources().back().path, m_f3);
        break;
    }
    case Action::Save: {
        const QString path = m_dir.filePath(QStringLiteral("after.json"));
        if (m_document->sourceCount() > 1 || m_document->isEmpty())
            break;  // nothing to save as one
        QVERIFY(m_files->saveTo(path));
        QVERIFY(QFile::exists(path));
        QFile::remove(path);
        break;
    }
    case Action::Sweep: QVERIFY(m_window->startSweep()); break;
    case Action::Pareto: QVERIFY(m_window->startParetoSweep()); break;
    case Action::Scaling: QVERIFY(m_window->startScalingSweep()); break;
    case Action::LessonLiveRun: QVERIFY(lessons()->runLive()); break;
    case Action::LanguageSwitch: {
        const QString target = otherLanguage();
        QVERIFY(m_window->setLanguage(target));
        QCOMPARE(currentLanguage(), target);
        break;
    }
    case Action::Close: QVERIFY(m_window->close()); break;
    default: QFAIL("not an action of the list");
    }
    if (isSweep(action)) {
        QVERIFY(m_sweep->isRunning());
        m_window->cancelSweep();
        waitForSweepEnd();
    }
    for (const Message& m : m_messages)
        QVERIFY2(m.text != DocumentBusy::refusalText(Action::Open) &&
                     m.text != DocumentBusy::refusalText(Action::Sweep) &&
                     m.text != DocumentBusy::refusalText(Action::LanguageSwitch),
                 qPrintable(m.text));
}

// The defect's first order: Run while a file loads. It started, the load then replaced the
// sweep's first runs without a question and the later runs joined the file's.
void TestDocumentBusy::runDuringOpenIsRefusedAndNothingMixes() {
    MainWindow window;
    auto* files = part<FileController>(window, "files");
    auto* document = part<ResultsDocument>(window, "document");
    part<ParameterPanel>(window, "parameters")->setConfig(tinyConfig());
    part<StrategyList>(window, "strategies")->setCheckedStrategies({"none", "every:2"});
    QSignalSpy opened(files, &FileController::opened);
    window.openResultsFile(m_f2);
    QVERIFY(!part<QAction>(window, "runAction")->isEnabled());
    QVERIFY(!window.startSweep());  // as Ctrl+R or a queued click would
    QVERIFY(!part<SweepController>(window, "sweepController")->isRunning());
    QCOMPARE(m_messages.size(), 1);
    QVERIFY(m_messages.first().text.contains(QStringLiteral("being opened")));
    QVERIFY(opened.wait(30000));
    QCOMPARE(document->filePath(), m_f2);
    QCOMPARE(document->runCount(), m_f1Runs);
    QCOMPARE(document->strategyNames(), QStringList({"none", "full"}));
    // Once it is on screen, Run works and replaces it (the file's results are saved).
    part<StrategyList>(window, "strategies")->setCheckedStrategies({"none", "every:2"});
    QSignalSpy ended(&window, &MainWindow::sweepEnded);
    QVERIFY(window.startSweep());
    QVERIFY(ended.wait(180000));
    QVERIFY(document->filePath().isEmpty());
    QCOMPARE(document->strategyNames(), QStringList({"none", "every:2"}));
}

// The second order: Open while a sweep runs. The file replaced the runs measured so far, and
// Save then wrote the mix over the file.
void TestDocumentBusy::openDuringRunIsRefusedAndTheRunsStay() {
    MainWindow window;
    auto* files = part<FileController>(window, "files");
    auto* document = part<ResultsDocument>(window, "document");
    part<ParameterPanel>(window, "parameters")->setConfig(slowConfig());
    part<StrategyList>(window, "strategies")->setCheckedStrategies({"none", "every:2"});
    QSignalSpy ended(&window, &MainWindow::sweepEnded);
    QVERIFY(window.startSweep());
    QTRY_VERIFY_WITH_TIMEOUT(document->runCount() >= 1, 120000);
    QVERIFY(part<SweepController>(window, "sweepController")->isRunning());
    QVERIFY(!part<QAction>(window, "openAction")->isEnabled());
    QVERIFY(!part<QAction>(window, "addResultsAction")->isEnabled());
    QSignalSpy opened(files, &FileController::opened);
    window.openResultsFile(m_f2);  // as a shortcut or a queued signal would
    QVERIFY(!m_messages.isEmpty());
    QVERIFY(m_messages.last().text.contains(QStringLiteral("sweep is running")));
    window.cancelSweep();  // it ends with the runs measured so far
    QVERIFY(ended.wait(120000));
    QTest::qWait(100);  // a load let through would land now
    QCOMPARE(opened.count(), 0);
    QVERIFY(document->filePath().isEmpty());
    QVERIFY(document->runCount() >= 1);  // the runs measured before the cancel, and only those
    for (const QString& strategy : document->strategyNames())
        QVERIFY2(strategy == QLatin1String("none") || strategy == QLatin1String("every:2"),
                 qPrintable(strategy));
    QVERIFY(document->isModified());
    // Once it ended, Open works and asks before replacing the unsaved runs.
    m_answer = true;
    window.openResultsFile(m_f2);
    QVERIFY(opened.wait(30000));
    QCOMPARE(document->filePath(), m_f2);
    QCOMPARE(document->strategyNames(), QStringList({"none", "full"}));
}

void TestDocumentBusy::pairwise_data() {
    QTest::addColumn<int>("inFlight");
    QTest::addColumn<int>("triggered");
    for (Action a : kActions)
        for (Action b : kActions) QTest::addRow("%s then %s", name(a), name(b)) << int(a) << int(b);
}

void TestDocumentBusy::pairwise() {
    QFETCH(int, inFlight);
    QFETCH(int, triggered);
    const auto a = Action(inFlight);
    const auto b = Action(triggered);
    makeWindow();
    if (QTest::currentTestFailed()) return;
    const QString during = m_dir.filePath(QStringLiteral("during.json"));
    QFile::remove(during);

    bool checked = false;
    start(a, [&] {
        checked = true;
        m_messages.clear();
        // Disabled: the action's menu entry (Save stays enabled beside a sweep).
        if (QAction* action = actionFor(b))
            QVERIFY2(!action->isEnabled() || (b == Action::Save && isSweep(a)), name(b));
        trigger(b);
        if (b == Action::Save && isSweep(a)) {
            // Save beside a sweep writes what is on screen and changes no run.
            QVERIFY(QFile::exists(during));
            QCOMPARE(m_document->runCount(), m_f1Runs);
        } else if (b == Action::Close && isSweep(a)) {
            QVERIFY(hasMessage(MainWindow::tr("Stop the sweep?")));  // asked, answered no
            QVERIFY(m_sweep->isRunning());
        } else if (b == Action::Close && a == Action::Close) {
            QVERIFY(m_window->isVisible());  // Qt itself ignores a close inside a close
        } else {
            const Action holder = *m_busy->holder();
            QVERIFY2(hasMessage(DocumentBusy::refusalTitle(b), DocumentBusy::refusalText(holder)),
                     qPrintable(m_messages.isEmpty() ? QStringLiteral("no message")
                                                     : m_messages.last().text));
            QVERIFY(!QFile::exists(during));
        }
        QVERIFY(m_busy->isBusy() || a == Action::Save);  // Save beside nothing holds itself
    });
    if (QTest::currentTestFailed()) return;
    QVERIFY(checked);
    finish(a);
    if (QTest::currentTestFailed()) return;
    QTest::qWait(50);  // anything refused but queued would land now

    // The results are the first action's alone.
    switch (a) {
    case Action::Open:
        QCOMPARE(m_document->filePath(), m_f2);
        QVERIFY(m_document->sourceCount() <= 1);  // one file: no sources side by side
        QCOMPARE(m_document->runCount(), m_f1Runs);
        break;
    case Action::AddFile:
        QCOMPARE(m_document->sourceCount(), 2);
        QCOMPARE(m_document->sources().back().path, m_f2);
        break;
    case Action::Sweep:
    case Action::Pareto:
    case Action::Scaling:
    case Action::LessonLiveRun:
        QVERIFY(m_document->sourceCount() <= 1);
        if (m_document->runCount() == m_f1Runs && !m_document->filePath().isEmpty())
            break;  // cancelled before its first run: the file stays (or its copy's name)
        QVERIFY(m_document->filePath().isEmpty());
        for (const RunResult& run : m_document->results().runs)
            QCOMPARE(run.config.seq, m_document->results().runs.front().config.seq);
        break;
    default:
        QCOMPARE(m_document->filePath(), m_f1);
        QVERIFY(m_document->sourceCount() <= 1);
        QCOMPARE(m_document->runCount(), m_f1Runs);
    }
    for (const ResultSource& source : m_document->sources()) QVERIFY(source.path != m_f3);

    checkWorks(b);
}

void TestDocumentBusy::closingMidSweepAsks() {
    makeWindow();
    part<ParameterPanel>(*m_window, "parameters")->setConfig(slowConfig());
    part<StrategyList>(*m_window, "strategies")->setCheckedStrategies({"none", "full", "sqrt"});
    QVERIFY(m_window->startSweep());
    QTRY_VERIFY_WITH_TIMEOUT(m_document->runCount() >= 1 && m_document->filePath().isEmpty(),
                             60000);
    m_answer = false;
    QVERIFY(!m_window->close());  // "stop the sweep?" no: it goes on
    QVERIFY(hasMessage(MainWindow::tr("Stop the sweep?")));
    QVERIFY(m_sweep->isRunning());
    QVERIFY(m_window->isVisible());
    m_answer = true;
    QVERIFY(m_window->close());  // yes: stopped and joined
    QVERIFY(!m_sweep->isRunning());
}

void TestDocumentBusy::savedMidSweepSaysPartial() {
    makeWindow();
    part<ParameterPanel>(*m_window, "parameters")->setConfig(slowConfig());
    part<StrategyList>(*m_window, "strategies")
        ->setCheckedStrategies({"none", "full", "every:2", "every:3", "segments:2", "sqrt"});
    QVERIFY(m_window->startSweep());
    QTRY_VERIFY_WITH_TIMEOUT(m_document->runCount() >= 1 && m_document->filePath().isEmpty(),
                             120000);
    QVERIFY(m_sweep->isRunning());
    QVERIFY(part<QAction>(*m_window, "saveAction")->isEnabled());
    const QString path = m_dir.filePath(QStringLiteral("mid-sweep.json"));
    QVERIFY(m_files->saveTo(path));
    const ResultSet saved = loadResults(QFile::encodeName(path).toStdString());
    QVERIFY(saved.cancelled);  // partial: the sweep had not finished
    QVERIFY(!saved.runs.empty());
    QCOMPARE(saved.environment.device, std::string("cpu"));
    QVERIFY(!saved.environment.ckptlab_version.empty());
    QVERIFY(!saved.environment.libtorch_version.empty());
    QVERIFY(!saved.environment.created_utc.empty());
    QVERIFY(saved.environment.threads > 0);
    waitForSweepEnd();
    // The sweep's end says it finished, and the runs after the save make it unsaved again.
    QVERIFY(!m_document->results().cancelled);
    QVERIFY(m_document->isModified());
}

QTEST_MAIN(TestDocumentBusy)
#include "test_document_busy.moc"
