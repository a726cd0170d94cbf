// Several results files at once: two real tiny sweeps made on this machine with other thread
// counts and sequence lengths, opened together through the window. Both files' runs in one table
// with a Source column, every chart's series named with their file's machine and drawn as a group
// per file, the differences said under the table, one selection across table and charts, Save
// refused and the CSV export writing the comparison, Add Results File, and a sweep or a single
// file going back to the one-set view. With CKPTLAB_SCREENSHOT_DIR set, saves the window in
// English and Chinese there.

#include <QAbstractSeries>
#include <QChart>
#include <QDir>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QScatterSeries>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QtTest>

#include "run_requests.h"
#include "ui_test_support.h"

#include "base/language.h"
#include "charts/chart_style.h"
#include "charts/source_groups.h"
#include "ckptlab/engine/runner.h"
#include "ckptlab/formats/results_io.h"
#include "controllers/file_controller.h"
#include "document/results_document.h"
#include "document/results_table_model.h"
#include "panels/charts_panel.h"
#include "panels/results_view.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

namespace {

const std::vector<std::string> kStrategies{"none", "full", "every:2"};

QStringList seriesNames(QChart* chart) {
    QStringList names;
    for (QAbstractSeries* series : chart->series()) names << series->name();
    return names;
}

QScatterSeries* scatterNamed(QChart* chart, const QString& name) {
    for (QAbstractSeries* series : chart->series())
        if (series->property(kStrategyProperty).toString() == name)
            if (auto* scatter = qobject_cast<QScatterSeries*>(series)) return scatter;
    return nullptr;
}

void screenshot(QWidget& window, const QString& name) {
    const QString dir = qEnvironmentVariable("CKPTLAB_SCREENSHOT_DIR");
    if (!dir.isEmpty()) window.grab().save(QDir(dir).filePath(name + QStringLiteral(".png")));
}

}  // namespace

class TestMultiSource : public WindowTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();

    void opensTwoFilesSideBySide();
    void selectionCrossesTableAndCharts();
    void saveRefusesAndCsvWritesTheComparison();
    void addsAFileToTheOneOnScreen();
    void refusesTheSameFileTwice();
    void oneFileKeepsTheOneSetView();
    void sweepReplacesThemAfterAsking();
    void screenshotsInBothLanguages();

private:
    // Opens `paths` through the window and waits for the files to be shown.
    void openAll(MainWindow& window, const QStringList& paths);

    QTemporaryDir m_dir;
    QString m_a, m_b;  // threads 1 at seq 16; threads 2 at seq 32
};

void TestMultiSource::initTestCase() {
    QVERIFY(m_dir.isValid());
    ExperimentConfig a = tinyConfig();
    a.threads = 1;
    ExperimentConfig b = tinyConfig();
    b.threads = 2;
    b.seq = 32;
    m_a = m_dir.filePath(QStringLiteral("laptop.json"));
    m_b = m_dir.filePath(QStringLiteral("server.json"));
    Runner runner;
    saveResults(ckptlab::test::sweep(runner, a, parseStrategies(kStrategies)),
                QFile::encodeName(m_a).toStdString());
    Runner other;
    saveResults(ckptlab::test::sweep(other, b, parseStrategies(kStrategies)),
                QFile::encodeName(m_b).toStdString());
}

void TestMultiSource::openAll(MainWindow& window, const QStringList& paths) {
    auto* files = part<FileController>(window, "files");
    QSignalSpy opened(files, &FileController::opened);
    window.openResultsFiles(paths);
    QVERIFY2(opened.wait(30000), qPrintable(m_recorder.lastText()));
}

void TestMultiSource::opensTwoFilesSideBySide() {
    MainWindow window;
    openAll(window, {m_a, m_b});
    if (QTest::currentTestFailed()) return;
    auto* document = part<ResultsDocument>(window, "document");
    QCOMPARE(document->sourceCount(), 2);
    QCOMPARE(document->runCount(), 6);
    QVERIFY(!document->isModified());
    // Same machine: the labels tell the files apart by their stems.
    const QString labelA = document->sources()[0].label;
    const QString labelB = document->sources()[1].label;
    QVERIFY2(labelA.endsWith(QStringLiteral("laptop")), qPrintable(labelA));
    QVERIFY2(labelB.endsWith(QStringLiteral("server")), qPrintable(labelB));
    QVERIFY(window.windowTitle().contains(QStringLiteral("laptop.json")));
    QVERIFY(window.windowTitle().contains(QStringLiteral("server.json")));

    // One table, a Source column beside the strategy, each file's rows against its own none.
    auto* model = part<ResultsTableModel>(window, "resultsModel");
    QCOMPARE(model->rowCount(), 6);
    QCOMPARE(model->columnCount(), int(ResultsTableModel::NumColumns) + 1);
    QCOMPARE(model->headerData(ResultsTableModel::SourceColumn, Qt::Horizontal).toString(),
             QStringLiteral("Source"));
    for (int row = 0; row < 6; ++row) {
        QCOMPARE(model->index(row, ResultsTableModel::SourceColumn).data().toString(),
                 row < 3 ? labelA : labelB);
        QCOMPARE(model->index(row, ResultsTableModel::StrategyColumn).data().toString(),
                 QString::fromStdString(kStrategies[size_t(row % 3)]));
    }
    QCOMPARE(model->index(3, ResultsTableModel::MemorySavedColumn).data().toString(),
             QStringLiteral("0.0 %"));  // B's none against B's none, not A's
    auto* view = part<ResultsView>(window, "resultsView");
    QCOMPARE(view->horizontalHeader()->visualIndex(ResultsTableModel::SourceColumn), 1);
    QVERIFY(!view->isColumnHidden(ResultsTableModel::SourceColumn));
    const QString tsv = model->toTsv({0, 3});
    QVERIFY(tsv.startsWith(QStringLiteral("Strategy\t")));
    QVERIFY(tsv.contains(labelB));

    // Every chart: both files' series, named with their machine, a marker shape per file.
    auto* charts = part<ChartsPanel>(window, "charts");
    QChart* tradeoff = charts->chart(ChartKind::Tradeoff);
    const QStringList names = seriesNames(tradeoff);
    for (const QString& label : {labelA, labelB})
        for (const std::string& strategy : kStrategies)
            QVERIFY2(names.contains(sourcedStrategyName(QString::fromStdString(strategy), label)),
                     qPrintable(names.join(QStringLiteral(" | "))));
    QScatterSeries* fullA =
        scatterNamed(tradeoff, sourcedStrategyName(QStringLiteral("full"), labelA));
    QScatterSeries* fullB =
        scatterNamed(tradeoff, sourcedStrategyName(QStringLiteral("full"), labelB));
    QVERIFY(fullA && fullB);
    QVERIFY(fullA->markerShape() != fullB->markerShape());
    QCOMPARE(fullA->color().hue(), fullB->color().hue());  // one strategy, one colour family
    QVERIFY(fullA->color() != fullB->color());
    // Across machines a measured Pareto frontier would mix them: left out.
    for (QAbstractSeries* series : tradeoff->series())
        QVERIFY(series->objectName() != QLatin1String("paretoFrontier"));
    const QStringList timeline = seriesNames(charts->chart(ChartKind::Timeline));
    QVERIFY2(timeline.contains(sourcedStrategyName(QStringLiteral("none"), labelB)),
             qPrintable(timeline.join(QStringLiteral(" | "))));
    QCOMPARE(charts->isAvailable(ChartKind::Scaling), false);  // two plain sweeps, not scaling

    // What is not comparable, under the table: seq changes the work, threads the step times.
    auto* notes = part<QLabel>(window, "resultsNotes");
    QVERIFY(notes->isVisibleTo(&window));
    QVERIFY2(notes->text().contains(QStringLiteral("seq differs: 16 in %1").arg(labelA)),
             qPrintable(notes->text()));
    QVERIFY2(notes->text().contains(QStringLiteral("threads differs")), qPrintable(notes->text()));
    QVERIFY2(notes->text().contains(QStringLiteral("Memory and time do not compare between")),
             qPrintable(notes->text()));
}

void TestMultiSource::selectionCrossesTableAndCharts() {
    MainWindow window;
    openAll(window, {m_a, m_b});
    if (QTest::currentTestFailed()) return;
    auto* document = part<ResultsDocument>(window, "document");
    auto* charts = part<ChartsPanel>(window, "charts");
    auto* view = part<ResultsView>(window, "resultsView");
    const QString labelB = document->sources()[1].label;
    const QString fullB = sourcedStrategyName(QStringLiteral("full"), labelB);

    // A click on B's full in a chart selects run 4 (B's second) in the document and the table.
    Q_EMIT charts->strategyClicked(fullB);
    QCOMPARE(document->selectedRun(), 4);
    QCOMPARE(document->strategyNames().at(4), fullB);
    QCOMPARE(view->proxy()->mapToSource(view->currentIndex()).row(), 4);
    QTRY_VERIFY(
        scatterNamed(charts->chart(ChartKind::Tradeoff), fullB)->markerSize() >
        scatterNamed(charts->chart(ChartKind::Tradeoff),
                     sourcedStrategyName(QStringLiteral("full"), document->sources()[0].label))
            ->markerSize());

    // A row of B in the table selects its run; the lifetime chart then shows B's run.
    view->selectionModel()->setCurrentIndex(
        view->proxy()->mapFromSource(part<ResultsTableModel>(window, "resultsModel")->index(5, 0)),
        QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    QCOMPARE(document->selectedRun(), 5);
    QTRY_VERIFY2(charts->chart(ChartKind::Lifetimes)->title().contains(labelB),
                 qPrintable(charts->chart(ChartKind::Lifetimes)->title()));
}

void TestMultiSource::saveRefusesAndCsvWritesTheComparison() {
    MainWindow window;
    openAll(window, {m_a, m_b});
    if (QTest::currentTestFailed()) return;
    auto* files = part<FileController>(window, "files");
    const QString target = m_dir.filePath(QStringLiteral("both.json"));
    QVERIFY(!files->saveTo(target));
    QVERIFY(!QFile::exists(target));
    QCOMPARE(m_recorder.messages.size(), 1);
    QCOMPARE(m_recorder.messages.last().title, QStringLiteral("Several files are open"));

    const QString csv = m_dir.filePath(QStringLiteral("both.csv"));
    QVERIFY(files->exportCsv(csv));
    QFile file(csv);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY2(text.contains("server"), text.constData());  // a line per file and strategy
    QCOMPARE(text.count('\n'), 1 + 3 * 2);
}

void TestMultiSource::addsAFileToTheOneOnScreen() {
    MainWindow window;
    openAll(window, {m_a});
    if (QTest::currentTestFailed()) return;
    auto* document = part<ResultsDocument>(window, "document");
    QCOMPARE(document->sourceCount(), 0);
    auto* files = part<FileController>(window, "files");
    QSignalSpy opened(files, &FileController::opened);
    files->addFiles({m_b});
    QVERIFY2(opened.wait(30000), qPrintable(m_recorder.lastText()));
    QCOMPARE(document->sourceCount(), 2);
    QCOMPARE(document->runCount(), 6);
    QCOMPARE(document->sources()[0].path, m_a);
    QCOMPARE(part<ResultsTableModel>(window, "resultsModel")->rowCount(), 6);
}

void TestMultiSource::refusesTheSameFileTwice() {
    MainWindow window;
    openAll(window, {m_a, m_b});
    if (QTest::currentTestFailed()) return;
    auto* files = part<FileController>(window, "files");
    files->addFiles({QDir(m_dir.path()).filePath(QStringLiteral("./laptop.json"))});
    QCOMPARE(m_recorder.messages.size(), 1);
    QCOMPARE(m_recorder.messages.last().kind, MessageKind::Error);
    QVERIFY(!files->isLoading());
    QCOMPARE(part<ResultsDocument>(window, "document")->sourceCount(), 2);
}

void TestMultiSource::oneFileKeepsTheOneSetView() {
    MainWindow window;
    openAll(window, {m_a, m_b});
    if (QTest::currentTestFailed()) return;
    openAll(window, {m_b});
    if (QTest::currentTestFailed()) return;
    auto* document = part<ResultsDocument>(window, "document");
    QCOMPARE(document->sourceCount(), 0);
    QCOMPARE(document->filePath(), m_b);
    auto* model = part<ResultsTableModel>(window, "resultsModel");
    QCOMPARE(model->columnCount(), int(ResultsTableModel::NumColumns));
    QCOMPARE(model->toTsv({0}).section(QLatin1Char('\n'), 0, 0).count(QLatin1Char('\t')),
             int(ResultsTableModel::NumColumns) - 1);
    QVERIFY(seriesNames(part<ChartsPanel>(window, "charts")->chart(ChartKind::Tradeoff))
                .contains(QStringLiteral("full")));
}

void TestMultiSource::sweepReplacesThemAfterAsking() {
    MainWindow window;
    openAll(window, {m_a, m_b});
    if (QTest::currentTestFailed()) return;
    // A sweep replaces the files (nothing unsaved is lost: they are files).
    runTinySweep(window, {QStringLiteral("none"), QStringLiteral("full")}, m_recorder);
    if (QTest::currentTestFailed()) return;
    auto* document = part<ResultsDocument>(window, "document");
    QCOMPARE(document->sourceCount(), 0);
    QCOMPARE(document->runCount(), 2);
    QVERIFY(document->isModified());
    QCOMPARE(part<ResultsTableModel>(window, "resultsModel")->columnCount(),
             int(ResultsTableModel::NumColumns));

    // Those measured results are unsaved: opening files asks first, and "no" keeps them.
    m_recorder.reset();
    window.openResultsFiles({m_a, m_b});
    QCOMPARE(m_recorder.messages.size(), 1);
    QCOMPARE(m_recorder.messages.last().kind, MessageKind::Question);
    QVERIFY(!part<FileController>(window, "files")->isLoading());
    QCOMPARE(document->runCount(), 2);
    // Adding a file to them is refused until they are saved.
    part<FileController>(window, "files")->addFiles({m_b});
    QCOMPARE(m_recorder.messages.size(), 2);
    QCOMPARE(m_recorder.messages.last().title, QStringLiteral("Save the results first"));
    QCOMPARE(document->runCount(), 2);
}

void TestMultiSource::screenshotsInBothLanguages() {
    for (const QString& language : {QStringLiteral("en"), QStringLiteral("zh_CN")}) {
        QVERIFY(installLanguage(language));
        MainWindow window;
        window.resize(1500, 950);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        openAll(window, {m_a, m_b});
        if (QTest::currentTestFailed()) break;
        auto* charts = part<ChartsPanel>(window, "charts");
        for (ChartKind kind : {ChartKind::Tradeoff, ChartKind::Timeline}) {
            charts->setCurrentKind(kind);
            QTest::qWait(150);
            screenshot(window,
                       QStringLiteral("multi-source-%1-%2").arg(chartFileStem(kind), language));
        }
        if (language == QLatin1String("zh_CN")) {
            QVERIFY(part<QLabel>(window, "resultsNotes")->text().contains(QStringLiteral("不同")));
            QCOMPARE(part<ResultsTableModel>(window, "resultsModel")
                         ->headerData(ResultsTableModel::SourceColumn, Qt::Horizontal)
                         .toString(),
                     QStringLiteral("来源"));
        }
    }
    installLanguage(QStringLiteral("en"));
}

QTEST_MAIN(TestMultiSource)
#include "test_multi_source.moc"
