// The memory limit of the modelled device: the field reaches the config and names values out of
// range, and the window refuses them on Run with a message naming it; a sweep with a limit
// between full's and none's footprint shows none as "out of memory at forward of block N" while
// full fits and passes the check, and the timeline of none ends where it stopped; results notes
// show under the table; chart exports to a target that cannot be written fail with a message
// and write nothing.

#include <QChart>
#include <QDir>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineSeries>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "tolerance.h"
#include "ui_test_support.h"

#include "charts/chart_builders.h"
#include "charts/chart_style.h"
#include "ckptlab/model/summary.h"
#include "controllers/file_controller.h"
#include "document/results_document.h"
#include "document/results_table_model.h"
#include "document/settings.h"
#include "panels/charts_panel.h"
#include "panels/memory_estimate_label.h"
#include "panels/parameter_panel.h"
#include "panels/strategy_list.h"
#include "strategy_text.h"
#include "window/chart_exporter.h"
#include "window/main_window.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

namespace {

int rowOf(const ResultsTableModel& model, const QString& strategy) {
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.index(row, ResultsTableModel::StrategyColumn).data().toString() == strategy)
            return row;
    return -1;
}

QString cell(const ResultsTableModel& model, int row, int column, int role = Qt::DisplayRole) {
    return model.index(row, column).data(role).toString();
}

// The series of `chart` with this object name, or the line of `strategy` (not its cross).
template <typename Series>
Series* findSeries(QChart* chart, const QString& objectName, const QString& strategy = {}) {
    for (QAbstractSeries* series : chart->series()) {
        auto* typed = qobject_cast<Series*>(series);
        if (!typed) continue;
        if (!objectName.isEmpty() && series->objectName() == objectName) return typed;
        if (!strategy.isEmpty() && series->property(kStrategyProperty).toString() == strategy &&
            series->property("ckptlabRunIndex").isValid())
            return typed;
    }
    return nullptr;
}

std::int64_t footprint(const RunResult& run) {
    return run.metrics.baseline_bytes + run.metrics.peak_bytes;
}

}  // namespace

class TestMemoryLimit : public WindowTest {
    Q_OBJECT
private Q_SLOTS:
    void fieldReachesConfig();
    void typedPointOrCommaIsTheDecimalPoint();
    void limitComesBackNextSession();
    void outOfRangeIsNamedByTheField();
    void outOfRangeIsRefusedOnRun();
    void noneRunsOutWhereFullFits();
    void notesShowUnderTheTable();
    void exportToMissingFolderWritesNothing();
};

void TestMemoryLimit::fieldReachesConfig() {
    ParameterPanel parameters;
    auto* field = parameters.findChild<QDoubleSpinBox*>(QStringLiteral("memoryLimitMib"));
    QVERIFY(field);
    QCOMPARE(field->minimum(), 0.0);
    QCOMPARE(field->maximum(), limits::memoryLimitMaxMib);  // the core's range
    QVERIFY(field->toolTip().contains(QStringLiteral("capacity of the device")));
    QVERIFY(field->toolTip().contains(QStringLiteral("other runs go on")));

    parameters.setConfig(tinyConfig());
    QCOMPARE(parameters.config().memory_limit_mib, 0.0);  // none by default
    QCOMPARE(field->text(), QStringLiteral("none"));

    field->setValue(12.5);
    QCOMPARE(parameters.config().memory_limit_mib, 12.5);
    QVERIFY(parameters.problems().isEmpty());
    // No trailing zeros; the point is the widget's locale's (a comma under de_DE).
    QCOMPARE(field->text(),
             QStringLiteral("12") + field->locale().decimalPoint() + QStringLiteral("5 MiB"));

    ExperimentConfig c = tinyConfig();
    c.memory_limit_mib = 0.125;
    parameters.setConfig(c);
    QCOMPARE(field->value(), 0.125);
    QCOMPARE(parameters.config().memory_limit_mib, 0.125);
}

// A typed '.' or ',' is the decimal point in every locale, and no number shows thousands
// separators: Qt's own spin box reads "3.25" under German as 325 MiB (the point is German's
// thousands separator) and "3,25" under English as 325 MiB.
void TestMemoryLimit::typedPointOrCommaIsTheDecimalPoint() {
    for (const QLocale& locale :
         {QLocale(QLocale::German, QLocale::Germany), QLocale(QLocale::French, QLocale::France),
          QLocale(QLocale::English, QLocale::UnitedStates)}) {
        ParameterPanel parameters;
        parameters.setLocale(locale);
        ExperimentConfig transformer = tinyConfig();  // dropout is a transformer's field
        transformer.block = BlockKind::Transformer;
        parameters.setConfig(transformer);
        auto* field = parameters.findChild<QDoubleSpinBox*>(QStringLiteral("memoryLimitMib"));
        auto* dropout = parameters.findChild<QDoubleSpinBox*>(QStringLiteral("dropout"));
        QVERIFY(field && dropout);
        const QString point = locale.decimalPoint();
        for (const QString& typed : {QStringLiteral("3.25"), QStringLiteral("3,25")}) {
            field->setValue(7);
            field->selectAll();
            QTest::keyClicks(field, typed);
            QTest::keyClick(field, Qt::Key_Return);
            QVERIFY2(parameters.config().memory_limit_mib == 3.25,
                     qPrintable(locale.name() + QStringLiteral(": typed ") + typed +
                                QStringLiteral(", got ") + field->text()));
            QCOMPARE(field->text(), QStringLiteral("3") + point + QStringLiteral("25 MiB"));
        }
        field->setValue(2048);
        QCOMPARE(field->text(), QStringLiteral("2048 MiB"));
        for (const QString& typed : {QStringLiteral("0.2"), QStringLiteral("0,2")}) {
            dropout->setValue(0.5);
            dropout->selectAll();
            QTest::keyClicks(dropout, typed);
            QTest::keyClick(dropout, Qt::Key_Return);
            QVERIFY2(std::abs(parameters.config().dropout - 0.2) < 1e-12,
                     qPrintable(locale.name() + QStringLiteral(": typed ") + typed +
                                QStringLiteral(", got ") + dropout->text()));
        }
    }
}

void TestMemoryLimit::limitComesBackNextSession() {
    // What the window saves on closing comes back in the next session.
    MainWindow window;
    ExperimentConfig c = tinyConfig();
    c.memory_limit_mib = 0.125;
    part<ParameterPanel>(window, "parameters")->setConfig(c);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.close();
    MainWindow again;
    QCOMPARE(part<ParameterPanel>(again, "parameters")->config().memory_limit_mib, 0.125);
    QVERIFY(m_recorder.messages.isEmpty());
}

void TestMemoryLimit::outOfRangeIsNamedByTheField() {
    ParameterPanel parameters;
    auto* field = parameters.findChild<QDoubleSpinBox*>(QStringLiteral("memoryLimitMib"));
    auto* problems = parameters.findChild<QLabel*>(QStringLiteral("configProblems"));
    QVERIFY(field && problems);
    ExperimentConfig c = tinyConfig();
    c.memory_limit_mib = 3.25;
    parameters.setConfig(c);

    for (double bad : {limits::memoryLimitMaxMib * 2, -1.0, std::nan("")}) {
        c.memory_limit_mib = bad;
        parameters.setConfig(c);
        // Not clamped into another limit: the field keeps its value, and says why.
        QCOMPARE(parameters.config().memory_limit_mib, 3.25);
        const QString text = parameters.problems().join(QLatin1Char('\n'));
        QVERIFY2(text.contains(QStringLiteral("memory limit")), qPrintable(text));
        QVERIFY(problems->isVisibleTo(&parameters));
        QVERIFY(problems->text().contains(QStringLiteral("memory limit")));
    }

    // Editing the field answers it.
    field->setValue(4);
    QVERIFY(parameters.problems().isEmpty());
    QVERIFY(!problems->isVisibleTo(&parameters));
    QCOMPARE(parameters.config().memory_limit_mib, 4.0);
}

void TestMemoryLimit::outOfRangeIsRefusedOnRun() {
    MainWindow window;
    auto* parameters = part<ParameterPanel>(window, "parameters");
    ExperimentConfig c = tinyConfig();
    c.memory_limit_mib = 3.25;
    parameters->setConfig(c);

    for (double bad : {limits::memoryLimitMaxMib * 2, -1.0, std::nan("")}) {
        c.memory_limit_mib = bad;
        parameters->setConfig(c);
        m_recorder.messages.clear();
        QVERIFY(!window.startSweep());
        QVERIFY(!part<SweepController>(window, "sweepController")->isRunning());
        QCOMPARE(m_recorder.messages.size(), 1);
        QCOMPARE(m_recorder.messages[0].title, QStringLiteral("Invalid configuration"));
        QVERIFY2(m_recorder.messages[0].text.contains(QStringLiteral("memory limit")),
                 qPrintable(m_recorder.messages[0].text));
    }
}

void TestMemoryLimit::noneRunsOutWhereFullFits() {
    MainWindow window;
    auto* memory = part<MemoryEstimateLabel>(window, "memoryEstimate");
    auto* notes = part<QLabel>(window, "resultsNotes");
    part<ParameterPanel>(window, "parameters")->setConfig(activationHeavyConfig());
    part<StrategyList>(window, "strategies")->setCheckedStrategies({"none", "full"});

    // A first sweep without a limit gives both footprints.
    runCheckedSweep(window, m_recorder);
    if (QTest::currentTestFailed()) return;
    const RunResult* none = part<ResultsDocument>(window, "document")->results().find("none");
    const RunResult* full = part<ResultsDocument>(window, "document")->results().find("full");
    QVERIFY(none && full && none->ok() && full->ok());
    const std::int64_t noneBytes = footprint(*none), fullBytes = footprint(*full);
    QVERIFY2(fullBytes * 3 / 2 < noneBytes, "none's footprint should be well above full's");
    const double limit = std::round(double(fullBytes + noneBytes) / 2 / kMiB * 1000) / 1000;
    const std::int64_t baseline = full->metrics.baseline_bytes;

    ExperimentConfig c = activationHeavyConfig();
    c.memory_limit_mib = limit;
    part<ParameterPanel>(window, "parameters")->setConfig(c);
    QCOMPARE(part<ParameterPanel>(window, "parameters")->config().memory_limit_mib, limit);
    // The forecast says which strategy will not fit; Run is not refused for it.
    QTRY_COMPARE_WITH_TIMEOUT(memory->predictedOverLimit(), QStringList{QStringLiteral("none")},
                              60000);
    QVERIFY(memory->text().contains(QStringLiteral("Predicted to run out")));

    runCheckedSweep(window, m_recorder);
    if (QTest::currentTestFailed()) return;
    QVERIFY2(m_recorder.messages.isEmpty(), qPrintable(m_recorder.lastText()));
    const ResultSet& results = part<ResultsDocument>(window, "document")->results();
    QCOMPARE(results.runs.size(), size_t(2));
    none = results.find("none");
    full = results.find("full");
    QVERIFY(none && full);
    QVERIFY(none->out_of_memory);
    QCOMPARE(int(none->out_of_memory->phase), int(Phase::Forward));
    QVERIFY(!full->error);
    QVERIFY(full->ok());

    // The table: none out of memory where it happened, full normal and checked.
    const ResultsTableModel& model = *part<ResultsTableModel>(window, "resultsModel");
    const int noneRow = rowOf(model, QStringLiteral("none"));
    const int fullRow = rowOf(model, QStringLiteral("full"));
    QVERIFY(noneRow >= 0 && fullRow >= 0);
    const QString status = cell(model, noneRow, ResultsTableModel::GradCheckColumn);
    QVERIFY2(QRegularExpression(QStringLiteral("^out of memory at forward of block \\d+$"))
                 .match(status)
                 .hasMatch(),
             qPrintable(status));
    QCOMPARE(
        status,
        QStringLiteral("out of memory at forward of block %1").arg(none->out_of_memory->block));
    const QString tip = cell(model, noneRow, ResultsTableModel::GradCheckColumn, Qt::ToolTipRole);
    QVERIFY2(
        tip.contains(QStringLiteral("limit")) && tip.contains(QStringLiteral("tried to allocate")),
        qPrintable(tip));
    QVERIFY(
        cell(model, noneRow, ResultsTableModel::PeakMiBColumn).contains(QStringLiteral("partial")));
    QCOMPARE(cell(model, noneRow, ResultsTableModel::StepMsColumn),
             QStringLiteral("out of memory"));
    QCOMPARE(cell(model, noneRow, ResultsTableModel::FastestStepColumn), QStringLiteral("—"));
    QVERIFY(
        cell(model, fullRow, ResultsTableModel::GradCheckColumn).startsWith(QStringLiteral("ok")));
    QVERIFY(!cell(model, fullRow, ResultsTableModel::PeakMiBColumn)
                 .contains(QStringLiteral("partial")));
    QVERIFY(notes->isVisibleTo(&window));
    QVERIFY(notes->text().contains(QStringLiteral("none at forward of block")));

    // The timeline: none's line ends where it stopped, at its cross; full's goes on; the limit
    // is a line at what it leaves above the step's start.
    QChart* timeline = part<ChartsPanel>(window, "charts")->chart(ChartKind::Timeline);
    auto* noneLine = findSeries<QLineSeries>(timeline, {}, QStringLiteral("none"));
    auto* fullLine = findSeries<QLineSeries>(timeline, {}, QStringLiteral("full"));
    QVERIFY(noneLine && fullLine);
    const double stopped = none->out_of_memory->t_ms;
    QCOMPARE(noneLine->at(noneLine->count() - 1).x(), stopped);
    for (const QPointF& p : noneLine->points()) QVERIFY(p.x() <= stopped);
    QVERIFY(fullLine->at(fullLine->count() - 1).x() > stopped);
    auto* cross = findSeries<QScatterSeries>(timeline, QStringLiteral("outOfMemory"));
    QVERIFY(cross);
    QCOMPARE(cross->at(0).x(), stopped);
    QCOMPARE(cross->property(kStrategyProperty).toString(), QStringLiteral("none"));
    auto* limitLine = findSeries<QLineSeries>(timeline, QStringLiteral("memoryLimit"));
    QVERIFY(limitLine);
    QVERIFY(qAbs(limitLine->at(0).y() - (limit - double(baseline) / kMiB)) <
            ckptlab::test::tolerance::formula(limit, 2));  // ÷ and −

    // The tradeoff chart plots none as a cross, not as a measured point.
    QChart* tradeoff = part<ChartsPanel>(window, "charts")->chart(ChartKind::Tradeoff);
    QVERIFY(findSeries<QScatterSeries>(tradeoff, QStringLiteral("outOfMemory")));
    QVERIFY(findSeries<QLineSeries>(tradeoff, QStringLiteral("memoryCapacity")));
    for (QAbstractSeries* series : tradeoff->series())
        if (series->property(kStrategyProperty).toString() == QLatin1String("none"))
            QCOMPARE(series->objectName(), QStringLiteral("outOfMemory"));
}

void TestMemoryLimit::notesShowUnderTheTable() {
    MainWindow window;
    auto* notes = part<QLabel>(window, "resultsNotes");
    auto* document = part<ResultsDocument>(window, "document");
    QVERIFY(!notes->isVisibleTo(&window));
    ResultSet set;
    RunResult run;
    run.strategy = ckptlab::test::strategy("none");
    run.grad_check = GradCheck{true, 0, 1e-5, {}};
    set.runs.push_back(run);
    set.notes = {"\"vs optimal\" is not computed: the chain has 600 units"};
    document->reset(set, {});
    QVERIFY(notes->isVisibleTo(&window));
    QVERIFY(notes->text().contains(QStringLiteral("\"vs optimal\" is not computed")));
    document->clear();
    QVERIFY(!notes->isVisibleTo(&window));
}

void TestMemoryLimit::exportToMissingFolderWritesNothing() {
    // The exporters on their own, over the results of a tiny sweep read from a file.
    QWidget window;
    ResultsDocument document;
    Settings settings;
    ChartsPanel charts(&document, &window);
    FileController files(&document, &settings, &window);
    ChartExporter exporter(&charts, &document, &settings, &window);
    {
        const QString sweep = QStringLiteral(CKPTLAB_TEST_DATA_DIR "/fuzz/valid/tiny-sweep.json");
        QSignalSpy opened(&files, &FileController::opened);
        files.open(sweep);
        QVERIFY2(opened.wait(30000), qPrintable(m_recorder.lastText()));
        QVERIFY(document.runCount() > 0);
    }
    QTemporaryDir dir;
    const QString missing = dir.filePath(QStringLiteral("missing/deeper"));
    const auto nothingWritten = [&] {
        return QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden) ==
               QStringList{QStringLiteral("slides"), QStringLiteral("taken.png")};
    };
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("taken.png")));  // a folder where a file goes
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("slides/timeline.svg")));

    const auto expectMessage = [&](const QString& path, const char* reason) {
        QCOMPARE(m_recorder.messages.size(), 1);
        const Message& m = m_recorder.messages.first();
        QCOMPARE(m.kind, MessageKind::Error);
        QVERIFY2(m.text.contains(QDir::toNativeSeparators(path)), qPrintable(m.text));
        QVERIFY2(m.text.contains(QLatin1String(reason)), qPrintable(m.text));
        m_recorder.messages.clear();
    };

    const QString png = missing + QStringLiteral("/tradeoff.png");
    QVERIFY(!exporter.exportChart(ChartKind::Tradeoff, ChartFormat::Png1x, png));
    expectMessage(png, "does not exist");
    const QString svg = missing + QStringLiteral("/timeline.svg");
    QVERIFY(!exporter.exportChart(ChartKind::Timeline, ChartFormat::Svg, svg));
    expectMessage(svg, "does not exist");
    const QString schedule = missing + QStringLiteral("/schedules.png");
    QVERIFY(!exporter.exportSchedule(ChartFormat::Png2x, schedule));
    expectMessage(schedule, "does not exist");
    QVERIFY(exporter.exportAll(missing).isEmpty());
    expectMessage(missing, "does not exist");
    const QString taken = dir.filePath(QStringLiteral("taken.png"));
    QVERIFY(!exporter.exportChart(ChartKind::Tradeoff, ChartFormat::Png1x, taken));
    expectMessage(taken, "is a folder");
    // One target of the folder is taken: nothing at all is written, not the charts before it.
    const QString slides = dir.filePath(QStringLiteral("slides"));
    QVERIFY(exporter.exportAll(slides).isEmpty());
    expectMessage(slides + QStringLiteral("/timeline.svg"), "is a folder");
    QCOMPARE(QDir(slides).entryList(QDir::Files | QDir::Hidden), QStringList());
    QVERIFY(nothingWritten());

    // The results exports (FileController) end the same way: a message, and no file.
    const QString csv = missing + QStringLiteral("/summary.csv");
    QVERIFY(!files.exportCsv(csv));
    expectMessage(csv, "");
    const QString trace = missing + QStringLiteral("/run.trace.json");
    QVERIFY(!files.exportTrace(trace));
    expectMessage(trace, "");
    QVERIFY(nothingWritten());

    // And where it can write, it does.
    QCOMPARE(exporter.exportAll(dir.filePath(QStringLiteral("fresh"))).size(), 12);
    QVERIFY(m_recorder.messages.isEmpty());
}

QTEST_MAIN(TestMemoryLimit)
#include "test_memory_limit.moc"
