// The memory limit of the modelled device, through the window: the field reaches the config and
// refuses values out of range with a message naming it; a sweep with a limit between full's and
// none's footprint shows none as "out of memory at forward of block N" while full fits and
// passes the check, and the timeline of none ends where it stopped; results notes show under
// the table; chart exports to a target that cannot be written fail with a message and write
// nothing.

#include <QChart>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QLabel>
#include <QLineSeries>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>

#include "ui_test_support.h"

#include "charts/chart_builders.h"
#include "charts/chart_style.h"
#include "ckptlab/summary.h"
#include "controllers/chart_exporter.h"
#include "panels/charts_panel.h"
#include "controllers/file_controller.h"
#include "window/main_window.h"
#include "panels/memory_estimate_label.h"
#include "panels/parameter_panel.h"
#include "document/results_document.h"
#include "document/results_table_model.h"
#include "panels/strategy_list.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

namespace {

// Runs the checked strategies through the window's Run action and waits for the end.
void runSweep(MainWindow& window, const MessageRecorder& recorder)
{
    QSignalSpy ended(&window, &MainWindow::sweepEnded);
    window.runAction()->trigger();
    QVERIFY2(window.isRunning(), qPrintable(recorder.lastText()));
    QVERIFY(ended.wait(180000));
    QCOMPARE(ended.first().at(0).toBool(), false);  // not cancelled
    QCOMPARE(ended.first().at(1).toBool(), false);  // not failed: a run out of memory is a result
}

int rowOf(const ResultsTableModel& model, const QString& strategy)
{
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.index(row, ResultsTableModel::StrategyColumn).data().toString() == strategy)
            return row;
    return -1;
}

QString cell(const ResultsTableModel& model, int row, int column, int role = Qt::DisplayRole)
{
    return model.index(row, column).data(role).toString();
}

// The series of `chart` with this object name, or the line of `strategy` (not its cross).
template <typename Series>
Series* findSeries(QChart* chart, const QString& objectName, const QString& strategy = {})
{
    for (QAbstractSeries* series : chart->series()) {
        auto* typed = qobject_cast<Series*>(series);
        if (!typed)
            continue;
        if (!objectName.isEmpty() && series->objectName() == objectName)
            return typed;
        if (!strategy.isEmpty() && series->property(kStrategyProperty).toString() == strategy
            && series->property("ckptlabRunIndex").isValid())
            return typed;
    }
    return nullptr;
}

std::int64_t footprint(const RunResult& run)
{
    return run.metrics.baseline_bytes + run.metrics.peak_bytes;
}

}  // namespace

class TestMemoryLimit : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();

    void fieldReachesConfig();
    void outOfRangeIsRefusedNamingTheField();
    void noneRunsOutWhereFullFits();
    void notesShowUnderTheTable();
    void exportToMissingFolderWritesNothing();

private:
    MessageRecorder m_recorder;
};

void TestMemoryLimit::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("ckptlab-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_memory_limit"));
}

void TestMemoryLimit::init()
{
    m_recorder.reset();
}

void TestMemoryLimit::fieldReachesConfig()
{
    MainWindow window;
    auto* field = window.findChild<QDoubleSpinBox*>(QStringLiteral("memoryLimit"));
    QVERIFY(field);
    QCOMPARE(field->minimum(), 0.0);
    QCOMPARE(field->maximum(), limits::memoryLimitMaxMib);  // the core's range
    QVERIFY(field->toolTip().contains(QStringLiteral("capacity of the device")));
    QVERIFY(field->toolTip().contains(QStringLiteral("other runs go on")));

    window.parameterPanel()->setConfig(tinyConfig());
    QCOMPARE(window.parameterPanel()->config().memory_limit_mib, 0.0);  // none by default
    QCOMPARE(field->text(), QStringLiteral("none"));

    field->setValue(12.5);
    QCOMPARE(window.parameterPanel()->config().memory_limit_mib, 12.5);
    QVERIFY(window.parameterPanel()->problems().isEmpty());
    QCOMPARE(field->text(), QStringLiteral("12.5 MiB"));  // no trailing zeros

    ExperimentConfig c = tinyConfig();
    c.memory_limit_mib = 0.125;
    window.parameterPanel()->setConfig(c);
    QCOMPARE(field->value(), 0.125);
    QCOMPARE(window.parameterPanel()->config().memory_limit_mib, 0.125);

    // What Run saves comes back in the next session.
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.close();
    MainWindow again;
    QCOMPARE(again.parameterPanel()->config().memory_limit_mib, 0.125);
    QVERIFY(m_recorder.messages.isEmpty());
}

void TestMemoryLimit::outOfRangeIsRefusedNamingTheField()
{
    MainWindow window;
    auto* field = window.findChild<QDoubleSpinBox*>(QStringLiteral("memoryLimit"));
    auto* problems = window.findChild<QLabel*>(QStringLiteral("configProblems"));
    QVERIFY(field && problems);
    ExperimentConfig c = tinyConfig();
    c.memory_limit_mib = 3.25;
    window.parameterPanel()->setConfig(c);

    for (double bad : {limits::memoryLimitMaxMib * 2, -1.0, std::nan("")}) {
        c.memory_limit_mib = bad;
        window.parameterPanel()->setConfig(c);
        // Not clamped into another limit: the field keeps its value, and says why.
        QCOMPARE(window.parameterPanel()->config().memory_limit_mib, 3.25);
        const QString text = window.parameterPanel()->problems().join(QLatin1Char('\n'));
        QVERIFY2(text.contains(QStringLiteral("memory-limit")), qPrintable(text));
        QVERIFY(problems->isVisibleTo(&window));
        QVERIFY(problems->text().contains(QStringLiteral("memory-limit")));

        m_recorder.messages.clear();
        QVERIFY(!window.startSweep());
        QVERIFY(!window.isRunning());
        QCOMPARE(m_recorder.messages.size(), 1);
        QCOMPARE(m_recorder.messages[0].title, QStringLiteral("Invalid configuration"));
        QVERIFY2(m_recorder.messages[0].text.contains(QStringLiteral("memory-limit")),
                 qPrintable(m_recorder.messages[0].text));
    }

    // Editing the field answers it.
    field->setValue(4);
    QVERIFY(window.parameterPanel()->problems().isEmpty());
    QVERIFY(!problems->isVisibleTo(&window));
    QCOMPARE(window.parameterPanel()->config().memory_limit_mib, 4.0);
}

void TestMemoryLimit::noneRunsOutWhereFullFits()
{
    MainWindow window;
    window.parameterPanel()->setConfig(activationHeavyConfig());
    window.strategyList()->setCheckedStrategies({"none", "full"});

    // A first sweep without a limit gives both footprints.
    runSweep(window, m_recorder);
    if (QTest::currentTestFailed())
        return;
    const RunResult* none = window.document()->results().find("none");
    const RunResult* full = window.document()->results().find("full");
    QVERIFY(none && full && none->ok() && full->ok());
    const std::int64_t noneBytes = footprint(*none), fullBytes = footprint(*full);
    QVERIFY2(fullBytes * 3 / 2 < noneBytes, "none's footprint should be well above full's");
    const double limit = std::round(double(fullBytes + noneBytes) / 2 / kMiB * 1000) / 1000;
    const std::int64_t baseline = full->metrics.baseline_bytes;

    ExperimentConfig c = activationHeavyConfig();
    c.memory_limit_mib = limit;
    window.parameterPanel()->setConfig(c);
    QCOMPARE(window.parameterPanel()->config().memory_limit_mib, limit);
    // The forecast says which strategy will not fit; Run is not refused for it.
    QTRY_COMPARE_WITH_TIMEOUT(window.memoryEstimate()->predictedOverLimit(),
                              QStringList{QStringLiteral("none")}, 60000);
    QVERIFY(window.memoryEstimate()->text().contains(QStringLiteral("Predicted to run out")));

    runSweep(window, m_recorder);
    if (QTest::currentTestFailed())
        return;
    QVERIFY2(m_recorder.messages.isEmpty(), qPrintable(m_recorder.lastText()));
    const ResultSet& results = window.document()->results();
    QCOMPARE(results.runs.size(), size_t(2));
    none = results.find("none");
    full = results.find("full");
    QVERIFY(none && full);
    QVERIFY(none->out_of_memory);
    QCOMPARE(int(none->out_of_memory->phase), int(Phase::Forward));
    QVERIFY(!full->error);
    QVERIFY(full->ok());

    // The table: none out of memory where it happened, full normal and checked.
    const ResultsTableModel& model = *window.resultsModel();
    const int noneRow = rowOf(model, QStringLiteral("none"));
    const int fullRow = rowOf(model, QStringLiteral("full"));
    QVERIFY(noneRow >= 0 && fullRow >= 0);
    const QString status = cell(model, noneRow, ResultsTableModel::GradCheckColumn);
    QVERIFY2(QRegularExpression(QStringLiteral("^out of memory at forward of block \\d+$"))
                 .match(status)
                 .hasMatch(),
             qPrintable(status));
    QCOMPARE(status, QStringLiteral("out of memory at forward of block %1")
                         .arg(none->out_of_memory->block));
    const QString tip = cell(model, noneRow, ResultsTableModel::GradCheckColumn, Qt::ToolTipRole);
    QVERIFY2(tip.contains(QStringLiteral("limit")) && tip.contains(QStringLiteral("tried to allocate")),
             qPrintable(tip));
    QVERIFY(cell(model, noneRow, ResultsTableModel::PeakMiBColumn).contains(QStringLiteral("partial")));
    QCOMPARE(cell(model, noneRow, ResultsTableModel::StepMsColumn), QStringLiteral("out of memory"));
    QCOMPARE(cell(model, noneRow, ResultsTableModel::FastestStepColumn), QStringLiteral("—"));
    QVERIFY(cell(model, fullRow, ResultsTableModel::GradCheckColumn).startsWith(QStringLiteral("ok")));
    QVERIFY(!cell(model, fullRow, ResultsTableModel::PeakMiBColumn).contains(QStringLiteral("partial")));
    QVERIFY(window.resultsNotes()->isVisibleTo(&window));
    QVERIFY(window.resultsNotes()->text().contains(QStringLiteral("none at forward of block")));

    // The timeline: none's line ends where it stopped, at its cross; full's goes on; the limit
    // is a line at what it leaves above the step's start.
    QChart* timeline = window.chartsPanel()->chart(ChartKind::Timeline);
    auto* noneLine = findSeries<QLineSeries>(timeline, {}, QStringLiteral("none"));
    auto* fullLine = findSeries<QLineSeries>(timeline, {}, QStringLiteral("full"));
    QVERIFY(noneLine && fullLine);
    const double stopped = none->out_of_memory->t_ms;
    QCOMPARE(noneLine->at(noneLine->count() - 1).x(), stopped);
    for (const QPointF& p : noneLine->points())
        QVERIFY(p.x() <= stopped);
    QVERIFY(fullLine->at(fullLine->count() - 1).x() > stopped);
    auto* cross = findSeries<QScatterSeries>(timeline, QStringLiteral("outOfMemory"));
    QVERIFY(cross);
    QCOMPARE(cross->at(0).x(), stopped);
    QCOMPARE(cross->property(kStrategyProperty).toString(), QStringLiteral("none"));
    auto* limitLine = findSeries<QLineSeries>(timeline, QStringLiteral("memoryLimit"));
    QVERIFY(limitLine);
    QVERIFY(qAbs(limitLine->at(0).y() - (limit - double(baseline) / kMiB)) < 1e-6);

    // The tradeoff chart plots none as a cross, not as a measured point.
    QChart* tradeoff = window.chartsPanel()->chart(ChartKind::Tradeoff);
    QVERIFY(findSeries<QScatterSeries>(tradeoff, QStringLiteral("outOfMemory")));
    QVERIFY(findSeries<QLineSeries>(tradeoff, QStringLiteral("memoryCapacity")));
    for (QAbstractSeries* series : tradeoff->series())
        if (series->property(kStrategyProperty).toString() == QLatin1String("none"))
            QCOMPARE(series->objectName(), QStringLiteral("outOfMemory"));
}

void TestMemoryLimit::notesShowUnderTheTable()
{
    MainWindow window;
    QVERIFY(!window.resultsNotes()->isVisibleTo(&window));
    ResultSet set;
    RunResult run;
    run.strategy = "none";
    run.grad_check = GradCheck{true, 0, 1e-5, {}};
    set.runs.push_back(run);
    set.notes = {"\"vs optimal\" is not computed: the chain has 600 units"};
    window.document()->reset(set, {});
    QVERIFY(window.resultsNotes()->isVisibleTo(&window));
    QVERIFY(window.resultsNotes()->text().contains(QStringLiteral("\"vs optimal\" is not computed")));
    window.document()->clear();
    QVERIFY(!window.resultsNotes()->isVisibleTo(&window));
}

void TestMemoryLimit::exportToMissingFolderWritesNothing()
{
    MainWindow window;
    runTinySweep(window, {"none", "full"}, m_recorder);
    if (QTest::currentTestFailed())
        return;
    ChartExporter* exporter = window.chartExporter();
    QTemporaryDir dir;
    const QString missing = dir.filePath(QStringLiteral("missing/deeper"));
    const auto nothingWritten = [&] {
        return QDir(dir.path()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden)
            == QStringList{QStringLiteral("slides"), QStringLiteral("taken.png")};
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
    QVERIFY(!exporter->exportChart(ChartKind::Tradeoff, ChartFormat::Png1x, png));
    expectMessage(png, "does not exist");
    const QString svg = missing + QStringLiteral("/timeline.svg");
    QVERIFY(!exporter->exportChart(ChartKind::Timeline, ChartFormat::Svg, svg));
    expectMessage(svg, "does not exist");
    const QString schedule = missing + QStringLiteral("/schedules.png");
    QVERIFY(!exporter->exportSchedule(ChartFormat::Png2x, schedule));
    expectMessage(schedule, "does not exist");
    QVERIFY(exporter->exportAll(missing).isEmpty());
    expectMessage(missing, "does not exist");
    const QString taken = dir.filePath(QStringLiteral("taken.png"));
    QVERIFY(!exporter->exportChart(ChartKind::Tradeoff, ChartFormat::Png1x, taken));
    expectMessage(taken, "is a folder");
    // One target of the folder is taken: nothing at all is written, not the charts before it.
    const QString slides = dir.filePath(QStringLiteral("slides"));
    QVERIFY(exporter->exportAll(slides).isEmpty());
    expectMessage(slides + QStringLiteral("/timeline.svg"), "is a folder");
    QCOMPARE(QDir(slides).entryList(QDir::Files | QDir::Hidden), QStringList());
    QVERIFY(nothingWritten());

    // The results exports (FileController) end the same way: a message, and no file.
    const QString csv = missing + QStringLiteral("/summary.csv");
    QVERIFY(!window.files()->exportCsv(csv));
    expectMessage(csv, "");
    const QString trace = missing + QStringLiteral("/run.trace.json");
    QVERIFY(!window.files()->exportTrace(trace));
    expectMessage(trace, "");
    QVERIFY(nothingWritten());

    // And where it can write, it does.
    QCOMPARE(exporter->exportAll(dir.filePath(QStringLiteral("fresh"))).size(), 10);
    QVERIFY(m_recorder.messages.isEmpty());
}

QTEST_MAIN(TestMemoryLimit)
#include "test_memory_limit.moc"
