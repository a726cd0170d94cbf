#include "panels/charts_panel.h"

#include <QChart>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>
#include <algorithm>

#include "base/projector_mode.h"
#include "charts/chart_style.h"
#include "charts/chart_view.h"
#include "charts/schedule_view.h"
#include "charts/source_groups.h"
#include "document/results_document.h"
#include "playback/charts_playback.h"

namespace ckptlab::ui {

ChartsPanel::ChartsPanel(ResultsDocument* document, QWidget* parent)
    : QTabWidget(parent), m_document(document) {
    setObjectName(QStringLiteral("charts"));
    setDocumentMode(true);
    m_playback = new ChartsPlayback(document, this);
    for (ChartKind kind : m_kinds) {
        addTab(makePage(kind), chartTitle(kind));
        setTabVisible(tabOf(kind), isAvailable(kind));
        if (ChartView* shown = view(kind))
            shown->showChart(build(kind));
        else
            m_stale[index(kind)] = true;  // the schedules: painted when first shown
    }
    m_playback->attach(view(ChartKind::Timeline), view(ChartKind::Lifetimes), m_schedule);
    connect(this, &QTabWidget::currentChanged, this,
            [this] { m_playback->pageShown(currentWidget()); });
    m_playback->pageShown(currentWidget());
    // Projector mode changes fonts, lines and theme: every chart is drawn again.
    connect(projectorMode(), &ProjectorMode::changed, this, &ChartsPanel::restyle);
    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(0);
    connect(&m_refreshTimer, &QTimer::timeout, this, &ChartsPanel::refreshCurrent);
    connect(this, &QTabWidget::currentChanged, this, &ChartsPanel::refreshCurrent);
    connect(document, &ResultsDocument::resetDone, this, &ChartsPanel::markAllStale);
    connect(document, &ResultsDocument::runAdded, this, &ChartsPanel::markAllStale);
    connect(document, &ResultsDocument::frontierChanged, this, &ChartsPanel::markAllStale);
    connect(document, &ResultsDocument::selectionChanged, this, &ChartsPanel::onSelectionChanged);
}

// A tab's page: the chart's view, with the controls some charts have above it and the
// playback bar under the step's charts; the schedule diagram in a scroll area.
QWidget* ChartsPanel::makePage(ChartKind kind) {
    if (isPainted(kind)) return makeSchedulePage();
    auto* view = new ChartView;
    view->setObjectName(chartFileStem(kind) + QStringLiteral("View"));
    connect(view, &ChartView::strategyClicked, this, &ChartsPanel::strategyClicked);
    connect(view, &ChartView::hoverTextChanged, this, &ChartsPanel::hoverTextChanged);
    m_views[index(kind)] = view;
    switch (kind) {
    case ChartKind::Tradeoff: return makeTradeoffPage(view);
    case ChartKind::Scaling: return makeScalingPage(view);
    case ChartKind::Timeline:
    case ChartKind::Lifetimes: return m_playback->addPage(view);  // the playback bar under it
    default: return view;
    }
}

QWidget* ChartsPanel::makeSchedulePage() {
    m_schedule = new ScheduleView;
    connect(m_schedule, &ScheduleView::strategyClicked, this, &ChartsPanel::strategyClicked);
    m_scheduleScroll = new QScrollArea;
    m_scheduleScroll->setWidget(m_schedule);
    m_scheduleScroll->setWidgetResizable(true);
    m_scheduleScroll->setFrameShape(QFrame::NoFrame);
    return m_playback->addPage(m_scheduleScroll);
}

namespace {

// A chart with one choice above it ("Plot: …", "Step time: …").
QWidget* pageWithChoice(const QString& label, QComboBox* choice, ChartView* view) {
    auto* bar = new QHBoxLayout;
    bar->addWidget(new QLabel(label));
    bar->addWidget(choice);
    bar->addStretch(1);
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(bar);
    layout->addWidget(view, 1);
    return page;
}

}  // namespace

QWidget* ChartsPanel::makeTradeoffPage(ChartView* view) {
    m_tradeoffTime = new QComboBox;
    m_tradeoffTime->setObjectName(QStringLiteral("tradeoffTime"));
    m_tradeoffTime->addItem(tr("median of the repeats"));
    m_tradeoffTime->addItem(tr("fastest repeat"));
    m_tradeoffTime->setItemData(0, tr("Error bars: the 95% interval of each median"),
                                Qt::ToolTipRole);
    m_tradeoffTime->setItemData(
        1, tr("No error bars: the interval belongs to the median, not to the fastest repeat"),
        Qt::ToolTipRole);
    m_tradeoffTime->setToolTip(
        tr("On a shared machine the fastest repeat is the one least "
           "disturbed by other work; the median is the headline number"));
    connect(m_tradeoffTime, &QComboBox::currentIndexChanged, this,
            [this] { rebuild(ChartKind::Tradeoff); });
    return pageWithChoice(tr("Step time:"), m_tradeoffTime, view);
}

QWidget* ChartsPanel::makeScalingPage(ChartView* view) {
    m_scalingMetric = new QComboBox;
    m_scalingMetric->setObjectName(QStringLiteral("scalingMetric"));
    m_scalingMetric->addItem(tr("Activation memory"), int(ScalingMetric::ActivationBytes));
    m_scalingMetric->addItem(tr("Peak memory"), int(ScalingMetric::PeakBytes));
    m_scalingMetric->addItem(tr("Step time"), int(ScalingMetric::StepMs));
    connect(m_scalingMetric, &QComboBox::currentIndexChanged, this,
            [this] { rebuild(ChartKind::Scaling); });
    return pageWithChoice(tr("Plot:"), m_scalingMetric, view);
}

int ChartsPanel::tabOf(ChartKind kind) const {
    const auto found = std::find(m_kinds.begin(), m_kinds.end(), kind);
    return found == m_kinds.end() ? -1 : int(found - m_kinds.begin());
}

ChartKind ChartsPanel::currentKind() const {
    const int current = currentIndex();
    return current >= 0 && current < int(m_kinds.size()) ? m_kinds[std::size_t(current)]
                                                         : m_kinds.front();
}

void ChartsPanel::restyle() {
    markAllStale();
    m_schedule->update();
}

void ChartsPanel::setCurrentKind(ChartKind kind) {
    if (tabOf(kind) >= 0 && isAvailable(kind)) setCurrentIndex(tabOf(kind));
}

bool ChartsPanel::isAvailable(ChartKind kind) const {
    return chartApplies(kind, m_document->results());
}

QChart* ChartsPanel::chart(ChartKind kind) {
    if (!view(kind)) return nullptr;
    if (m_stale[index(kind)]) rebuild(kind);
    return view(kind)->chart();
}

void ChartsPanel::markAllStale() {
    m_stale.fill(true);
    for (ChartKind kind : m_kinds) {
        const bool applies = isAvailable(kind);
        if (applies == isTabVisible(tabOf(kind))) continue;
        setTabVisible(tabOf(kind), applies);
        // An opened scaling sweep: show what it is for.
        if (applies && chartEntry(kind).scalingOnly) setCurrentKind(kind);
    }
    scheduleRefresh();
}

void ChartsPanel::onSelectionChanged() {
    // The charts drawn around the focus run are rebuilt (the lifetimes show the selected run,
    // the timeline puts it first so its phases are the ones shaded); the others only change
    // emphasis.
    const RunResult* run = m_document->selected();
    const QString strategy = run ? QString::fromStdString(run->name()) : QString();
    for (ChartKind kind : m_kinds) {
        if (chartEntry(kind).followsFocus)
            m_stale[index(kind)] = true;
        else if (!m_stale[index(kind)] && view(kind))
            setSelectedStrategy(view(kind)->chart(), strategy);
    }
    m_schedule->setSelectedRun(m_document->selectedRun());
    scheduleRefresh();
}

void ChartsPanel::scheduleRefresh() { m_refreshTimer.start(); }

void ChartsPanel::refreshCurrent() {
    const ChartKind kind = currentKind();
    if (m_stale[index(kind)]) rebuild(kind);
}

void ChartsPanel::rebuild(ChartKind kind) {
    if (isPainted(kind))
        m_schedule->setResults(m_document->results(), m_document->selectedRun());
    else
        view(kind)->showChart(build(kind));  // deletes the chart shown before
    m_stale[index(kind)] = false;
    m_playback->chartReplaced(kind);
    ++m_builds[index(kind)];
}

// The panel's own choices: the median or the fastest repeat, the scaling metric, every run's
// timeline, thinned already on the worker (or the loader's thread).
ChartOptions ChartsPanel::options() const {
    ChartOptions options;
    options.fastestRepeat = m_tradeoffTime && m_tradeoffTime->currentIndex() == 1;
    if (m_scalingMetric)
        options.scalingMetric = ScalingMetric(m_scalingMetric->currentData().toInt());
    options.timelineRuns = std::size_t(-1);
    options.thinnedTimelines = &m_document->thinnedTimelines();
    return options;
}

QChart* ChartsPanel::build(ChartKind kind) const {
    const RunResult* selected = m_document->selected();
    QChart* chart = buildChart(kind, m_document->results(), selected, options());
    if (!chart) return nullptr;  // the painted schedule
    // Several files: each a group (a shade and a marker per file), their machines in the legend.
    if (m_document->sourceCount() > 1)
        styleSourceGroups(chart, chartSources(m_document->sources()));
    applyProjectorLook(chart);  // thicker lines and larger markers, in projector mode only
    if (selected) setSelectedStrategy(chart, QString::fromStdString(selected->name()));
    return chart;
}

}  // namespace ckptlab::ui
