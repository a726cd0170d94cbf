#pragma once
// PlaybackBar: the controls under the charts for playing one training step: play/pause, step
// back and forward by event, speed, a scrub slider, the time and memory at the cursor, and a
// narration line saying what runs at that moment.

#include <QWidget>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace ckptlab::ui {

class PlaybackController;

class PlaybackBar : public QWidget {
    Q_OBJECT
public:
    static constexpr int kSliderSteps = 2000;

    explicit PlaybackBar(PlaybackController* controller, QWidget* parent = nullptr);

    QString narration() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void showRun();
    void showTime(double ms);
    void showPlaying(bool playing);

    PlaybackController* m_controller;
    QToolButton* m_back = nullptr;
    QToolButton* m_play = nullptr;
    QToolButton* m_forward = nullptr;
    QComboBox* m_speed = nullptr;
    QSlider* m_slider = nullptr;
    QLabel* m_position = nullptr;
    QLabel* m_narration = nullptr;
    QLabel* m_speedLabel = nullptr;
};

}  // namespace ckptlab::ui
