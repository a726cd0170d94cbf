#include "panels/fit_panel.h"

#include <QChart>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>
#include <memory>

#include "base/messages.h"
#include "charts/chart_export.h"
#include "charts/chart_style.h"
#include "charts/chart_view.h"
#include "charts/fit_chart.h"
#include "ckptlab/engine/runner.h"
#include "ckptlab/formats/output_paths.h"
#include "controllers/fit_controller.h"
#include "document/core_text.h"
#include "document/settings.h"
#include "panels/fit_inputs.h"
#include "panels/fit_table.h"

namespace ckptlab::ui {

namespace {

enum ExportKind { kPng1x, kPng2x, kSvg, kCsv };

}  // namespace

FitPanel::FitPanel(FitController* controller, Settings* settings, QWidget* parent)
    : QWidget(parent), m_controller(controller), m_settings(settings) {
    setObjectName(QStringLiteral("fitPanel"));
    m_inputs = new FitInputs(settings);
    m_planButton = new QPushButton(tr("P&lan"));
    m_planButton->setObjectName(QStringLiteral("fitPlanButton"));
    m_planButton->setDefault(true);
    m_cancelButton = new QPushButton(tr("Cancel"));
    m_cancelButton->setObjectName(QStringLiteral("fitCancelButton"));
    m_progress = new QProgressBar;
    m_progress->setObjectName(QStringLiteral("fitProgress"));
    m_stage = new QLabel;
    m_stage->setObjectName(QStringLiteral("fitStage"));
    m_stage->setWordWrap(true);
    m_measureCheck = new QLabel;
    m_measureCheck->setObjectName(QStringLiteral("fitMeasureCheck"));
    m_measureCheck->setWordWrap(true);
    m_measureCheck->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_chart = new ChartView;
    m_chart->setObjectName(QStringLiteral("fitChart"));
    m_chart->showChart(makeEmptyChart(tr("Choose a model and a GPU, then Plan")));
    m_timeline = new ChartView;
    m_timeline->setObjectName(QStringLiteral("fitTimeline"));
    m_timeline->showChart(makeEmptyChart(tr("Select a strategy to see its predicted timeline")));
    m_table = new QTableWidget;
    m_table->setObjectName(QStringLiteral("fitTable"));
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    // Compact rows: seven strategies in view and the rest of the height for the charts.
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_verdict = new QLabel;
    m_verdict->setObjectName(QStringLiteral("fitVerdict"));
    m_verdict->setWordWrap(true);
    m_verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_exportButton = new QPushButton(tr("&Export"));
    m_exportButton->setObjectName(QStringLiteral("fitExportButton"));
    auto* exportMenu = new QMenu(m_exportButton);
    const auto addExport = [&](const QString& text, int kind) {
        exportMenu->addAction(text, this, [this, kind] { exportDialog(kind); });
    };
    addExport(tr("Chart as &PNG…"), kPng1x);
    addExport(tr("Chart as PNG (&2×)…"), kPng2x);
    addExport(tr("Chart as &SVG…"), kSvg);
    addExport(tr("Table as &CSV…"), kCsv);
    m_exportButton->setMenu(exportMenu);

    auto* top = new QHBoxLayout;
    top->addWidget(m_inputs, 1);
    top->addWidget(m_planButton, 0, Qt::AlignBottom);
    auto* running = new QHBoxLayout;
    running->addWidget(m_progress);
    running->addWidget(m_stage, 1);
    running->addWidget(m_cancelButton);
    // Tabs: each chart gets the panel's whole width (the timeline's legend and long schedule
    // names need it); picking a row shows its timeline.
    m_tabs = new QTabWidget;
    m_tabs->setObjectName(QStringLiteral("fitTabs"));
    m_tabs->addTab(m_chart, tr("At the peak"));
    m_tabs->addTab(m_timeline, tr("Predicted timeline"));
    auto* verdictRow = new QHBoxLayout;
    verdictRow->addWidget(m_verdict, 1);
    verdictRow->addWidget(m_exportButton, 0, Qt::AlignTop);
    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(m_tabs);
    split->addWidget(m_table);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({480, 210});  // the table's seven rows without scrolling at 800 pixels
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_measureCheck);
    layout->addLayout(running);
    layout->addWidget(split, 1);
    layout->addLayout(verdictRow);

    connect(m_planButton, &QPushButton::clicked, this, &FitPanel::plan);
    connect(m_inputs, &FitInputs::changed, this, &FitPanel::updateMeasureCheck);
    connect(m_cancelButton, &QPushButton::clicked, m_controller, &FitController::cancel);
    connect(m_controller, &FitController::progress, this, &FitPanel::onProgress);
    connect(m_controller, &FitController::planned, this, &FitPanel::showOutcome);
    connect(m_controller, &FitController::failed, this, [this](const QString& message) {
        m_stage->setText(tr("Planning failed."));
        showMessage(this, MessageKind::Error, tr("Cannot plan this model"), message);
    });
    connect(m_controller, &FitController::cancelled, this,
            [this] { m_stage->setText(tr("Cancelled.")); });
    connect(m_controller, &FitController::finished, this, &FitPanel::onFinished);
    connect(m_table, &QTableWidget::currentCellChanged, this,
            [this](int row) { showTimeline(row); });
    // A row the user picks brings its timeline forward; the row chosen after a plan does not.
    connect(m_table, &QTableWidget::cellClicked, this,
            [this] { m_tabs->setCurrentWidget(m_timeline); });

    // What the controller carries from before (a rebuild in another language).
    if (const auto& request = m_controller->lastRequest()) m_inputs->setRequest(*request);
    if (m_controller->latest()) showOutcome(m_controller->latest());
    setRunning(m_controller->isRunning());
    updateMeasureCheck();
}

void FitPanel::updateMeasureCheck() {
    m_measurable = false;
    const std::optional<ExperimentConfig> config = m_inputs->config();
    QString text;
    if (!config) {
        text = m_inputs->isReading()               ? tr("Reading the model…")
               : !m_inputs->modelError().isEmpty() ? m_inputs->modelError()
                                                   : tr("Choose a model, or open a model's "
                                                        "config.json.");
    } else if (!validate(*config).empty()) {
        m_measurable = true;  // Plan names the field out of range
    } else {
        // The same dry estimate and check measureCostFit makes before it builds anything.
        const std::int64_t needed = fitMeasurePeakEstimate(*config);
        const std::int64_t available = measuringMemory(config->device);
        m_measurable = !fitMeasureRefusal(*config, available);
        if (!m_measurable)
            text = tr("One layer needs %1 to measure, %2 are available here: too much to "
                      "measure on this machine. Choose a smaller model, or plan it on a "
                      "machine with more memory.")
                       .arg(fitSizeText(needed), fitSizeText(available));
        else if (available > 0)
            text = tr("One layer needs %1 to measure, %2 are available here.")
                       .arg(fitSizeText(needed), fitSizeText(available));
        else
            text = tr("One layer needs %1 to measure; the memory available here is unknown.")
                       .arg(fitSizeText(needed));
    }
    m_measureCheck->setText(text);
    m_measureCheck->setStyleSheet(config && !m_measurable ? QStringLiteral("color: #b31b1b;")
                                                          : QString());
    m_planButton->setToolTip(
        m_measurable
            ? tr("Measure one layer at a few small shapes (a minute or more the first time), "
                 "then predict every strategy at the real size")
            : text);
    m_planButton->setEnabled(m_measurable && !m_controller->isRunning());
}

bool FitPanel::plan() {
    if (m_controller->isRunning()) return false;
    const std::optional<FitRequest> request = m_inputs->request();
    if (!request) return false;
    // Asked again now: the memory free here changes, and the button may be pressed by code.
    const std::int64_t available = measuringMemory(request->config.device);
    if (const auto refusal = fitMeasureRefusal(request->config, available)) {
        updateMeasureCheck();
        showMessage(
            this, MessageKind::Error, tr("Cannot measure this model here"),
            tr("One layer needs %1 to measure, %2 are available here.")
                .arg(fitSizeText(fitMeasurePeakEstimate(request->config)), fitSizeText(available)));
        return false;
    }
    if (!m_controller->start(*request)) return false;
    m_progress->setRange(0, 0);  // busy until the first shape reports
    m_stage->setText(tr("Starting…"));
    setRunning(true);
    return true;
}

void FitPanel::onProgress(bool measuring, const QString& stage, int done, int total) {
    // `done` counts what is finished: the stage reported is the next one, or the last.
    const int count = std::max(total, 1);
    const QString current = QString::number(std::min(done + 1, count));
    m_progress->setRange(0, count);
    m_progress->setValue(std::min(done, count));
    m_stage->setText(measuring ? tr("Measuring one layer at small shapes: %1 of %2 (%3)")
                                     .arg(current, QString::number(total), stage)
                               : tr("Planning at the real size: %1 of %2 (%3)")
                                     .arg(current, QString::number(total), stage));
}

void FitPanel::onFinished() {
    setRunning(false);
    updateMeasureCheck();  // the memory free here may have changed meanwhile
}

void FitPanel::setRunning(bool running) {
    m_planButton->setEnabled(!running && m_measurable);
    m_inputs->setEnabled(!running);
    m_cancelButton->setVisible(running);
    m_progress->setVisible(running);
    if (!running) m_progress->reset();
}

void FitPanel::showOutcome(const FitOutcomePtr& outcome) {
    if (!outcome) return;
    m_shown = outcome;
    const FullSizePlan& plan = outcome->plan;
    m_chart->showChart(buildFitChart(plan));
    fillFitTable(m_table, plan);
    m_verdict->setText(fitVerdict(plan).join(QLatin1Char('\n')));
    // How the costs were measured and fitted: core's words, long, for those who ask.
    m_verdict->setToolTip(outcome->fit ? QString::fromStdString(outcome->fit->method) : QString());
    m_stage->setText(
        outcome->measured
            ? tr("Measured and planned in %1 s.").arg(outcome->seconds, 0, 'f', 1)
            : tr("Planned in %1 s with the fit measured before.").arg(outcome->seconds, 0, 'f', 1));
    // The fastest schedule that fits, else the first row: a timeline to look at at once.
    const int rows = m_table->rowCount();
    if (rows > 0) m_table->selectRow(plan.fastest_at_size ? rows - 1 : 0);
}

void FitPanel::showTimeline(int row) {
    if (!m_shown || !m_shown->fit || row < 0) return;
    const std::vector<const StrategyAtSize*> rows = fullSizeRows(m_shown->plan);
    if (row >= int(rows.size())) return;
    const Strategy& strategy = rows[size_t(row)]->strategy;
    const QString name = fitRowNames(m_shown->plan).value(row);
    try {
        // A replay of the fit's costs at the real size: arithmetic, no measuring.
        const Prediction prediction = predictFitRow(*m_shown->fit, m_shown->plan, row);
        RunResult run =
            predictedRun(m_shown->plan.config, strategy, prediction, m_shown->plan.capacity);
        run.label = name.toStdString();
        m_timeline->showChart(buildPredictedTimelineChart(run));
    } catch (const std::exception& e) {
        m_timeline->showChart(
            makeEmptyChart(tr("No predicted timeline for %1: %2").arg(name, coreErrorText(e))));
    }
}

QString FitPanel::description() const {
    if (!m_shown) return {};
    return tr("%1; capacity %2; predicted at the real size from a fit measured on this machine")
        .arg(describeConfig(m_shown->plan.config), fitSizeText(m_shown->plan.capacity));
}

bool FitPanel::exportChartPng(const QString& path, int scale) {
    if (!m_shown) return false;
    if (!refuseUnwritableFile(this, path, tr("Cannot export chart")).isEmpty()) return false;
    const NormalLookScope look;  // files have the normal look
    std::unique_ptr<QChart> chart(buildFitChart(m_shown->plan));
    QString error;
    if (ui::exportChartPng(chart.get(), path, scale, &error)) return true;
    showMessage(this, MessageKind::Error, tr("Cannot export chart"), error);
    return false;
}

bool FitPanel::exportChartSvg(const QString& path) {
    if (!m_shown) return false;
    if (!refuseUnwritableFile(this, path, tr("Cannot export chart")).isEmpty()) return false;
    const NormalLookScope look;
    std::unique_ptr<QChart> chart(buildFitChart(m_shown->plan));
    QString error;
    if (ui::exportChartSvg(chart.get(), path, chart->title(), description(), &error)) return true;
    showMessage(this, MessageKind::Error, tr("Cannot export chart"), error);
    return false;
}

bool FitPanel::exportCsv(const QString& path) {
    if (!m_shown) return false;
    if (!refuseUnwritableFile(this, path, tr("Cannot export CSV")).isEmpty()) return false;
    try {
        writeTextFile(QFile::encodeName(path).toStdString(), fullSizePlanCsv(m_shown->plan));
    } catch (const std::exception& e) {
        showMessage(this, MessageKind::Error, tr("Cannot export CSV"),
                    QString::fromStdString(e.what()));
        return false;
    }
    return true;
}

void FitPanel::exportDialog(int kind) {
    if (!m_shown) {
        showMessage(this, MessageKind::Information, tr("Nothing to export"),
                    tr("Plan a model first."));
        return;
    }
    const bool csv = kind == kCsv;
    const QString suffix = csv              ? QStringLiteral(".csv")
                           : kind == kSvg   ? QStringLiteral(".svg")
                           : kind == kPng2x ? QStringLiteral("@2x.png")
                                            : QStringLiteral(".png");
    const QString filter = csv            ? tr("CSV (*.csv)")
                           : kind == kSvg ? tr("SVG (*.svg)")
                                          : tr("PNG (*.png)");
    const FolderKind folder = csv ? FolderKind::Export : FolderKind::Charts;
    const QString start = m_settings ? m_settings->lastFolder(folder) : QDir::homePath();
    const QString suggested = start + QStringLiteral("/will-it-fit") + suffix;
    QString path = QFileDialog::getSaveFileName(this, tr("Export"), suggested, filter);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty())
        path += csv            ? QStringLiteral(".csv")
                : kind == kSvg ? QStringLiteral(".svg")
                               : QStringLiteral(".png");
    if (m_settings) m_settings->setLastFolder(folder, path);
    if (csv)
        exportCsv(path);
    else if (kind == kSvg)
        exportChartSvg(path);
    else
        exportChartPng(path, kind == kPng2x ? 2 : 1);
}

}  // namespace ckptlab::ui
