// Files: Save/Open round trip through the window, bad and foreign files (on the file controller
// alone), CSV and Chrome trace export, and chart export (PNG that decodes to a non-blank image,
// SVG that parses).

#include <QDir>
#include <QFileInfo>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

#include "ui_test_support.h"

#include "base/messages.h"
#include "ckptlab/formats/results_io.h"
#include "ckptlab/model/summary.h"
#include "controllers/file_controller.h"
#include "document/results_document.h"
#include "document/results_table_model.h"
#include "document/settings.h"
#include "panels/charts_panel.h"
#include "panels/parameter_panel.h"
#include "panels/strategy_list.h"
#include "strategy_text.h"
#include "window/chart_exporter.h"
#include "window/main_window.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

namespace {

void writeFile(const QString& path, const QByteArray& bytes) {
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(bytes);
}

// Distinct colours in a sample of pixels: a blank render has one or two.
int colourCount(const QImage& image) {
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7) colours.insert(image.pixel(x, y));
    return int(colours.size());
}

// A file controller on its own: a document, settings and a parent widget for its dialogs.
struct FilesUnderTest {
    QWidget parent;
    ResultsDocument document;
    Settings settings;
    FileController files{&document, &settings, &parent};
};

}  // namespace

class TestFiles : public WindowTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();

    void nothingToSaveGivesMessage();
    void roundTripsThroughSaveAndOpen();
    void badFilesGiveMessages_data();
    void badFilesGiveMessages();
    void corruptFilesKeepWhatWasOpen();
    void opensScalingSweep();
    void exportsCsvAndTrace();
    void exportsCharts();

private:
    QTemporaryDir m_dir;
    MainWindow* m_swept = nullptr;  // one real sweep, shared by the tests that need results
};

void TestFiles::initTestCase() {
    QVERIFY(m_dir.isValid());

    m_swept = new MainWindow;
    m_swept->resize(1400, 900);
    m_swept->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_swept));
    part<ParameterPanel>(*m_swept, "parameters")->setConfig(tinyConfig());
    part<StrategyList>(*m_swept, "strategies")->setCheckedStrategies({"none", "full", "every:2"});
    QSignalSpy ended(m_swept, &MainWindow::sweepEnded);
    QVERIFY(m_swept->startSweep());
    QVERIFY(ended.wait(180000));
    QCOMPARE(part<ResultsDocument>(*m_swept, "document")->runCount(), 3);
}

void TestFiles::cleanupTestCase() { delete m_swept; }

void TestFiles::nothingToSaveGivesMessage() {
    FilesUnderTest empty;
    QVERIFY(!empty.files.saveTo(m_dir.filePath(QStringLiteral("empty.json"))));
    QCOMPARE(m_recorder.messages.size(), 1);
    QVERIFY(!QFile::exists(m_dir.filePath(QStringLiteral("empty.json"))));
}

void TestFiles::roundTripsThroughSaveAndOpen() {
    const QString path = m_dir.filePath(QStringLiteral("results.json"));
    QVERIFY(part<FileController>(*m_swept, "files")->saveTo(path));
    QCOMPARE(part<ResultsDocument>(*m_swept, "document")->filePath(), path);
    QVERIFY(m_swept->windowTitle().contains(QStringLiteral("results.json")));

    MainWindow reopened;
    QSignalSpy opened(part<FileController>(reopened, "files"), &FileController::opened);
    reopened.openResultsFile(path);
    QVERIFY(opened.wait(30000));
    QVERIFY(m_recorder.messages.isEmpty());

    const ResultSet& a = part<ResultsDocument>(*m_swept, "document")->results();
    const ResultSet& b = part<ResultsDocument>(reopened, "document")->results();
    QCOMPARE(b.runs.size(), a.runs.size());
    QCOMPARE(b.environment.libtorch_version, a.environment.libtorch_version);
    for (size_t i = 0; i < a.runs.size(); ++i) {
        QCOMPARE(b.runs[i].strategy, a.runs[i].strategy);
        QCOMPARE(b.runs[i].metrics.peak_bytes, a.runs[i].metrics.peak_bytes);
        QCOMPARE(b.runs[i].timeline.size(), a.runs[i].timeline.size());
        QCOMPARE(b.runs[i].blocks.size(), a.runs[i].blocks.size());
        // Thinned again off the GUI thread while loading.
        QVERIFY(!part<ResultsDocument>(reopened, "document")->thinnedTimelines()[i].empty());
    }
    ResultsTableModel* ma = part<ResultsTableModel>(*m_swept, "resultsModel");
    ResultsTableModel* mb = part<ResultsTableModel>(reopened, "resultsModel");
    QCOMPARE(mb->rowCount(), ma->rowCount());
    for (int row = 0; row < ma->rowCount(); ++row)
        for (int column = 0; column < ResultsTableModel::NumColumns; ++column)
            QCOMPARE(mb->index(row, column).data().toString(),
                     ma->index(row, column).data().toString());
}

void TestFiles::badFilesGiveMessages_data() {
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<bool>("create");
    QTest::newRow("not json") << QByteArray("this is not JSON {") << true;
    QTest::newRow("foreign json") << QByteArray(R"({"schema": "other.tool/7", "runs": []})")
                                  << true;
    QTest::newRow("truncated") << QByteArray(R"({"schema": "ckptlab.results/1", "runs": [)")
                               << true;
    QTest::newRow("wrong types") << QByteArray(R"({"schema": "ckptlab.results/1", "runs": 5})")
                                 << true;
    QTest::newRow("missing") << QByteArray() << false;
}

void TestFiles::badFilesGiveMessages() {
    QFETCH(QByteArray, contents);
    QFETCH(bool, create);
    const QString path = m_dir.filePath(QStringLiteral("bad-%1.json").arg(QTest::currentDataTag()));
    if (create) writeFile(path, contents);

    FilesUnderTest under;
    QSignalSpy failed(&under.files, &FileController::openFailed);
    under.files.open(path);
    QVERIFY(failed.wait(30000));
    QCOMPARE(m_recorder.messages.size(), 1);
    QCOMPARE(m_recorder.messages[0].kind, MessageKind::Error);
    QVERIFY(m_recorder.messages[0].text.contains(path));
    QVERIFY(!failed.first().at(1).toString().isEmpty());  // ResultsFileError's message
    QVERIFY(under.document.isEmpty());
}

// Every corrupt file of the fuzz corpus (tests/data/fuzz, see tests/fuzz/README.md), a missing
// file, a folder and a 200 MB file cut off, opened over a good file: each gives one error
// message naming the file, and what was open stays open, unchanged.
void TestFiles::corruptFilesKeepWhatWasOpen() {
    const QDir data(QStringLiteral(CKPTLAB_TEST_DATA_DIR "/fuzz"));
    QVERIFY2(data.exists(QStringLiteral("corrupt")), qPrintable(data.absolutePath()));

    MainWindow window;
    const QString good = data.absoluteFilePath(QStringLiteral("valid/tiny-sweep.json"));
    {
        QSignalSpy opened(part<FileController>(window, "files"), &FileController::opened);
        window.openResultsFile(good);
        QVERIFY(opened.wait(30000));
    }
    QVERIFY(m_recorder.messages.isEmpty());
    QCOMPARE(part<ResultsDocument>(window, "document")->runCount(), 3);
    const std::string before = resultsToJson(part<ResultsDocument>(window, "document")->results());
    const QString title = window.windowTitle();
    const int rows = part<ResultsTableModel>(window, "resultsModel")->rowCount();

    QStringList paths;
    const QDir::Filters files = QDir::Files | QDir::Hidden;
    for (const QFileInfo& info :
         QDir(data.filePath(QStringLiteral("corrupt"))).entryInfoList(files, QDir::Name))
        paths << info.absoluteFilePath();
    // The fuzz corpus holds files that load and files that do not; take the second kind.
    int corpusRefused = 0;
    for (const QFileInfo& info :
         QDir(data.filePath(QStringLiteral("corpus"))).entryInfoList(files, QDir::Name)) {
        try {
            loadResults(QFile::encodeName(info.absoluteFilePath()).toStdString());
        } catch (const ResultsFileError&) {
            paths << info.absoluteFilePath();
            ++corpusRefused;
        }
    }
    QVERIFY(paths.size() > 50);
    paths << m_dir.filePath(QStringLiteral("missing.json"));
    QVERIFY(QDir(m_dir.path()).mkpath(QStringLiteral("a-directory.json")));
    paths << m_dir.filePath(QStringLiteral("a-directory.json"));
    // 200 MB that start like a results file and stop in the middle of the runs.
    const QString big = m_dir.filePath(QStringLiteral("cut-200mb.json"));
    {
        QFile file(big);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"schema": "ckptlab.results/1", "cancelled": false, "runs": [)");
        const QByteArray chunk =
            QByteArray(R"({"strategy": "none", "metrics": {}},)").repeated(28000);
        while (file.size() < 200'000'000) QCOMPARE(file.write(chunk), qint64(chunk.size()));
    }
    paths << big;

    for (const QString& path : paths) {
        const int messages = int(m_recorder.messages.size());
        QSignalSpy failed(part<FileController>(window, "files"), &FileController::openFailed);
        window.openResultsFile(path);
        QVERIFY2(failed.wait(30000), qPrintable(path));
        QCOMPARE(int(m_recorder.messages.size()), messages + 1);
        const Message& message = m_recorder.messages.last();
        QCOMPARE(message.kind, MessageKind::Error);
        QVERIFY2(message.text.contains(QDir::toNativeSeparators(path)), qPrintable(message.text));
        QVERIFY2(!failed.first().at(1).toString().contains(QLatin1Char('\n')),
                 qPrintable(failed.first().at(1).toString()));  // one line
        // What was open before is still there, and still the document's file.
        QCOMPARE(part<ResultsDocument>(window, "document")->runCount(), 3);
        QCOMPARE(part<ResultsDocument>(window, "document")->filePath(), good);
        QCOMPARE(window.windowTitle(), title);
        QCOMPARE(part<ResultsTableModel>(window, "resultsModel")->rowCount(), rows);
    }
    QCOMPARE(resultsToJson(part<ResultsDocument>(window, "document")->results()), before);
    QFile::remove(big);
    qInfo("%d files refused, %d of them from the fuzz corpus", int(paths.size()), corpusRefused);
}

void TestFiles::opensScalingSweep() {
    // A hand-made scaling sweep: two depths, each with its own `none` baseline.
    ResultSet set;
    for (int depth : {4, 8})
        for (const char* strategy : {"none", "full"}) {
            RunResult run;
            run.config.depth = depth;
            run.strategy = ckptlab::test::strategy(strategy);
            const bool full = run.strategy.kind == StrategyKind::Full;
            run.metrics.peak_bytes = std::int64_t(depth * (full ? 5.0 : 10.0) * kMiB);
            run.metrics.activation_bytes = run.metrics.peak_bytes / 2;
            run.metrics.step_ms = depth * (full ? 1.5 : 1.0);
            run.grad_check.checked = true;
            run.grad_check.tolerance = 1e-4;
            set.runs.push_back(run);
        }
    const QString path = m_dir.filePath(QStringLiteral("scaling.json"));
    saveResults(set, QFile::encodeName(path).toStdString());

    MainWindow window;
    QSignalSpy opened(part<FileController>(window, "files"), &FileController::opened);
    window.openResultsFile(path);
    QVERIFY(opened.wait(30000));
    QVERIFY(part<ChartsPanel>(window, "charts")->isAvailable(ChartKind::Scaling));
    QCOMPARE(part<ChartsPanel>(window, "charts")->currentKind(), ChartKind::Scaling);
    QVERIFY(part<ChartsPanel>(window, "charts")->chart(ChartKind::Scaling));

    // Each run against the `none` of its own depth: full saves 50 % at both sizes.
    ResultsTableModel* model = part<ResultsTableModel>(window, "resultsModel");
    QCOMPARE(model->rowCount(), 4);
    QCOMPARE(model->index(3, ResultsTableModel::StrategyColumn).data().toString(),
             QStringLiteral("full (depth 8)"));
    for (int row : {1, 3})
        QCOMPARE(model->index(row, ResultsTableModel::MemorySavedColumn).data().toString(),
                 QStringLiteral("50.0 %"));

    // Export Summary says what the screen says: the same rule (core's summarize), so each
    // none saves 0 % and each full 50 %, at both depths.
    const QString csv = m_dir.filePath(QStringLiteral("scaling.csv"));
    QVERIFY(part<FileController>(window, "files")->exportCsv(csv));
    QFile csvFile(csv);
    QVERIFY(csvFile.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csvFile.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 5);
    const int savedColumn = int(lines[0].split(',').indexOf("memory_saved_pct"));
    QVERIFY(savedColumn > 0);
    for (int row = 0; row < 4; ++row) {
        const QByteArray saved = lines[row + 1].split(',').value(savedColumn);
        QCOMPARE(saved, row % 2 == 0 ? QByteArray("0.00") : QByteArray("50.00"));
        QCOMPARE(model->index(row, ResultsTableModel::MemorySavedColumn).data().toString(),
                 QString::fromLatin1(saved.left(saved.size() - 1)) + QStringLiteral(" %"));
    }

    // A plain sweep hides the scaling tab again.
    QVERIFY(!part<ChartsPanel>(*m_swept, "charts")->isAvailable(ChartKind::Scaling));
    QVERIFY(m_recorder.messages.isEmpty());
}

void TestFiles::exportsCsvAndTrace() {
    const QString csv = m_dir.filePath(QStringLiteral("summary.csv"));
    QVERIFY(part<FileController>(*m_swept, "files")->exportCsv(csv));
    QFile csvFile(csv);
    QVERIFY(csvFile.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csvFile.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), 4);  // header + three runs

    const QString trace = m_dir.filePath(QStringLiteral("trace.json"));
    QVERIFY(part<FileController>(*m_swept, "files")->exportTrace(trace));
    QFile traceFile(trace);
    QVERIFY(traceFile.open(QIODevice::ReadOnly));
    QJsonParseError error;
    const QJsonDocument json = QJsonDocument::fromJson(traceFile.readAll(), &error);
    QCOMPARE(error.error, QJsonParseError::NoError);
    QVERIFY(json.isObject() || json.isArray());
    QVERIFY(m_recorder.messages.isEmpty());
}

void TestFiles::exportsCharts() {
    ChartExporter* exporter = part<ChartExporter>(*m_swept, "chartExporter");
    const QString png1 = m_dir.filePath(QStringLiteral("tradeoff.png"));
    const QString png2 = m_dir.filePath(QStringLiteral("tradeoff@2x.png"));
    const QString svg = m_dir.filePath(QStringLiteral("timeline.svg"));
    QVERIFY(exporter->exportChart(ChartKind::Tradeoff, ChartFormat::Png1x, png1));
    QVERIFY(exporter->exportChart(ChartKind::Tradeoff, ChartFormat::Png2x, png2));
    QVERIFY(exporter->exportChart(ChartKind::Timeline, ChartFormat::Svg, svg));

    const QImage one(png1), two(png2);
    QVERIFY(!one.isNull() && !two.isNull());
    QCOMPARE(two.width(), 2 * one.width());
    QVERIFY(colourCount(one) > 10);

    QSvgRenderer renderer(svg);
    QVERIFY(renderer.isValid());
    QFile svgFile(svg);
    QVERIFY(svgFile.open(QIODevice::ReadOnly));
    QXmlStreamReader xml(&svgFile);
    bool hasTitle = false, hasDescription = false;
    while (!xml.atEnd()) {
        xml.readNext();
        if (xml.isStartElement() && xml.name() == QLatin1String("title")) hasTitle = true;
        if (xml.isStartElement() && xml.name() == QLatin1String("desc"))
            hasDescription = xml.readElementText().contains(QStringLiteral("width 32"));
    }
    QVERIFY(!xml.hasError());
    QVERIFY(hasTitle);
    QVERIFY(hasDescription);  // the config travels with the chart

    const QString folder = m_dir.filePath(QStringLiteral("slides"));
    const QStringList written = exporter->exportAll(folder);
    QCOMPARE(written.size(), 12);  // five charts and the schedules, PNG and SVG each
    for (const QString& path : written) {
        if (path.endsWith(QLatin1String(".png"))) {
            const QImage image(path);
            QVERIFY2(!image.isNull() && colourCount(image) > 10, qPrintable(path));
        } else {
            QVERIFY2(QSvgRenderer(path).isValid(), qPrintable(path));
        }
    }
    QVERIFY(m_recorder.messages.isEmpty());
}

QTEST_MAIN(TestFiles)
#include "test_files.moc"
