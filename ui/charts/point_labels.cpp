#include "charts/point_labels.h"

#include <QAbstractAxis>
#include <QChart>
#include <QGraphicsRectItem>
#include <QGraphicsSimpleTextItem>
#include <QLineF>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>
#include <algorithm>

#include "charts/chart_style.h"

namespace ckptlab::ui {

namespace {
constexpr qreal kGap = 4;  // between a marker's edge and its label
qreal area(const QRectF& r) { return r.isEmpty() ? 0 : r.width() * r.height(); }
// How far a point's marker reaches from its centre: half its size and half its border (the
// selected run's marker is larger, with a thicker border).
qreal markerRadius(const QXYSeries* series) {
    const auto* scatter = qobject_cast<const QScatterSeries*>(series);
    if (!scatter) return 3;
    return scatter->markerSize() / 2 + std::max<qreal>(1, scatter->pen().widthF()) / 2;
}
// Lines drawn over the plot (the Pareto frontier, a prediction's tie) as small squares along
// them, so a label prefers a spot no line crosses.
void addLineObstacles(QChart* chart, std::vector<QRectF>* taken) {
    constexpr qreal kStep = 3;
    const QRectF plot = chart->plotArea();
    for (QAbstractSeries* series : chart->series()) {
        auto* line = qobject_cast<QLineSeries*>(series);
        if (!line || !line->isVisible() || line->count() < 2) continue;
        QPointF previous = chart->mapToPosition(line->at(0), line);
        for (int i = 1; i < line->count(); ++i) {
            const QPointF next = chart->mapToPosition(line->at(i), line);
            const qreal length = QLineF(previous, next).length();
            const int steps = std::min(2000, int(length / kStep));
            for (int k = 0; k <= steps; ++k) {
                const QPointF at = previous + (next - previous) * (steps ? qreal(k) / steps : 0);
                if (plot.contains(at))
                    taken->push_back(QRectF(at - QPointF(1.5, 1.5), QSizeF(kStep, kStep)));
            }
            previous = next;
        }
    }
}
}  // namespace

PointLabels::PointLabels(QChart* chart) : QObject(chart), m_chart(chart) {
    connect(chart, &QChart::plotAreaChanged, this, &PointLabels::relayout);
}

void PointLabels::add(QXYSeries* series, int index, const QString& text, const QColor& color,
                      bool boxed) {
    auto* item = new QGraphicsSimpleTextItem(text, m_chart);
    item->setFont(pointLabelFont());
    item->setBrush(color);
    if (boxed) {
        auto* ground = new QGraphicsRectItem(item->boundingRect().adjusted(-3, -1, 3, 1), item);
        ground->setFlag(QGraphicsItem::ItemStacksBehindParent);
        ground->setBrush(QColor(255, 255, 255, 225));
        QColor rim = color;
        rim.setAlpha(120);
        ground->setPen(QPen(rim, 1));
    }
    item->setZValue(1000);  // above every series
    m_labels.push_back({series, index, item});
    // Selecting a run enlarges its marker after the labels were placed.
    if (auto* scatter = qobject_cast<QScatterSeries*>(series)) {
        connect(scatter, &QScatterSeries::markerSizeChanged, this, &PointLabels::relayout,
                Qt::UniqueConnection);
        connect(scatter, &QXYSeries::penChanged, this, &PointLabels::relayout,
                Qt::UniqueConnection);
    }
    if (!m_axesConnected) {  // zooming changes ranges without moving the plot area
        for (QAbstractAxis* axis : m_chart->axes())
            if (auto* values = qobject_cast<QValueAxis*>(axis))
                connect(values, &QValueAxis::rangeChanged, this, &PointLabels::relayout);
        m_axesConnected = true;
    }
    relayout();
}

QString PointLabels::text(int i) const { return m_labels.at(size_t(i)).item->text(); }

void PointLabels::setText(int i, const QString& text) {
    m_labels.at(size_t(i)).item->setText(text);
}

void PointLabels::relayout() {
    const QRectF plot = m_chart->plotArea();
    // Markers are obstacles too, so a label never covers another run's point; lines cost less
    // (each square they leave is small), so a label crosses one only when every spot does.
    std::vector<QRectF> taken;
    addLineObstacles(m_chart, &taken);
    std::vector<QPointF> centres(m_labels.size());
    for (size_t i = 0; i < m_labels.size(); ++i) {
        const Label& label = m_labels[i];
        if (!label.series || label.index >= label.series->count()) continue;
        centres[i] = m_chart->mapToPosition(label.series->at(label.index), label.series);
        const qreal r = markerRadius(label.series.data());
        taken.push_back(QRectF(centres[i] - QPointF(r, r), QSizeF(2 * r, 2 * r)));
    }
    for (size_t i = 0; i < m_labels.size(); ++i) {
        Label& label = m_labels[i];
        const bool visible =
            label.series && label.index < label.series->count() && plot.contains(centres[i]);
        label.item->setVisible(visible);
        if (!visible) continue;
        const qreal r = markerRadius(label.series.data()) + kGap;
        const QSizeF size = label.item->boundingRect().size();
        const QPointF c = centres[i];
        const QPointF candidates[] = {
            {c.x() + r, c.y() - size.height() / 2},                 // right
            {c.x() - r - size.width(), c.y() - size.height() / 2},  // left
            {c.x() - size.width() / 2, c.y() - r - size.height()},  // above
            {c.x() - size.width() / 2, c.y() + r},                  // below
            {c.x() + r, c.y() - r - size.height()},                 // above right
            {c.x() + r, c.y() + r},                                 // below right
            {c.x() - r - size.width(), c.y() - r - size.height()},  // above left
            {c.x() - r - size.width(), c.y() + r},                  // below left
        };
        // The first spot that is clear wins; if none is, the one covering the least.
        QRectF chosen;
        qreal best = -1;
        for (const QPointF& at : candidates) {
            const QRectF rect(at, size);
            // Outside the plot counts double; under a pixel of overlap is rounding, not overlap.
            qreal cost = plot.contains(rect) ? 0 : 2 * (area(rect) - area(rect & plot));
            for (const QRectF& other : taken) cost += area(rect & other);
            if (cost < 1) cost = 0;
            if (best < 0 || cost < best) {
                best = cost;
                chosen = rect;
            }
            if (cost == 0) break;
        }
        label.item->setPos(chosen.topLeft());
        taken.push_back(chosen);
    }
}

}  // namespace ckptlab::ui
