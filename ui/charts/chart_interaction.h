#pragma once
// What a chart says when hovered or clicked. Builders attach one to the charts they make (as a
// child of the QChart, so it lives and dies with it); ChartView asks it for tooltip text and for
// the strategy under the mouse. The hooks capture copies of the numbers, never pointers into a
// ResultSet, so a chart stays valid after its results are replaced.

#include <QObject>
#include <QPointF>
#include <QString>
#include <functional>

QT_BEGIN_NAMESPACE
class QChart;
class QAbstractSeries;
class QBarSet;
QT_END_NAMESPACE

namespace ckptlab::ui {

class ChartInteraction : public QObject {
    Q_OBJECT
public:
    using PointText = std::function<QString(QAbstractSeries* series, const QPointF& value)>;
    using BarText = std::function<QString(QBarSet* set, int index)>;

    explicit ChartInteraction(QChart* chart);

    // The interaction a builder attached to `chart`, or nullptr.
    static ChartInteraction* of(const QChart* chart);

    // Tooltip for a hovered XY or area series at a point in value coordinates.
    PointText pointTooltip;
    // Strategy under a click on an XY series; empty when the series is not a strategy's.
    PointText pointStrategy;
    // Tooltip and clicked strategy for bar charts (index = category).
    BarText barTooltip;
    BarText barStrategy;

Q_SIGNALS:
    // Tooltip text from a drawn item that is no series (segment_map.h), empty when the mouse
    // leaves it; ChartView shows it as it shows the series' tooltips.
    void hovered(const QString& text);
};

}  // namespace ckptlab::ui
