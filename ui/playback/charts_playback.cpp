#include "playback/charts_playback.h"

#include <QAbstractSeries>
#include <QChart>
#include <QShortcut>
#include <QVBoxLayout>
#include <algorithm>

#include "charts/chart_style.h"
#include "charts/chart_view.h"
#include "charts/schedule_view.h"
#include "ckptlab/model/summary.h"
#include "document/results_document.h"
#include "playback/chart_cursor.h"
#include "playback/playback_bar.h"
#include "playback/playback_controller.h"

namespace ckptlab::ui {

namespace {

// The phase's band colour, opaque and a shade darker: the cursor and outlines.
QColor cursorColor(Phase phase) {
    if (phase == Phase::Idle) return QColor(200, 30, 30);
    QColor c = phaseColor(phase);
    c.setAlpha(255);
    return c.darker(130);
}

bool chartShows(QChart* chart, const QString& strategy) {
    if (!chart) return false;
    const auto all = chart->series();
    return std::any_of(all.begin(), all.end(), [&](QAbstractSeries* s) {
        return s->property(kStrategyProperty).toString() == strategy;
    });
}

}  // namespace

ChartsPlayback::ChartsPlayback(ResultsDocument* document, QWidget* panel)
    : QObject(panel), m_document(document) {
    m_controller = new PlaybackController(document, this);
    m_bar = new PlaybackBar(m_controller, panel);
    m_bar->hide();
    auto key = [&](QKeySequence sequence, auto slot) {
        auto* shortcut = new QShortcut(sequence, panel);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        shortcut->setEnabled(false);
        connect(shortcut, &QShortcut::activated, m_controller, slot);
        m_keys.push_back(shortcut);
    };
    key(QKeySequence(Qt::Key_Space), &PlaybackController::togglePlay);
    key(QKeySequence(Qt::Key_Right), &PlaybackController::stepForward);
    key(QKeySequence(Qt::Key_Left), &PlaybackController::stepBack);
    connect(m_controller, &PlaybackController::timeChanged, this, &ChartsPlayback::updateOverlays);
    connect(m_controller, &PlaybackController::runChanged, this, &ChartsPlayback::updateOverlays);
}

QWidget* ChartsPlayback::addPage(QWidget* content) {
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(content, 1);
    m_pages.push_back(page);
    return page;
}

void ChartsPlayback::attach(ChartView* timeline, ChartView* lifetimes, ScheduleView* schedule) {
    m_timelineCursor = new ChartCursor(timeline);
    m_lifetimeCursor = new ChartCursor(lifetimes);
    m_lifetimes = lifetimes;
    m_schedule = schedule;
    schedule->setFocusPolicy(Qt::ClickFocus);  // a click on the diagram gives the keys to it
    updateOverlays();
}

void ChartsPlayback::pageShown(QWidget* page) {
    const bool ours = std::find(m_pages.begin(), m_pages.end(), page) != m_pages.end();
    if (ours) {
        static_cast<QVBoxLayout*>(page->layout())->addWidget(m_bar);  // moves it here
        m_bar->show();
    } else {
        m_bar->hide();
    }
    for (QShortcut* shortcut : m_keys) shortcut->setEnabled(ours);
}

void ChartsPlayback::chartReplaced(ChartKind kind) {
    if (kind == ChartKind::Timeline && m_timelineCursor) m_timelineCursor->chartReplaced();
    if (kind == ChartKind::Lifetimes && m_lifetimeCursor) m_lifetimeCursor->chartReplaced();
    updateOverlays();
}

void ChartsPlayback::updateOverlays() {
    if (!m_timelineCursor) return;
    const StepPlayback& step = m_controller->step();
    if (step.isEmpty()) {
        m_timelineCursor->hide();
        m_lifetimeCursor->hide();
        if (m_schedule) m_schedule->setPlaybackHighlight(-1, 0, 0, QColor());
        return;
    }
    const double t = m_controller->time();
    const int index = step.eventAt(t);
    const PlaybackEvent* event = index >= 0 ? &step.events()[std::size_t(index)] : nullptr;
    const QColor color = cursorColor(event ? event->phase : Phase::Idle);

    ChartCursor::Place place;
    place.t = t;
    place.strategy = step.strategy();
    place.color = color;
    place.hasValue = true;
    place.value = double(step.memoryAt(t)) / kMiB;
    place.label = tr("%1 at %2").arg(formatMiB(place.value), formatMs(t));
    m_timelineCursor->show(place);

    // The lifetimes chart shows one run: the cursor only when it is the one played.
    if (chartShows(m_lifetimes ? m_lifetimes->chart() : nullptr, step.strategy())) {
        ChartCursor::Place lifetime;
        lifetime.t = t;
        lifetime.color = color;
        const std::optional<int> row = event ? step.lifetimeRow(event->block) : std::nullopt;
        lifetime.hasRow = row.has_value();
        lifetime.row = row.value_or(0);
        m_lifetimeCursor->show(lifetime);
    } else {
        m_lifetimeCursor->hide();
    }

    if (m_schedule) {
        const int upb = step.unitsPerBlock();
        if (event && event->block >= 0)
            m_schedule->setPlaybackHighlight(m_controller->runIndex(), event->block * upb,
                                             (event->block + 1) * upb, color);
        else if (event && event->block == kEmbeddingBlock)  // the cells before unit 0
            m_schedule->setPlaybackHighlight(m_controller->runIndex(), -upb, 0, color);
        else if (event && event->block == kHeadBlock)  // the cells after the last unit
            m_schedule->setPlaybackHighlight(m_controller->runIndex(), step.units(),
                                             step.units() + upb, color);
        else
            m_schedule->setPlaybackHighlight(-1, 0, 0, QColor());
    }
}

}  // namespace ckptlab::ui
