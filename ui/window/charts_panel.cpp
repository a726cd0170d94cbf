#include "charts_panel.h"

#include <QChart>

#include "charts/chart_style.h"
#include "charts/chart_view.h"
#include "results_document.h"

namespace ckptlab::ui {

ChartsPanel::ChartsPanel(ResultsDocument* document, QWidget* parent)
    : QTabWidget(parent)
    , m_document(document)
{
    setObjectName(QStringLiteral("charts"));
    setDocumentMode(true);
    for (ChartKind kind : kKinds) {
        auto* view = new ChartView;
        view->setObjectName(chartFileStem(kind) + QStringLiteral("View"));
        view->showChart(build(kind));
        connect(view, &ChartView::strategyClicked, this, &ChartsPanel::strategyClicked);
        connect(view, &ChartView::hoverTextChanged, this, &ChartsPanel::hoverTextChanged);
        m_views[index(kind)] = view;
        addTab(view, chartTitle(kind));
    }
    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(0);
    connect(&m_refreshTimer, &QTimer::timeout, this, &ChartsPanel::refreshCurrent);
    connect(this, &QTabWidget::currentChanged, this, &ChartsPanel::refreshCurrent);
    connect(document, &ResultsDocument::resetDone, this, &ChartsPanel::markAllStale);
    connect(document, &ResultsDocument::runAdded, this, &ChartsPanel::markAllStale);
    connect(document, &ResultsDocument::selectionChanged, this, &ChartsPanel::onSelectionChanged);
}

ChartKind ChartsPanel::currentKind() const
{
    return kKinds[size_t(std::max(0, currentIndex()))];
}

void ChartsPanel::setCurrentKind(ChartKind kind)
{
    setCurrentIndex(index(kind));
}

ChartView* ChartsPanel::view(ChartKind kind) const
{
    return m_views[index(kind)];
}

QChart* ChartsPanel::chart(ChartKind kind)
{
    if (m_stale[index(kind)])
        rebuild(kind);
    return view(kind)->chart();
}

void ChartsPanel::markAllStale()
{
    m_stale.fill(true);
    scheduleRefresh();
}

void ChartsPanel::onSelectionChanged()
{
    // The lifetime chart shows the selected run, and the timeline puts it first so its phases
    // are the ones shaded; the others only change emphasis.
    m_stale[index(ChartKind::Lifetimes)] = true;
    m_stale[index(ChartKind::Timeline)] = true;
    const RunResult* run = m_document->selected();
    const QString strategy = run ? QString::fromStdString(run->strategy) : QString();
    for (ChartKind kind : {ChartKind::Tradeoff, ChartKind::Breakdown})
        if (!m_stale[index(kind)])
            setSelectedStrategy(view(kind)->chart(), strategy);
    scheduleRefresh();
}

void ChartsPanel::scheduleRefresh()
{
    m_refreshTimer.start();
}

void ChartsPanel::refreshCurrent()
{
    const ChartKind kind = currentKind();
    if (m_stale[index(kind)])
        rebuild(kind);
}

void ChartsPanel::rebuild(ChartKind kind)
{
    view(kind)->showChart(build(kind));  // deletes the chart shown before
    m_stale[index(kind)] = false;
    ++m_builds[index(kind)];
}

QChart* ChartsPanel::build(ChartKind kind) const
{
    const ResultSet& results = m_document->results();
    const RunResult* selected = m_document->selected();
    QChart* chart = nullptr;
    switch (kind) {
    case ChartKind::Tradeoff:
        chart = buildTradeoffChart(results);
        break;
    case ChartKind::Timeline: {
        // Thinned on the worker (or the loader's thread); the selected run first.
        std::vector<TimelineData> data;
        const auto& thinned = m_document->thinnedTimelines();
        for (size_t i = 0; i < results.runs.size(); ++i) {
            const RunResult& run = results.runs[i];
            if (run.error)
                continue;
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
    case ChartKind::Breakdown:
        chart = buildBreakdownChart(results);
        break;
    }
    if (selected)
        setSelectedStrategy(chart, QString::fromStdString(selected->strategy));
    return chart;
}

}  // namespace ckptlab::ui
