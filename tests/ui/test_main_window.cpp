// Drives the whole window: parameters, strategies, a real tiny sweep, charts, selection,
// cancel, closing mid-sweep, and bad inputs that must give messages instead of crashes.

#include <QAreaSeries>
#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHorizontalStackedBarSeries>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QProgressBar>
#include <QScatterSeries>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include "charts/chart_style.h"
#include "charts/chart_view.h"
#include "window/charts_panel.h"
#include "window/main_window.h"
#include "window/memory_estimate_label.h"
#include "window/messages.h"
#include "window/parameter_panel.h"
#include "window/progress_status.h"
#include "window/results_document.h"
#include "window/results_table_model.h"
#include "window/results_view.h"
#include "window/strategy_list.h"
#include "window/sweep_controller.h"

using namespace ckptlab;
using namespace ckptlab::ui;

namespace {

// Before QApplication exists: offscreen by default, and settings in a throw-away folder.
QTemporaryDir& configHome()
{
    static QTemporaryDir dir;
    return dir;
}
const bool kEnvironment = [] {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(configHome().path()));
    return true;
}();

ExperimentConfig tinyConfig()
{
    ExperimentConfig c;
    c.block = BlockKind::Ffn;
    c.depth = 4;
    c.width = 32;
    c.seq = 16;
    c.batch = 1;
    c.warmup = 0;
    c.repeats = 1;
    return c;
}

// Long enough (seconds per strategy) that a cancel lands in the middle of the sweep.
ExperimentConfig slowConfig()
{
    ExperimentConfig c = tinyConfig();
    c.depth = 12;
    c.width = 256;
    c.seq = 256;
    c.batch = 2;
    c.warmup = 1;
    c.repeats = 5;
    return c;
}

const QStringList kSlowStrategies{"none",       "full",       "every:2", "every:3",
                                  "segments:2", "segments:3", "sqrt",    "from:4"};

template <typename Series>
QList<Series*> strategySeries(QChart* chart)
{
    QList<Series*> found;
    for (QAbstractSeries* s : chart->series())
        if (auto* typed = qobject_cast<Series*>(s))
            if (!s->property(kStrategyProperty).toString().isEmpty())
                found << typed;
    return found;
}

}  // namespace

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanupTestCase();

    void transformerOnlyFields();
    void runsTinySweepIntoTableAndCharts();
    void selectionIsSharedEverywhere();
    void cancelKeepsFinishedResults();
    void closingMidSweepStopsCleanly();
    void impossibleConfigGivesMessage();
    void refusedInWorkerGivesMessage();
    void badInputsGiveMessages();

private:
    void runTiny(MainWindow& window, const QStringList& strategies);
    QList<Message> m_messages;
    bool m_answer = false;
};

void TestMainWindow::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("ckptlab-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("test_main_window"));
    setMessageSink([this](const Message& m) {
        m_messages << m;
        return m_answer;
    });
}

void TestMainWindow::init()
{
    m_messages.clear();
    m_answer = false;
}

void TestMainWindow::cleanupTestCase()
{
    setMessageSink({});
}

void TestMainWindow::runTiny(MainWindow& window, const QStringList& strategies)
{
    window.parameterPanel()->setConfig(tinyConfig());
    window.strategyList()->setCheckedStrategies(strategies);
    QSignalSpy ended(&window, &MainWindow::sweepEnded);
    window.runAction()->trigger();
    QVERIFY2(window.isRunning(), qPrintable(m_messages.isEmpty() ? QString() : m_messages.last().text));
    QVERIFY(ended.wait(180000));
    QCOMPARE(ended.first().at(0).toBool(), false);  // not cancelled
    QCOMPARE(ended.first().at(1).toBool(), false);  // not failed
}

void TestMainWindow::transformerOnlyFields()
{
    MainWindow window;
    auto* block = window.findChild<QComboBox*>(QStringLiteral("block"));
    auto* heads = window.findChild<QSpinBox*>(QStringLiteral("heads"));
    auto* dropout = window.findChild<QDoubleSpinBox*>(QStringLiteral("dropout"));
    auto* depth = window.findChild<QSpinBox*>(QStringLiteral("depth"));
    QVERIFY(block && heads && dropout && depth);
    block->setCurrentIndex(block->findData(int(BlockKind::Ffn)));
    QVERIFY(!heads->isEnabled() && !dropout->isEnabled());
    block->setCurrentIndex(block->findData(int(BlockKind::Transformer)));
    QVERIFY(heads->isEnabled() && dropout->isEnabled());
    // The widgets enforce the core's limits.
    depth->setValue(100000);
    QCOMPARE(depth->value(), int(limits::depth.max));
    QCOMPARE(window.parameterPanel()->config().depth, int(limits::depth.max));
}

void TestMainWindow::runsTinySweepIntoTableAndCharts()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy progress(window.sweepController(), &SweepController::progress);
    window.parameterPanel()->setConfig(tinyConfig());
    window.strategyList()->setCheckedStrategies({"none", "full", "every:2"});
    QSignalSpy ended(&window, &MainWindow::sweepEnded);
    QVERIFY(window.startSweep());
    QVERIFY(window.progressStatus()->isVisible());
    QVERIFY(window.progressStatus()->isIndeterminate());  // until the first report
    QVERIFY(!window.runAction()->isEnabled());
    QVERIFY(ended.wait(180000));
    QCOMPARE(ended.first().at(1).toBool(), false);
    QVERIFY(m_messages.isEmpty());
    QVERIFY(!progress.isEmpty());
    for (const QList<QVariant>& report : progress) {
        const double fraction = report.at(0).toDouble();
        QVERIFY(fraction >= 0.0 && fraction <= 1.0);
    }
    QVERIFY(window.runAction()->isEnabled());
    QVERIFY(!window.progressStatus()->isVisible());

    // Table: one row per strategy, in order, with a passing gradient check.
    ResultsTableModel* model = window.resultsModel();
    QCOMPARE(model->rowCount(), 3);
    const QStringList expected{"none", "full", "every:2"};
    for (int row = 0; row < 3; ++row) {
        QCOMPARE(model->index(row, ResultsTableModel::StrategyColumn).data().toString(),
                 expected[row]);
        QVERIFY(model->index(row, ResultsTableModel::GradCheckColumn).data().toString()
                    .startsWith(QStringLiteral("ok")));
        QVERIFY(model->row(row).peak_mib > 0);
    }
    QCOMPARE(window.document()->strategyNames(), expected);

    // Charts: the number of points in each chart's series.
    ChartsPanel* charts = window.chartsPanel();
    const auto scatter = strategySeries<QScatterSeries>(charts->chart(ChartKind::Tradeoff));
    QCOMPARE(scatter.size(), 3);
    for (QScatterSeries* s : scatter)
        QCOMPARE(s->count(), 1);

    const auto lines = strategySeries<QLineSeries>(charts->chart(ChartKind::Timeline));
    QCOMPARE(lines.size(), 3);
    const auto& thinned = window.document()->thinnedTimelines();
    for (QLineSeries* line : lines) {
        const int run = int(expected.indexOf(line->property(kStrategyProperty).toString()));
        QVERIFY(run >= 0);
        const int events = int(thinned[size_t(run)].size());
        QVERIFY(events > 0 && events <= 1500);  // thinned in the worker
        QCOMPARE(line->count(), 2 * events - 1);  // drawn as steps
    }

    // Lifetimes show the selected run (the newest until the user picks one).
    QCOMPARE(window.document()->selectedRun(), 2);
    const auto areas = strategySeries<QAreaSeries>(charts->chart(ChartKind::Lifetimes));
    QVERIFY(!areas.isEmpty());
    for (QAreaSeries* area : areas) {
        QCOMPARE(area->property(kStrategyProperty).toString(), QStringLiteral("every:2"));
        QVERIFY(area->upperSeries()->count() > 0);
        QCOMPARE(area->upperSeries()->count() % 4, 0);  // four corners per bar
    }

    int barSeries = 0;
    for (QAbstractSeries* s : charts->chart(ChartKind::Breakdown)->series())
        if (auto* bars = qobject_cast<QHorizontalStackedBarSeries*>(s)) {
            ++barSeries;
            QVERIFY(!bars->barSets().isEmpty());
            for (QBarSet* set : bars->barSets())
                QCOMPARE(set->count(), 3);
        }
    QCOMPARE(barSeries, 1);
}

void TestMainWindow::selectionIsSharedEverywhere()
{
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    runTiny(window, {"none", "full", "every:2"});

    // A table row selects the run: lifetimes show it and the timeline puts it first.
    window.resultsView()->selectRow(1);
    QCOMPARE(window.document()->selectedRun(), 1);
    ChartsPanel* charts = window.chartsPanel();
    const auto areas = strategySeries<QAreaSeries>(charts->chart(ChartKind::Lifetimes));
    QVERIFY(!areas.isEmpty());
    QCOMPARE(areas.first()->property(kStrategyProperty).toString(), QStringLiteral("full"));
    const auto lines = strategySeries<QLineSeries>(charts->chart(ChartKind::Timeline));
    QCOMPARE(lines.first()->property(kStrategyProperty).toString(), QStringLiteral("full"));

    // A click on a tradeoff point selects that run in the table.
    charts->setCurrentKind(ChartKind::Tradeoff);
    QChart* chart = charts->chart(ChartKind::Tradeoff);
    ChartView* view = charts->view(ChartKind::Tradeoff);
    QTRY_VERIFY(view->isVisible() && view->width() > 200);
    QScatterSeries* none = nullptr;
    for (QScatterSeries* s : strategySeries<QScatterSeries>(chart))
        if (s->property(kStrategyProperty).toString() == QLatin1String("none"))
            none = s;
    QVERIFY(none);
    const QPointF scene = chart->mapToScene(chart->mapToPosition(none->at(0), none));
    const QPoint at = view->mapFromScene(scene);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier, at);
    QTRY_COMPARE(window.document()->selectedRun(), 0);
    const QModelIndex current = window.resultsView()->currentIndex();
    QCOMPARE(current.data(ResultsTableModel::RunIndexRole).toInt(), 0);
}

void TestMainWindow::cancelKeepsFinishedResults()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    window.parameterPanel()->setConfig(slowConfig());
    window.strategyList()->setCheckedStrategies(kSlowStrategies);
    QSignalSpy ended(&window, &MainWindow::sweepEnded);
    QVERIFY(window.startSweep());
    QTRY_VERIFY_WITH_TIMEOUT(window.document()->runCount() >= 1, 180000);
    QVERIFY(window.isRunning());

    QElapsedTimer sinceCancel;
    sinceCancel.start();
    QTest::keyClick(&window, Qt::Key_Escape);  // the Cancel action's shortcut
    QVERIFY(ended.wait(30000));
    // The runner honours cancel within about a second; allow for a loaded machine.
    QVERIFY2(sinceCancel.elapsed() < 5000, qPrintable(QString::number(sinceCancel.elapsed())));
    QCOMPARE(ended.first().at(0).toBool(), true);  // cancelled

    const int runs = window.document()->runCount();
    QVERIFY(runs >= 1);
    QVERIFY(runs < kSlowStrategies.size());
    QCOMPARE(window.resultsModel()->rowCount(), runs);
    QVERIFY(window.document()->results().cancelled);
    QVERIFY(window.runAction()->isEnabled());
    QVERIFY(m_messages.isEmpty());
}

void TestMainWindow::closingMidSweepStopsCleanly()
{
    auto* window = new MainWindow;
    window->show();
    QVERIFY(QTest::qWaitForWindowExposed(window));
    window->parameterPanel()->setConfig(slowConfig());
    window->strategyList()->setCheckedStrategies(kSlowStrategies);
    QSignalSpy progress(window->sweepController(), &SweepController::progress);
    QVERIFY(window->startSweep());
    QVERIFY(progress.wait(60000));
    QElapsedTimer closing;
    closing.start();
    QVERIFY(window->close());  // sets cancel and joins the sweep thread
    QVERIFY(!window->sweepController()->isRunning());
    QVERIFY2(closing.elapsed() < 5000, qPrintable(QString::number(closing.elapsed())));
    delete window;
}

void TestMainWindow::impossibleConfigGivesMessage()
{
    MainWindow window;
    ExperimentConfig huge = tinyConfig();
    huge.width = 16384;
    huge.seq = 65536;
    huge.batch = 4096;
    window.parameterPanel()->setConfig(huge);
    window.strategyList()->setCheckedStrategies({"none", "full"});
    QVERIFY(!window.memoryEstimate()->forecast().fits());
    QVERIFY(window.memoryEstimate()->text().contains(QStringLiteral("Cannot fit")));
    QVERIFY(!window.memoryEstimate()->styleSheet().isEmpty());  // warning colour

    QVERIFY(!window.startSweep());
    QVERIFY(!window.isRunning());
    QCOMPARE(m_messages.size(), 1);
    QCOMPARE(m_messages[0].kind, MessageKind::Warning);
    QVERIFY(m_messages[0].text.contains(QStringLiteral("MiB")));  // the predicted number
}

void TestMainWindow::refusedInWorkerGivesMessage()
{
    // The worker's own error path: a sweep the runner refuses before running.
    MainWindow window;
    runTiny(window, {"none"});
    QCOMPARE(window.document()->runCount(), 1);
    ExperimentConfig huge = tinyConfig();
    huge.width = 16384;
    huge.seq = 65536;
    huge.batch = 4096;
    QSignalSpy ended(&window, &MainWindow::sweepEnded);
    window.sweepController()->start(huge, {"none"});
    QVERIFY(ended.wait(60000));
    QCOMPARE(ended.first().at(1).toBool(), true);  // failed
    QCOMPARE(m_messages.size(), 1);
    QCOMPARE(m_messages[0].kind, MessageKind::Error);
    QCOMPARE(m_messages[0].title, QStringLiteral("Not enough memory"));
    // The earlier results stay on screen.
    QCOMPARE(window.document()->runCount(), 1);
    QVERIFY(window.runAction()->isEnabled());
}

void TestMainWindow::badInputsGiveMessages()
{
    MainWindow window;
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    // Heads must divide the width: shown under the form and refused on Run.
    ExperimentConfig bad = tinyConfig();
    bad.block = BlockKind::Transformer;
    bad.heads = 3;
    window.parameterPanel()->setConfig(bad);
    QVERIFY(!window.parameterPanel()->problems().isEmpty());
    QVERIFY(!window.startSweep());
    QCOMPARE(m_messages.size(), 1);
    QCOMPARE(m_messages.last().title, QStringLiteral("Invalid configuration"));

    // A custom strategy is checked by parseStrategy and its message shown.
    window.parameterPanel()->setConfig(tinyConfig());
    auto* custom = window.findChild<QLineEdit*>(QStringLiteral("customStrategy"));
    auto* error = window.findChild<QLabel*>(QStringLiteral("customError"));
    QVERIFY(custom && error);
    custom->setFocus();
    QTest::keyClicks(custom, QStringLiteral("segments:99"));
    QTest::keyClick(custom, Qt::Key_Return);
    QVERIFY(error->text().contains(QStringLiteral("segments")));
    QCOMPARE(custom->text(), QStringLiteral("segments:99"));  // kept for correcting
    custom->clear();
    QTest::keyClicks(custom, QStringLiteral("segments:3"));
    QTest::keyClick(custom, Qt::Key_Return);
    QVERIFY(error->text().isEmpty());
    QVERIFY(window.strategyList()->checkedStrategies().contains(QStringLiteral("segments:3")));
    QVERIFY(!window.strategyList()->addStrategy(QStringLiteral("bogus")).isEmpty());

    // A strategy that does not apply to this model is refused on Run.
    window.strategyList()->setCheckedStrategies({"none", "attn"});  // attn needs transformer
    QCOMPARE(window.strategyList()->invalidChecked().size(), 1);
    m_messages.clear();
    QVERIFY(!window.startSweep());
    QCOMPARE(m_messages.size(), 1);
    QCOMPARE(m_messages.last().title, QStringLiteral("Invalid strategy"));

    // Nothing checked.
    window.strategyList()->setCheckedStrategies({});
    QVERIFY(!window.startSweep());
    QCOMPARE(m_messages.last().title, QStringLiteral("No strategy"));

    // Presets check the seed's sets.
    window.parameterPanel()->setConfig(ExperimentConfig{});
    window.strategyList()->applyPreset(QStringLiteral("experiment-1"));
    QCOMPARE(window.strategyList()->checkedStrategies(),
             QStringList({"none", "every:1", "every:2", "every:4", "every:8"}));
}

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
