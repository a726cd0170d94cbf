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
#include <QTranslator>
#include <QtTest>

#include "ui_test_support.h"

#include "base/app_setup.h"
#include "base/config_field_text.h"
#include "base/language.h"
#include "charts/chart_builders.h"
#include "charts/chart_style.h"
#include "ckptlab/model/config_fields.h"
#include "ckptlab/model/core_message.h"
#include "ckptlab/model/number_text.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/planner.h"
#include "ckptlab/planning/sweep_memory.h"
#include "document/core_text.h"
#include "document/results_document.h"
#include "document/results_table_model.h"
#include "panels/charts_panel.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

class TestTranslations : public WindowTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanup();

    void installsAndRemoves();
    void chartTextsAndCoreMessages();
    void everyMessageCodeHasItsTranslation();
    void everyStrategyKindHasItsTranslation();
    void everyConfigFieldHasItsLabel();
    void coreErrorsInChineseWithTheirNumbers();
    void switchesAtRuntimeKeepingResults();
};

void TestTranslations::initTestCase() { initializeUi(); }

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
    // A scaling sweep's progress: the size, then the size's own message, each translated.
    const CoreMessage warmUp(MessageCode::WarmUpStep, {"full", "1", "2"});
    QCOMPARE(coreMessageText(CoreMessage(MessageCode::AtScalingSize, {"depth", "8"}, {warmUp})),
             QStringLiteral("深度 8：full：预热 1/2"));
}

// Every code of core_message.h, filled with placeholder arguments: in English the app shows
// exactly core's text (its source text is core's pattern), in Chinese a translation that
// keeps every argument.
void TestTranslations::everyMessageCodeHasItsTranslation() {
    for (int i = 0; i <= int(kLastMessageCode); ++i) {
        const MessageCode code = MessageCode(i);
        const QString pattern = QString::fromLatin1(messagePattern(code));
        std::vector<std::string> args;
        while (pattern.contains(QStringLiteral("%%1").arg(args.size() + 1)))
            args.push_back("A" + std::to_string(args.size() + 1));
        const CoreMessage message(code, args);
        const QByteArray what = pattern.toUtf8();
        QVERIFY(installLanguage(QStringLiteral("en")));
        QCOMPARE(coreMessageText(message), QString::fromStdString(message.english));
        QVERIFY(installLanguage(QStringLiteral("zh_CN")));
        const QString chinese = coreMessageText(message);
        QVERIFY2(chinese != QString::fromStdString(message.english), what.constData());
        for (const std::string& arg : args)
            QVERIFY2(chinese.contains(QString::fromStdString(arg)), what.constData());
    }
}

// The help lists every kind of core's table, in its order, each with its translation.
void TestTranslations::everyStrategyKindHasItsTranslation() {
    const auto& kinds = strategyKinds();
    for (const StrategyKindInfo& kind : kinds) {
        const QString syntax = QString::fromStdString(kind.syntax);
        QCOMPARE(strategyHelpText(kind.kind),
                 syntax + QStringLiteral("  ") + QString::fromStdString(kind.description));
    }
    QVERIFY(installLanguage(QStringLiteral("zh_CN")));
    const QStringList lines = strategySyntaxText().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), qsizetype(kinds.size()));
    for (std::size_t i = 0; i < kinds.size(); ++i) {
        const QByteArray name = QByteArray::fromStdString(kinds[i].name);
        QVERIFY2(lines[qsizetype(i)].startsWith(QString::fromStdString(kinds[i].syntax) +
                                                QLatin1Char(' ')),
                 name.constData());
        QVERIFY2(!lines[qsizetype(i)].contains(QString::fromStdString(kinds[i].description)),
                 name.constData());  // translated, not core's English
        QVERIFY2(strategyHelpText(kinds[i].kind).endsWith(lines[qsizetype(i)].mid(14)),
                 name.constData());
    }
    QVERIFY(strategySyntaxText().contains(QStringLiteral("每个块都设检查点")));
}

// Every field of the registry has its label in the app's table, whose source text is the
// registry's English label, and a Chinese translation of it; a field's error names it so.
void TestTranslations::everyConfigFieldHasItsLabel() {
    QTranslator chinese;  // the app's own catalogue, to ask it for each label
    QVERIFY(chinese.load(QStringLiteral(":/i18n/ckptlab_zh_CN.qm")));
    QVERIFY(installLanguage(QStringLiteral("en")));
    for (const ConfigField& field : configFields()) {
        const ConfigFieldLabelText text = configFieldLabelText(field.key);
        QVERIFY2(text.source, field.key);
        QCOMPARE(QString::fromLatin1(text.source), QString::fromLatin1(field.label));
        QCOMPARE(configFieldLabel(field.key), QString::fromLatin1(field.label));
        QVERIFY2(!chinese.translate("CoreText", text.source, text.comment).isEmpty(), field.key);
    }
    QVERIFY(installLanguage(QStringLiteral("zh_CN")));
    QCOMPARE(configFieldLabel("kv-heads"), QStringLiteral("键值头数"));
    ExperimentConfig c;
    c.kv_heads = 300;
    const std::vector<FieldError> errors = validate(c);
    QCOMPARE(errors.size(), std::size_t(1));
    QVERIFY2(fieldErrorText(errors.front()).startsWith(QStringLiteral("键值头数")),
             qPrintable(fieldErrorText(errors.front())));
    QVERIFY(fieldErrorText(errors.front()).contains(QStringLiteral("300")));
}

void TestTranslations::coreErrorsInChineseWithTheirNumbers() {
    QVERIFY(installLanguage(QStringLiteral("zh_CN")));
    // A bad field.
    ExperimentConfig config = tinyConfig();
    config.depth = 0;
    const std::vector<FieldError> errors = validate(config);
    QVERIFY(!errors.empty());
    QCOMPARE(fieldErrorText(errors.front()),
             QStringLiteral("深度 必须在 1 到 512 之间（当前为 0）"));
    config = tinyConfig();
    config.memory_limit_mib = -1;
    QCOMPARE(
        fieldErrorText(validate(config).front()),
        QStringLiteral("内存上限 必须为 0（不限），或在 0.001 到 16777216 MiB 之间（当前为 -1）"));

    // A strategy's parameter out of range, and the other shapes of a bad strategy.
    try {
        parseStrategy("every:0", 8, BlockKind::Ffn);
        QFAIL("every:0 parsed");
    } catch (const StrategyError& e) {
        QCOMPARE(coreErrorText(e),
                 QStringLiteral("深度为 8 时，every:N 的 N 必须在 1 到 8 之间（当前为 0）"));
    }
    for (const char* bad : {"bogus", "full:3", "every:x", "optimal:0", "attn"}) {
        try {
            parseStrategy(bad, 8, BlockKind::Ffn);
            QFAIL(bad);
        } catch (const StrategyError& e) {
            const QString translated = coreErrorText(e);
            QVERIFY2(translated != QString::fromStdString(e.what()), bad);
            QVERIFY2(translated.contains(QString::fromLatin1(bad)), bad);
        }
    }

    // A budget below the smallest schedule: both sizes as core computed them.
    CostModel costs;
    for (int u = 0; u < 4; ++u) {
        UnitCost c;
        c.output_bytes = 1 << 20;
        c.kept_bytes = 4 << 20;
        c.forward_peak = 5 << 20;
        c.nograd_peak = 2 << 20;
        c.backward_peak = 2 << 20;
        c.forward_ms = c.nograd_ms = c.backward_ms = 1;
        costs.units.push_back(c);
    }
    try {
        OptimalPlanner(costs).plan(1 << 20);
        QFAIL("a 1 MiB budget fitted");
    } catch (const BudgetError& e) {
        QCOMPARE(e.message.code, MessageCode::BudgetBelowMinimum);
        QCOMPARE(e.message.args.at(0), std::string("1.0"));
        QCOMPARE(coreErrorText(e),
                 QStringLiteral("optimal:1.0 MiB 低于最小可行调度，后者需要高于训练步开始时 %1 MiB")
                     .arg(QString::fromStdString(e.message.args.at(1))));
        QVERIFY(parseDecimal(e.message.args.at(1)).value_or(0) * 1024 * 1024 >= e.minimum - 1);
    }

    // A sweep that does not fit, as core words the refusal.
    SweepNeed need;
    need.predicted = std::int64_t(3) << 30;
    need.worst = "full";
    const CoreMessage refusal = doesNotFitMessage(need, std::int64_t(1) << 30, "cpu");
    QCOMPARE(
        coreMessageText(refusal),
        QStringLiteral("配置放不下：策略 full 预计需要 3072 MiB，但 cpu 上只有 1024 MiB 可用"));
    // Wrapped at a scaling size, the wrapper and the field are translated too.
    const CoreMessage atSize(MessageCode::AtScalingValue, {"width", "4"},
                             {validate([] {
                                  ExperimentConfig c = tinyConfig();
                                  c.width = 4;
                                  return c;
                              }())
                                  .front()
                                  .message});
    QCOMPARE(coreMessageText(atSize),
             QStringLiteral("在 宽度=4 时：宽度 必须在 8 到 16384 之间（当前为 4）"));

    // Eager scores too large to count: the message and the field it names are translated.
    ExperimentConfig huge = tinyConfig();
    huge.block = BlockKind::Transformer;
    huge.depth = 512;
    huge.heads = 256;
    huge.width = 256;
    huge.seq = 65536;
    huge.batch = 4096;
    const std::vector<FieldError> overflow = validate(huge);
    QCOMPARE(overflow.size(), std::size_t(1));
    const QString text = fieldErrorText(overflow.front());
    QVERIFY2(
        text.startsWith(QStringLiteral("序列长度 过大")) && text.contains(QStringLiteral("2^63")),
        qPrintable(text));
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
    QVERIFY(charts->chart(ChartKind::Tradeoff)
                ->title()
                .startsWith(QStringLiteral("各策略的内存与时间")));
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
    QVERIFY(part<ChartsPanel>(window, "charts")
                ->chart(ChartKind::Tradeoff)
                ->title()
                .startsWith(QStringLiteral("Memory against time")));
}

QTEST_MAIN(TestTranslations)
#include "test_translations.moc"
