#include "panels/curve_sweep_panel.h"

#include <QComboBox>
#include <QGridLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>

#include "ckptlab/planning/pareto.h"
#include "ckptlab/planning/sweep_check.h"
#include "document/core_text.h"

namespace ckptlab::ui {

CurveSweepPanel::CurveSweepPanel(QWidget* parent)
    : QWidget(parent),
      m_pareto(new QPushButton(tr("Pareto curve"))),
      m_paretoPoints(new QSpinBox),
      m_axis(new QComboBox),
      m_values(new QLineEdit),
      m_scaling(new QPushButton(tr("Scaling sweep"))) {
    setObjectName(QStringLiteral("curveSweeps"));
    m_pareto->setObjectName(QStringLiteral("paretoButton"));
    m_pareto->setToolTip(
        tr("Run optimal schedules at evenly spread memory budgets, from the smallest feasible "
           "peak to the no-checkpoint peak, beside the checked hand-written strategies "
           "(Ctrl+Shift+R)"));
    m_paretoPoints->setObjectName(QStringLiteral("paretoPoints"));
    m_paretoPoints->setRange(kParetoMinPoints, kParetoMaxPoints);
    m_paretoPoints->setValue(6);
    m_paretoPoints->setSuffix(tr(" budgets"));
    m_paretoPoints->setToolTip(tr("How many optimal schedules the Pareto curve runs (%1–%2)")
                                   .arg(kParetoMinPoints)
                                   .arg(kParetoMaxPoints));

    m_axis->setObjectName(QStringLiteral("scalingAxis"));
    for (ScalingAxis axis :
         {ScalingAxis::Depth, ScalingAxis::Seq, ScalingAxis::Width, ScalingAxis::Batch})
        m_axis->addItem(scalingAxisText(axis), int(axis));
    m_values->setObjectName(QStringLiteral("scalingValues"));
    m_values->setText(QStringLiteral("5,10,20,40"));
    m_values->setPlaceholderText(tr("e.g. 4,8,16,32"));
    m_values->setToolTip(
        tr("%1 or more values of the varied dimension, comma-separated").arg(kScalingMinValues));
    m_scaling->setObjectName(QStringLiteral("scalingButton"));
    m_scaling->setToolTip(
        tr("Run the checked strategies at every value and fit how activation "
           "memory, peak and step time grow (log-log exponent)"));

    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(m_pareto, 0, 0);
    grid->addWidget(m_paretoPoints, 0, 1, 1, 2);
    grid->addWidget(m_scaling, 1, 0);
    grid->addWidget(m_axis, 1, 1);
    grid->addWidget(m_values, 1, 2);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(2, 1);

    connect(m_pareto, &QPushButton::clicked, this, &CurveSweepPanel::paretoRequested);
    connect(m_scaling, &QPushButton::clicked, this, &CurveSweepPanel::scalingRequested);
    connect(m_values, &QLineEdit::returnPressed, this, &CurveSweepPanel::scalingRequested);
}

int CurveSweepPanel::paretoPoints() const { return m_paretoPoints->value(); }

ScalingAxis CurveSweepPanel::scalingAxis() const {
    return ScalingAxis(m_axis->currentData().toInt());
}

std::vector<int> CurveSweepPanel::scalingValues(QString* error) const {
    std::vector<int> values;
    const QStringList parts =
        m_values->text().split(QRegularExpression(QStringLiteral("[,;\\s]+")), Qt::SkipEmptyParts);
    for (const QString& part : parts) {
        bool ok = false;
        const int value = part.toInt(&ok);
        if (!ok) {
            *error = tr("Scaling values: \"%1\" is not a whole number. Give whole numbers of "
                        "%2, e.g. 4,8,16,32.")
                         .arg(part, m_axis->currentText());
            return {};
        }
        values.push_back(value);
    }
    return values;
}

void CurveSweepPanel::setScaling(ScalingAxis axis, const QString& values) {
    m_axis->setCurrentIndex(m_axis->findData(int(axis)));
    m_values->setText(values);
}

void CurveSweepPanel::setRunning(bool running) {
    m_pareto->setEnabled(!running);
    m_scaling->setEnabled(!running);
}

}  // namespace ckptlab::ui
