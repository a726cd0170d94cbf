#include "charts/chart_render.h"

#include <QChart>
#include <QCoreApplication>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QPainter>

namespace ckptlab::ui {

namespace {

// Layout requests are posted events; run them now so axes, legend and series have their final
// geometry before painting.
void layoutNow(QChart* chart, const QSizeF& size) {
    chart->resize(size);
    if (chart->layout()) chart->layout()->activate();
    QCoreApplication::sendPostedEvents(chart, QEvent::LayoutRequest);
}

}  // namespace

void renderChart(QChart* chart, QPainter* painter, const QSizeF& size) {
    QGraphicsScene temporary;
    QGraphicsScene* scene = chart->scene();
    const bool adopted = scene == nullptr;
    if (adopted) {
        scene = &temporary;
        scene->addItem(chart);
    }
    const QSizeF oldSize = chart->size();
    const bool resized = oldSize != size;
    if (resized) layoutNow(chart, size);
    const QRectF source(chart->scenePos(), size);
    scene->render(painter, QRectF(QPointF(0, 0), size), source, Qt::IgnoreAspectRatio);
    if (resized && !adopted) layoutNow(chart, oldSize);
    if (adopted) scene->removeItem(chart);  // the scene would delete it otherwise
}

}  // namespace ckptlab::ui
