#include "playback/playback_controller.h"

#include <algorithm>

#include "charts/chart_builders.h"
#include "document/results_document.h"

namespace ckptlab::ui {

int playedRunIndex(const ResultSet& results, int selected) {
    // The run the timeline and lifetimes charts are drawn around, when it has phases to play.
    const bool known = selected >= 0 && selected < int(results.runs.size());
    const RunResult* run =
        chartFocus(results, known ? &results.runs[std::size_t(selected)] : nullptr);
    return run && !run->phases.empty() ? int(run - results.runs.data()) : -1;
}

PlaybackController::PlaybackController(ResultsDocument* document, QObject* parent)
    : QObject(parent), m_document(document) {
    m_timer.setInterval(kFrameMs);
    connect(&m_timer, &QTimer::timeout, this, &PlaybackController::advance);
    // Queued: a selection made by a click on a chart must not rebuild anything while that
    // chart is still handling its mouse event.
    connect(document, &ResultsDocument::resetDone, this, &PlaybackController::reload,
            Qt::QueuedConnection);
    connect(document, &ResultsDocument::runAdded, this, &PlaybackController::reload,
            Qt::QueuedConnection);
    connect(document, &ResultsDocument::selectionChanged, this, &PlaybackController::reload,
            Qt::QueuedConnection);
    reload();
}

void PlaybackController::reload() {
    const ResultSet& results = m_document->results();
    const int run = playedRunIndex(results, m_document->selectedRun());
    const void* data = run >= 0 ? results.runs[std::size_t(run)].phases.data() : nullptr;
    if (run == m_run && data == m_runData) return;
    m_run = run;
    m_runData = data;
    m_step = run >= 0 ? StepPlayback(results.runs[std::size_t(run)]) : StepPlayback();
    if (m_step.isEmpty()) pause();
    // The same moment in the newly chosen run, so two strategies compare at one time.
    m_time = std::clamp(m_time, 0.0, m_step.duration());
    Q_EMIT runChanged();
    Q_EMIT timeChanged(m_time);
}

double PlaybackController::stepMsPerSecond() const {
    return m_step.duration() / kSecondsAtOneX * m_speed;
}

void PlaybackController::setTime(double ms) {
    const double t = std::clamp(ms, 0.0, m_step.duration());
    if (t == m_time) return;
    m_time = t;
    Q_EMIT timeChanged(m_time);
}

void PlaybackController::play() {
    if (m_step.isEmpty() || isPlaying()) return;
    if (m_time >= m_step.duration()) setTime(0);  // play again from the start
    m_clock.start();
    m_timer.start();
    Q_EMIT playingChanged(true);
}

void PlaybackController::pause() {
    if (!isPlaying()) return;
    m_timer.stop();
    Q_EMIT playingChanged(false);
}

void PlaybackController::togglePlay() { isPlaying() ? pause() : play(); }

void PlaybackController::stepForward() { setTime(m_step.nextEventStart(m_time)); }

void PlaybackController::stepBack() { setTime(m_step.previousEventStart(m_time)); }

void PlaybackController::setSpeed(double speed) {
    if (speed > 0) m_speed = speed;
}

void PlaybackController::advance() {
    const double seconds = double(m_clock.restart()) / 1000.0;
    setTime(m_time + seconds * stepMsPerSecond());
    if (m_time >= m_step.duration()) pause();
}

}  // namespace ckptlab::ui
