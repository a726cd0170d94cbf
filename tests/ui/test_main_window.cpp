// Drives the whole window: parameters, strategies, a real tiny sweep into the table and every
// chart, and one selection shared by the table and the charts. Cancel and closing are in
// test_cancel.cpp, bad inputs in test_bad_inputs.cpp.

#include <QAreaSeries>
#include <QBarSet>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHorizontalStackedBarSeries>
#include <QLineSeries>
#include <QProgressBar>
#include <QScatterSeries>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>

#include "ui_test_support.h"

#include "base/messages.h"
#include "charts/chart_style.h"
#include "charts/chart_view.h"
#include "ckptlab/model/config_fields.h"
#include "controllers/sweep_controller.h"
#include "document/results_document.h"
#include "document/results_table_model.h"
#include "panels/charts_panel.h"
#include "panels/parameter_panel.h"
#include "panels/progress_status.h"
#include "panels/results_view.h"
#include "panels/strategy_list.h"
#include "test_configs.h"
#include "window/main_window.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

namespace {

template <typename Series>
QList<Series*> strategySeries(QChart* chart) {
    QList<Series*> found;
    for (QAbstractSeries* s : chart->series())
        if (auto* typed = qobject_cast<Series*>(s))
            if (!s->property(kStrategyProperty).toString().isEmpty()) found << typed;
    return found;
}

}  // namespace

class TestMainWindow : public WindowTest {
    Q_OBJECT
private Q_SLOTS:
    void iconIsCompiledIn();
    void transformerOnlyFields();
    void fieldsWhereTheyApply();
    void everyFieldThroughTheWidgets();
    void allocatorChoice();
    void runsTinySweepIntoTableAndCharts();
    void selectionIsSharedEverywhere();
};

void TestMainWindow::iconIsCompiledIn() {
    MainWindow window;  // registers the resources of the static library
    const QIcon icon(QStringLiteral(":/icons/ckptlab.svg"));
    const QImage image = icon.pixmap(64, 64).toImage();
    QVERIFY(!image.isNull());
    QVERIFY(qAlpha(image.pixel(32, 32)) > 0);
}

void TestMainWindow::transformerOnlyFields() {
    ParameterPanel parameters;
    auto* block = parameters.findChild<QComboBox*>(QStringLiteral("block"));
    auto* heads = parameters.findChild<QSpinBox*>(QStringLiteral("heads"));
    auto* dropout = parameters.findChild<QDoubleSpinBox*>(QStringLiteral("dropout"));
    auto* depth = parameters.findChild<QSpinBox*>(QStringLiteral("depth"));
    QVERIFY(block && heads && dropout && depth);
    block->setCurrentIndex(block->findData(QStringLiteral("ffn")));
    QVERIFY(!heads->isEnabled() && !dropout->isEnabled());
    block->setCurrentIndex(block->findData(QStringLiteral("transformer")));
    QVERIFY(heads->isEnabled() && dropout->isEnabled());
    // The widgets enforce the core's limits.
    depth->setValue(100000);
    QCOMPARE(depth->value(), int(limits::depth.max));
    QCOMPARE(parameters.config().depth, int(limits::depth.max));
}

// Each block kind enables the fields it reads, and the chain's ends theirs.
void TestMainWindow::fieldsWhereTheyApply() {
    ParameterPanel parameters;
    const auto widget = [&](const char* name) {
        QWidget* found = parameters.findChild<QWidget*>(QLatin1String(name));
        if (!found) qFatal("no widget %s", name);
        return found;
    };
    const QStringList llamaOnly = {"kvHeads", "headDim", "ropeTheta", "qkvBias"};
    const QStringList attention = {"heads", "attention"};
    // Where a field applies it is shown and enabled; elsewhere hidden and disabled.
    const auto enabled = [&](const QStringList& names) {
        QStringList wrong;
        for (const QString& name : names)
            if (!widget(qPrintable(name))->isEnabled() || widget(qPrintable(name))->isHidden())
                wrong << name;
        return wrong.join(QLatin1Char(' '));
    };
    const auto disabled = [&](const QStringList& names) {
        QStringList wrong;
        for (const QString& name : names)
            if (widget(qPrintable(name))->isEnabled()) wrong << name;
        return wrong.join(QLatin1Char(' '));
    };
    const auto hidden = [&](const QStringList& names) {
        QStringList wrong;
        for (const QString& name : names)
            if (!widget(qPrintable(name))->isHidden()) wrong << name;
        return wrong.join(QLatin1Char(' '));
    };
    ExperimentConfig c;
    parameters.setConfig(c);  // ffn, no chain ends
    QCOMPARE(disabled(llamaOnly + attention +
                      QStringList{"dropout", "attentionChunk", "rmsNormEps", "vocab",
                                  "tieEmbeddings", "lossChunks"}),
             QString());
    QCOMPARE(hidden(llamaOnly + attention + QStringList{"dropout", "tieEmbeddings"}), QString());
    QCOMPARE(enabled({"ffnWidth", "chainEnds", "dtype"}), QString());
    c.block = BlockKind::Transformer;
    parameters.setConfig(c);
    QCOMPARE(enabled(attention + QStringList{"dropout"}), QString());
    QCOMPARE(disabled(llamaOnly + QStringList{"attentionChunk", "rmsNormEps"}), QString());
    c.block = BlockKind::Llama;
    parameters.setConfig(c);
    QCOMPARE(enabled(llamaOnly + attention + QStringList{"rmsNormEps"}), QString());
    QCOMPARE(disabled({"dropout", "attentionChunk"}), QString());
    // The chunk size where attention is memory-efficient.
    auto* kinds = qobject_cast<QComboBox*>(widget("attention"));
    QCOMPARE(kinds->count(), 3);
    kinds->setCurrentIndex(kinds->findData(QStringLiteral("memory-efficient")));
    QCOMPARE(enabled({"attentionChunk"}), QString());
    QVERIFY(parameters.config().attention == AttentionKind::MemoryEfficient);

    // The chain's ends: the check box gives the vocabulary its field and the LM head's.
    c = ExperimentConfig{};
    parameters.setConfig(c);
    auto* ends = qobject_cast<QCheckBox*>(widget("chainEnds"));
    auto* vocab = qobject_cast<QSpinBox*>(widget("vocab"));
    QVERIFY(ends && vocab && !ends->isChecked());
    QCOMPARE(parameters.config().vocab, 0);
    ends->setChecked(true);
    QCOMPARE(enabled({"vocab", "tieEmbeddings", "lossChunks", "rmsNormEps"}), QString());
    QCOMPARE(parameters.config().vocab, vocab->value());
    QVERIFY(vocab->value() >= int(limits::vocab.min));
    vocab->setValue(8192);
    QCOMPARE(parameters.config().vocab, 8192);
    ends->setChecked(false);
    QCOMPARE(parameters.config().vocab, 0);
    QCOMPARE(disabled({"vocab", "tieEmbeddings", "lossChunks"}), QString());
    QVERIFY(!vocab->isHidden());  // beside its check box, to switch on again
    // A loss in more chunks than tokens is named under the form.
    c.vocab = 100;
    c.seq = 8;
    c.loss_chunks = 9;
    parameters.setConfig(c);
    QVERIFY2(parameters.problems().join(QLatin1Char('\n')).contains(QLatin1String("loss-chunks")),
             qPrintable(parameters.problems().join(QLatin1Char('\n'))));
    // Three precisions, mixed among them.
    auto* precision = qobject_cast<QComboBox*>(widget("dtype"));
    QCOMPARE(precision->count(), 3);
    precision->setCurrentIndex(precision->findData(QStringLiteral("mixed-bf16")));
    QVERIFY(parameters.config().dtype == DType::MixedBFloat16);
}

// A config with every field away from its default comes back from the widgets whole (the
// device one this machine has, a seed and a time limit the boxes hold).
void TestMainWindow::everyFieldThroughTheWidgets() {
    ParameterPanel parameters;
    ExperimentConfig changed = ckptlab::test::everyFieldChanged();
    changed.device = "cpu";
    changed.seed = 12345;       // the seed's box goes to INT_MAX
    changed.time_limit_s = 30;  // whole seconds in the box
    parameters.setConfig(changed);
    const ExperimentConfig back = parameters.config();
    for (const ConfigField& field : configFields())
        QVERIFY2(valueOf(field, back) == valueOf(field, changed), field.key);
    QVERIFY(parameters.problems().isEmpty());
}

void TestMainWindow::allocatorChoice() {
    ParameterPanel parameters;
    auto* allocator = parameters.findChild<QComboBox*>(QStringLiteral("allocator"));
    QVERIFY(allocator);
    QCOMPARE(allocator->count(), 2);
    QVERIFY(parameters.config().allocator == AllocatorKind::Caching);  // the default
    QCOMPARE(allocator->currentText(), QStringLiteral("caching (as CUDA)"));
    ExperimentConfig c;
    c.allocator = AllocatorKind::System;
    parameters.setConfig(c);
    QCOMPARE(allocator->currentText(), QStringLiteral("system (malloc)"));
    QVERIFY(parameters.config().allocator == AllocatorKind::System);
    allocator->setCurrentIndex(allocator->findData(QStringLiteral("caching")));
    QVERIFY(parameters.config().allocator == AllocatorKind::Caching);
    // Each choice says what it measures.
    for (int i = 0; i < allocator->count(); ++i)
        QVERIFY(!allocator->itemData(i, Qt::ToolTipRole).toString().isEmpty());
    QVERIFY(allocator->toolTip().contains(QLatin1String("CUDA")));
    QVERIFY(allocator->isEnabled());  // on the CPU, where it applies
}

void TestMainWindow::runsTinySweepIntoTableAndCharts() {
    MainWindow window;
    auto* sweep = part<SweepController>(window, "sweepController");
    auto* status = part<ProgressStatus>(window, "progressStatus");
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy progress(sweep, &SweepController::progress);
    part<ParameterPanel>(window, "parameters")->setConfig(tinyConfig());
    part<StrategyList>(window, "strategies")->setCheckedStrategies({"none", "full", "every:2"});
    QSignalSpy ended(&window, &MainWindow::sweepEnded);
    QVERIFY(window.startSweep());
    QVERIFY(status->isVisible());
    QCOMPARE(status->findChild<QProgressBar*>()->maximum(), 0);  // busy until the first report
    QVERIFY(!part<QAction>(window, "runAction")->isEnabled());
    QVERIFY(ended.wait(180000));
    QCOMPARE(ended.first().at(1).toBool(), false);
    QVERIFY(m_recorder.messages.isEmpty());
    QVERIFY(!progress.isEmpty());
    for (const QList<QVariant>& report : progress) {
        const double fraction = report.at(0).toDouble();
        QVERIFY(fraction >= 0.0 && fraction <= 1.0);
    }
    QVERIFY(part<QAction>(window, "runAction")->isEnabled());
    QVERIFY(!status->isVisible());

    // Table: one row per strategy, in order, with a passing gradient check.
    ResultsTableModel* model = part<ResultsTableModel>(window, "resultsModel");
    QCOMPARE(model->rowCount(), 3);
    const QStringList expected{"none", "full", "every:2"};
    for (int row = 0; row < 3; ++row) {
        QCOMPARE(model->index(row, ResultsTableModel::StrategyColumn).data().toString(),
                 expected[row]);
        QVERIFY(model->index(row, ResultsTableModel::GradCheckColumn)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("ok")));
        QVERIFY(model->row(row).peak_mib > 0);
    }
    QCOMPARE(part<ResultsDocument>(window, "document")->strategyNames(), expected);

    // Charts: the number of points in each chart's series.
    ChartsPanel* charts = part<ChartsPanel>(window, "charts");
    const auto scatter = strategySeries<QScatterSeries>(charts->chart(ChartKind::Tradeoff));
    QCOMPARE(scatter.size(), 3);
    for (QScatterSeries* s : scatter) QCOMPARE(s->count(), 1);

    const auto lines = strategySeries<QLineSeries>(charts->chart(ChartKind::Timeline));
    QCOMPARE(lines.size(), 3);
    const auto& thinned = part<ResultsDocument>(window, "document")->thinnedTimelines();
    for (QLineSeries* line : lines) {
        const int run = int(expected.indexOf(line->property(kStrategyProperty).toString()));
        QVERIFY(run >= 0);
        const int events = int(thinned[size_t(run)].size());
        QVERIFY(events > 0 && events <= 1500);    // thinned in the worker
        QCOMPARE(line->count(), 2 * events - 1);  // drawn as steps
    }

    // Lifetimes show the selected run (the newest until the user picks one).
    QCOMPARE(part<ResultsDocument>(window, "document")->selectedRun(), 2);
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
            for (QBarSet* set : bars->barSets()) QCOMPARE(set->count(), 3);
        }
    QCOMPARE(barSeries, 1);
}

void TestMainWindow::selectionIsSharedEverywhere() {
    MainWindow window;
    window.resize(1400, 900);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    runTinySweep(window, {"none", "full", "every:2"}, m_recorder);

    // A table row selects the run: lifetimes show it and the timeline puts it first.
    part<ResultsView>(window, "resultsView")->selectRow(1);
    QCOMPARE(part<ResultsDocument>(window, "document")->selectedRun(), 1);
    ChartsPanel* charts = part<ChartsPanel>(window, "charts");
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
        if (s->property(kStrategyProperty).toString() == QLatin1String("none")) none = s;
    QVERIFY(none);
    const QPointF scene = chart->mapToScene(chart->mapToPosition(none->at(0), none));
    const QPoint at = view->mapFromScene(scene);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, Qt::NoModifier, at);
    QTRY_COMPARE(part<ResultsDocument>(window, "document")->selectedRun(), 0);
    const QModelIndex current = part<ResultsView>(window, "resultsView")->currentIndex();
    QCOMPARE(current.data(ResultsTableModel::RunIndexRole).toInt(), 0);
}

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
