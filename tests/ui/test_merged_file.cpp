// A results file merged from the shards of one sweep (ckptlab-cli merge), opened through the
// window as any file is: every run in the table and the charts, each compared with its own
// shard's none. Three real tiny shards made here with the runner; one of them is given another
// machine's name, as a shard that ran on another machine would have, so the runs are named
// "<strategy> · <machine>" as in the view of several files. Saved again, the file keeps its
// shards' machines.

#include <QChart>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "run_requests.h"
#include "ui_test_support.h"

#include "charts/source_groups.h"
#include "ckptlab/engine/runner.h"
#include "ckptlab/formats/comparison.h"
#include "ckptlab/formats/results_io.h"
#include "ckptlab/formats/results_merge.h"
#include "ckptlab/model/summary.h"
#include "controllers/file_controller.h"
#include "document/results_document.h"
#include "document/results_table_model.h"
#include "panels/charts_panel.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

namespace {

const std::vector<std::string> kStrategies{"none", "full", "every:2", "sqrt"};

std::string local(const QString& path) { return QFile::encodeName(path).toStdString(); }

QStringList seriesNames(QChart* chart) {
    QStringList names;
    for (QAbstractSeries* series : chart->series()) names << series->name();
    return names;
}

}  // namespace

class TestMergedFile : public WindowTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void opensAMergedFileWithEveryRunAndItsMachine();
    void oneMachinesNameKeepsThePlainNames();
    void savedAgainItKeepsItsMachines();

private:
    void open(MainWindow& window, const QString& path);

    QTemporaryDir m_dir;
    QString m_twoMachines, m_oneMachine;
    std::string m_other;  // the machine name shard 1 is given
};

void TestMergedFile::initTestCase() {
    QVERIFY(m_dir.isValid());
    std::vector<ShardFile> shards;
    for (int k = 0; k < 3; ++k) {
        Runner runner;
        runner.useShard({k, 3});
        shards.push_back(
            {"shard-" + std::to_string(k) + ".json",
             ckptlab::test::sweep(runner, tinyConfig(), parseStrategies(kStrategies))});
    }
    m_oneMachine = m_dir.filePath(QStringLiteral("one.json"));
    saveResults(mergeShards(shards), local(m_oneMachine));
    shards[1].results.environment.device_name = "Another CPU";
    m_other = machineName(shards[1].results.environment);
    m_twoMachines = m_dir.filePath(QStringLiteral("two.json"));
    saveResults(mergeShards(shards), local(m_twoMachines));
}

void TestMergedFile::open(MainWindow& window, const QString& path) {
    auto* files = part<FileController>(window, "files");
    QSignalSpy opened(files, &FileController::opened);
    window.openResultsFile(path);
    QVERIFY2(opened.wait(30000), qPrintable(m_recorder.lastText()));
}

void TestMergedFile::opensAMergedFileWithEveryRunAndItsMachine() {
    MainWindow window;
    open(window, m_twoMachines);
    if (QTest::currentTestFailed()) return;
    auto* document = part<ResultsDocument>(window, "document");
    QCOMPARE(document->sourceCount(), 0);  // one file, the one-set view
    QCOMPARE(document->runCount(), 4);
    const ResultSet& results = document->results();
    const std::string here = machineName(results.environment);

    // Every run, in the sweep's order, named with its shard's machine (run p on shard p % 3).
    auto* model = part<ResultsTableModel>(window, "resultsModel");
    QCOMPARE(model->rowCount(), 4);
    QCOMPARE(model->columnCount(), int(ResultsTableModel::NumColumns));
    for (int row = 0; row < 4; ++row) {
        const std::string machine = row % 3 == 1 ? m_other : here;
        const QString name = sourcedStrategyName(QString::fromStdString(kStrategies[size_t(row)]),
                                                 QString::fromStdString(machine));
        QCOMPARE(model->index(row, ResultsTableModel::StrategyColumn).data().toString(), name);
        QCOMPARE(QString::fromStdString(results.runs[size_t(row)].name()), name);
    }
    // Each run against its own shard's none: full (shard 1) against shard 1's, which the file
    // keeps among the machine baselines, not against the none in the table (shard 0's).
    const RunResult* baseline = baselineFor(results, results.runs[1]);
    QVERIFY(baseline);
    QCOMPARE(baseline->machine, std::optional<int>(1));
    QVERIFY(baseline != &results.runs[0]);
    const SummaryRow full = summarize(results)[1];
    QVERIFY(full.time_added_pct);
    QCOMPARE(model->index(1, ResultsTableModel::MemorySavedColumn).data().toString().isEmpty(),
             false);
    QVERIFY(model->index(1, ResultsTableModel::TimeAddedColumn).data().toString() !=
            QStringLiteral("—"));

    // The charts draw every run under its name.
    const QStringList names =
        seriesNames(part<ChartsPanel>(window, "charts")->chart(ChartKind::Tradeoff));
    for (const RunResult& run : results.runs)
        QVERIFY2(names.contains(QString::fromStdString(run.name())),
                 qPrintable(names.join(QStringLiteral(" | "))));
}

void TestMergedFile::oneMachinesNameKeepsThePlainNames() {
    MainWindow window;
    open(window, m_oneMachine);
    if (QTest::currentTestFailed()) return;
    auto* model = part<ResultsTableModel>(window, "resultsModel");
    QCOMPARE(model->rowCount(), 4);
    for (int row = 0; row < 4; ++row)
        QCOMPARE(model->index(row, ResultsTableModel::StrategyColumn).data().toString(),
                 QString::fromStdString(kStrategies[size_t(row)]));
}

void TestMergedFile::savedAgainItKeepsItsMachines() {
    MainWindow window;
    open(window, m_twoMachines);
    if (QTest::currentTestFailed()) return;
    const QString again = m_dir.filePath(QStringLiteral("again.json"));
    QVERIFY2(part<FileController>(window, "files")->saveTo(again),
             qPrintable(m_recorder.lastText()));
    const ResultSet saved = loadResults(local(again));
    const ResultSet original = loadResults(local(m_twoMachines));
    QVERIFY(saved.merged);
    QCOMPARE(saved.machines.size(), size_t(3));
    QCOMPARE(saved.machine_baselines.size(), original.machine_baselines.size());
    QCOMPARE(resultsToJson(saved), resultsToJson(original));  // the labels are not written
}

QTEST_MAIN(TestMergedFile)
#include "test_merged_file.moc"
