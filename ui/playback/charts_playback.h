#pragma once
// ChartsPlayback: playback wired into the charts panel. It owns the controller and the bar,
// draws the cursor over the memory timeline (a line at t and the played run's value there)
// and the lifetimes (a line at t and a band over the running block), outlines the running
// block in the schedule diagram, and binds Space (play/pause) and ←/→ (step by event) while
// the focus is in the panel and a playback page is shown. Nothing is rebuilt per frame.
//
//   m_playback = new ChartsPlayback(document, panel);
//   QWidget* page = m_playback->addPage(view);   // the bar shows under it when it is current
//   m_playback->attach(timelineView, lifetimesView, scheduleView);
//   m_playback->pageShown(currentWidget());      // on every tab change
//   m_playback->chartReplaced(kind);             // after a view shows a new chart

#include <QObject>
#include <QPointer>
#include <vector>

#include "charts/chart_builders.h"

class QShortcut;
class QWidget;

namespace ckptlab::ui {

class ChartCursor;
class ChartView;
class PlaybackBar;
class PlaybackController;
class ResultsDocument;
class ScheduleView;

class ChartsPlayback : public QObject {
    Q_OBJECT
public:
    // `panel` scopes the keys (they act while the focus is inside it) and parents the bar.
    ChartsPlayback(ResultsDocument* document, QWidget* panel);

    // A page holding `content` with room for the bar under it.
    QWidget* addPage(QWidget* content);
    void attach(ChartView* timeline, ChartView* lifetimes, ScheduleView* schedule);
    // Shows the bar under `page` when it is one of ours, else hides it and frees the keys.
    void pageShown(QWidget* page);
    void chartReplaced(ChartKind kind);

    PlaybackController* controller() const { return m_controller; }
    PlaybackBar* bar() const { return m_bar; }
    ChartCursor* timelineCursor() const { return m_timelineCursor; }
    ChartCursor* lifetimeCursor() const { return m_lifetimeCursor; }

private:
    void updateOverlays();

    ResultsDocument* m_document;
    PlaybackController* m_controller;
    PlaybackBar* m_bar;
    std::vector<QWidget*> m_pages;
    std::vector<QShortcut*> m_keys;
    ChartCursor* m_timelineCursor = nullptr;
    ChartCursor* m_lifetimeCursor = nullptr;
    QPointer<ScheduleView> m_schedule;
    QPointer<ChartView> m_lifetimes;
};

}  // namespace ckptlab::ui
