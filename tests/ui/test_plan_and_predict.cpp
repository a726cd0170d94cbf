// In the window: the live forecast from the measured cost model (and that a sweep then
// measures what it said), the Pareto curve button, and the schedule diagram.

#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QLineSeries>
#include <QPushButton>
#include <QScatterSeries>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QtTest>

#include "tolerance.h"
#include "ui_test_support.h"

#include "base/messages.h"
#include "charts/chart_export.h"
#include "charts/schedule_diagram.h"
#include "charts/schedule_view.h"
#include "ckptlab/model/summary.h"
#include "ckptlab/planning/scaling.h"
#include "controllers/prediction_controller.h"
#include "document/results_document.h"
#include "document/results_table_model.h"
#include "panels/charts_panel.h"
#include "panels/curve_sweep_panel.h"
#include "panels/memory_estimate_label.h"
#include "panels/parameter_panel.h"
#include "panels/strategy_list.h"
#include "panels/strategy_table.h"
#include "strategy_text.h"
#include "window/chart_exporter.h"
#include "window/main_window.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

namespace {

// Small, but with activations that outweigh a checkpoint's RNG state (5 KiB each), so
// checkpointing saves memory and the Pareto curve has a range.
ExperimentConfig savingConfig() {
    ExperimentConfig config = tinyConfig();
    config.width = 64;
    config.seq = 256;
    return config;
}

// Waits for the forecast of the panel's current config.
bool waitForForecast(MainWindow& window, int timeoutMs = 60000) {
    auto* memory = part<MemoryEstimateLabel>(window, "memoryEstimate");
    auto* predictions = part<PredictionController>(window, "predictions");
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < timeoutMs) {
        if (memory->shownPrediction() && !predictions->isMeasuring()) return true;
        QTest::qWait(20);
    }
    return false;
}

QString predictedCell(StrategyTable* table, const QString& strategy) {
    for (int row = 0; row < table->rowCount(); ++row)
        if (table->rowText(row) == strategy) return table->item(row, 2)->text();
    return {};
}

// Saves what the window shows when CKPTLAB_SCREENSHOTS names a folder (for looking at).
void screenshot(QWidget& window, const QString& name) {
    const QString dir = qEnvironmentVariable("CKPTLAB_SCREENSHOTS");
    if (!dir.isEmpty()) window.grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
}

}  // namespace

class TestPlanAndPredict : public WindowTest {
    Q_OBJECT
private Q_SLOTS:
    void forecastIsWhatTheSweepThenMeasures();
    void depthChangesReuseTheMeasuredBlock();
    void unfitConfigIsNeverMeasured();
    void optimalBudgetFollowsTheModelUntilEdited();
    void paretoButtonRunsTheCurve();
    void scheduleDiagramShowsStoredInputsAndRecomputes();
    void scalingSweepFitsExponents();
    void badScalingValuesGiveMessages();
    void theAppParsesEachStrategyOnceAtItsTable();
};

void TestPlanAndPredict::forecastIsWhatTheSweepThenMeasures() {
    MainWindow window;
    auto* memory = part<MemoryEstimateLabel>(window, "memoryEstimate");
    auto* list = part<StrategyList>(window, "strategies");
    auto* model = part<ResultsTableModel>(window, "resultsModel");
    part<PredictionController>(window, "predictions")->setDelay(0);
    window.show();
    part<ParameterPanel>(window, "parameters")->setConfig(tinyConfig());
    const QStringList strategies{"none", "full", "every:2", "revolve:2"};
    list->setCheckedStrategies(strategies);
    QVERIFY(waitForForecast(window));
    const LivePrediction forecast = *memory->shownPrediction();
    QVERIFY(forecast.valid);
    QVERIFY(forecast.minimum_peak > 0 && forecast.minimum_peak <= forecast.none_peak);
    QVERIFY(memory->text().contains(QStringLiteral("Predicted peak")));
    for (const QString& s : strategies) {
        const StrategyForecast* f = forecast.find(ckptlab::test::strategy(s.toStdString()));
        QVERIFY2(f && f->ok, qPrintable(s));
        QVERIFY(f->peak_bytes >= forecast.minimum_peak);
        QVERIFY(!predictedCell(list->table(), s).isEmpty());
    }
    // An optimal budget below the smallest feasible peak says it does not fit, before a run.
    Strategy tooSmall{StrategyKind::Optimal, 0};
    tooSmall.budget_mib = forecast.minimum_peak / 2.0 / kMiB;
    const QString tooSmallName = QString::fromStdString(tooSmall.name());
    QVERIFY(list->addStrategy(tooSmallName).isEmpty());
    QVERIFY(waitForForecast(window));
    QTRY_COMPARE(predictedCell(list->table(), tooSmallName), QStringLiteral("does not fit"));
    list->setCheckedStrategies(strategies);
    screenshot(window, QStringLiteral("forecast"));

    // The sweep measures the same block the same way: peaks equal the forecast to the byte.
    QSignalSpy ended(&window, &MainWindow::sweepEnded);
    QVERIFY(window.startSweep());
    QVERIFY(ended.wait(180000));
    QCOMPARE(ended.first().at(1).toBool(), false);
    const ResultSet& results = part<ResultsDocument>(window, "document")->results();
    QCOMPARE(int(results.runs.size()), strategies.size());
    for (const RunResult& run : results.runs) {
        const StrategyForecast* f = forecast.find(run.strategy);
        QVERIFY(f && run.prediction);
        QCOMPARE(f->peak_bytes, run.prediction->peak_bytes);
        const double error =
            100.0 * double(f->peak_bytes - run.metrics.peak_bytes) / double(run.metrics.peak_bytes);
        QVERIFY2(std::abs(error) < 5.0,
                 qPrintable(QStringLiteral("%1: %2 %")
                                .arg(QString::fromStdString(run.strategy.name()))
                                .arg(error)));
    }
    // The table shows the prediction and its error beside the measurement.
    const QString peakError = model->index(1, ResultsTableModel::PeakErrorColumn).data().toString();
    QVERIFY2(peakError.endsWith(QStringLiteral(" %")), qPrintable(peakError));
}

void TestPlanAndPredict::depthChangesReuseTheMeasuredBlock() {
    PredictionController predictions;
    predictions.setDelay(0);
    QSignalSpy updated(&predictions, &PredictionController::updated);
    const auto forecastOf = [&](const ExperimentConfig& config) {
        updated.clear();
        predictions.request(config, parseStrategies({"none", "full"}));
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 60000 && (updated.isEmpty() || predictions.isMeasuring()))
            QTest::qWait(20);
        return updated.isEmpty() ? LivePrediction{} : predictions.latest();
    };
    ExperimentConfig config = savingConfig();
    const LivePrediction four = forecastOf(config);
    QCOMPARE(four.config.depth, config.depth);

    config.depth = 8;
    const LivePrediction eight = forecastOf(config);
    QCOMPARE(eight.config.depth, 8);
    QCOMPARE(eight.measure_ms, 0.0);  // same block shape: nothing measured again
    // Without checkpointing every block's activations stay: twice the blocks, more memory.
    QVERIFY(eight.none_peak > four.none_peak);
    QVERIFY(eight.find(Strategy{StrategyKind::Full})->peak_bytes <
            eight.find(Strategy{})->peak_bytes);

    // A config that cannot fit is refused by the label's analytic check, which says so.
    ExperimentConfig huge = config;
    huge.width = 16384;
    huge.seq = 65536;
    huge.batch = 4096;
    MemoryEstimateLabel label;
    QVERIFY(!label.refresh(huge, parseStrategies({"none", "full"})));
    QVERIFY(label.forecast().refused);
    QVERIFY(label.text().contains(QStringLiteral("cannot fit")));
}

void TestPlanAndPredict::unfitConfigIsNeverMeasured() {
    // Through the window: the panel's config reaches the label, which keeps it from measuring.
    MainWindow window;
    auto* memory = part<MemoryEstimateLabel>(window, "memoryEstimate");
    auto* predictions = part<PredictionController>(window, "predictions");
    predictions->setDelay(0);
    ExperimentConfig huge = savingConfig();
    huge.width = 16384;
    huge.seq = 65536;
    huge.batch = 4096;
    part<ParameterPanel>(window, "parameters")->setConfig(huge);
    QVERIFY(memory->forecast().refused);
    QTest::qWait(50);
    QVERIFY(!predictions->isMeasuring());
    QVERIFY(memory->text().contains(QStringLiteral("cannot fit")));
}

void TestPlanAndPredict::optimalBudgetFollowsTheModelUntilEdited() {
    MainWindow window;
    auto* memory = part<MemoryEstimateLabel>(window, "memoryEstimate");
    auto* parameters = part<ParameterPanel>(window, "parameters");
    part<PredictionController>(window, "predictions")->setDelay(0);
    ExperimentConfig config = savingConfig();
    parameters->setConfig(config);
    StrategyTable* table = part<StrategyList>(window, "strategies")->table();
    int row = -1;
    for (int r = 0; r < table->rowCount(); ++r)
        if (table->item(r, 0)->text() == QStringLiteral("optimal")) row = r;
    QVERIFY(row >= 0);
    const auto budgetBytes = [&] {
        return table->item(row, 1)->data(Qt::EditRole).toDouble() * kMiB;
    };

    // The default budget moves inside the feasible range of each model, and fits.
    for (int depth : {4, 8}) {
        config.depth = depth;
        parameters->setConfig(config);
        QVERIFY(waitForForecast(window));
        const LivePrediction forecast = *memory->shownPrediction();
        QCOMPARE(forecast.config.depth, depth);
        QTRY_VERIFY(budgetBytes() >= double(forecast.minimum_peak));
        QVERIFY2(budgetBytes() <= double(forecast.none_peak) * 1.01,
                 qPrintable(table->rowText(row)));
        QVERIFY(waitForForecast(window));
        const StrategyForecast* planned = memory->shownPrediction()->find(*table->rowStrategy(row));
        QVERIFY2(planned && planned->ok, qPrintable(table->rowText(row)));
        QVERIFY(planned->peak_bytes <= budgetBytes());
        QVERIFY(planned->peak_bytes < forecast.none_peak);
    }

    // The user's budget stays, even when it does not fit.
    table->item(row, 1)->setData(Qt::EditRole, 0.01);
    config.depth = 6;
    parameters->setConfig(config);
    QVERIFY(waitForForecast(window));
    QTest::qWait(100);
    QCOMPARE(table->rowText(row), QStringLiteral("optimal:0.01"));
    QTRY_COMPARE(table->item(row, 2)->text(), QStringLiteral("does not fit"));
}

void TestPlanAndPredict::paretoButtonRunsTheCurve() {
    MainWindow window;
    auto* strategies = part<StrategyList>(window, "strategies");
    window.show();
    part<ParameterPanel>(window, "parameters")->setConfig(savingConfig());
    strategies->setCheckedStrategies({"none", "full", "every:2", "sqrt"});
    part<CurveSweepPanel>(window, "curveSweeps")->paretoPointsBox()->setValue(3);
    QSignalSpy ended(&window, &MainWindow::sweepEnded);
    window.findChild<QPushButton*>(QStringLiteral("paretoButton"))->click();
    QVERIFY(part<SweepController>(window, "sweepController")->isRunning());
    QVERIFY(ended.wait(180000));
    QVERIFY2(m_recorder.messages.isEmpty(), qPrintable(m_recorder.messages.value(0).text));
    QCOMPARE(ended.first().at(1).toBool(), false);

    const ResultSet& results = part<ResultsDocument>(window, "document")->results();
    int optimal = 0;
    for (const RunResult& run : results.runs) {
        QVERIFY2(run.ok(), run.strategy.name().c_str());
        if (hasMemoryBudget(run.strategy)) ++optimal;
    }
    QVERIFY(optimal >= 2);
    // One point where this machine's costs make the smallest schedule also the fastest.
    QVERIFY(!results.predicted_frontier.empty());
    // Nothing hand-written is predicted faster than the optimal schedule at its own peak.
    for (const SummaryRow& row : summarize(results)) {
        QVERIFY(row.slower_than_optimal_pct);
        // Two predicted sums of 4 costs a block, in other orders, and (a / b − 1) · 100.
        const double slack =
            100 * ckptlab::test::tolerance::formula(1.0, 4 * results.runs.front().config.depth) +
            ckptlab::test::tolerance::formula(100.0, 3);
        QVERIFY2(*row.slower_than_optimal_pct > -slack, row.strategy.name().c_str());
    }
    QVERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("Hand-written")),
             qPrintable(window.statusBar()->currentMessage()));

    // The tradeoff chart draws the planner's frontier and the measured optimal curve.
    QChart* chart = part<ChartsPanel>(window, "charts")->chart(ChartKind::Tradeoff);
    QStringList names;
    for (QAbstractSeries* s : chart->series()) names << s->objectName();
    QVERIFY(names.contains(QStringLiteral("predictedFrontier")));
    QVERIFY(names.contains(QStringLiteral("optimalCurve")));
    screenshot(window, QStringLiteral("pareto"));

    // The chart can plot each run's fastest repeat instead of the median.
    auto* timeChoice = window.findChild<QComboBox*>(QStringLiteral("tradeoffTime"));
    QVERIFY(timeChoice);
    timeChoice->setCurrentIndex(1);
    chart = part<ChartsPanel>(window, "charts")->chart(ChartKind::Tradeoff);
    const RunResult& none = *results.find("none");
    bool found = false;
    for (QAbstractSeries* s : chart->series()) {
        auto* dots = qobject_cast<QScatterSeries*>(s);
        if (dots && dots->name() == QStringLiteral("none") && dots->count() == 1) {
            QCOMPARE(dots->at(0).y(), fastestStepMs(none));
            found = true;
        }
    }
    QVERIFY(found);
    QVERIFY(fastestStepMs(none) <= none.metrics.step_ms);
}

void TestPlanAndPredict::scheduleDiagramShowsStoredInputsAndRecomputes() {
    // Rows from recorded schedules (one nested) and from a name alone (older files).
    ResultSet set;
    RunResult run;
    run.config = tinyConfig();
    run.strategy = ckptlab::test::strategy("none");
    run.schedule = "0 1 2 3";
    set.runs.push_back(run);
    run.strategy = ckptlab::test::strategy("revolve:1");
    run.schedule = "ckpt[0,3){ckpt[0,2){ckpt[0,1){0} 1} 2} 3";
    set.runs.push_back(run);
    run.strategy = ckptlab::test::strategy("full");
    run.schedule.clear();
    set.runs.push_back(run);
    run.strategy = ckptlab::test::strategy("optimal:1");
    set.runs.push_back(run);

    const std::vector<ScheduleRow> rows = scheduleRows(set);
    QCOMPARE(rows[0].storedInputs, 0);
    QCOMPARE(rows[0].extraForwards, 0);
    QCOMPARE(rows[1].storedInputs, 3);
    QCOMPARE(rows[1].forwardCounts, (std::vector<int>{4, 3, 2, 1}));
    QCOMPARE(rows[1].spans.back().level, 2);
    QCOMPARE(rows[2].storedInputs, 4);
    QCOMPARE(rows[2].forwardCounts, (std::vector<int>{2, 2, 2, 2}));
    QCOMPARE(rows[3].units, 0);  // an optimal run without its schedule cannot be drawn
    QVERIFY(!rows[3].note.isEmpty());

    // In the window: the tab draws every run, and clicking a row selects its run.
    MainWindow window;
    auto* document = part<ResultsDocument>(window, "document");
    auto* charts = part<ChartsPanel>(window, "charts");
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    document->reset(set, std::vector<std::vector<TimelineEvent>>(set.runs.size()));
    charts->setCurrentKind(ChartKind::Schedule);
    ScheduleView* view = charts->scheduleView();
    QTRY_COMPARE(int(view->diagram().rows().size()), 4);
    const QRectF area(view->rect());
    QPointF point(area.center().x(), 0);
    for (int y = 0; y < view->height(); ++y)
        if (view->diagram().rowAt(area, QPointF(0, y)) == 2) {
            point.setY(y + 10);
            break;
        }
    QTest::mouseClick(view, Qt::LeftButton, {}, point.toPoint());
    QCOMPARE(document->selectedRun(), 2);
    screenshot(window, QStringLiteral("schedules"));

    // Exported with the charts, as PNG and SVG.
    QTemporaryDir dir;
    const QStringList written = part<ChartExporter>(window, "chartExporter")->exportAll(dir.path());
    QVERIFY2(m_recorder.messages.isEmpty(), qPrintable(m_recorder.messages.value(0).text));
    QVERIFY2(written.contains(QDir(dir.path()).filePath(QStringLiteral("schedules.png"))),
             qPrintable(written.join(QLatin1Char(' '))));
    QVERIFY(written.contains(QDir(dir.path()).filePath(QStringLiteral("schedules.svg"))));
    QImage image(QDir(dir.path()).filePath(QStringLiteral("schedules.png")));
    QCOMPARE(image.width(), 2 * kExportSize.width());
}

void TestPlanAndPredict::scalingSweepFitsExponents() {
    MainWindow window;
    auto* curves = part<CurveSweepPanel>(window, "curveSweeps");
    auto* sweep = part<SweepController>(window, "sweepController");
    window.show();
    part<ParameterPanel>(window, "parameters")->setConfig(savingConfig());
    part<StrategyList>(window, "strategies")->setCheckedStrategies({"none", "full"});
    curves->setScaling(ScalingAxis::Depth, QStringLiteral("2, 4, 8"));
    QSignalSpy ended(&window, &MainWindow::sweepEnded);
    window.findChild<QPushButton*>(QStringLiteral("scalingButton"))->click();
    QVERIFY2(sweep->isRunning(), qPrintable(m_recorder.lastText()));
    QVERIFY(ended.wait(180000));
    QVERIFY2(m_recorder.messages.isEmpty(), qPrintable(m_recorder.lastText()));
    QCOMPARE(ended.first().at(1).toBool(), false);

    const ResultSet& results = part<ResultsDocument>(window, "document")->results();
    QCOMPARE(int(results.runs.size()), 6);  // two strategies at three depths
    QVERIFY(part<ChartsPanel>(window, "charts")->isAvailable(ChartKind::Scaling));
    // Without checkpointing activations grow with depth (k near 1); with every block
    // checkpointed only one block's activations live at a time, plus an input per block.
    const PowerFit none =
        fitRuns(results, Strategy{}, ScalingAxis::Depth, ScalingMetric::ActivationBytes);
    QVERIFY2(none.exponent > 0.9 && none.exponent < 1.1,
             qPrintable(QString::number(none.exponent)));
    QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("none k=")));
    // Every size of every strategy is a point on the log-log chart.
    QChart* chart = part<ChartsPanel>(window, "charts")->chart(ChartKind::Scaling);
    int points = 0;
    for (QAbstractSeries* series : chart->series())
        if (auto* dots = qobject_cast<QScatterSeries*>(series)) points += dots->count();
    QCOMPARE(points, 6);
    screenshot(window, QStringLiteral("scaling"));
}

void TestPlanAndPredict::badScalingValuesGiveMessages() {
    MainWindow window;
    part<ParameterPanel>(window, "parameters")->setConfig(tinyConfig());
    part<StrategyList>(window, "strategies")->setCheckedStrategies({"none"});
    for (const auto& [values, expected] : std::vector<std::pair<QString, QString>>{
             {QStringLiteral("4"), QStringLiteral("at least two")},
             // An empty box is refused like the CLI's --values "", never a default.
             {QString(), QStringLiteral("at least two")},
             {QStringLiteral(" , "), QStringLiteral("at least two")},
             {QStringLiteral("4,x"), QStringLiteral("\"x\" is not a whole number")},
             {QStringLiteral("0,4"), QStringLiteral("depth must be between 1 and 512")}}) {
        m_recorder.reset();
        part<CurveSweepPanel>(window, "curveSweeps")->setScaling(ScalingAxis::Depth, values);
        QVERIFY(!window.startScalingSweep());
        QCOMPARE(m_recorder.messages.size(), 1);
        QCOMPARE(m_recorder.messages[0].title, QStringLiteral("Invalid scaling values"));
        QVERIFY2(m_recorder.lastText().contains(expected), qPrintable(m_recorder.lastText()));
        QVERIFY(!part<SweepController>(window, "sweepController")->isRunning());
    }
}

// The app's request path: the strategy table is its boundary, where each text becomes a row
// holding a Strategy, parsed once. Run's pre-run check, the live forecast, the worker, the
// runner, the document, the results table and the charts pass the typed values on.
void TestPlanAndPredict::theAppParsesEachStrategyOnceAtItsTable() {
    MainWindow window;
    window.show();
    part<ParameterPanel>(window, "parameters")->setConfig(tinyConfig());
    const QStringList texts{"none", "full", "every:2", "revolve:2"};  // revolve:2: a new row
    const std::uint64_t before = strategyParseCount();
    part<StrategyList>(window, "strategies")->setCheckedStrategies(texts);
    QCOMPARE(strategyParseCount() - before, std::uint64_t(texts.size()));
    QSignalSpy ended(&window, &MainWindow::sweepEnded);
    QVERIFY(window.startSweep());
    QVERIFY(ended.wait(120000));
    QCOMPARE(ended.first().at(1).toBool(), false);  // not failed
    const ResultSet& results = part<ResultsDocument>(window, "document")->results();
    QCOMPARE(int(results.runs.size()), texts.size());
    for (int i = 0; i < texts.size(); ++i)
        QCOMPARE(QString::fromStdString(results.runs[size_t(i)].strategy.name()), texts[i]);
    QTest::qWait(500);  // the forecast that follows the sweep, the charts redrawn
    QCOMPARE(strategyParseCount() - before, std::uint64_t(texts.size()));
}

QTEST_MAIN(TestPlanAndPredict)
#include "test_plan_and_predict.moc"
