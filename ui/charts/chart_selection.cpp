// setSelectedStrategy: emphasis for the run chosen in the table or by a click, in any chart.
#include <QChart>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>

#include "charts/chart_builders.h"
#include "charts/chart_style.h"

namespace ckptlab::ui {

void setSelectedStrategy(QChart* chart, const QString& strategy) {
    if (!chart) return;
    const auto seriesList = chart->series();
    for (QAbstractSeries* series : seriesList) {
        const QVariant name = series->property(kStrategyProperty);
        if (!name.isValid()) continue;  // bands, frontier, baseline lines: never emphasised
        const bool selected = !strategy.isEmpty() && name.toString() == strategy;
        if (auto* scatter = qobject_cast<QScatterSeries*>(series)) {
            const qreal base = scatter->property("ckptlabBaseMarker").toReal();
            if (base <= 0) continue;
            scatter->setMarkerSize(selected ? base * 1.5 : base);
            QPen border(selected ? QColor(Qt::black) : scatter->color().darker(150),
                        selected ? 2.5 : 1.0);
            scatter->setPen(border);
        } else if (auto* line = qobject_cast<QLineSeries*>(series)) {
            const qreal base = line->property("ckptlabBaseWidth").toReal();
            if (base <= 0) continue;
            QPen pen = line->pen();
            pen.setWidthF(selected ? base * 2 : base);
            line->setPen(pen);
        }
    }
}

}  // namespace ckptlab::ui
