// The Chinese translation at run time: installing it turns the window's texts, the charts and
// the core's messages as the app shows them into Chinese, and View → Language switches without
// a restart and without losing the results. The completeness of translations/*.ts (nothing
// unfinished, missing or obsolete; the same %1 arguments) is tests/ui/check_translations.py.

#include <QApplication>
#include <QChart>
#include <QDockWidget>
#include <QFontDatabase>
#include <QMenuBar>
#include <QPushButton>
#include <QtTest>

#include "ui_test_support.h"

#include "charts/chart_builders.h"
#include "charts/chart_style.h"
#include "ckptlab/strategy.h"
#include "document/core_text.h"
#include "document/results_document.h"
#include "document/results_table_model.h"
#include "panels/charts_panel.h"
#include "window/app_setup.h"
#include "window/language.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

class TestTranslations : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanup();

    void installsAndRemoves();
    void chartTextsAndCoreMessages();
    void switchesAtRuntimeKeepingResults();

private:
    MessageRecorder m_recorder;
};

void TestTranslations::initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("ckptlab-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_translations"));
    initializeUi();
}

void TestTranslations::cleanup() { installLanguage(QStringLiteral("en")); }

void TestTranslations::installsAndRemoves() {
    QCOMPARE(currentLanguage(), QStringLiteral("en"));
    QVERIFY(!installLanguage(QStringLiteral("fr")));
    QCOMPARE(currentLanguage(), QStringLiteral("en"));
    QVERIFY(installLanguage(QStringLiteral("zh_CN")));
    QCOMPARE(currentLanguage(), QStringLiteral("zh_CN"));
    QCOMPARE(chartTitle(ChartKind::Tradeoff), QStringLiteral("各策略的内存与时间"));
    // Chinese in the Simplified Chinese face (not fontconfig's Japanese fallback), charts too.
    const bool sc = QFontDatabase::families().contains(QStringLiteral("Noto Sans CJK SC"));
    if (sc) {
        QVERIFY(QApplication::font().families().contains(QStringLiteral("Noto Sans CJK SC")));
        QVERIFY(legendFont().families().contains(QStringLiteral("Noto Sans CJK SC")));
    }
    QVERIFY(installLanguage(QStringLiteral("en")));
    QCOMPARE(chartTitle(ChartKind::Tradeoff), QStringLiteral("Memory against time per strategy"));
    QVERIFY(!QApplication::font().families().contains(QStringLiteral("Noto Sans CJK SC")));
    // English plural forms come from ckptlab_en.qm.
    QCOMPARE(ChartText::tr("%n checkpoint(s)", nullptr, 1), QStringLiteral("1 checkpoint"));
    QCOMPARE(ChartText::tr("%n checkpoint(s)", nullptr, 3), QStringLiteral("3 checkpoints"));
    QVERIFY(availableLanguages().contains(systemLanguage()));
    saveLanguage(QStringLiteral("zh_CN"));
    QCOMPARE(startupLanguage(), QStringLiteral("zh_CN"));
    saveLanguage(QStringLiteral("en"));
}

void TestTranslations::chartTextsAndCoreMessages() {
    QVERIFY(installLanguage(QStringLiteral("zh_CN")));
    std::unique_ptr<QChart> empty(makeEmptyChart());
    QCOMPARE(empty->title(), QStringLiteral("尚无结果"));

    ExperimentConfig config = tinyConfig();
    config.depth = 0;
    const std::vector<FieldError> errors = validate(config);
    QVERIFY(!errors.empty());
    QCOMPARE(fieldErrorText(errors.front(), config), QStringLiteral("深度 必须在 1 到 512 之间（当前为 0）"));
    QCOMPARE(configErrorText(errors.front().message), fieldErrorText(errors.front(), config));

    for (const char* bad : {"every:0", "bogus", "full:3", "every:x", "optimal:0", "attn"}) {
        QString translated;
        try {
            parseStrategy(bad, 8, BlockKind::Ffn);
        } catch (const StrategyError& e) {
            translated = strategyErrorText(e.what());
            QVERIFY2(translated != QString::fromStdString(e.what()), bad);  // a known shape
        }
        QVERIFY2(!translated.isEmpty(), bad);
    }
    QCOMPARE(progressText("depth 8: full: warm-up 1/2"), QStringLiteral("深度 8：full：预热 1/2"));
    QVERIFY(strategySyntaxText().contains(QStringLiteral("每个块都设检查点")));
}

void TestTranslations::switchesAtRuntimeKeepingResults() {
    MainWindow window;
    window.show();
    runTinySweep(window, {QStringLiteral("none"), QStringLiteral("full")}, m_recorder);
    if (QTest::currentTestFailed()) return;
    auto* document = part<ResultsDocument>(window, "document");
    QCOMPARE(document->runCount(), 2);
    document->select(1);
    QCOMPARE(part<QPushButton>(window, "runButton")->text(), QStringLiteral("Run sweep"));
    const QByteArray shots = qgetenv("CKPTLAB_SCREENSHOT_DIR");
    if (!shots.isEmpty())
        QVERIFY(window.grab().save(QFile::decodeName(shots) + QStringLiteral("/window_en.png")));

    QVERIFY(window.setLanguage(QStringLiteral("zh_CN")));
    QCOMPARE(currentLanguage(), QStringLiteral("zh_CN"));
    QCOMPARE(document->runCount(), 2);  // the same document, untouched
    QCOMPARE(document->selectedRun(), 1);
    QCOMPARE(part<QPushButton>(window, "runButton")->text(), QStringLiteral("运行扫描"));
    auto* model = part<ResultsTableModel>(window, "resultsModel");
    QCOMPARE(model->rowCount(), 2);
    QCOMPARE(model->headerData(0, Qt::Horizontal, Qt::DisplayRole).toString(),
             QStringLiteral("策略"));
    auto* charts = part<ChartsPanel>(window, "charts");
    QVERIFY(charts->chart(ChartKind::Tradeoff)->title().startsWith(QStringLiteral("各策略的内存与时间")));
    QCOMPARE(window.menuBar()->actions().first()->text(), QStringLiteral("文件(&F)"));
    QVERIFY(window.findChild<QAction*>(QStringLiteral("language_zh_CN"))->isChecked());

    if (!shots.isEmpty()) {
        QTest::qWait(300);
        QVERIFY(window.grab().save(QFile::decodeName(shots) + QStringLiteral("/window_zh_CN.png")));
    }

    // And back, through the menu's action as a user would.
    window.findChild<QAction*>(QStringLiteral("language_en"))->trigger();
    QTRY_COMPARE(currentLanguage(), QStringLiteral("en"));
    QTRY_COMPARE(part<QPushButton>(window, "runButton")->text(), QStringLiteral("Run sweep"));
    QCOMPARE(document->runCount(), 2);
    QCOMPARE(part<ResultsTableModel>(window, "resultsModel")->rowCount(), 2);
    QVERIFY(part<ChartsPanel>(window, "charts")->chart(ChartKind::Tradeoff)->title().startsWith(
        QStringLiteral("Memory against time")));
}

QTEST_MAIN(TestTranslations)
#include "test_translations.moc"
