// Settings: the last config and strategies come back, a saved window layout of another
// version is ignored, and a bad stored config falls back to the defaults.

#include <QMainWindow>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include "test_configs.h"
#include "ui_test_support.h"

#include "ckptlab/model/config_fields.h"
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
    QVERIFY(QSettings().fileName().startsWith(configHome().path()));
}

void TestSettings::configRoundTrips() {
    // Every field of the registry away from its default, kv_heads among them.
    const ExperimentConfig c = ckptlab::test::everyFieldChanged();
    Settings settings;
    settings.setLastConfig(c);
    const ExperimentConfig back = Settings().lastConfig();
    for (const ConfigField& field : configFields())
        QVERIFY2(valueOf(field, back) == valueOf(field, c), field.key);
    QCOMPARE(back.kv_heads, 2);
    QCOMPARE(QSettings().value(QStringLiteral("config/kvHeads")).toInt(), 2);

    // Settings saved before a field existed read it as its default.
    QSettings().remove(QStringLiteral("config/kvHeads"));
    QCOMPARE(Settings().lastConfig().kv_heads, 0);
    QCOMPARE(Settings().lastConfig().heads, c.heads);

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
    QSettings().setValue("config/depth", 7);
    QSettings().setValue("config/kvHeads", 999);  // beyond limits::kvHeads: all defaults
    QCOMPARE(Settings().lastConfig().kv_heads, 0);
    QCOMPARE(Settings().lastConfig().depth, ExperimentConfig{}.depth);
    QSettings().setValue("config/kvHeads", QStringLiteral("two"));  // not a number
    QCOMPARE(Settings().lastConfig().depth, ExperimentConfig{}.depth);
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
    c.allocator = AllocatorKind::System;  // not the default: the box and the setting keep it
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
    QVERIFY(restored.allocator == AllocatorKind::System);
    QCOMPARE(part<StrategyList>(window, "strategies")->checkedNames(),
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
