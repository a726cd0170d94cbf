// Settings: the last config and strategies come back, a saved window layout of another
// version is ignored, and a bad stored config falls back to the defaults.

#include <QMainWindow>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include "ui_test_support.h"

#include "document/settings.h"
#include "panels/parameter_panel.h"
#include "panels/strategy_list.h"
#include "window/main_window.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

namespace {}  // namespace

class TestSettings : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void configRoundTrips();
    void badStoredConfigFallsBack();
    void windowStateIsVersioned();
    void windowRestoresLastSession();
    void foldersFallBackToHome();
};

void TestSettings::initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("ckptlab-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_settings"));
    QVERIFY(QSettings().fileName().startsWith(configHome().path()));
}

void TestSettings::configRoundTrips() {
    ExperimentConfig c;
    c.block = BlockKind::Transformer;
    c.depth = 7;
    c.width = 96;
    c.seq = 33;
    c.batch = 3;
    c.heads = 6;
    c.dropout = 0.25;
    c.dtype = DType::BFloat16;
    c.optimizer = Optimizer::Adam;
    c.seed = 1234;
    c.threads = 2;
    c.warmup = 0;
    c.repeats = 9;
    c.memory_limit_mib = 123.5;
    Settings settings;
    settings.setLastConfig(c);
    const ExperimentConfig back = Settings().lastConfig();
    QCOMPARE(int(back.block), int(c.block));
    QCOMPARE(back.depth, c.depth);
    QCOMPARE(back.width, c.width);
    QCOMPARE(back.seq, c.seq);
    QCOMPARE(back.batch, c.batch);
    QCOMPARE(back.heads, c.heads);
    QCOMPARE(back.dropout, c.dropout);
    QCOMPARE(int(back.dtype), int(c.dtype));
    QCOMPARE(int(back.optimizer), int(c.optimizer));
    QCOMPARE(back.seed, c.seed);
    QCOMPARE(back.threads, c.threads);
    QCOMPARE(back.warmup, c.warmup);
    QCOMPARE(back.repeats, c.repeats);
    QCOMPARE(back.memory_limit_mib, c.memory_limit_mib);

    settings.setCheckedStrategies({"none", "segments:3"});
    QCOMPARE(Settings().checkedStrategies(), QStringList({"none", "segments:3"}));
}

void TestSettings::badStoredConfigFallsBack() {
    QSettings().setValue("config/width", 999999);  // beyond limits::width
    const ExperimentConfig back = Settings().lastConfig();
    QCOMPARE(back.width, ExperimentConfig{}.width);
    QSettings().remove("config");
    QSettings().setValue("config/memoryLimitMib", -3.0);  // below limits: no limit instead
    QCOMPARE(Settings().lastConfig().memory_limit_mib, 0.0);
    QSettings().remove("config");
}

void TestSettings::windowStateIsVersioned() {
    QMainWindow window;
    Settings settings;
    settings.saveWindow(window);
    QVERIFY(settings.restoreWindow(window));
    QSettings().setValue("window/stateVersion", Settings::kWindowStateVersion - 1);
    QVERIFY(!settings.restoreWindow(window));  // an older layout is not applied
}

void TestSettings::windowRestoresLastSession() {
    ExperimentConfig c;
    c.depth = 6;
    c.width = 48;
    {
        MainWindow window;
        part<ParameterPanel>(window, "parameters")->setConfig(c);
        part<StrategyList>(window, "strategies")->setCheckedStrategies({"none", "every:3"});
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.close();  // saves the session
    }
    MainWindow window;
    const ExperimentConfig restored = part<ParameterPanel>(window, "parameters")->config();
    QCOMPARE(restored.depth, 6);
    QCOMPARE(restored.width, 48);
    QCOMPARE(part<StrategyList>(window, "strategies")->checkedStrategies(),
             QStringList({"none", "every:3"}));
}

void TestSettings::foldersFallBackToHome() {
    Settings settings;
    QCOMPARE(settings.lastFolder(FolderKind::Charts), QDir::homePath());
    settings.setLastFolder(FolderKind::Charts, configHome().filePath(QStringLiteral("x.png")));
    QCOMPARE(settings.lastFolder(FolderKind::Charts),
             QFileInfo(configHome().path()).absoluteFilePath());
}

QTEST_MAIN(TestSettings)
#include "test_settings.moc"
