#pragma once
// How many timed steps a sweep takes: a fixed number of repeats, or "auto" (adaptive repeats,
// config.h repeats_auto): rounds until every median's 95% interval is within ±5% or the time
// limit passes. The repeats spin box with its "auto" check box is one field; the time limit in
// seconds, enabled with auto, is another, placed by the panel.

#include <QWidget>

#include "ckptlab/model/config.h"

class QCheckBox;
class QDoubleSpinBox;
class QSpinBox;

namespace ckptlab::ui {

class RepeatsField : public QWidget {
    Q_OBJECT
public:
    explicit RepeatsField(QWidget* parent = nullptr);

    // The time limit's own widget, for the panel to place (owned by the panel once placed).
    QDoubleSpinBox* timeLimitBox() const { return m_timeLimit; }

    void read(ExperimentConfig& config) const;  // repeats, repeats_auto, time_limit_s
    void write(const ExperimentConfig& config);

Q_SIGNALS:
    void changed();

private:
    void updateEnabled();

    QSpinBox* m_repeats;
    QCheckBox* m_auto;
    QDoubleSpinBox* m_timeLimit;
};

}  // namespace ckptlab::ui
