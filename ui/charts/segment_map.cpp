#include "charts/segment_map.h"

#include <QChart>
#include <QGraphicsSceneHoverEvent>
#include <QPainter>
#include <QPen>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

#include "charts/chart_interaction.h"
#include "charts/chart_style.h"
#include "charts/run_text.h"
#include "ckptlab/model/summary.h"

namespace ckptlab::ui {

namespace {

// Above the grid and the axes, below the legend (Qt Charts draws its series at 4 and its
// legend at 5).
constexpr qreal kZValue = 4.5;
// Under this many pixels in both directions a rectangle is drawn as the pixel it falls on.
constexpr double kTinyPixels = 1.5;
// From this many pixels in both directions a block gets a rim.
constexpr double kRimPixels = 4;

double beforeStepFirst(const std::optional<double>& t) {
    return t ? *t : -std::numeric_limits<double>::infinity();
}

double clampTime(double t, double end) { return std::clamp(t, 0.0, std::max(end, 0.0)); }

// "512 B", "3.5 KiB", "12.00 MiB", "1.25 GiB".
QString bytesText(std::int64_t bytes) {
    const double b = double(bytes);
    if (std::abs(b) < 1024) return QStringLiteral("%1 B").arg(bytes);
    if (std::abs(b) < 1024.0 * 1024) return QStringLiteral("%1 KiB").arg(b / 1024, 0, 'f', 1);
    if (std::abs(b) < 1024.0 * 1024 * 1024)
        return QStringLiteral("%1 MiB").arg(b / (1024.0 * 1024), 0, 'f', 2);
    return QStringLiteral("%1 GiB").arg(b / (1024.0 * 1024 * 1024), 0, 'f', 2);
}

bool covers(const ValueRect& r, const QPointF& v, double dt, double dy) {
    return v.x() >= r.t0 - dt && v.x() <= r.t1 + dt && v.y() >= r.low - dy && v.y() <= r.high + dy;
}

}  // namespace

SegmentLayer layerOf(const SegmentBlock& block) {
    if (!block.allocated_ms) return SegmentLayer::BeforeStep;
    switch (block.phase) {
    case Phase::Forward: return SegmentLayer::Forward;
    case Phase::Loss: return SegmentLayer::Loss;
    case Phase::Recompute: return SegmentLayer::Recompute;
    case Phase::Backward: return SegmentLayer::Backward;
    case Phase::Optimizer: return SegmentLayer::Optimizer;
    case Phase::Idle: break;
    }
    return SegmentLayer::Other;
}

QColor layerColor(SegmentLayer layer) {
    // The phases' hues of the timeline's bands (phaseColor), opaque.
    switch (layer) {
    case SegmentLayer::BeforeStep: return QColor(150, 150, 150);
    case SegmentLayer::Forward: return QColor(70, 130, 200);
    case SegmentLayer::Loss: return QColor(205, 165, 45);
    case SegmentLayer::Recompute: return QColor(230, 120, 30);
    case SegmentLayer::Backward: return QColor(60, 165, 90);
    case SegmentLayer::Optimizer: return QColor(160, 90, 190);
    case SegmentLayer::Other: break;
    }
    return QColor(95, 95, 95);
}

QColor freeSpaceColor() { return QColor(233, 235, 240); }
QColor segmentRimColor() { return QColor(168, 174, 186); }

QString layerLabel(SegmentLayer layer) {
    switch (layer) {
    case SegmentLayer::BeforeStep: return ChartText::tr("live before the step");
    case SegmentLayer::Forward: return phaseLabel(Phase::Forward);
    case SegmentLayer::Loss: return phaseLabel(Phase::Loss);
    case SegmentLayer::Recompute: return phaseLabel(Phase::Recompute);
    case SegmentLayer::Backward: return phaseLabel(Phase::Backward);
    case SegmentLayer::Optimizer: return phaseLabel(Phase::Optimizer);
    case SegmentLayer::Other: break;
    }
    return ChartText::tr("other", "what allocated a block: none of the step's phases");
}

double stepEndMs(const RunResult& run) {
    double end = 0;
    for (const PhaseSpan& span : run.phases) end = std::max(end, span.end_ms);
    if (!run.timeline.empty()) end = std::max(end, run.timeline.back().t_ms);
    if (run.out_of_memory) end = std::max(end, run.out_of_memory->t_ms);
    if (const auto& trace = run.allocator_trace) {
        for (const SegmentRecord& s : trace->segments)
            for (const auto& t : {s.created_ms, s.released_ms})
                if (t) end = std::max(end, *t);
        for (const SegmentBlock& b : trace->blocks)
            for (const auto& t : {b.allocated_ms, b.freed_ms})
                if (t) end = std::max(end, *t);
    }
    return std::isfinite(end) && end > 0 ? end : 1.0;
}

SegmentLayout layoutSegments(const AllocatorTrace& trace, double stepEnd, double unitBytes) {
    SegmentLayout layout;
    layout.trace = trace;
    layout.stepEndMs = stepEnd;
    layout.unitBytes = unitBytes > 0 ? unitBytes : kMiB;
    const std::size_t n = trace.segments.size();
    std::vector<int> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = int(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return beforeStepFirst(trace.segments[std::size_t(a)].created_ms) <
               beforeStepFirst(trace.segments[std::size_t(b)].created_ms);
    });
    double total = 0;
    for (const SegmentRecord& s : trace.segments)
        total += double(std::max<std::int64_t>(s.size, 0)) / layout.unitBytes;
    const double gap = n > 0 ? total * std::min(0.008, 0.25 / double(n)) : 0;

    std::vector<double> bottom(n, 0);
    double cursor = 0;
    for (int index : order) {
        const SegmentRecord& s = trace.segments[std::size_t(index)];
        const double height = double(std::max<std::int64_t>(s.size, 0)) / layout.unitBytes;
        SegmentBand band;
        band.segment = index;
        band.rect.t0 = clampTime(s.created_ms.value_or(0), stepEnd);
        band.rect.t1 = std::max(band.rect.t0, clampTime(s.released_ms.value_or(stepEnd), stepEnd));
        band.rect.low = cursor;
        band.rect.high = cursor + height;
        bottom[std::size_t(index)] = cursor;
        layout.bands.push_back(band);
        layout.top = band.rect.high;
        cursor = band.rect.high + gap;
    }
    for (std::size_t i = 0; i < trace.blocks.size(); ++i) {
        const SegmentBlock& b = trace.blocks[i];
        if (b.segment < 0 || std::size_t(b.segment) >= n) continue;
        BlockRect rect;
        rect.block = int(i);
        rect.layer = layerOf(b);
        rect.rect.t0 = clampTime(b.allocated_ms.value_or(0), stepEnd);
        rect.rect.t1 = std::max(rect.rect.t0, clampTime(b.freed_ms.value_or(stepEnd), stepEnd));
        rect.rect.low = bottom[std::size_t(b.segment)] + double(b.offset) / layout.unitBytes;
        rect.rect.high =
            rect.rect.low + double(std::max<std::int64_t>(b.size, 0)) / layout.unitBytes;
        layout.blocks.push_back(rect);
    }
    return layout;
}

SegmentMapItem::SegmentMapItem(QChart* chart, QValueAxis* x, QValueAxis* y, SegmentLayout layout)
    : QGraphicsObject(chart), m_chart(chart), m_x(x), m_y(y), m_layout(std::move(layout)) {
    setObjectName(QStringLiteral("segmentMap"));
    setZValue(kZValue);
    setAcceptHoverEvents(true);
    m_plot = chart->plotArea();
    connect(chart, &QChart::plotAreaChanged, this, &SegmentMapItem::plotAreaChanged);
    for (QValueAxis* axis : {x, y})
        connect(axis, &QValueAxis::rangeChanged, this, [this] { update(); });
}

const SegmentMapItem* SegmentMapItem::of(const QChart* chart) {
    if (!chart) return nullptr;
    for (QGraphicsItem* child : chart->childItems())
        if (auto* item = qobject_cast<SegmentMapItem*>(child->toGraphicsObject())) return item;
    return nullptr;
}

void SegmentMapItem::plotAreaChanged() {
    prepareGeometryChange();
    m_plot = m_chart->plotArea();
    update();
}

QRectF SegmentMapItem::boundingRect() const { return m_plot; }

QPointF SegmentMapItem::toValue(const QPointF& p) const {
    if (!m_x || !m_y || m_plot.isEmpty()) return {};
    const double t =
        m_x->min() + (p.x() - m_plot.left()) / m_plot.width() * (m_x->max() - m_x->min());
    const double v =
        m_y->min() + (m_plot.bottom() - p.y()) / m_plot.height() * (m_y->max() - m_y->min());
    return {t, v};
}

// One path per layer in the item's coordinates. A block of a few bytes or microseconds still
// shows as at least a pixel; the many that fall on one pixel are drawn once.
void SegmentMapItem::rebuildPaths() {
    Paths& p = m_paths;
    p = Paths{};
    p.plot = m_plot;
    p.x0 = m_x->min();
    p.x1 = m_x->max();
    p.y0 = m_y->min();
    p.y1 = m_y->max();
    p.valid = true;
    if (m_plot.isEmpty() || !(p.x1 > p.x0) || !(p.y1 > p.y0)) return;
    const double sx = m_plot.width() / (p.x1 - p.x0);
    const double sy = m_plot.height() / (p.y1 - p.y0);
    const auto toPixels = [&](const ValueRect& r) {
        return QRectF(
            QPointF(m_plot.left() + (r.t0 - p.x0) * sx, m_plot.bottom() - (r.high - p.y0) * sy),
            QPointF(m_plot.left() + (r.t1 - p.x0) * sx, m_plot.bottom() - (r.low - p.y0) * sy));
    };
    p.bands.setFillRule(Qt::WindingFill);
    for (const SegmentBand& band : m_layout.bands) {
        QRectF r = toPixels(band.rect);
        r.setWidth(std::max(r.width(), 1.0));
        r.setHeight(std::max(r.height(), 1.0));
        p.bands.addRect(r);
    }
    std::array<std::set<std::pair<int, int>>, kSegmentLayerCount> pixels;  // (row, column)
    for (const BlockRect& block : m_layout.blocks) {
        QRectF r = toPixels(block.rect);
        if (r.width() < kTinyPixels && r.height() < kTinyPixels) {
            pixels[std::size_t(block.layer)].insert(
                {int(std::floor(r.top())), int(std::floor(r.left()))});
            continue;
        }
        r.setWidth(std::max(r.width(), 1.0));
        r.setHeight(std::max(r.height(), 1.0));
        QPainterPath& path = p.layers[std::size_t(block.layer)];
        path.setFillRule(Qt::WindingFill);
        path.addRect(r);
        if (r.width() >= kRimPixels && r.height() >= kRimPixels)
            p.rims[std::size_t(block.layer)].addRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
    }
    // Neighbouring pixels of a row become one rectangle.
    for (std::size_t layer = 0; layer < kSegmentLayerCount; ++layer) {
        QPainterPath& path = p.layers[layer];
        path.setFillRule(Qt::WindingFill);
        const auto& cells = pixels[layer];
        for (auto it = cells.begin(); it != cells.end();) {
            const int row = it->first, first = it->second;
            int last = first;
            for (++it; it != cells.end() && it->first == row && it->second == last + 1; ++it)
                ++last;
            path.addRect(QRectF(first, row, last - first + 1, 1));
        }
    }
}

void SegmentMapItem::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    if (!m_x || !m_y) return;
    if (!m_paths.valid || m_paths.plot != m_plot || m_paths.x0 != m_x->min() ||
        m_paths.x1 != m_x->max() || m_paths.y0 != m_y->min() || m_paths.y1 != m_y->max())
        rebuildPaths();
    painter->save();
    painter->setClipRect(m_plot);
    // Edge to edge without antialiased seams between neighbouring blocks.
    painter->setRenderHint(QPainter::Antialiasing, false);
    QPen rim(segmentRimColor(), 1);
    rim.setCosmetic(true);
    painter->setPen(rim);
    painter->setBrush(freeSpaceColor());
    painter->drawPath(m_paths.bands);
    painter->setPen(Qt::NoPen);
    for (std::size_t layer = 0; layer < kSegmentLayerCount; ++layer)
        if (!m_paths.layers[layer].isEmpty())
            painter->fillPath(m_paths.layers[layer], layerColor(SegmentLayer(layer)));
    painter->setBrush(Qt::NoBrush);
    for (std::size_t layer = 0; layer < kSegmentLayerCount; ++layer) {
        if (m_paths.rims[layer].isEmpty()) continue;
        QPen pen(layerColor(SegmentLayer(layer)).darker(145), 1);
        pen.setCosmetic(true);
        painter->setPen(pen);
        painter->drawPath(m_paths.rims[layer]);
    }
    painter->restore();
}

int SegmentMapItem::drawnRectangles() const {
    int elements = 0;
    for (const QPainterPath& path : m_paths.layers) elements += path.elementCount();
    return elements / 5;  // addRect: a move and four lines
}

QString SegmentMapItem::textAt(const QPointF& value) const {
    if (!m_x || !m_y || m_plot.isEmpty()) return {};
    // A pixel's tolerance: a block drawn a pixel wide can be hovered.
    const double dt = (m_x->max() - m_x->min()) / std::max(1.0, m_plot.width());
    const double dy = (m_y->max() - m_y->min()) / std::max(1.0, m_plot.height());
    const SegmentLayout& l = m_layout;
    for (auto it = l.blocks.rbegin(); it != l.blocks.rend(); ++it) {
        if (!covers(it->rect, value, dt, dy)) continue;
        const SegmentBlock& b = l.trace.blocks[std::size_t(it->block)];
        QStringList lines;
        lines << (it->layer == SegmentLayer::BeforeStep
                      ? ChartText::tr("Allocated before the step began (parameters, input, "
                                      "optimizer state and the like)")
                      : ChartText::tr("Allocated by %1").arg(whereText(b.phase, b.block)));
        lines << ChartText::tr("requested %1, held %2 as the allocator rounds it")
                     .arg(bytesText(b.requested), bytesText(b.size));
        if (b.allocated_ms)
            lines << ChartText::tr("allocated at %1").arg(formatMs(*b.allocated_ms));
        lines << (b.freed_ms ? ChartText::tr("freed at %1").arg(formatMs(*b.freed_ms))
                             : ChartText::tr("still allocated when the step ended"));
        lines << ChartText::tr("segment %1, offset %2").arg(b.segment).arg(bytesText(b.offset));
        return lines.join(QLatin1Char('\n'));
    }
    for (const SegmentBand& band : l.bands) {
        if (!covers(band.rect, value, 0, 0)) continue;
        const SegmentRecord& s = l.trace.segments[std::size_t(band.segment)];
        std::int64_t allocated = 0;
        for (const BlockRect& r : l.blocks)
            if (l.trace.blocks[std::size_t(r.block)].segment == band.segment &&
                r.rect.t0 <= value.x() && value.x() < r.rect.t1)
                allocated += l.trace.blocks[std::size_t(r.block)].size;
        QStringList lines;
        lines << (s.small_pool ? ChartText::tr("Segment %1 of the small pool: %2 reserved")
                               : ChartText::tr("Segment %1 of the large pool: %2 reserved"))
                     .arg(band.segment)
                     .arg(bytesText(s.size));
        lines << (s.created_ms ? ChartText::tr("reserved at %1").arg(formatMs(*s.created_ms))
                               : ChartText::tr("reserved before the step"));
        lines << (s.released_ms ? ChartText::tr("released at %1").arg(formatMs(*s.released_ms))
                                : ChartText::tr("still reserved when the step ended"));
        lines << ChartText::tr("at %1: %2 allocated in it, %3 reserved but free")
                     .arg(formatMs(value.x()), bytesText(allocated),
                          bytesText(std::max<std::int64_t>(0, s.size - allocated)));
        return lines.join(QLatin1Char('\n'));
    }
    return {};
}

void SegmentMapItem::hoverMoveEvent(QGraphicsSceneHoverEvent* event) {
    const QString text = m_plot.contains(event->pos()) ? textAt(toValue(event->pos())) : QString();
    if (text == m_hoverText) return;
    m_hoverText = text;
    if (ChartInteraction* interaction = ChartInteraction::of(m_chart))
        Q_EMIT interaction->hovered(text);
}

void SegmentMapItem::hoverLeaveEvent(QGraphicsSceneHoverEvent*) {
    if (m_hoverText.isEmpty()) return;
    m_hoverText.clear();
    if (ChartInteraction* interaction = ChartInteraction::of(m_chart))
        Q_EMIT interaction->hovered(QString());
}

}  // namespace ckptlab::ui
