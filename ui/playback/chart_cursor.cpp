#include "playback/chart_cursor.h"

#include <QAbstractSeries>
#include <QAreaSeries>
#include <QChart>
#include <QGraphicsEllipseItem>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QLineSeries>
#include <QPen>
#include <algorithm>

#include "charts/chart_style.h"
#include "charts/chart_view.h"

namespace ckptlab::ui {

namespace {
constexpr qreal kZ = 1000;  // above the chart and its point labels
}

ChartCursor::ChartCursor(ChartView* view) : QObject(view), m_view(view) {
    QGraphicsScene* scene = view->scene();
    m_scene = scene;
    m_band = scene->addRect(QRectF(), Qt::NoPen);
    m_line = scene->addLine(QLineF());
    m_dot = scene->addEllipse(QRectF());
    m_labelBox = scene->addRect(QRectF());
    m_label = scene->addSimpleText(QString());
    m_band->setZValue(kZ);
    m_line->setZValue(kZ + 1);
    m_dot->setZValue(kZ + 2);
    m_labelBox->setZValue(kZ + 3);
    m_label->setZValue(kZ + 4);
    hide();
    chartReplaced();
}

ChartCursor::~ChartCursor() {
    // When the view goes, its scene goes first and takes the items with it.
    if (m_scene) {
        delete m_label;
        delete m_labelBox;
        delete m_dot;
        delete m_line;
        delete m_band;
    }
}

void ChartCursor::chartReplaced() {
    if (m_chart) disconnect(m_chart, nullptr, this, nullptr);
    m_chart = m_view->chart();
    if (m_chart) connect(m_chart, &QChart::plotAreaChanged, this, &ChartCursor::reposition);
    reposition();
}

QAbstractSeries* ChartCursor::mappingSeries(QChart* chart, const QString& strategy) {
    if (!chart) return nullptr;
    const auto all = chart->series();
    if (!strategy.isEmpty())
        for (QAbstractSeries* s : all)
            if (qobject_cast<QLineSeries*>(s) && s->property(kStrategyProperty) == strategy &&
                !s->attachedAxes().isEmpty())
                return s;
    for (QAbstractSeries* s : all)
        if (s->attachedAxes().size() >= 2) return s;
    return nullptr;
}

void ChartCursor::show(const Place& place) {
    m_place = place;
    m_shown = true;
    reposition();
}

void ChartCursor::hide() {
    m_shown = false;
    for (QGraphicsItem* item :
         std::initializer_list<QGraphicsItem*>{m_band, m_line, m_dot, m_labelBox, m_label})
        item->setVisible(false);
}

void ChartCursor::reposition() {
    QAbstractSeries* series = m_shown ? mappingSeries(m_chart, m_place.strategy) : nullptr;
    if (!series) {
        const bool shown = m_shown;
        hide();
        m_shown = shown;
        return;
    }
    const QRectF plot = m_chart->mapToScene(m_chart->plotArea()).boundingRect();
    auto toScene = [&](double x, double y) {
        return m_chart->mapToScene(m_chart->mapToPosition(QPointF(x, y), series));
    };
    const qreal x = toScene(m_place.t, 0).x();
    const bool inside = x >= plot.left() - 0.5 && x <= plot.right() + 0.5;
    const qreal width = isProjectorLook() ? 3.5 : 2.0;

    QPen pen(m_place.color, width);
    pen.setCosmetic(true);
    m_line->setPen(pen);
    m_line->setLine(QLineF(x, plot.top(), x, plot.bottom()));
    m_line->setVisible(inside);

    if (m_place.hasRow) {
        const qreal top = toScene(m_place.t, m_place.row - 0.5).y();
        const qreal bottom = toScene(m_place.t, m_place.row + 0.5).y();
        QColor fill = m_place.color;
        fill.setAlpha(45);
        m_band->setBrush(fill);
        m_band->setRect(
            QRectF(plot.left(), std::min(top, bottom), plot.width(), std::abs(bottom - top))
                .intersected(plot));
        m_band->setVisible(true);
    } else {
        m_band->setVisible(false);
    }

    QPointF anchor(x, plot.top());
    if (m_place.hasValue) {
        anchor = toScene(m_place.t, m_place.value);
        const qreal r = isProjectorLook() ? 7 : 5;
        m_dot->setRect(QRectF(anchor.x() - r, anchor.y() - r, 2 * r, 2 * r));
        m_dot->setBrush(m_place.color);
        m_dot->setPen(QPen(Qt::white, 1.5));
        m_dot->setVisible(inside);
    } else {
        m_dot->setVisible(false);
    }

    m_label->setText(m_place.label);
    m_label->setFont(pointLabelFont());
    const bool hasLabel = inside && !m_place.label.isEmpty();
    m_label->setVisible(hasLabel);
    m_labelBox->setVisible(hasLabel);
    if (!hasLabel) return;
    // Beside the anchor, on whichever side has room, kept inside the plot area.
    const QSizeF size = m_label->boundingRect().size();
    constexpr qreal kGap = 8;
    qreal lx = anchor.x() + kGap;
    if (lx + size.width() > plot.right()) lx = anchor.x() - kGap - size.width();
    lx = std::max(lx, plot.left());
    qreal ly = anchor.y() - size.height() - kGap;
    if (ly < plot.top()) ly = std::min(anchor.y() + kGap, plot.bottom() - size.height());
    m_label->setPos(lx, ly);
    m_label->setBrush(Qt::black);
    m_labelBox->setRect(QRectF(lx - 3, ly - 1, size.width() + 6, size.height() + 2));
    m_labelBox->setBrush(QColor(255, 255, 255, 230));
    m_labelBox->setPen(QPen(m_place.color, 1));
}

}  // namespace ckptlab::ui
