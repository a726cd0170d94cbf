// The live forecast and a sweep, each on its own thread: a sweep's worker begins only once the
// forecast's has stopped, every gradient check stays exact when Run is clicked while the
// forecast is measuring, and the forecast measures the runner's own cost model.

#include <QtTest>

#include "ui_test_support.h"

#include "ckptlab/engine/runner.h"
#include "ckptlab/planning/cost_model.h"
#include "controllers/prediction_controller.h"
#include "document/format.h"
#include "window/main_window.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

namespace {

// A transformer with dropout whose cost model takes a good fraction of a second to measure, so
// Run lands in the middle of it; the sweep itself takes seconds.
ExperimentConfig droppingTransformer() {
    return ckptlab::test::quickConfig(BlockKind::Transformer, 4, 128, 128, 2, 0.1);
}

const QStringList kStrategies{"none", "full", "every:2", "attn", "ffn"};
// The same, as the strategy table hands them on: parsed once.
std::vector<Strategy> strategies() {
    std::vector<std::string> texts;
    for (const QString& text : kStrategies) texts.push_back(text.toStdString());
    return parseStrategies(texts);
}

// Waits until the forecast's worker is inside a measurement.
bool waitUntilMeasuring(PredictionController& predictions) {
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < 30000) {
        if (predictions.isMeasuring() && !predictions.isWorkerIdle()) {
            QTest::qWait(30);  // into measureCostModel, past building the model
            return !predictions.isWorkerIdle();
        }
        QTest::qWait(5);
    }
    return false;
}

// What a sweep's signals showed: whether the forecast's worker was idle when the sweep's
// first progress arrived (the sweep's worker reports progress as soon as it begins), and the
// runs.
struct SweepRecord {
    bool sawProgress = false;
    bool forecastIdleAtFirstProgress = false;
    QList<RunResult> runs;

    void follow(SweepController& sweep, PredictionController& predictions) {
        QObject::connect(&sweep, &SweepController::progress, &sweep, [this, &predictions] {
            if (sawProgress) return;
            sawProgress = true;
            forecastIdleAtFirstProgress = predictions.isWorkerIdle();
        });
        QObject::connect(&sweep, &SweepController::measured, &sweep,
                         [this](const MeasuredRun& m) { runs << m.run; });
    }
};

void verifyExactGradientChecks(const QList<RunResult>& runs) {
    QCOMPARE(runs.size(), kStrategies.size());
    for (const RunResult& run : runs) {
        const QByteArray name = QByteArray::fromStdString(run.strategy.name());
        QVERIFY2(!run.error, name.constData());
        QVERIFY2(run.grad_check.checked, name.constData());
        QVERIFY2(run.grad_check.passed(), name.constData());
        QVERIFY2(run.grad_check.max_abs_diff == 0.0,
                 qPrintable(QStringLiteral("%1: max |diff| %2")
                                .arg(QString::fromStdString(run.strategy.name()))
                                .arg(run.grad_check.max_abs_diff)));
    }
}

}  // namespace

class TestForecastAndSweep : public WindowTest {
    Q_OBJECT
private Q_SLOTS:
    void sweepWaitsUntilTheForecastWorkerIsIdle();
    void aClosedGateHoldsTheSweepWorker();
    void aSweepCancelledBeforeItsGateOpensEndsAtOnce();
    void runWhileTheForecastMeasuresKeepsEveryCheckExact();
    void forecastMeasuresTheRunnersCostModel();
    void forecastListsTheChainEnds();
};

// The two controllers in the window's order: the forecast is measuring, the sweep starts.
void TestForecastAndSweep::sweepWaitsUntilTheForecastWorkerIsIdle() {
    PredictionController predictions;
    predictions.setDelay(0);
    SweepController sweep;
    SweepRecord record;
    record.follow(sweep, predictions);
    QSignalSpy finished(&sweep, &SweepController::finished);

    const ExperimentConfig config = droppingTransformer();
    predictions.request(config, strategies());
    QVERIFY(waitUntilMeasuring(predictions));

    predictions.setPaused(true);
    sweep.start(SweepRequestData{SweepKind::Sweep, config, strategies()},
                [&predictions](std::function<void()> go) { predictions.whenIdle(std::move(go)); });
    QVERIFY(sweep.isRunning());  // at once: the window's actions follow it
    QVERIFY(finished.wait(180000));
    QCOMPARE(finished.first().at(0).toBool(), false);
    QVERIFY(record.sawProgress);
    QVERIFY(record.forecastIdleAtFirstProgress);
    verifyExactGradientChecks(record.runs);
}

void TestForecastAndSweep::aClosedGateHoldsTheSweepWorker() {
    SweepController sweep;
    QSignalSpy progress(&sweep, &SweepController::progress);
    QSignalSpy finished(&sweep, &SweepController::finished);
    std::function<void()> held;
    sweep.start(SweepRequestData{SweepKind::Sweep, tinyConfig(), parseStrategies({"none", "full"})},
                [&held](std::function<void()> go) { held = std::move(go); });
    QVERIFY(held);
    QVERIFY(sweep.isRunning());
    QTest::qWait(300);
    QCOMPARE(progress.count(), 0);  // nothing began
    held();
    QVERIFY(finished.wait(60000));
    QCOMPARE(finished.first().at(0).toBool(), false);
    QVERIFY(progress.count() > 0);
}

void TestForecastAndSweep::aSweepCancelledBeforeItsGateOpensEndsAtOnce() {
    SweepController sweep;
    QSignalSpy measured(&sweep, &SweepController::measured);
    QSignalSpy finished(&sweep, &SweepController::finished);
    QSignalSpy idle(&sweep, &SweepController::idle);
    std::function<void()> held;
    sweep.start(SweepRequestData{SweepKind::Sweep, tinyConfig(), parseStrategies({"none", "full"})},
                [&held](std::function<void()> go) { held = std::move(go); });
    sweep.cancel();
    QVERIFY(sweep.isCancelling());
    held();
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.first().at(0).toBool(), true);  // cancelled
    QCOMPARE(measured.count(), 0);
    QCOMPARE(idle.count(), 1);
    QVERIFY(!sweep.isRunning());
}

// Through the window: Run clicked while the forecast says "measuring…".
void TestForecastAndSweep::runWhileTheForecastMeasuresKeepsEveryCheckExact() {
    MainWindow window;
    auto* predictions = part<PredictionController>(window, "predictions");
    auto* sweep = part<SweepController>(window, "sweepController");
    predictions->setDelay(0);
    SweepRecord record;
    record.follow(*sweep, *predictions);
    part<StrategyList>(window, "strategies")->setCheckedStrategies(kStrategies);
    part<ParameterPanel>(window, "parameters")->setConfig(droppingTransformer());
    QVERIFY(waitUntilMeasuring(*predictions));
    runCheckedSweep(window, m_recorder);
    if (QTest::currentTestFailed()) return;
    QVERIFY(record.sawProgress);
    QVERIFY(record.forecastIdleAtFirstProgress);
    verifyExactGradientChecks(record.runs);
}

// The forecast measures what the runner measures for the same config: the same bytes, and a
// kept block's backward timed on the same chain (not the ratio of 1 a single block gives).
void TestForecastAndSweep::forecastMeasuresTheRunnersCostModel() {
    ExperimentConfig config = droppingTransformer();
    config.depth = 3;
    config.threads = 1;
    PredictionController predictions;
    predictions.setDelay(0);
    QSignalSpy updated(&predictions, &PredictionController::updated);
    predictions.request(config, strategies());
    QVERIFY(updated.wait(60000));
    const LivePrediction forecast = predictions.latest();
    QVERIFY(forecast.valid);
    QVERIFY(forecast.costs);
    const CostModel runners = measureCostModel(config);
    const CostModel& forecasts = *forecast.costs;
    QCOMPARE(forecasts.units.size(), runners.units.size());
    QVERIFY(forecasts.block == runners.block);
    QCOMPARE(forecasts.unitsPerBlock(), runners.unitsPerBlock());
    QCOMPARE(forecasts.checkpoint_bytes, runners.checkpoint_bytes);
    QCOMPARE(forecasts.threads, config.threads);
    QCOMPARE(runners.threads, config.threads);
    for (std::size_t u = 0; u < runners.units.size(); ++u) {
        const UnitCost& f = forecasts.units[u];
        const UnitCost& r = runners.units[u];
        QCOMPARE(f.output_bytes, r.output_bytes);
        QCOMPARE(f.kept_bytes, r.kept_bytes);
        QCOMPARE(f.forward_peak, r.forward_peak);
        QCOMPARE(f.nograd_peak, r.nograd_peak);
        QCOMPARE(f.backward_peak, r.backward_peak);
        QCOMPARE(f.param_grad_bytes, r.param_grad_bytes);
        QCOMPARE(f.optimizer_peak, r.optimizer_peak);
        // Measured on the chain: a ratio of two medians of times, never exactly 1.
        QVERIFY(f.backward_kept_ms > 0);
        QVERIFY2(f.backward_kept_ms != f.backward_ms, qPrintable(QString::number(u)));
    }
}

// The forecast's cost lines name the chain's ends around the block's units when the model has
// them, each with its own measured output (the head's is the loss), and only then.
void TestForecastAndSweep::forecastListsTheChainEnds() {
    ExperimentConfig config = ckptlab::test::quickConfig(BlockKind::Transformer, 2, 32, 16, 1);
    const QStringList plain =
        livePrediction(measureCostModel(config), config, strategies()).blockCosts.split('\n');
    QCOMPARE(plain.size(), 2);
    QVERIFY(plain[0].startsWith(QStringLiteral("attention: ")));
    QVERIFY(!plain.join('\n').contains(QStringLiteral("embedding")));
    config.vocab = 64;
    const CostModel costs = measureCostModel(config);
    QVERIFY(costs.first && costs.last);
    const LivePrediction forecast = livePrediction(costs, config, strategies());
    QVERIFY(forecast.valid);
    const QStringList lines = forecast.blockCosts.split('\n');
    QCOMPARE(lines.size(), 4);
    QVERIFY(lines[0].startsWith(QStringLiteral("embedding: ")));
    QVERIFY(lines[0].contains(
        QStringLiteral("output %1,").arg(formatBytes(costs.first->output_bytes))));
    QVERIFY(lines[1].startsWith(QStringLiteral("attention: ")));
    QVERIFY(lines[2].startsWith(QStringLiteral("FFN: ")));
    QVERIFY(lines[3].startsWith(QStringLiteral("LM head and loss: ")));
    QVERIFY(
        lines[3].contains(QStringLiteral("output %1,").arg(formatBytes(costs.last->output_bytes))));
}

QTEST_MAIN(TestForecastAndSweep)
#include "test_forecast_and_sweep.moc"
