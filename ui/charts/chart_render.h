#pragma once
// Painting a QChart at a chosen size whether or not it is on screen: headless export has a
// chart in no scene (so no geometry), the window's chart has the size of its view.

#include <QSizeF>

QT_BEGIN_NAMESPACE
class QChart;
class QPainter;
QT_END_NAMESPACE

namespace ckptlab::ui {

// Paints `chart` into `painter` over (0, 0, size), laid out for `size`. A chart in no scene is
// put in a temporary one and taken out again; a chart in a view is resized for the paint and
// then given its old size back, so the view is left as it was.
void renderChart(QChart* chart, QPainter* painter, const QSizeF& size);

}  // namespace ckptlab::ui
