#include "charts/source_groups.h"

#include <QAreaSeries>
#include <QChart>
#include <QHash>
#include <QLegend>
#include <QLineSeries>
#include <QPen>

#include "charts/chart_builders.h"
#include "charts/chart_style.h"
#include "charts/point_labels.h"
#include "charts/prediction_overlay.h"

namespace ckptlab::ui {

namespace {

struct Sourced {
    QString strategy;
    int source = 0;
};

// The run name a series draws: its strategy property, a prediction's strategy, else its name.
QString runNameOf(const QAbstractSeries* series) {
    for (const char* property : {kStrategyProperty, kPredictedProperty}) {
        const QVariant value = series->property(property);
        if (value.isValid()) return value.toString();
    }
    return series->name();
}

}  // namespace

QString sourcedStrategyName(const QString& strategy, const QString& label) {
    return SourceText::tr("%1 · %2", "a run's strategy and the machine of its file")
        .arg(strategy, label);
}

QScatterSeries::MarkerShape sourceMarkerShape(int source) {
    static constexpr QScatterSeries::MarkerShape kShapes[] = {
        QScatterSeries::MarkerShapeCircle,   QScatterSeries::MarkerShapeRectangle,
        QScatterSeries::MarkerShapeTriangle, QScatterSeries::MarkerShapeRotatedRectangle,
        QScatterSeries::MarkerShapeStar,     QScatterSeries::MarkerShapePentagon,
    };
    return kShapes[size_t(source) % std::size(kShapes)];
}

Qt::PenStyle sourcePenStyle(int source) {
    static constexpr Qt::PenStyle kStyles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine,
                                               Qt::DashDotLine, Qt::DashDotDotLine};
    return kStyles[size_t(source) % std::size(kStyles)];
}

QColor sourceShade(const QColor& color, int source) {
    // 0: as is; then alternately darker and lighter, further each round.
    if (source == 0) return color;
    const int step = 100 + 30 * ((source + 1) / 2);
    return source % 2 ? color.darker(step) : color.lighter(step);
}

void styleSourceGroups(QChart* chart, const std::vector<ChartSource>& sources) {
    if (!chart) return;
    QStringList order;  // every file's strategies, as the table colours them
    QHash<QString, Sourced> byName;
    for (size_t s = 0; s < sources.size(); ++s)
        for (const QString& strategy : sources[s].strategies) {
            if (!order.contains(strategy)) order << strategy;
            byName.insert(sourcedStrategyName(strategy, sources[s].label), {strategy, int(s)});
        }
    // Beside a point its strategy is enough (its shape and shade tell the file); the legend,
    // on the right where long names fit, names the machines.
    if (auto* labels = chart->findChild<PointLabels*>()) {
        for (int i = 0; i < labels->count(); ++i) {
            const auto found = byName.constFind(labels->text(i));
            if (found != byName.constEnd()) labels->setText(i, found->strategy);
        }
        labels->relayout();
    }
    chart->legend()->setAlignment(Qt::AlignRight);
    const auto seriesList = chart->series();
    for (QAbstractSeries* series : seriesList) {
        if (series->objectName() == QLatin1String("paretoFrontier")) {
            chart->removeSeries(series);  // across machines it would mix them
            delete series;
            continue;
        }
        const auto found = byName.constFind(runNameOf(series));
        if (found == byName.constEnd()) continue;
        const QColor color = sourceShade(strategyColor(found->strategy, order), found->source);
        if (auto* scatter = qobject_cast<QScatterSeries*>(series)) {
            if (scatter->objectName() == QLatin1String("outOfMemory")) continue;  // its own cross
            scatter->setMarkerShape(sourceMarkerShape(found->source));
            QPen pen = scatter->pen();
            pen.setColor(series->property(kPredictedProperty).isValid() ? color
                                                                        : color.darker(150));
            if (!series->property(kPredictedProperty).isValid()) scatter->setColor(color);
            scatter->setPen(pen);
        } else if (auto* line = qobject_cast<QLineSeries*>(series)) {
            QPen pen = line->pen();
            pen.setColor(color);
            if (pen.style() == Qt::SolidLine) pen.setStyle(sourcePenStyle(found->source));
            line->setPen(pen);
        } else if (auto* area = qobject_cast<QAreaSeries*>(series)) {
            QPen pen = area->pen();
            pen.setColor(color.darker(120));
            area->setPen(pen);
            QColor fill = color;
            fill.setAlpha(area->brush().color().alpha());
            area->setBrush(fill);
        }
    }
}

}  // namespace ckptlab::ui
