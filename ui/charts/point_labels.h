#pragma once
// Text labels beside scatter points that keep clear of each other and of the markers.
// Qt's own point labels always sit centred above the point, so close runs of a sweep
// (every:4 next to segments:4) print over each other; these try right, left, above and below.

#include <QColor>
#include <QObject>
#include <QPointer>
#include <QString>
#include <vector>

QT_BEGIN_NAMESPACE
class QChart;
class QGraphicsSimpleTextItem;
class QXYSeries;
QT_END_NAMESPACE

namespace ckptlab::ui {

class PointLabels : public QObject {
    Q_OBJECT
public:
    explicit PointLabels(QChart* chart);  // a child of the chart; its items are the chart's

    // Labels point `index` of `series` (already in the chart) with `text`. A `boxed` label
    // sits on a white ground, to stay readable where it has to cross lines.
    void add(QXYSeries* series, int index, const QString& text,
             const QColor& color = QColor(40, 40, 40), bool boxed = false);

    // Places every label again; runs by itself when the plot area or an axis range changes.
    void relayout();

    int count() const { return int(m_labels.size()); }
    QString text(int i) const;
    // Changes label `i`'s text; placed again on the next relayout.
    void setText(int i, const QString& text);

private:
    struct Label {
        QPointer<QXYSeries> series;
        int index;
        QGraphicsSimpleTextItem* item;
    };
    QChart* m_chart;
    std::vector<Label> m_labels;
    bool m_axesConnected = false;
};

}  // namespace ckptlab::ui
