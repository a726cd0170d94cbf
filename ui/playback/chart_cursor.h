#pragma once
// ChartCursor: the playback cursor drawn over a ChartView without rebuilding its chart: a
// vertical line at time t across the plot area, optionally a dot and a label with a value on a
// run's line (the memory timeline), and a band over one row of a block axis (the lifetimes).
// The items live in the view's scene above the chart, placed with QChart::mapToPosition; call
// chartReplaced() after the view shows a new chart.

#include <QColor>
#include <QObject>
#include <QPointer>
#include <QString>

class QAbstractSeries;
class QChart;
class QGraphicsEllipseItem;
class QGraphicsLineItem;
class QGraphicsRectItem;
class QGraphicsScene;
class QGraphicsSimpleTextItem;

namespace ckptlab::ui {

class ChartView;

class ChartCursor : public QObject {
    Q_OBJECT
public:
    explicit ChartCursor(ChartView* view);
    ~ChartCursor() override;

    struct Place {
        double t = 0;           // x, in the chart's time axis
        bool hasValue = false;  // a dot at (t, value) on the line of `strategy`
        double value = 0;
        QString strategy;  // the series to map through (its kStrategyProperty)
        QString label;     // shown beside the dot, or at the line's top without a value
        // A band over y = row ± 0.5 (a block axis; the embedding's row is -1).
        bool hasRow = false;
        int row = 0;
        QColor color = QColor(200, 30, 30);
    };
    void show(const Place& place);
    void hide();

    // After the view shows another chart: follow its plot area.
    void chartReplaced();

    QGraphicsLineItem* line() const { return m_line; }
    QGraphicsSimpleTextItem* label() const { return m_label; }
    QGraphicsRectItem* band() const { return m_band; }
    QGraphicsEllipseItem* dot() const { return m_dot; }

    // The series a place maps through: the line of its strategy, else any series on the chart.
    static QAbstractSeries* mappingSeries(QChart* chart, const QString& strategy);

private:
    void reposition();

    ChartView* m_view;
    QPointer<QGraphicsScene> m_scene;
    QPointer<QChart> m_chart;
    QGraphicsLineItem* m_line;
    QGraphicsRectItem* m_band;
    QGraphicsEllipseItem* m_dot;
    QGraphicsRectItem* m_labelBox;
    QGraphicsSimpleTextItem* m_label;
    Place m_place;
    bool m_shown = false;
};

}  // namespace ckptlab::ui
