// "Will it fit?": the chart builder and the panel on a hand-made plan (no LibTorch), the
// exports, a config file the lab cannot use, the window's action, and one real plan of a tiny
// Llama chain through the controller, down to its predicted timeline.

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QHorizontalStackedBarSeries>
#include <QImage>
#include <QLabel>
#include <QLineSeries>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>
#include <memory>

#include "ui_test_support.h"  // the offscreen platform, before QApplication exists

#include "charts/chart_export.h"
#include "charts/chart_style.h"
#include "charts/chart_view.h"
#include "charts/fit_chart.h"
#include "ckptlab/formats/model_config.h"
#include "controllers/fit_controller.h"
#include "document/settings.h"
#include "panels/fit_inputs.h"
#include "panels/fit_panel.h"
#include "panels/fit_table.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

namespace {

constexpr std::int64_t kGiga = 1'000'000'000;

StrategyAtSize row(const std::string& strategy, std::int64_t activations, std::int64_t capacity) {
    StrategyAtSize s;
    s.strategy = parseStrategy(strategy, 16, BlockKind::Llama);
    s.split.weights = 4 * kGiga;
    s.split.weight_copies = kGiga / 2;
    s.split.gradients = 4 * kGiga;
    s.split.optimizer_state = 8 * kGiga;
    s.split.activations = activations;
    s.split.logits = kGiga;
    s.split.other = kGiga / 4;
    s.allocated = s.split.weights + s.split.weight_copies + s.split.gradients +
                  s.split.optimizer_state + s.split.activations + s.split.logits + s.split.other;
    s.reserved = s.allocated + kGiga / 5;
    s.margin = capacity - s.reserved;
    s.fits = s.margin >= 0;
    s.largest_batch = s.fits ? 3 : 0;
    s.longest_seq = s.fits ? 4096 : 0;
    s.tokens_per_s = s.fits ? 1234.4 : 0;
    return s;
}

// Three strategies on a 24 GB GPU: none (too big), full and sqrt (fit), and the planner's
// fastest schedule that fits.
FullSizePlan handMadePlan() {
    FullSizePlan plan;
    plan.config.block = BlockKind::Llama;
    plan.config.depth = 16;
    plan.config.batch = 2;
    plan.config.seq = 2048;
    plan.capacity = 24 * kGiga;
    plan.state_bytes = 16 * kGiga;
    plan.strategies = {row("none", 9 * kGiga, plan.capacity), row("full", kGiga, plan.capacity),
                       row("sqrt", 2 * kGiga, plan.capacity)};
    plan.fastest_at_size = row("optimal:20000", 3 * kGiga, plan.capacity);
    return plan;
}

// Weights, gradients and optimizer state above the capacity: nothing can fit.
FullSizePlan hopelessPlan() {
    FullSizePlan plan = handMadePlan();
    plan.capacity = 12 * kGiga;
    for (StrategyAtSize& s : plan.strategies) {
        s.margin = plan.capacity - s.reserved;
        s.fits = false;
    }
    plan.fastest_at_size.reset();
    plan.would_fit = capacityPresets().front();  // 24GB
    return plan;
}

FitOutcomePtr outcomeOf(const FullSizePlan& plan) {
    auto outcome = std::make_shared<FitOutcome>();
    outcome->plan = plan;
    return outcome;
}

// A chain of two small Llama layers with its ends: a real fit in seconds.
ExperimentConfig tinyLlama() {
    ExperimentConfig c = tinyConfig();
    c.block = BlockKind::Llama;
    c.width = 64;
    c.depth = 2;
    c.heads = 4;
    c.vocab = 256;
    c.seq = 32;
    c.batch = 1;
    c.dropout = 0;
    c.optimizer = Optimizer::Adam;
    return c;
}

QHorizontalStackedBarSeries* barsOf(QChart* chart) {
    for (QAbstractSeries* series : chart->series())
        if (auto* bars = qobject_cast<QHorizontalStackedBarSeries*>(series)) return bars;
    return nullptr;
}

}  // namespace

class TestFitPanel : public WindowTest {
    Q_OBJECT
private Q_SLOTS:
    void chartHasOneBarPerStrategyAndTheCapacity();
    void panelFillsItsTableFromAPlan();
    void hopelessPlanSaysWhyAndWhereItWouldFit();
    void exportsWritePngSvgAndCsv();
    void badConfigFileNamesTheField();
    void windowActionShowsTheDock();
    void tinyModelPlansAndShowsAPredictedTimeline();
    void cancelEndsWithoutAPlan();
    void languageSwitchKeepsThePlan();
};

void TestFitPanel::chartHasOneBarPerStrategyAndTheCapacity() {
    const FullSizePlan plan = handMadePlan();
    std::unique_ptr<QChart> chart(buildFitChart(plan));
    QHorizontalStackedBarSeries* bars = barsOf(chart.get());
    QVERIFY(bars);
    QCOMPARE(bars->count(), 8);  // the parts, reserve included
    const QStringList parts = fitPartNames();
    // Rows bottom-up: the fastest that fits, sqrt, full, none (the plan's first on top).
    const std::vector<std::int64_t> activations = {3 * kGiga, 2 * kGiga, kGiga, 9 * kGiga};
    for (QBarSet* set : bars->barSets()) {
        QCOMPARE(set->count(), 4);
        const int part = int(parts.indexOf(set->label()));
        QVERIFY2(part >= 0, qPrintable(set->label()));
        for (int i = 0; i < 4; ++i) {
            const double expected = part == 0   ? 4.0
                                    : part == 1 ? 0.5
                                    : part == 2 ? 4.0
                                    : part == 3 ? 8.0
                                    : part == 4 ? double(activations[size_t(i)]) / kGiga
                                    : part == 5 ? 1.0
                                    : part == 6 ? 0.25
                                                : 0.2;  // reserved less allocated
            QVERIFY2(qAbs(set->at(i) - expected) < 1e-12,
                     qPrintable(QStringLiteral("%1 of row %2: %3, expected %4")
                                    .arg(set->label())
                                    .arg(i)
                                    .arg(set->at(i))
                                    .arg(expected)));
        }
    }
    auto* categories = qobject_cast<QBarCategoryAxis*>(chart->axes(Qt::Vertical).first());
    QVERIFY(categories);
    QCOMPARE(categories->categories(),
             (QStringList{QStringLiteral("fastest that fits"), QStringLiteral("sqrt"),
                          QStringLiteral("full"), QStringLiteral("none")}));
    QLineSeries* capacity = nullptr;
    for (QAbstractSeries* series : chart->series())
        if (series->objectName() == QLatin1String("capacity"))
            capacity = qobject_cast<QLineSeries*>(series);
    QVERIFY(capacity);
    QCOMPARE(capacity->count(), 2);
    QCOMPARE(capacity->at(0).x(), 24.0);
    QCOMPARE(capacity->at(1).x(), 24.0);
    QVERIFY(capacity->name().contains(QLatin1String("24.00 GB")));
}

void TestFitPanel::panelFillsItsTableFromAPlan() {
    FitController controller;
    Settings settings;
    FitPanel panel(&controller, &settings);
    panel.showOutcome(outcomeOf(handMadePlan()));
    auto* table = panel.findChild<QTableWidget*>(QStringLiteral("fitTable"));
    QVERIFY(table);
    QCOMPARE(table->rowCount(), 4);
    QCOMPARE(table->columnCount(), int(fitTableHeaders().size()));
    QCOMPARE(table->horizontalHeaderItem(6)->text(), QStringLiteral("Tokens/s on this machine"));
    // none: 4 + 0.5 + 4 + 8 + 9 + 1 + 0.25 = 26.75 GB allocated, 26.95 reserved, 2.95 short.
    QCOMPARE(table->item(0, 0)->text(), QStringLiteral("none"));
    QCOMPARE(table->item(0, 1)->text(), QStringLiteral("26.75 GB"));
    QCOMPARE(table->item(0, 2)->text(), QStringLiteral("26.95 GB"));
    QCOMPARE(table->item(0, 3)->text(), QStringLiteral("no, 2.95 GB short"));
    QCOMPARE(table->item(0, 4)->text(), QStringLiteral("none"));
    QCOMPARE(table->item(0, 6)->text(), QStringLiteral("—"));
    // full: 18.75 allocated, 18.95 reserved, 5.05 spare.
    QCOMPARE(table->item(1, 3)->text(), QStringLiteral("yes, 5.05 GB spare"));
    QCOMPARE(table->item(1, 4)->text(), QStringLiteral("3"));
    QCOMPARE(table->item(1, 5)->text(), QStringLiteral("4096"));
    QCOMPARE(table->item(1, 6)->text(), QStringLiteral("1234"));
    QCOMPARE(table->item(3, 0)->text(), QStringLiteral("fastest that fits"));
    const QString verdict = panel.findChild<QLabel*>(QStringLiteral("fitVerdict"))->text();
    QVERIFY2(verdict.contains(QLatin1String(
                 "The fastest schedule that fits in 24.00 GB is the planner's for a budget of "
                 "20000 MiB above the step's start: 20.95 GB reserved, 3.05 GB spare.")),
             qPrintable(verdict));
    QVERIFY(!verdict.contains(QLatin1String("alone take")));
    // The chart shows the same plan.
    QChart* chart = panel.findChild<ChartView*>(QStringLiteral("fitChart"))->chart();
    QVERIFY(barsOf(chart));
    QCOMPARE(barsOf(chart)->barSets().front()->count(), 4);
}

void TestFitPanel::hopelessPlanSaysWhyAndWhereItWouldFit() {
    const QStringList lines = fitVerdict(hopelessPlan());
    QCOMPARE(lines.size(), 2);
    QCOMPARE(lines[0], QStringLiteral("Weights, gradients and optimizer state alone take 16.00 GB, "
                                      "more than the 12.00 GB capacity: no checkpointing schedule "
                                      "can make it fit."));
    QCOMPARE(lines[1], QStringLiteral("It would fit in 24GB (RTX 4090, A10, L4)."));
    // Fits, but nothing does at this capacity: the other sentence, no "alone".
    FullSizePlan tight = hopelessPlan();
    tight.state_bytes = 10 * kGiga;
    const QStringList tightLines = fitVerdict(tight);
    QVERIFY(tightLines[0].startsWith(QLatin1String("Nothing fits in 12.00 GB")));
}

void TestFitPanel::exportsWritePngSvgAndCsv() {
    FitController controller;
    Settings settings;
    FitPanel panel(&controller, &settings);
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("fit.png"));
    const QString svg = dir.filePath(QStringLiteral("fit.svg"));
    const QString csv = dir.filePath(QStringLiteral("fit.csv"));
    QVERIFY(!panel.exportCsv(csv));  // nothing planned yet: nothing written
    QVERIFY(!QFile::exists(csv));
    panel.showOutcome(outcomeOf(handMadePlan()));
    QVERIFY(panel.exportChartPng(png, 2));
    QVERIFY(panel.exportChartSvg(svg));
    QVERIFY(panel.exportCsv(csv));
    QCOMPARE(QImage(png).size(), kExportSize * 2);
    QFile svgFile(svg);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    const QByteArray svgText = svgFile.readAll();
    QVERIFY(svgText.contains("<svg"));
    QVERIFY(svgText.contains("capacity 24.00 GB"));
    QFile csvFile(csv);
    QVERIFY(csvFile.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csvFile.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 5);  // the header and four rows
    QVERIFY(lines[0].startsWith("strategy,fastest_that_fits,allocated_bytes,reserved_bytes,"));
    QCOMPARE(lines[1].left(46), QByteArray("none,0,26750000000,26950000000,24000000000,0,-"));
    QVERIFY(lines[4].startsWith("optimal:20000,1,"));
    // An unwritable target: a message naming it, nothing written.
    const QString folder = dir.filePath(QStringLiteral("taken"));
    QVERIFY(QDir().mkpath(folder));
    QVERIFY(!panel.exportCsv(folder));
    QCOMPARE(m_recorder.messages.size(), 1);
    QVERIFY(m_recorder.lastText().contains(QLatin1String("taken")));
}

void TestFitPanel::badConfigFileNamesTheField() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("config.json"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(R"({"architectures": ["LlamaForCausalLM"], "hidden_size": 64,
                   "intermediate_size": 128, "num_hidden_layers": 2,
                   "num_attention_heads": 4, "num_key_value_heads": 3, "vocab_size": 256})");
    file.close();
    std::string field;
    try {
        loadModel(path.toStdString());
    } catch (const ModelConfigError& e) {
        field = e.field();
    }
    QVERIFY(!field.empty());  // the core refuses it (kv heads that do not divide the heads)
    FitInputs inputs;
    QSignalSpy opened(&inputs, &FitInputs::opened);
    inputs.openConfig(path);
    QVERIFY(opened.wait(20000));
    QCOMPARE(opened.first().first().toBool(), false);
    QCOMPARE(m_recorder.messages.size(), 1);
    QVERIFY2(m_recorder.lastText().contains(QString::fromStdString(field)),
             qPrintable(m_recorder.lastText()));
}

void TestFitPanel::windowActionShowsTheDock() {
    MainWindow window;
    auto* dock = part<QDockWidget>(window, "fitDock");
    QVERIFY(!dock->isVisible());
    part<QAction>(window, "fitAction")->trigger();
    QVERIFY(dock->isVisible());
    QVERIFY(dock->findChild<FitPanel*>());
}

void TestFitPanel::tinyModelPlansAndShowsAPredictedTimeline() {
    FitController controller;
    Settings settings;
    FitPanel panel(&controller, &settings);
    FitRequest request;
    request.model = QStringLiteral("tiny");
    request.config = tinyLlama();
    request.capacity = kGiga;
    request.strategies = {parseStrategy("none", 2, BlockKind::Llama),
                          parseStrategy("full", 2, BlockKind::Llama)};
    QSignalSpy planned(&controller, &FitController::planned);
    QSignalSpy finished(&controller, &FitController::finished);
    QVERIFY(controller.start(request));
    QVERIFY(!controller.start(request));  // one at a time
    QVERIFY(finished.wait(240000));
    QCOMPARE(planned.size(), 1);
    const FitOutcomePtr outcome = controller.latest();
    QVERIFY(outcome && outcome->fit);
    QCOMPARE(int(outcome->plan.strategies.size()), 2);
    // A tiny chain in a GB: everything fits, the panel selected a row and drew its timeline.
    auto* table = panel.findChild<QTableWidget*>(QStringLiteral("fitTable"));
    QVERIFY(table->rowCount() >= 2);
    QVERIFY(table->item(0, 3)->text().startsWith(QLatin1String("yes")));
    panel.showTimeline(0);
    QChart* timeline = panel.findChild<ChartView*>(QStringLiteral("fitTimeline"))->chart();
    QVERIFY2(timeline->title().contains(QLatin1String("predicted, not measured")),
             qPrintable(timeline->title()));
    QVERIFY(timeline->title().contains(QLatin1String("none")));
    bool line = false;
    for (QAbstractSeries* series : timeline->series())
        if (auto* xy = qobject_cast<QLineSeries*>(series))
            if (xy->property(kStrategyProperty).toString() == QLatin1String("none"))
                line = xy->count() > 4;
    QVERIFY(line);
    // Planning again with another capacity reuses the fit: no measuring.
    request.capacity = 2 * kGiga;
    QVERIFY(controller.start(request));
    QVERIFY(finished.wait(60000));
    QVERIFY(controller.latest() && !controller.latest()->measured);
    QCOMPARE(controller.latest()->plan.capacity, 2 * kGiga);
}

void TestFitPanel::cancelEndsWithoutAPlan() {
    FitController controller;
    FitRequest request;
    request.model = QStringLiteral("tiny");
    request.config = tinyLlama();
    request.config.seq = 48;  // not the fit of another test function: this one measures
    request.capacity = kGiga;
    request.strategies = {parseStrategy("none", 2, BlockKind::Llama)};
    QSignalSpy planned(&controller, &FitController::planned);
    QSignalSpy cancelled(&controller, &FitController::cancelled);
    QSignalSpy finished(&controller, &FitController::finished);
    QVERIFY(controller.start(request));
    controller.cancel();  // before the worker has begun: it stops at its first check
    QVERIFY(finished.wait(60000));
    QCOMPARE(cancelled.size(), 1);
    QCOMPARE(planned.size(), 0);
    QVERIFY(!controller.isRunning());
    QVERIFY(!controller.latest());
}

void TestFitPanel::languageSwitchKeepsThePlan() {
    MainWindow window;
    auto* controller = part<FitController>(window, "fitController");
    FitRequest request;
    request.model = QStringLiteral("smollm2-135m");  // shown again in the rebuilt inputs
    request.config = tinyLlama();
    request.capacity = 40 * kGiga;
    request.strategies = {parseStrategy("none", 2, BlockKind::Llama)};
    QSignalSpy finished(controller, &FitController::finished);
    QVERIFY(controller->start(request));
    QVERIFY(finished.wait(240000));
    QVERIFY(window.setLanguage(QStringLiteral("zh_CN")));
    auto* table = part<QTableWidget>(window, "fitTable");
    QCOMPARE(table->rowCount(), int(fullSizeRows(controller->latest()->plan).size()));
    QCOMPARE(table->horizontalHeaderItem(0)->text(), QStringLiteral("策略"));
    auto* capacity = part<QComboBox>(window, "fitCapacity");
    QCOMPARE(capacity->currentData().toLongLong(), 40 * kGiga);
    QVERIFY(window.setLanguage(QStringLiteral("en")));
}

QTEST_MAIN(TestFitPanel)
#include "test_fit_panel.moc"
