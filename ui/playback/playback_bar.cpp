#include "playback/playback_bar.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>

#include "charts/chart_style.h"
#include "ckptlab/model/summary.h"
#include "playback/playback_controller.h"

namespace ckptlab::ui {

namespace {

constexpr double kSpeeds[] = {0.1, 0.25, 0.5, 1, 2, 4};

QToolButton* toolButton(const char* name, QStyle::StandardPixmap icon) {
    auto* button = new QToolButton;
    button->setObjectName(QLatin1String(name));
    button->setIcon(button->style()->standardIcon(icon));
    button->setAutoRaise(true);
    button->setFocusPolicy(Qt::TabFocus);  // a click leaves the keys with the chart
    return button;
}

}  // namespace

PlaybackBar::PlaybackBar(PlaybackController* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller) {
    setObjectName(QStringLiteral("playbackBar"));
    m_back = toolButton("playbackBack", QStyle::SP_MediaSkipBackward);
    m_play = toolButton("playbackPlay", QStyle::SP_MediaPlay);
    m_forward = toolButton("playbackForward", QStyle::SP_MediaSkipForward);
    m_speed = new QComboBox;
    m_speed->setObjectName(QStringLiteral("playbackSpeed"));
    m_speed->setFocusPolicy(Qt::TabFocus);
    for (double s : kSpeeds) m_speed->addItem(QString(), s);
    m_speed->setCurrentIndex(3);  // 1×
    m_speedLabel = new QLabel;
    m_slider = new QSlider(Qt::Horizontal);
    m_slider->setObjectName(QStringLiteral("playbackSlider"));
    m_slider->setRange(0, kSliderSteps);
    m_slider->setFocusPolicy(Qt::NoFocus);  // ←/→ step by event, not by slider notch
    m_slider->setMinimumWidth(120);
    m_position = new QLabel;
    m_position->setObjectName(QStringLiteral("playbackPosition"));
    m_position->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_narration = new QLabel;
    m_narration->setObjectName(QStringLiteral("playbackNarration"));
    m_narration->setWordWrap(true);
    QFont strong = m_narration->font();
    strong.setBold(true);
    m_narration->setFont(strong);

    auto* controls = new QHBoxLayout;
    controls->setContentsMargins(0, 0, 0, 0);
    controls->addWidget(m_back);
    controls->addWidget(m_play);
    controls->addWidget(m_forward);
    controls->addWidget(m_slider, 1);
    controls->addWidget(m_position);
    controls->addSpacing(8);
    controls->addWidget(m_speedLabel);
    controls->addWidget(m_speed);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 2, 6, 4);
    layout->setSpacing(2);
    layout->addLayout(controls);
    layout->addWidget(m_narration);

    connect(m_back, &QToolButton::clicked, controller, &PlaybackController::stepBack);
    connect(m_forward, &QToolButton::clicked, controller, &PlaybackController::stepForward);
    connect(m_play, &QToolButton::clicked, controller, &PlaybackController::togglePlay);
    connect(m_speed, &QComboBox::currentIndexChanged, this,
            [this] { m_controller->setSpeed(m_speed->currentData().toDouble()); });
    connect(m_slider, &QSlider::valueChanged, this, [this](int value) {
        m_controller->setTime(m_controller->step().duration() * value / kSliderSteps);
    });
    connect(controller, &PlaybackController::runChanged, this, &PlaybackBar::showRun);
    connect(controller, &PlaybackController::timeChanged, this, &PlaybackBar::showTime);
    connect(controller, &PlaybackController::playingChanged, this, &PlaybackBar::showPlaying);
    retranslate();
    showRun();
}

QString PlaybackBar::narration() const { return m_narration->text(); }

void PlaybackBar::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslate();
    if (event->type() == QEvent::FontChange) {  // projector mode: buttons grow with the text
        const int side = fontMetrics().height() + 4;
        for (QToolButton* button : {m_back, m_play, m_forward}) button->setIconSize({side, side});
    }
    QWidget::changeEvent(event);
}

void PlaybackBar::retranslate() {
    m_back->setToolTip(tr("Back to the previous event (\u2190)"));
    m_forward->setToolTip(tr("On to the next event (\u2192)"));
    m_speedLabel->setText(tr("Speed:"));
    for (int i = 0; i < m_speed->count(); ++i)
        m_speed->setItemText(i, tr("%1\u00d7").arg(m_speed->itemData(i).toDouble()));
    m_slider->setToolTip(tr("Drag to move through the step"));
    showRun();
}

void PlaybackBar::showRun() {
    const StepPlayback& step = m_controller->step();
    setEnabled(!step.isEmpty());
    m_speed->setToolTip(
        tr("1\u00d7 plays the whole traced step (%1) in %2 s; 0.5\u00d7 takes twice as long")
            .arg(formatMs(step.duration()))
            .arg(PlaybackController::kSecondsAtOneX));
    const QString what = step.isEmpty() ? tr("Run a sweep to play one of its training steps")
                                        : tr("Playing the traced step of %1").arg(step.strategy());
    setToolTip(what);
    m_position->setToolTip(what);
    showPlaying(m_controller->isPlaying());
    showTime(m_controller->time());
}

void PlaybackBar::showTime(double ms) {
    const StepPlayback& step = m_controller->step();
    {
        const QSignalBlocker block(m_slider);
        const double duration = step.duration();
        m_slider->setValue(duration > 0 ? int(std::lround(ms / duration * kSliderSteps)) : 0);
    }
    if (step.isEmpty()) {
        m_position->setText(QString());
        m_narration->setText(tr("No traced step to play yet"));
        return;
    }
    // Short, so the slider keeps its room on a projector; the tooltip names the run.
    m_position->setText(tr("%1 / %2 \u00b7 %3")
                            .arg(formatMs(ms), formatMs(step.duration()),
                                 formatMiB(double(step.memoryAt(ms)) / kMiB)));
    m_narration->setText(step.narration(ms));
}

void PlaybackBar::showPlaying(bool playing) {
    m_play->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
    m_play->setToolTip(playing ? tr("Pause (Space)") : tr("Play the step in slow motion (Space)"));
}

}  // namespace ckptlab::ui
