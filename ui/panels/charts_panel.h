#pragma once
// The charts in tabs, rebuilt from the document as results arrive: tradeoff, timeline,
// lifetimes, breakdown, and scaling (shown only for a scaling sweep's results). Hidden tabs are
// only marked stale and rebuilt when shown (or when asked for), so a sweep pays for one chart
// per run.

#include <QTabWidget>
#include <QTimer>
#include <array>

#include "charts/chart_builders.h"

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
    static constexpr std::array<ChartKind, 5> kKinds{ChartKind::Tradeoff, ChartKind::Timeline,
                                                     ChartKind::Lifetimes, ChartKind::Breakdown,
                                                     ChartKind::Scaling};

    explicit ChartsPanel(ResultsDocument* document, QWidget* parent = nullptr);

    // The chart tab shown; Tradeoff when the schedule tab is.
    ChartKind currentKind() const;
    // The schedule diagram's tab (after the charts): which inputs each run stored and how
    // often each block ran.
    ScheduleView* scheduleView() const { return m_schedule; }
    bool isScheduleCurrent() const;
    void showSchedule();
    void setCurrentKind(ChartKind kind);
    // Kinds that apply to the current results (Scaling only for a scaling sweep).
    bool isAvailable(ChartKind kind) const;
    // The chart of that kind, rebuilt first if stale. Owned by its view.
    QChart* chart(ChartKind kind);
    ChartView* view(ChartKind kind) const;
    // A new chart of that kind in the current look, not shown (exports in the normal look).
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
    static int index(ChartKind kind) { return int(kind); }
    QWidget* makeScalingPage(ChartView* view);
    QWidget* makeTradeoffPage(ChartView* view);
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
    QWidget* m_schedulePage = nullptr;  // the scroll area with the playback bar under it
    ChartsPlayback* m_playback = nullptr;
    bool m_scheduleStale = true;
    std::array<ChartView*, kKinds.size()> m_views{};
    std::array<bool, kKinds.size()> m_stale{};
    std::array<int, kKinds.size()> m_builds{};
    // Rebuilds wait for the next turn of the event loop: a result arriving and the selection
    // following it then cost one rebuild, and the table updates in a turn of its own.
    QTimer m_refreshTimer;
};

}  // namespace ckptlab::ui
