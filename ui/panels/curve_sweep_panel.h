#pragma once
// The two sweeps that draw a curve rather than compare a list: the Pareto curve (optimal
// schedules across memory budgets) and a scaling sweep (one dimension varied, exponent fitted).

#include <QWidget>
#include <vector>

#include "ckptlab/planning/scaling.h"

class QComboBox;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace ckptlab::ui {

class CurveSweepPanel : public QWidget {
    Q_OBJECT
public:
    explicit CurveSweepPanel(QWidget* parent = nullptr);

    QSpinBox* paretoPointsBox() const { return m_paretoPoints; }
    int paretoPoints() const;
    ScalingAxis scalingAxis() const;
    // The values typed (perhaps none), or empty with *error naming one that is not a whole
    // number. How many a fit needs is the sweep check's rule (checkSweep).
    std::vector<int> scalingValues(QString* error) const;
    void setScaling(ScalingAxis axis, const QString& values);
    void setRunning(bool running);

Q_SIGNALS:
    void paretoRequested();
    void scalingRequested();

private:
    QPushButton* m_pareto;
    QSpinBox* m_paretoPoints;
    QComboBox* m_axis;
    QLineEdit* m_values;
    QPushButton* m_scaling;
};

}  // namespace ckptlab::ui
