// Time with its uncertainty, in the app: each run shows as soon as its traced step is
// done and its times land after the interleaved rounds; the table gives the median with its
// interval, the CV and GFLOP/s, "≈ 0" and no ratio within noise; the tradeoff chart draws each
// interval as an error bar (none for the fastest repeat); a noisy machine is said so in the
// status bar and the notes; Repeats: auto and its time limit round-trip through the settings.
// With CKPTLAB_SCREENSHOT_DIR set, saves the tradeoff chart with its error bars there.

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineSeries>
#include <QRegularExpression>
#include <QSpinBox>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>
#include <algorithm>
#include <cmath>

#include "tolerance.h"
#include "ui_test_support.h"

#include "charts/chart_builders.h"
#include "charts/chart_view.h"
#include "charts/run_text.h"
#include "ckptlab/formats/results_io.h"
#include "ckptlab/model/statistics.h"
#include "ckptlab/model/step_stats.h"
#include "document/results_document.h"
#include "document/results_table_model.h"
#include "document/settings.h"
#include "document/sweep_summary.h"
#include "panels/charts_panel.h"
#include "strategy_text.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

namespace {

QString cell(const ResultsTableModel& model, int row, int column, int role = Qt::DisplayRole) {
    return model.index(row, column).data(role).toString();
}

QList<QLineSeries*> errorBars(QChart* chart) {
    QList<QLineSeries*> bars;
    for (QAbstractSeries* s : chart->series())
        if (s->objectName() == QLatin1String("stepInterval"))
            if (auto* line = qobject_cast<QLineSeries*>(s)) bars << line;
    return bars;
}

// A run with these step samples (ms), its median as step_ms, and `peakMiB`.
RunResult timedRun(const std::string& strategy, double peakMiB, std::vector<double> samples) {
    RunResult run;
    run.strategy = ckptlab::test::strategy(strategy);
    run.config = tinyConfig();
    run.metrics.peak_bytes = std::int64_t(peakMiB * kMiB);
    run.metrics.activation_bytes = run.metrics.peak_bytes / 2;
    run.metrics.step_samples_ms = samples;
    run.metrics.step_ms = median(samples);
    run.grad_check.checked = true;
    run.grad_check.tolerance = 1e-5;
    return run;
}

// none and full whose 95% intervals overlap (full's median 2 % above none's), and every:2
// clearly slower; six samples each.
ResultSet overlappingSet() {
    ResultSet set;
    set.runs.push_back(timedRun("none", 100, {100, 96, 104, 99, 101, 103}));
    set.runs.push_back(timedRun("full", 40, {102, 99, 105, 101, 103, 98}));
    set.runs.push_back(timedRun("every:2", 60, {150, 152, 149, 151, 153, 150}));
    return set;
}

}  // namespace

class TestTimeIntervals : public WindowTest {
    Q_OBJECT
private Q_SLOTS:
    void tinySweepShowsIntervalsAndErrorBars();
    void overlappingIntervalsReadWithinNoise();
    void fewSamplesAreOnlyARange();
    void noisyMachineReachesTheStatusBar();
    void autoRepeatsRoundTripThroughSettings();
};

void TestTimeIntervals::tinySweepShowsIntervalsAndErrorBars() {
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* document = part<ResultsDocument>(window, "document");
    auto* model = part<ResultsTableModel>(window, "resultsModel");
    ExperimentConfig config = tinyConfig();
    config.repeats = 6;  // the fewest samples with a 95% interval
    part<ParameterPanel>(window, "parameters")->setConfig(config);
    part<StrategyList>(window, "strategies")->setCheckedStrategies({"none", "full", "every:2"});

    // Each run shows after its traced step, its times "…" until the rounds are done.
    int pendingShown = 0;
    connect(document, &ResultsDocument::runAdded, this, [&](int index) {
        if (!document->isTimesPending(index)) return;
        const RunResult& run = document->results().runs[size_t(index)];
        QVERIFY(std::isnan(run.metrics.step_ms) && run.metrics.step_samples_ms.empty());
        QVERIFY(!run.timeline.empty());  // the memory is known already
        QCOMPARE(cell(*model, index, ResultsTableModel::StepMsColumn), QStringLiteral("…"));
        ++pendingShown;
    });
    runCheckedSweep(window, m_recorder);
    if (QTest::currentTestFailed()) return;
    QCOMPARE(pendingShown, 3);
    QCOMPARE(document->runCount(), 3);  // replaced in place, not added again
    for (int i = 0; i < 3; ++i) QVERIFY(!document->isTimesPending(i));
    const ResultSet& results = document->results();
    QVERIFY(results.timing);
    QCOMPARE(results.timing->rounds, 6);

    // The median with its interval, the CV and GFLOP/s; the tooltip says what the interval is.
    const QRegularExpression interval(QStringLiteral(R"(^\d+\.\d \[\d+\.\d, \d+\.\d\]$)"));
    for (int row = 0; row < 3; ++row) {
        const QString step = cell(*model, row, ResultsTableModel::StepMsColumn);
        QVERIFY2(interval.match(step).hasMatch(), qPrintable(step));
        const QString tip = cell(*model, row, ResultsTableModel::StepMsColumn, Qt::ToolTipRole);
        QVERIFY2(tip.contains(QStringLiteral("95% distribution-free interval of the median")) &&
                     tip.contains(QStringLiteral("6 samples")) &&
                     tip.contains(QStringLiteral("interleaved rounds")),
                 qPrintable(tip));
        QVERIFY(cell(*model, row, ResultsTableModel::StepCvColumn).endsWith(QStringLiteral(" %")));
        bool ok = false;
        QVERIFY(cell(*model, row, ResultsTableModel::GflopsColumn).toDouble(&ok) > 0 && ok);
    }

    // One error bar per point, from the interval's low end to its high end.
    auto* charts = part<ChartsPanel>(window, "charts");
    charts->setCurrentKind(ChartKind::Tradeoff);
    QChart* chart = charts->chart(ChartKind::Tradeoff);
    const QList<QLineSeries*> bars = errorBars(chart);
    QCOMPARE(bars.size(), 3);
    for (QLineSeries* bar : bars) {
        const RunResult* run =
            results.find(bar->property("ckptlabStrategy").toString().toStdString());
        QVERIFY(run);
        const StepStats stats = stepStats(run->metrics);
        QVERIFY(stats.interval && stats.interval->is95);
        double low = qInf(), high = -qInf();
        for (const QPointF& p : bar->points())
            low = std::min(low, p.y()), high = std::max(high, p.y());
        QCOMPARE(low, stats.interval->low);
        QCOMPARE(high, stats.interval->high);
        QCOMPARE(bar->property("ckptlabIntervalLow").toDouble(), stats.interval->low);
        QCOMPARE(bar->property("ckptlabIntervalHigh").toDouble(), stats.interval->high);
        QVERIFY(!bar->points().isEmpty() &&
                std::abs(bar->points()[2].x() - double(run->metrics.peak_bytes) / kMiB) <
                    ckptlab::test::tolerance::formula(double(run->metrics.peak_bytes) / kMiB, 2));
    }
    // The selection thickens the selected run's bar.
    document->select(1);
    QTRY_VERIFY([&] {
        for (QLineSeries* bar : errorBars(charts->chart(ChartKind::Tradeoff)))
            if (bar->property("ckptlabStrategy").toString() == QLatin1String("full"))
                return bar->pen().widthF() > bar->property("ckptlabBaseWidth").toReal();
        return false;
    }());
    const QString dir = qEnvironmentVariable("CKPTLAB_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        charts->view(ChartKind::Tradeoff)
            ->grab()
            .save(QDir(dir).filePath(QStringLiteral("tradeoff-error-bars.png")));

    // The fastest repeat has no interval: no bars.
    auto* timeChoice = charts->findChild<QComboBox*>(QStringLiteral("tradeoffTime"));
    QVERIFY(timeChoice);
    timeChoice->setCurrentIndex(1);
    QCOMPARE(errorBars(charts->chart(ChartKind::Tradeoff)).size(), 0);
    QVERIFY(timeChoice->itemData(1, Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("No error bars")));
    timeChoice->setCurrentIndex(0);
    QCOMPARE(errorBars(charts->chart(ChartKind::Tradeoff)).size(), 3);
    QVERIFY(m_recorder.messages.isEmpty());
}

void TestTimeIntervals::overlappingIntervalsReadWithinNoise() {
    const ResultSet set = overlappingSet();
    ResultsTableModel model;
    model.setResults(set);
    // full against none: the intervals overlap, so no sign and no ratio.
    const QString added = cell(model, 1, ResultsTableModel::TimeAddedColumn);
    QVERIFY2(QRegularExpression(QStringLiteral(R"(^≈ 0 \[−\d+\.\d, \+\d+\.\d\] %$)"))
                 .match(added)
                 .hasMatch(),
             qPrintable(added));
    QCOMPARE(cell(model, 1, ResultsTableModel::SavedPerAddedColumn), QStringLiteral("—"));
    QVERIFY(cell(model, 1, ResultsTableModel::SavedPerAddedColumn, Qt::ToolTipRole)
                .contains(QStringLiteral("within noise")));
    QVERIFY(cell(model, 1, ResultsTableModel::TimeAddedColumn, Qt::ToolTipRole)
                .startsWith(QStringLiteral("Within noise")));
    // every:2 is clearly slower: its time added with its range, and a ratio.
    const QString slower = cell(model, 2, ResultsTableModel::TimeAddedColumn);
    QVERIFY2(QRegularExpression(QStringLiteral(R"(^\+\d+\.\d \[\+\d+\.\d, \+\d+\.\d\] %$)"))
                 .match(slower)
                 .hasMatch(),
             qPrintable(slower));
    QVERIFY(cell(model, 2, ResultsTableModel::SavedPerAddedColumn) != QStringLiteral("—"));

    // The chart says the same in full's tooltip, and draws the bars with their ends.
    std::unique_ptr<QChart> chart(buildTradeoffChart(set));
    QCOMPARE(errorBars(chart.get()).size(), 3);
    const QString tip = runTooltip(set.runs[1], &set.runs[0]);
    QVERIFY2(tip.contains(QStringLiteral("≈ 0")), qPrintable(tip));
}

void TestTimeIntervals::fewSamplesAreOnlyARange() {
    ResultSet set;
    set.runs.push_back(timedRun("none", 100, {100, 104, 98, 101}));
    ResultsTableModel model;
    model.setResults(set);
    QCOMPARE(cell(model, 0, ResultsTableModel::StepMsColumn),
             QStringLiteral("100.5 [98.0, 104.0]*"));
    QVERIFY(cell(model, 0, ResultsTableModel::StepMsColumn, Qt::ToolTipRole)
                .contains(QStringLiteral("min–max range of 4 samples")));
    std::unique_ptr<QChart> chart(buildTradeoffChart(set));
    const QList<QLineSeries*> bars = errorBars(chart.get());
    QCOMPARE(bars.size(), 1);
    QCOMPARE(bars[0]->pen().style(), Qt::DotLine);  // not a 95% interval
}

void TestTimeIntervals::noisyMachineReachesTheStatusBar() {
    ResultSet set = overlappingSet();
    set.runs[1].metrics.step_samples_ms = {60, 140, 90, 125, 70, 110};  // CV well above 10 %
    set.runs[1].metrics.step_ms = median(set.runs[1].metrics.step_samples_ms);
    MachineLoad load;
    load.cpus = 2;
    load.load_before = 4.5;
    set.environment.load = load;
    const QString end = sweepEndMessage(SweepKind::Sweep, false, 3, 12.0, set);
    QVERIFY2(end.contains(QStringLiteral("Noisy machine: CV of full")) &&
                 end.contains(QStringLiteral("load 4.5 on 2 CPU")),
             qPrintable(end));
    QVERIFY(resultNotes(set).join(QLatin1Char('\n')).contains(QStringLiteral("Noisy machine")));

    // What stopped adaptive repeats is said too.
    set.timing = TimingRounds{14, true, 60, RoundsStop::TimeLimit, 61};
    QVERIFY2(sweepEndMessage(SweepKind::Sweep, false, 3, 70.0, set)
                 .contains(QStringLiteral("stopped by the 1 min 00 s time limit")),
             qPrintable(sweepEndMessage(SweepKind::Sweep, false, 3, 70.0, set)));

    // Opened from a file, in the window: the status bar and the notes under the table.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("noisy.json"));
    saveResults(set, path.toStdString());
    MainWindow window;
    window.show();
    window.openResultsFile(path);
    QTRY_COMPARE(part<ResultsDocument>(window, "document")->runCount(), 3);
    QTRY_VERIFY2(window.statusBar()->currentMessage().contains(QStringLiteral("Noisy machine")),
                 qPrintable(window.statusBar()->currentMessage()));
    auto* notes = part<QLabel>(window, "resultsNotes");
    QVERIFY2(notes->text().contains(QStringLiteral("Noisy machine: CV of full")),
             qPrintable(notes->text()));
    QVERIFY(notes->text().contains(QStringLiteral("adaptive repeats stopped by")));
}

void TestTimeIntervals::autoRepeatsRoundTripThroughSettings() {
    ParameterPanel panel;
    auto* automatic = panel.findChild<QCheckBox*>(QStringLiteral("repeatsAuto"));
    auto* limit = panel.findChild<QDoubleSpinBox*>(QStringLiteral("timeLimit"));
    auto* repeats = panel.findChild<QSpinBox*>(QStringLiteral("repeats"));
    QVERIFY(automatic && limit && repeats);
    QVERIFY(!automatic->isChecked());
    QVERIFY(!limit->isEnabled());
    QCOMPARE(repeats->value(), 6);  // the default: the fewest samples with a 95% interval
    automatic->setChecked(true);
    QVERIFY(limit->isEnabled());
    QVERIFY(!repeats->isEnabled());  // the rounds decide
    limit->setValue(120);
    ExperimentConfig config = panel.config();
    QVERIFY(config.repeats_auto);
    QCOMPARE(config.time_limit_s, 120.0);
    QVERIFY(panel.problems().isEmpty());

    Settings settings;
    settings.setLastConfig(config);
    ParameterPanel restored;
    restored.setConfig(settings.lastConfig());
    QVERIFY(restored.findChild<QCheckBox*>(QStringLiteral("repeatsAuto"))->isChecked());
    QCOMPARE(restored.findChild<QDoubleSpinBox*>(QStringLiteral("timeLimit"))->value(), 120.0);
    QVERIFY(restored.config().repeats_auto);

    // A time limit out of range gets validate's message, through core_text's field errors.
    limit->setValue(0);
    QVERIFY2(panel.problems().contains(
                 QStringLiteral("time limit must be between 1 and 86400 seconds (got 0)")),
             qPrintable(panel.problems().join(QLatin1Char('|'))));

    // Back to fixed repeats, remembered as such.
    limit->setValue(60);
    automatic->setChecked(false);
    settings.setLastConfig(panel.config());
    QVERIFY(!settings.lastConfig().repeats_auto);
}

QTEST_MAIN(TestTimeIntervals)
#include "test_time_intervals.moc"
