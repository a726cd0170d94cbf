#include "panels/charts_panel.h"

#include <QAbstractAxis>
#include <QChart>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include "charts/chart_style.h"
#include "charts/chart_view.h"
#include "charts/schedule_view.h"
#include "charts/source_groups.h"
#include "ckptlab/summary.h"
#include "document/results_document.h"
#include "playback/charts_playback.h"
#include "window/projector_mode.h"

namespace ckptlab::ui {

ChartsPanel::ChartsPanel(ResultsDocument* document, QWidget* parent)
    : QTabWidget(parent), m_document(document) {
    setObjectName(QStringLiteral("charts"));
    setDocumentMode(true);
    m_playback = new ChartsPlayback(document, this);
    for (ChartKind kind : kKinds) {
        auto* view = new ChartView;
        view->setObjectName(chartFileStem(kind) + QStringLiteral("View"));
        connect(view, &ChartView::strategyClicked, this, &ChartsPanel::strategyClicked);
        connect(view, &ChartView::hoverTextChanged, this, &ChartsPanel::hoverTextChanged);
        m_views[index(kind)] = view;
        QWidget* page = kind == ChartKind::Scaling    ? makeScalingPage(view)
                        : kind == ChartKind::Tradeoff ? makeTradeoffPage(view)
                        : kind == ChartKind::Timeline || kind == ChartKind::Lifetimes
                            ? m_playback->addPage(view)  // with the playback bar under it
                            : view;
        addTab(page, chartTitle(kind));
        view->showChart(build(kind));
    }
    setTabVisible(index(ChartKind::Scaling), false);
    m_schedule = new ScheduleView;
    connect(m_schedule, &ScheduleView::strategyClicked, this, &ChartsPanel::strategyClicked);
    m_scheduleScroll = new QScrollArea;
    m_scheduleScroll->setWidget(m_schedule);
    m_scheduleScroll->setWidgetResizable(true);
    m_scheduleScroll->setFrameShape(QFrame::NoFrame);
    m_schedulePage = m_playback->addPage(m_scheduleScroll);
    addTab(m_schedulePage, tr("Checkpoint schedules"));
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

ChartKind ChartsPanel::currentKind() const {
    const int current = currentIndex();
    return current >= 0 && current < int(kKinds.size()) ? kKinds[size_t(current)]
                                                        : ChartKind::Tradeoff;
}

bool ChartsPanel::isScheduleCurrent() const { return currentWidget() == m_schedulePage; }

void ChartsPanel::showSchedule() { setCurrentWidget(m_schedulePage); }

void ChartsPanel::restyle() {
    markAllStale();
    m_schedule->update();
}

void ChartsPanel::setCurrentKind(ChartKind kind) {
    if (isAvailable(kind)) setCurrentIndex(index(kind));
}

bool ChartsPanel::isAvailable(ChartKind kind) const { return isTabVisible(index(kind)); }

ChartView* ChartsPanel::view(ChartKind kind) const { return m_views[index(kind)]; }

QChart* ChartsPanel::chart(ChartKind kind) {
    if (m_stale[index(kind)]) rebuild(kind);
    return view(kind)->chart();
}

void ChartsPanel::markAllStale() {
    m_stale.fill(true);
    m_scheduleStale = true;
    const bool scaling = detectScaling(m_document->results(), nullptr);
    if (scaling != isTabVisible(index(ChartKind::Scaling))) {
        setTabVisible(index(ChartKind::Scaling), scaling);
        if (scaling)
            setCurrentKind(ChartKind::Scaling);  // an opened scaling sweep: show what it is for
    }
    scheduleRefresh();
}

void ChartsPanel::onSelectionChanged() {
    // The lifetime chart shows the selected run, and the timeline puts it first so its phases
    // are the ones shaded; the others only change emphasis.
    m_stale[index(ChartKind::Lifetimes)] = true;
    m_stale[index(ChartKind::Timeline)] = true;
    const RunResult* run = m_document->selected();
    const QString strategy = run ? QString::fromStdString(run->strategy) : QString();
    for (ChartKind kind : {ChartKind::Tradeoff, ChartKind::Breakdown, ChartKind::Scaling})
        if (!m_stale[index(kind)]) setSelectedStrategy(view(kind)->chart(), strategy);
    m_schedule->setSelectedRun(m_document->selectedRun());
    scheduleRefresh();
}

void ChartsPanel::scheduleRefresh() { m_refreshTimer.start(); }

void ChartsPanel::refreshCurrent() {
    if (isScheduleCurrent()) {
        if (m_scheduleStale) {
            m_schedule->setResults(m_document->results(), m_document->selectedRun());
            m_scheduleStale = false;
        }
        return;
    }
    const ChartKind kind = currentKind();
    if (m_stale[index(kind)]) rebuild(kind);
}

void ChartsPanel::rebuild(ChartKind kind) {
    view(kind)->showChart(build(kind));  // deletes the chart shown before
    m_stale[index(kind)] = false;
    m_playback->chartReplaced(kind);
    ++m_builds[index(kind)];
}

QChart* ChartsPanel::build(ChartKind kind) const {
    const ResultSet& results = m_document->results();
    const RunResult* selected = m_document->selected();
    QChart* chart = nullptr;
    switch (kind) {
    case ChartKind::Tradeoff:
        if (m_tradeoffTime && m_tradeoffTime->currentIndex() == 1) {
            chart = buildTradeoffChart(withFastestSteps(results), true);
            const QList<QAbstractAxis*> vertical = chart->axes(Qt::Vertical);
            if (!vertical.isEmpty())
                vertical.front()->setTitleText(
                    tr("Step time, fastest repeat (ms; no error bars)"));
        } else {
            chart = buildTradeoffChart(results);
        }
        break;
    case ChartKind::Timeline: {
        // Thinned on the worker (or the loader's thread); the selected run first.
        std::vector<TimelineData> data;
        const auto& thinned = m_document->thinnedTimelines();
        for (size_t i = 0; i < results.runs.size(); ++i) {
            const RunResult& run = results.runs[i];
            if (run.error && !hasPartialTrace(run))
                continue;  // a run that ran out of memory is drawn up to where it stopped
            TimelineData d{&run, thinned[i]};
            if (&run == selected)
                data.insert(data.begin(), std::move(d));
            else
                data.push_back(std::move(d));
        }
        chart = buildTimelineChart(results, data);
        break;
    }
    case ChartKind::Lifetimes: {
        const RunResult* run = selected && !selected->error ? selected : representativeRun(results);
        chart = run ? buildLifetimeChart(results, *run) : makeEmptyChart();
        break;
    }
    case ChartKind::Breakdown: chart = buildBreakdownChart(results); break;
    case ChartKind::Scaling: {
        ScalingAxis axis = ScalingAxis::Depth;
        const auto metric = ScalingMetric(m_scalingMetric ? m_scalingMetric->currentData().toInt()
                                                          : int(ScalingMetric::ActivationBytes));
        chart = detectScaling(results, &axis) ? buildScalingChart(results, axis, metric)
                                              : makeEmptyChart(tr("Not a scaling sweep"));
        break;
    }
    }
    // Several files: each a group (a shade and a marker per file), their machines in the legend.
    if (m_document->sourceCount() > 1)
        styleSourceGroups(chart, chartSources(m_document->sources()));
    applyProjectorLook(chart);  // thicker lines and larger markers, in projector mode only
    if (selected) setSelectedStrategy(chart, QString::fromStdString(selected->strategy));
    return chart;
}

}  // namespace ckptlab::ui
