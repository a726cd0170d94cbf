#pragma once
// The four charts in tabs, rebuilt from the document as results arrive. Hidden tabs are only
// marked stale and rebuilt when shown (or when asked for), so a sweep pays for one chart per run.

#include <QTabWidget>
#include <QTimer>
#include <array>

#include "charts/chart_builders.h"

namespace ckptlab::ui {

class ChartView;
class ResultsDocument;

class ChartsPanel : public QTabWidget {
    Q_OBJECT
public:
    static constexpr std::array<ChartKind, 4> kKinds{ChartKind::Tradeoff, ChartKind::Timeline,
                                                     ChartKind::Lifetimes, ChartKind::Breakdown};

    explicit ChartsPanel(ResultsDocument* document, QWidget* parent = nullptr);

    ChartKind currentKind() const;
    void setCurrentKind(ChartKind kind);
    // The chart of that kind, rebuilt first if stale. Owned by its view.
    QChart* chart(ChartKind kind);
    ChartView* view(ChartKind kind) const;
    // How often each chart was rebuilt (tests check that hidden tabs stay lazy).
    int buildCount(ChartKind kind) const { return m_builds[index(kind)]; }

Q_SIGNALS:
    // A strategy's point or bar was clicked in a chart.
    void strategyClicked(const QString& strategy);
    // Tooltip text under the mouse (empty when it leaves), for the status bar.
    void hoverTextChanged(const QString& text);

private:
    static int index(ChartKind kind) { return int(kind); }
    void markAllStale();
    void onSelectionChanged();
    void rebuild(ChartKind kind);
    QChart* build(ChartKind kind) const;
    void refreshCurrent();
    void scheduleRefresh();

    ResultsDocument* m_document;
    std::array<ChartView*, 4> m_views{};
    std::array<bool, 4> m_stale{};
    std::array<int, 4> m_builds{};
    // Rebuilds wait for the next turn of the event loop: a result arriving and the selection
    // following it then cost one rebuild, and the table updates in a turn of its own.
    QTimer m_refreshTimer;
};

}  // namespace ckptlab::ui
