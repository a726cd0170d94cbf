#include "charts/chart_interaction.h"

#include <QChart>

namespace ckptlab::ui {

ChartInteraction::ChartInteraction(QChart* chart) : QObject(chart) {
    setObjectName(QStringLiteral("ckptlabChartInteraction"));
}

ChartInteraction* ChartInteraction::of(const QChart* chart) {
    return chart ? chart->findChild<ChartInteraction*>(QString(), Qt::FindDirectChildrenOnly)
                 : nullptr;
}

}  // namespace ckptlab::ui
