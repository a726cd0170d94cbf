#pragma once
// The charts in tabs, one per panel entry of the chart registry (charts/chart_registry.h),
// rebuilt from the document as results arrive: tradeoff, timeline, lifetimes, breakdown, scaling
// (shown only for a scaling sweep's results) and the checkpoint schedules. Hidden tabs are
// only marked stale and rebuilt when shown (or when asked for), so a sweep pays for one chart
// per run.

#include <QTabWidget>
#include <QTimer>
#include <array>
#include <vector>

#include "charts/chart_registry.h"

class QComboBox;
class QScrollArea;

namespace ckptlab::ui {

class ChartView;
class ChartsPlayback;
class ScheduleView;
class ResultsDocument;

class ChartsPanel : public QTabWidget {
    Q_OBJECT
public:
    explicit ChartsPanel(ResultsDocument* document, QWidget* parent = nullptr);

    // The tab shown (Schedule for the schedule diagram's).
    ChartKind currentKind() const;
    // Shows the tab of `kind` when it has one and it applies to the results.
    void setCurrentKind(ChartKind kind);
    // The schedule diagram of the Schedule tab: which inputs each run stored and how often
    // each block ran.
    ScheduleView* scheduleView() const { return m_schedule; }
    // Whether the chart applies to the current results (Scaling only for a scaling sweep).
    bool isAvailable(ChartKind kind) const;
    // The chart of a tab, rebuilt first if stale; owned by its view. nullptr for a kind
    // without a chart tab (ScalingTime, the painted Schedule).
    QChart* chart(ChartKind kind);
    ChartView* view(ChartKind kind) const { return m_views[index(kind)]; }
    // A new chart of any QChart kind, as the panel would draw it now (its focus, its options),
    // not shown: exports in the normal look, and the files' kinds without a tab.
    QChart* buildDetached(ChartKind kind) const { return build(kind); }
    // How often each chart was rebuilt (tests check that hidden tabs stay lazy).
    int buildCount(ChartKind kind) const { return m_builds[index(kind)]; }
    // Playback of one traced step, with its bar under the Timeline, Lifetimes and schedule tabs.
    ChartsPlayback* playback() const { return m_playback; }
    // Marks every chart stale (the shown one is rebuilt next turn) and repaints the schedule:
    // after a change of look such as projector mode.
    void restyle();

Q_SIGNALS:
    // A strategy's point or bar was clicked in a chart.
    void strategyClicked(const QString& strategy);
    // Tooltip text under the mouse (empty when it leaves), for the status bar.
    void hoverTextChanged(const QString& text);

private:
    static std::size_t index(ChartKind kind) { return std::size_t(kind); }
    int tabOf(ChartKind kind) const;
    QWidget* makePage(ChartKind kind);
    QWidget* makeSchedulePage();
    QWidget* makeScalingPage(ChartView* view);
    QWidget* makeTradeoffPage(ChartView* view);
    ChartOptions options() const;
    void markAllStale();
    void onSelectionChanged();
    void rebuild(ChartKind kind);
    QChart* build(ChartKind kind) const;
    void refreshCurrent();
    void scheduleRefresh();

    ResultsDocument* m_document;
    QComboBox* m_scalingMetric = nullptr;
    QComboBox* m_tradeoffTime = nullptr;  // median, or the fastest repeat
    ScheduleView* m_schedule = nullptr;
    QScrollArea* m_scheduleScroll = nullptr;
    ChartsPlayback* m_playback = nullptr;
    const std::vector<ChartKind> m_kinds = panelChartKinds();  // one per tab, in tab order
    // By kind; a view only for the kinds with a chart tab.
    std::array<ChartView*, kChartKindCount> m_views{};
    std::array<bool, kChartKindCount> m_stale{};
    std::array<int, kChartKindCount> m_builds{};
    // Rebuilds wait for the next turn of the event loop: a result arriving and the selection
    // following it then cost one rebuild, and the table updates in a turn of its own.
    QTimer m_refreshTimer;
};

}  // namespace ckptlab::ui
