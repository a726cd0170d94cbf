#pragma once
// PlaybackController: the time cursor moving through one traced step. It plays the run the
// document has selected (else the representative run), in slow motion: at 1× the whole step
// lasts kSecondsAtOneX seconds whatever it measured, so a 20 ms step and a 2 s step both play
// at a pace a class can follow.
//
//   auto* playback = new PlaybackController(document, this);
//   connect(playback, &PlaybackController::timeChanged, this, &X::moveCursor);  // ms
//   playback->play();          // or setTime(), stepForward(), stepBack(), setSpeed(0.5)

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include "playback/step_playback.h"

namespace ckptlab::ui {

class ResultsDocument;

class PlaybackController : public QObject {
    Q_OBJECT
public:
    static constexpr double kSecondsAtOneX = 15;
    static constexpr int kFrameMs = 33;

    explicit PlaybackController(ResultsDocument* document, QObject* parent = nullptr);

    const StepPlayback& step() const { return m_step; }
    // Index of the played run in the document's results; -1 when nothing can be played.
    int runIndex() const { return m_run; }
    double time() const { return m_time; }
    bool isPlaying() const { return m_timer.isActive(); }
    double speed() const { return m_speed; }
    // Step milliseconds per wall-clock second at the current speed.
    double stepMsPerSecond() const;

public Q_SLOTS:
    void setTime(double ms);
    void play();
    void pause();
    void togglePlay();
    void stepForward();
    void stepBack();
    void setSpeed(double speed);
    // Re-reads the played run from the document (results or selection changed).
    void reload();

Q_SIGNALS:
    void runChanged();
    void timeChanged(double ms);
    void playingChanged(bool playing);

private:
    void advance();

    ResultsDocument* m_document;
    StepPlayback m_step;
    int m_run = -1;
    const void* m_runData = nullptr;  // the played run's phases, to notice a replaced set
    double m_time = 0;
    double m_speed = 1;
    QTimer m_timer;
    QElapsedTimer m_clock;
};

// The run playback shows: the charts' focus run (chartFocus, chart_builders.h) when it has
// phases to play, else none (-1).
int playedRunIndex(const ResultSet& results, int selected);

}  // namespace ckptlab::ui
