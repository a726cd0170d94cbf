#pragma once
// Set-up shared by the window tests: an offscreen platform unless one is set, settings in a
// throw-away folder (both before QApplication exists), models that run in milliseconds or
// seconds, message boxes recorded instead of shown (WindowTest, the base of the test classes
// that open windows), and a tiny sweep through the window.

#include <QCoreApplication>
#include <QFile>
#include <QList>
#include <QTemporaryDir>
#include <QtGlobal>

#include <QAction>
#include <QSignalSpy>
#include <QtTest>

// QTRY_VERIFY's and QTRY_COMPARE's default wait of 5 s is a watchdog, not a claim about time:
// work on another thread (a sweep, a forecast) takes longer on a loaded machine or a sanitizer
// build. A wait still ends as soon as its condition holds.
#undef QTRY_VERIFY
#define QTRY_VERIFY(expr) QTRY_VERIFY_WITH_TIMEOUT(expr, 120000)
#undef QTRY_VERIFY2
#define QTRY_VERIFY2(expr, message) QTRY_VERIFY2_WITH_TIMEOUT(expr, message, 120000)
#undef QTRY_COMPARE
#define QTRY_COMPARE(expr, expected) QTRY_COMPARE_WITH_TIMEOUT(expr, expected, 120000)

#include "base/messages.h"
#include "ckptlab/model/config.h"
#include "controllers/sweep_controller.h"
#include "panels/parameter_panel.h"
#include "panels/strategy_list.h"
#include "test_configs.h"
#include "window/main_window.h"

namespace ckptlab::ui::test {

inline QTemporaryDir& configHome() {
    static QTemporaryDir dir;
    return dir;
}

// The settings of each test binary are its own file in the throw-away folder:
// ckptlab-tests/<binary>.conf (the application name defaults to the executable's).
inline const bool kEnvironment = [] {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(configHome().path()));
    QCoreApplication::setOrganizationName(QStringLiteral("ckptlab-tests"));
    return true;
}();

using ckptlab::test::tinyConfig;

// About a second per sweep, with activations well above the parameters: none's footprint is
// about twice full's, so a memory limit between them is passed in none's forward.
inline ExperimentConfig activationHeavyConfig() {
    ExperimentConfig c = tinyConfig();
    c.depth = 12;
    c.width = 64;
    c.seq = 256;
    c.batch = 2;
    return c;
}

// Long enough (seconds per strategy) that a cancel lands in the middle of a sweep.
inline ExperimentConfig slowConfig() {
    ExperimentConfig c = tinyConfig();
    c.depth = 12;
    c.width = 256;
    c.seq = 256;
    c.batch = 2;
    c.warmup = 1;
    c.repeats = 5;
    return c;
}

// One of the window's parts, found by its objectName as any outside code would find it (the
// window has no accessors). Aborts the test binary when the part is missing, naming it.
template <typename T>
T* part(const QObject& window, const char* name) {
    T* found = window.findChild<T*>(QLatin1String(name));
    if (!found) qFatal("the window has no %s named \"%s\"", T::staticMetaObject.className(), name);
    return found;
}

// Records the window's message boxes instead of showing them, for as long as it lives (make it
// a member of the test class); `answer` is the reply to questions.
class MessageRecorder {
public:
    MessageRecorder() {
        setMessageSink([this](const Message& m) {
            messages << m;
            return answer;
        });
    }
    ~MessageRecorder() { setMessageSink({}); }
    MessageRecorder(const MessageRecorder&) = delete;
    MessageRecorder& operator=(const MessageRecorder&) = delete;

    // Between test functions.
    void reset() {
        messages.clear();
        answer = false;
    }
    QString lastText() const { return messages.isEmpty() ? QString() : messages.last().text; }

    QList<Message> messages;
    bool answer = false;
};

// The base of a test class that opens windows: their message boxes are recorded in
// `m_recorder` for the whole test binary and cleared before each test function. A class with
// its own init() calls WindowTest::init() first.
class WindowTest : public QObject {
    Q_OBJECT
protected Q_SLOTS:
    void init();

protected:
    MessageRecorder m_recorder;
};

// Runs `strategies` on the tiny config through the window's Run action and waits for the end;
// fails the calling test if the sweep does not start, is cancelled or fails (check
// QTest::currentTestFailed() after it when more follows).
// Runs the checked strategies through the window's Run action and waits for the end.
inline void runCheckedSweep(MainWindow& window, const MessageRecorder& recorder) {
    QSignalSpy ended(&window, &MainWindow::sweepEnded);
    part<QAction>(window, "runAction")->trigger();
    QVERIFY2(part<SweepController>(window, "sweepController")->isRunning(),
             qPrintable(recorder.lastText()));
    QVERIFY(ended.wait(180000));
    QCOMPARE(ended.first().at(0).toBool(), false);  // not cancelled
    QCOMPARE(ended.first().at(1).toBool(), false);  // not failed (out of memory is a result)
}

inline void runTinySweep(MainWindow& window, const QStringList& strategies,
                         const MessageRecorder& recorder) {
    part<ParameterPanel>(window, "parameters")->setConfig(tinyConfig());
    part<StrategyList>(window, "strategies")->setCheckedStrategies(strategies);
    runCheckedSweep(window, recorder);
}

}  // namespace ckptlab::ui::test
