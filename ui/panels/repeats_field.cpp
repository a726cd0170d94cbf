#include "panels/repeats_field.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QSpinBox>

#include "ckptlab/model/step_stats.h"

namespace ckptlab::ui {

RepeatsField::RepeatsField(QWidget* parent)
    : QWidget(parent),
      m_repeats(new QSpinBox),
      m_auto(new QCheckBox),
      m_timeLimit(new QDoubleSpinBox) {
    setObjectName(QStringLiteral("repeatsField"));
    m_repeats->setObjectName(QStringLiteral("repeats"));
    m_repeats->setRange(int(limits::repeats.min), int(limits::repeats.max));
    m_repeats->setAccelerated(true);
    m_repeats->setKeyboardTracking(false);
    m_repeats->setToolTip(
        tr("Timed steps per strategy, taken in interleaved rounds (one step of every strategy per "
           "round); medians are reported with their 95% interval, which needs at least %1")
            .arg(kAutoMinRounds));

    m_auto->setObjectName(QStringLiteral("repeatsAuto"));
    m_auto->setText(tr("auto", "adaptive repeats"));
    m_auto->setToolTip(
        tr("Adaptive repeats: keep taking rounds (at least %1) until every median's 95% interval "
           "is within ±%2 % of it, or the time limit passes; the status bar says which stopped it")
            .arg(kAutoMinRounds)
            .arg(kAutoPrecision * 100, 0, 'f', 0));

    // The range reaches below the core's minimum so that a bad value gets validate's message
    // (core_text.h) instead of being clamped without a word.
    m_timeLimit->setObjectName(QStringLiteral("timeLimit"));
    m_timeLimit->setRange(0, limits::timeLimitMaxS);
    m_timeLimit->setDecimals(0);
    m_timeLimit->setSingleStep(10);
    m_timeLimit->setAccelerated(true);
    m_timeLimit->setKeyboardTracking(false);
    m_timeLimit->setSuffix(tr(" s"));
    m_timeLimit->setToolTip(
        tr("Adaptive repeats stop after this many seconds of timed rounds, even when some "
           "interval is still wider than ±%1 % (from %2 to %3 s)")
            .arg(kAutoPrecision * 100, 0, 'f', 0)
            .arg(limits::timeLimitMinS)
            .arg(limits::timeLimitMaxS));

    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_repeats, 1);
    row->addWidget(m_auto);
    setFocusProxy(m_repeats);

    connect(m_repeats, &QSpinBox::valueChanged, this, &RepeatsField::changed);
    connect(m_timeLimit, &QDoubleSpinBox::valueChanged, this, &RepeatsField::changed);
    connect(m_auto, &QCheckBox::toggled, this, [this] {
        updateEnabled();
        Q_EMIT changed();
    });
    updateEnabled();
}

void RepeatsField::read(ExperimentConfig& config) const {
    config.repeats = m_repeats->value();
    config.repeats_auto = m_auto->isChecked();
    config.time_limit_s = m_timeLimit->value();
}

void RepeatsField::write(const ExperimentConfig& config) {
    const QSignalBlocker blockRepeats(m_repeats), blockAuto(m_auto), blockLimit(m_timeLimit);
    m_repeats->setValue(config.repeats);
    m_auto->setChecked(config.repeats_auto);
    m_timeLimit->setValue(config.time_limit_s);
    updateEnabled();
}

void RepeatsField::updateEnabled() {
    // With auto the rounds decide; the fixed count is not used (config.h).
    m_repeats->setEnabled(!m_auto->isChecked());
    m_timeLimit->setEnabled(m_auto->isChecked());
}

}  // namespace ckptlab::ui
