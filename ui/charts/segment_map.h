#pragma once
// The reserved segments chart's picture of one traced step (AllocatorTrace, result.h): each
// segment the caching allocator reserved is a band of the address space, stacked in the order
// reserved with a thin gap, from when it was reserved to when it was released (or the step's
// end); each block cut from it is a rectangle at its offset, from its allocation to its free,
// in the colour of the phase that allocated it. What a band shows between its blocks is
// reserved but free: the fragmentation.
//
// SegmentLayout is the plain geometry in the chart's values (ms, the axis unit); SegmentMapItem
// paints it over a QChart's plot area as one path per layer, however many blocks there are:
// rectangles under a pixel are snapped to the pixel grid and drawn once per pixel, so thousands
// of blocks cost a few paths, on screen and in PNG and SVG files alike.

#include <QColor>
#include <QGraphicsObject>
#include <QPainterPath>
#include <QPointer>
#include <QRectF>
#include <array>
#include <cstdint>
#include <vector>

#include "ckptlab/model/result.h"

QT_BEGIN_NAMESPACE
class QChart;
class QValueAxis;
QT_END_NAMESPACE

namespace ckptlab::ui {

class ChartInteraction;

// What allocated a block, as the chart colours it: parameters, input and state that were
// live before the step (grey), then the step's phases.
enum class SegmentLayer { BeforeStep, Forward, Loss, Recompute, Backward, Optimizer, Other };
inline constexpr std::size_t kSegmentLayerCount = std::size_t(SegmentLayer::Other) + 1;

SegmentLayer layerOf(const SegmentBlock& block);
QColor layerColor(SegmentLayer layer);
QString layerLabel(SegmentLayer layer);  // translated, for the legend
// A band's ground (reserved, free) and its rim.
QColor freeSpaceColor();
QColor segmentRimColor();

// A rectangle in the chart's values: time in ms, address in the axis unit (MiB or GiB).
struct ValueRect {
    double t0 = 0, t1 = 0;
    double low = 0, high = 0;
};

struct SegmentBand {
    int segment = 0;  // index into AllocatorTrace::segments
    ValueRect rect;
};

struct BlockRect {
    int block = 0;  // index into AllocatorTrace::blocks
    SegmentLayer layer = SegmentLayer::Other;
    ValueRect rect;
};

struct SegmentLayout {
    AllocatorTrace trace;            // a copy: the chart keeps no pointer into the results
    double stepEndMs = 0;            // what an empty "released"/"freed" time stands for
    double unitBytes = 0;            // bytes per unit of the address axis (MiB, or GiB when large)
    double top = 0;                  // the stack's height in that unit, gaps included
    std::vector<SegmentBand> bands;  // in the order reserved, bottom first
    std::vector<BlockRect> blocks;   // every block whose segment is in the trace
};

// The end of the traced step in ms: the last phase, timeline event or trace time.
double stepEndMs(const RunResult& run);

// Bands stacked from 0 in the order the segments were reserved (before the step first, then by
// time, then by index), each `gap` apart: 0.8 % of the reserved total, less when there are many
// segments so the gaps never take more than a quarter of the axis. Blocks naming a segment the
// trace lacks are left out.
SegmentLayout layoutSegments(const AllocatorTrace& trace, double stepEndMs, double unitBytes);

// Paints a SegmentLayout over the plot area of the QChart it is a child of, mapped through
// the chart's two value axes, and says what is under the mouse through the chart's
// ChartInteraction (hovered).
class SegmentMapItem : public QGraphicsObject {
    Q_OBJECT
public:
    SegmentMapItem(QChart* chart, QValueAxis* x, QValueAxis* y, SegmentLayout layout);

    // The item a segments chart holds, or nullptr (an empty chart has none).
    static const SegmentMapItem* of(const QChart* chart);
    const SegmentLayout& layout() const { return m_layout; }

    // What the mouse at `value` (chart values) points at: a block, else a band; empty outside.
    QString textAt(const QPointF& value) const;

    // Rectangles the last paint filled, blocks and merged pixels (for tests: thousands of
    // blocks under a pixel each must not cost thousands of rectangles).
    int drawnRectangles() const;

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

protected:
    void hoverMoveEvent(QGraphicsSceneHoverEvent* event) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent* event) override;

private:
    void plotAreaChanged();
    QPointF toValue(const QPointF& position) const;
    void rebuildPaths();

    QChart* m_chart;
    QPointer<QValueAxis> m_x, m_y;
    SegmentLayout m_layout;
    QRectF m_plot;
    // The paths for the plot rectangle and axis ranges they were built for.
    struct Paths {
        QRectF plot;
        double x0 = 0, x1 = 0, y0 = 0, y1 = 0;
        QPainterPath bands;
        std::array<QPainterPath, kSegmentLayerCount> layers;
        // The rims of blocks big enough to show one, so neighbours of one colour stay apart.
        std::array<QPainterPath, kSegmentLayerCount> rims;
        bool valid = false;
    } m_paths;
    QString m_hoverText;
};

}  // namespace ckptlab::ui
