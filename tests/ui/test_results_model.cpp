// ResultsTableModel: passes QAbstractItemModelTester and shows the right rows and values for a
// hand-made ResultSet; the proxy sorts by raw numbers; rows copy as TSV.

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QFont>
#include <QSortFilterProxyModel>
#include <QtTest>
#include <limits>

#include "ckptlab/model/summary.h"
#include "document/results_table_model.h"
#include "panels/results_view.h"
#include "strategy_text.h"

using namespace ckptlab;
using namespace ckptlab::ui;

namespace {

// Before QApplication exists: GUI tests run offscreen unless told otherwise.
const bool kOffscreen = [] {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    return true;
}();

RunResult makeRun(const std::string& strategy, double peakMiB, double stepMs, double diff) {
    RunResult run;
    run.strategy = ckptlab::test::strategy(strategy);
    run.metrics.peak_bytes = std::int64_t(peakMiB * kMiB);
    run.metrics.activation_bytes = std::int64_t(peakMiB * 0.8 * kMiB);
    run.metrics.step_ms = stepMs;
    run.grad_check.checked = true;
    run.grad_check.tolerance = 1e-4;
    run.grad_check.max_abs_diff = diff;
    return run;
}

ResultSet makeSet() {
    ResultSet set;
    set.runs.push_back(makeRun("none", 100.0, 10.0, 0.0));
    set.runs.push_back(makeRun("full", 40.0, 15.0, 1e-7));
    // Predicted 2 % high on memory, 10 % low on time, 25 % slower than optimal.
    set.runs.back().prediction = PredictedMetrics{std::int64_t(40.8 * kMiB), 0, 13.5, 10.8};
    set.runs.push_back(makeRun("every:2", 70.0, 12.0, 2e-7));
    // A prediction faster than the optimum: the table must flag it.
    set.runs.back().prediction = PredictedMetrics{std::int64_t(70 * kMiB), 0, 12.0, 12.5};
    set.runs.push_back(makeRun("seed-bug:2", 50.0, 13.0, 12.5));  // fails the gradient check
    return set;
}

QString cell(const QAbstractItemModel& model, int row, int column) {
    return model.index(row, column).data().toString();
}

}  // namespace

class TestResultsModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void passesModelTester();
    void showsRowsAndValues();
    void relativeColumnsFollowLateBaseline();
    void sortsByNumbers();
    void copiesSelectedRowsAsTsv();
    void showsOutOfMemoryWhereItHappened();
    void gradNoteInTooltip();
    void reservedPeakBesideTheAllocated();
};

void TestResultsModel::passesModelTester() {
    ResultsTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    ResultSet set;
    model.setResults(set);
    for (const RunResult& run : makeSet().runs) {
        set.runs.push_back(run);
        model.setResults(set);  // grows row by row, as during a sweep
    }
    QCOMPARE(model.rowCount(), 4);
    model.setResults(ResultSet{});
    QCOMPARE(model.rowCount(), 0);
    model.setResults(makeSet());
    QCOMPARE(model.rowCount(), 4);

    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    QAbstractItemModelTester proxyTester(&proxy,
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    proxy.sort(ResultsTableModel::PeakMiBColumn);
}

void TestResultsModel::showsRowsAndValues() {
    ResultsTableModel model;
    model.setResults(makeSet());
    QCOMPARE(model.columnCount(), int(ResultsTableModel::NumColumns));
    QCOMPARE(model.headerData(ResultsTableModel::PeakMiBColumn, Qt::Horizontal).toString(),
             QStringLiteral("Peak (MiB)"));

    QCOMPARE(cell(model, 0, ResultsTableModel::StrategyColumn), QStringLiteral("none"));
    QCOMPARE(cell(model, 1, ResultsTableModel::StrategyColumn), QStringLiteral("full"));
    QCOMPARE(cell(model, 1, ResultsTableModel::PeakMiBColumn), QStringLiteral("40.00"));
    QCOMPARE(cell(model, 1, ResultsTableModel::ActivationsMiBColumn), QStringLiteral("32.00"));
    QCOMPARE(cell(model, 1, ResultsTableModel::StepMsColumn), QStringLiteral("15.00"));
    // full saves 60 % of the memory for 50 % more time: ratio 1.2.
    QCOMPARE(cell(model, 1, ResultsTableModel::MemorySavedColumn), QStringLiteral("60.0 %"));
    QCOMPARE(cell(model, 1, ResultsTableModel::TimeAddedColumn), QStringLiteral("50.0 %"));
    QCOMPARE(cell(model, 1, ResultsTableModel::SavedPerAddedColumn), QStringLiteral("1.20"));
    QVERIFY(cell(model, 1, ResultsTableModel::GradCheckColumn).startsWith(QStringLiteral("ok")));
    QVERIFY(
        cell(model, 3, ResultsTableModel::GradCheckColumn).startsWith(QStringLiteral("FAILED")));
    QVERIFY(model.index(3, ResultsTableModel::GradCheckColumn).data(Qt::ForegroundRole).isValid());
    QCOMPARE(model.index(2, 0).data(ResultsTableModel::RunIndexRole).toInt(), 2);

    // Predictions beside the measurement, with signed errors in % of the measurement.
    QCOMPARE(cell(model, 1, ResultsTableModel::PredictedPeakColumn), QStringLiteral("40.80"));
    QCOMPARE(cell(model, 1, ResultsTableModel::PeakErrorColumn), QStringLiteral("+2.0 %"));
    QCOMPARE(cell(model, 1, ResultsTableModel::PredictedStepColumn), QStringLiteral("13.5"));
    QCOMPARE(cell(model, 1, ResultsTableModel::StepErrorColumn), QStringLiteral("−10.0 %"));
    QCOMPARE(cell(model, 1, ResultsTableModel::SlowerThanOptimalColumn), QStringLiteral("+25.0 %"));
    QCOMPARE(cell(model, 0, ResultsTableModel::PredictedPeakColumn), QStringLiteral("—"));
    QCOMPARE(cell(model, 2, ResultsTableModel::SlowerThanOptimalColumn), QStringLiteral("−4.0 %"));
    QVERIFY(model.index(2, ResultsTableModel::SlowerThanOptimalColumn)
                .data(Qt::ForegroundRole)
                .isValid());
    QVERIFY(!model.index(1, ResultsTableModel::SlowerThanOptimalColumn)
                 .data(Qt::ForegroundRole)
                 .isValid());
    // Each strategy gets its colour swatch.
    QVERIFY(model.index(0, ResultsTableModel::StrategyColumn).data(Qt::DecorationRole).isValid());
}

void TestResultsModel::relativeColumnsFollowLateBaseline() {
    // Without `none` nothing is relative; once it arrives every row has its percentages.
    ResultSet set;
    set.runs.push_back(makeRun("full", 40.0, 15.0, 1e-7));
    ResultsTableModel model;
    model.setResults(set);
    QCOMPARE(cell(model, 0, ResultsTableModel::MemorySavedColumn), QStringLiteral("—"));
    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    set.runs.push_back(makeRun("none", 100.0, 10.0, 0.0));
    model.setResults(set);
    QVERIFY(!changed.isEmpty());
    QCOMPARE(cell(model, 0, ResultsTableModel::MemorySavedColumn), QStringLiteral("60.0 %"));
}

void TestResultsModel::sortsByNumbers() {
    ResultsTableModel model;
    model.setResults(makeSet());
    ResultsView view(&model);
    view.sortByColumn(ResultsTableModel::PeakMiBColumn, Qt::AscendingOrder);
    const QAbstractItemModel* proxy = view.model();
    // 40 < 50 < 70 < 100: numeric, not "100" < "40" as text would sort.
    QCOMPARE(cell(*proxy, 0, ResultsTableModel::StrategyColumn), QStringLiteral("full"));
    QCOMPARE(cell(*proxy, 3, ResultsTableModel::StrategyColumn), QStringLiteral("none"));
    view.sortByColumn(ResultsTableModel::StepMsColumn, Qt::DescendingOrder);
    QCOMPARE(cell(*proxy, 0, ResultsTableModel::StrategyColumn), QStringLiteral("full"));
}

void TestResultsModel::copiesSelectedRowsAsTsv() {
    ResultsTableModel model;
    model.setResults(makeSet());
    ResultsView view(&model);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.selectRow(0);
    view.selectionModel()->select(view.model()->index(2, 0),
                                  QItemSelectionModel::Select | QItemSelectionModel::Rows);
    QSignalSpy selected(&view, &ResultsView::runSelected);
    view.setFocus();
    QTest::keyClick(&view, Qt::Key_C, Qt::ControlModifier);
    const QStringList lines =
        QApplication::clipboard()->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);  // header + two rows
    QVERIFY(lines[0].startsWith(QStringLiteral("Strategy\tPeak (MiB)")));
    QVERIFY(lines[1].startsWith(QStringLiteral("none\t100.00\t")));
    QVERIFY(lines[2].startsWith(QStringLiteral("every:2\t70.00\t")));
    QCOMPARE(lines[1].count(QLatin1Char('\t')), int(ResultsTableModel::NumColumns) - 1);

    // Choosing a row reports its run, also through the sorted proxy.
    view.sortByColumn(ResultsTableModel::PeakMiBColumn, Qt::AscendingOrder);
    view.selectRow(0);  // "full", run 1
    QVERIFY(!selected.isEmpty());
    QCOMPARE(selected.last().at(0).toInt(), 1);
}

void TestResultsModel::showsOutOfMemoryWhereItHappened() {
    ResultSet set = makeSet();
    RunResult& none = set.runs.front();
    none.config.memory_limit_mib = 80;
    none.metrics.peak_bytes = std::int64_t(61.5 * kMiB);  // what it reached before it stopped
    none.metrics.step_ms = 0;
    none.grad_check = GradCheck{};
    none.out_of_memory = OutOfMemory{2 * 1024 * 1024,
                                     std::int64_t(79 * kMiB),
                                     std::int64_t(80 * kMiB),
                                     Phase::Backward,
                                     7,
                                     12.5};
    none.error = "none: " + describe(*none.out_of_memory);  // English; the table builds its own
    none.prediction = PredictedMetrics{std::int64_t(100 * kMiB), 0, 9.0, {}};
    RunResult loss = makeRun("every:4", 60.0, 11.0, 0.0);
    loss.out_of_memory = OutOfMemory{1024, 1024, 2048, Phase::Loss, -1, 3};
    loss.error = "every:4: " + describe(*loss.out_of_memory);
    set.runs.push_back(loss);

    ResultsTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setResults(set);
    QCOMPARE(cell(model, 0, ResultsTableModel::GradCheckColumn),
             QStringLiteral("out of memory at backward of block 7"));
    QCOMPARE(cell(model, 4, ResultsTableModel::GradCheckColumn),
             QStringLiteral("out of memory at loss"));
    const QString tip =
        model.index(0, ResultsTableModel::GradCheckColumn).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QStringLiteral("backward of block 7")) &&
                 tip.contains(QStringLiteral("80.00 MiB")) &&
                 tip.contains(QStringLiteral("2.00 MiB")),
             qPrintable(tip));
    // The same description on every cell of the row.
    QCOMPARE(model.index(0, ResultsTableModel::PeakMiBColumn).data(Qt::ToolTipRole).toString(),
             tip);
    // The peak it reached, marked partial (in italics); what it never measured is a dash; its
    // prediction stays, the error against a partial peak does not.
    QCOMPARE(cell(model, 0, ResultsTableModel::PeakMiBColumn), QStringLiteral("61.50 (partial)"));
    QVERIFY(model.index(0, ResultsTableModel::PeakMiBColumn)
                .data(Qt::FontRole)
                .value<QFont>()
                .italic());
    QCOMPARE(cell(model, 0, ResultsTableModel::PredictedPeakColumn), QStringLiteral("100.00"));
    QCOMPARE(cell(model, 0, ResultsTableModel::PredictedStepColumn), QStringLiteral("9.0"));
    QCOMPARE(cell(model, 0, ResultsTableModel::StepMsColumn), QStringLiteral("out of memory"));
    for (int column :
         {ResultsTableModel::FastestStepColumn, ResultsTableModel::ActivationsMiBColumn,
          ResultsTableModel::PeakErrorColumn, ResultsTableModel::MemorySavedColumn})
        QCOMPARE(cell(model, 0, column), QStringLiteral("—"));
    QVERIFY(model.index(0, ResultsTableModel::GradCheckColumn).data(Qt::ForegroundRole).isValid());
    QVERIFY(model.index(0, ResultsTableModel::StrategyColumn).data(Qt::BackgroundRole).isValid());
    // The others are not compared with a baseline that never finished, and read as before.
    QCOMPARE(cell(model, 1, ResultsTableModel::PeakMiBColumn), QStringLiteral("40.00"));
    QCOMPARE(cell(model, 1, ResultsTableModel::MemorySavedColumn), QStringLiteral("—"));
    QVERIFY(cell(model, 1, ResultsTableModel::GradCheckColumn).startsWith(QStringLiteral("ok")));
    QVERIFY(!model.index(1, ResultsTableModel::StrategyColumn).data(Qt::BackgroundRole).isValid());
    // Copied rows say the same.
    const QString tsv = model.toTsv({0});
    QVERIFY2(
        tsv.contains(QStringLiteral("none\t61.50 (partial)\t100.00\t—\t—\t—\tout of memory\t—")),
        qPrintable(tsv));
    QVERIFY(tsv.trimmed().endsWith(QStringLiteral("out of memory at backward of block 7")));
}

void TestResultsModel::gradNoteInTooltip() {
    ResultSet set = makeSet();
    set.runs[3].grad_check.max_abs_diff = std::numeric_limits<double>::quiet_NaN();
    set.runs[3].grad_check.note = "NaN in 12 of 4096 elements of block 3 ffn.up.weight";
    ResultsTableModel model;
    model.setResults(set);
    QCOMPARE(cell(model, 3, ResultsTableModel::GradCheckColumn), QStringLiteral("FAILED (nan)"));
    const QString tip =
        model.index(3, ResultsTableModel::GradCheckColumn).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QStringLiteral("NaN in 12 of 4096 elements of block 3 ffn.up.weight")),
             qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("nan")), qPrintable(tip));
    QCOMPARE(model.row(3).grad_note, set.runs[3].grad_check.note);
    // Finite gradients: no note.
    QVERIFY(!model.index(1, ResultsTableModel::GradCheckColumn)
                 .data(Qt::ToolTipRole)
                 .toString()
                 .contains(QLatin1Char('\n')));
}

// The caching allocator's reserved peak, whole, beside the peak; "—" with the reason where a run
// has none, never 0; the forecast's in the tooltips.
void TestResultsModel::reservedPeakBesideTheAllocated() {
    ResultSet set = makeSet();
    set.runs[1].allocator = AllocatorStats{AllocatorSource::CachingModel, std::int64_t(10 * kMiB),
                                           std::int64_t(50.25 * kMiB), std::int64_t(12 * kMiB),
                                           std::int64_t(60 * kMiB)};
    set.runs[1].prediction->reserved_peak_bytes = std::int64_t(62 * kMiB);
    set.runs[2].config.allocator = AllocatorKind::System;
    set.runs[3].allocator = AllocatorStats{AllocatorSource::Cuda, 0, std::int64_t(51 * kMiB), 0,
                                           std::int64_t(64 * kMiB)};
    ResultsTableModel model;
    model.setResults(set);
    const int column = ResultsTableModel::ReservedPeakColumn;
    QCOMPARE(model.headerData(column, Qt::Horizontal).toString(),
             QStringLiteral("Reserved peak (MiB)"));
    QCOMPARE(cell(model, 1, column), QStringLiteral("60.00"));
    QCOMPARE(cell(model, 3, column), QStringLiteral("64.00"));
    const auto tip = [&](int row) {
        return model.index(row, column).data(Qt::ToolTipRole).toString();
    };
    for (const char* part :
         {"held 60.00 MiB", "12.00 MiB when the step began", "allocated peak: 50.25 MiB",
          "follows the rules of CUDA's", "Forecast before the run: 62.00 MiB"})
        QVERIFY2(tip(1).contains(QLatin1String(part)), qPrintable(tip(1)));
    QVERIFY2(tip(3).contains(QLatin1String("Counted by CUDA's caching allocator")),
             qPrintable(tip(3)));
    // No numbers: a dash and why.
    QCOMPARE(cell(model, 0, column), QStringLiteral("—"));
    QCOMPARE(cell(model, 2, column), QStringLiteral("—"));
    QVERIFY2(tip(2).contains(QLatin1String("system allocator (malloc)")), qPrintable(tip(2)));
    QVERIFY2(tip(0).contains(QLatin1String("written before")), qPrintable(tip(0)));
    // The forecast's reserved peak beside the predicted peak too.
    QVERIFY(model.index(1, ResultsTableModel::PredictedPeakColumn)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QLatin1String("62.00 MiB")));
    // Sorted by the number; runs without one sort below every number.
    QSortFilterProxyModel proxy;
    proxy.setSourceModel(&model);
    proxy.setSortRole(ResultsTableModel::SortRole);
    proxy.sort(column, Qt::DescendingOrder);
    QCOMPARE(cell(proxy, 0, ResultsTableModel::StrategyColumn), QStringLiteral("seed-bug:2"));
    QCOMPARE(cell(proxy, 1, ResultsTableModel::StrategyColumn), QStringLiteral("full"));
}

QTEST_MAIN(TestResultsModel)
#include "test_results_model.moc"
