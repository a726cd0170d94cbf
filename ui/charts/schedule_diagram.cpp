#include "charts/schedule_diagram.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QPalette>
#include <algorithm>
#include <cmath>

#include "charts/chart_builders.h"
#include "charts/chart_style.h"
#include "charts/run_text.h"

namespace ckptlab::ui {

namespace {

// Sizes at the normal 10 pt font; Geometry scales them with the text height.
constexpr qreal kLabelWidth = 150;
constexpr qreal kNoteWidth = 190;
constexpr qreal kCellHeight = 20;
constexpr qreal kMarkerHeight = 7;
constexpr qreal kBracketStep = 5;
constexpr qreal kRowGap = 8;
constexpr qreal kHeaderHeight = 22;
constexpr qreal kLegendLine = 18;
constexpr qreal kMargin = 10;
constexpr qreal kNormalTextHeight = 16;  // QFontMetricsF::height() of 10 pt at 96 dpi

// One legend entry: a swatch (or the stored-input marker) and its words.
struct LegendEntry {
    QColor colour;  // invalid: the marker
    QString label;
};

// `ends`: some row has the chain's ends, which get an entry of their own. `blank`: the
// diagram shows only where inputs are stored.
std::vector<LegendEntry> legendEntries(bool ends, bool blank) {
    if (blank)
        return {{QColor(), ChartText::tr("stored input (a checkpoint); write in each cell how "
                                         "often the block runs forward")}};
    std::vector<LegendEntry> entries{{forwardCountColor(1), ChartText::tr("run once (kept)")},
                                     {forwardCountColor(2), ChartText::tr("recomputed once")},
                                     {forwardCountColor(3), ChartText::tr("twice")},
                                     {forwardCountColor(4), ChartText::tr("3+ times")}};
    if (ends)
        entries.push_back(
            {chainEndColor(), ChartText::tr("embedding and LM head (never checkpointed)")});
    entries.push_back({QColor(), ChartText::tr("stored input; bracket: segment recomputed in "
                                               "backward (nested ones lower)")});
    return entries;
}

// Where each legend entry goes, flowing into lines of `width`: (x, line) per entry, and the
// width its text may take (the last entry's long text is elided on a line of its own).
struct LegendSlot {
    qreal x = 0;
    int line = 0;
    qreal textWidth = 0;
};

std::vector<LegendSlot> layoutLegend(const std::vector<LegendEntry>& entries,
                                     const QFontMetricsF& metrics, qreal scale, qreal width) {
    std::vector<LegendSlot> slots;
    const qreal swatch = 18 * scale, gap = 16 * scale;
    qreal x = 0;
    int line = 0;
    for (const LegendEntry& entry : entries) {
        const qreal text = metrics.horizontalAdvance(entry.label) + 4;
        if (x > 0 && x + swatch + text > width) {
            ++line;
            x = 0;
        }
        slots.push_back({x, line, std::min(text, width - x - swatch)});
        x += swatch + text + gap;
    }
    return slots;
}

int maxLevel(const ScheduleRow& row) {
    int level = -1;
    for (const CheckpointSpanView& s : row.spans) level = std::max(level, s.level);
    return level;
}

}  // namespace

QColor forwardCountColor(int forwards) {
    switch (forwards) {
    case 0:
    case 1: return QColor(0xdd, 0xe6, 0xf1);   // run once: its activations were kept
    case 2: return QColor(0xf6, 0xc1, 0x77);   // recomputed once
    case 3: return QColor(0xe6, 0x61, 0x00);   // twice (nested checkpoints)
    default: return QColor(0xa5, 0x1d, 0x2d);  // three times or more
    }
}

QColor chainEndColor() { return QColor(0xb4, 0xc8, 0xb0); }

ScheduleDiagram::ScheduleDiagram(std::vector<ScheduleRow> rows, QStringList colourOrder)
    : m_rows(std::move(rows)), m_colourOrder(std::move(colourOrder)), m_font(legendFont()) {
    if (m_colourOrder.isEmpty())
        for (const ScheduleRow& row : m_rows) m_colourOrder << row.strategy;
}

QString ScheduleDiagram::summary(const ScheduleRow& row) const {
    if (!row.note.isEmpty()) return row.note;
    const QString text = ChartText::tr("%1, %2", "stored inputs, recomputed blocks")
                             .arg(ChartText::tr("%n checkpoint(s)", nullptr, row.storedInputs),
                                  ChartText::tr("%n recomputed", nullptr, row.extraForwards));
    //: a schedule row whose forward counts come from the plan, not from a run
    return row.planned ? ChartText::tr("%1 (planned)").arg(text) : text;
}

QStringList ScheduleDiagram::summaryLines(const ScheduleRow& row) const {
    if (!row.note.isEmpty()) return {row.note};
    const QString recomputed = ChartText::tr("%n recomputed", nullptr, row.extraForwards);
    return {ChartText::tr("%n checkpoint(s)", nullptr, row.storedInputs),
            row.planned ? ChartText::tr("%1 (planned)").arg(recomputed) : recomputed};
}

ScheduleDiagram::Geometry ScheduleDiagram::geometry(qreal width) const {
    const QFontMetricsF metrics(m_font);
    Geometry g;
    g.scale = std::max<qreal>(1, metrics.height() / kNormalTextHeight);
    g.cellHeight = std::max(kCellHeight * g.scale, metrics.height() + 4);
    g.markerHeight = kMarkerHeight * g.scale;
    g.bracketStep = kBracketStep * g.scale;
    g.rowGap = kRowGap * g.scale;
    g.headerHeight = std::max(kHeaderHeight, metrics.height() + 6);
    g.legendLine = std::max(kLegendLine, metrics.height() + 2);
    // Labels and notes as wide as their words (at least the normal widths), leaving the cells
    // at least half the width; a note too long for its share goes on two lines.
    g.lineHeight = metrics.height();
    const qreal dot = 18 * g.scale, pad = 8 * g.scale + 4;
    qreal label = kLabelWidth, note = kNoteWidth, halves = 0;
    for (const ScheduleRow& row : m_rows) {
        label = std::max(label, dot + metrics.horizontalAdvance(row.strategy) + 6);
        if (!row.note.isEmpty()) continue;  // a failure's note is elided, not made room for
        note = std::max(note, pad + metrics.horizontalAdvance(summary(row)));
        for (const QString& line : summaryLines(row))
            halves = std::max(halves, pad + metrics.horizontalAdvance(line));
    }
    g.labelWidth = std::min(label, width * 0.22);
    const qreal share = width * 0.28;
    g.twoLineNotes = note > share && halves < note;
    g.noteWidth = std::min(g.twoLineNotes ? std::max(halves, kNoteWidth) : note, share);
    return g;
}

qreal ScheduleDiagram::rowHeight(const ScheduleRow& row, const Geometry& g) const {
    const qreal cells = g.markerHeight + g.cellHeight + g.bracketStep * (maxLevel(row) + 2);
    return std::max(cells, g.twoLineNotes ? 2 * g.lineHeight + 2 : 0) + g.rowGap;
}

bool ScheduleDiagram::hasEnds() const {
    return std::any_of(m_rows.begin(), m_rows.end(), [](const ScheduleRow& r) { return r.ends; });
}

int ScheduleDiagram::legendLines(qreal width, const Geometry& g) const {
    const auto slots = layoutLegend(legendEntries(hasEnds(), m_blank), QFontMetricsF(m_font),
                                    g.scale, width - 2 * kMargin);
    return slots.empty() ? 0 : slots.back().line + 1;
}

qreal ScheduleDiagram::heightFor(qreal width) const {
    const Geometry g = geometry(width);
    qreal height = 2 * kMargin + g.headerHeight + 12 + g.legendLine * legendLines(width, g);
    for (const ScheduleRow& row : m_rows) height += rowHeight(row, g);
    return height;
}

// What paint() lays out once for every row: the geometry in the diagram's font and the
// columns of the cells, as wide as the widest row's units.
struct ScheduleDiagram::Frame {
    QRectF area;
    Geometry g;
    QFontMetricsF metrics;
    QColor text;
    qreal left = 0, right = 0, span = 0, cell = 0;
    int units = 1, unitsPerBlock = 1;
    int endUnits = 0;  // columns of each chain end (a block's), when some row has ends
    // Where unit u's cell begins; the ends' cells lie before unit 0 and after the last unit.
    qreal unitX(int u) const { return left + (endUnits + u) * cell; }
};

ScheduleDiagram::Frame ScheduleDiagram::frame(const QRectF& area, const QColor& text) const {
    Frame f{area, geometry(area.width()), QFontMetricsF(m_font), text};
    f.left = area.left() + kMargin + f.g.labelWidth;
    f.right = area.right() - kMargin - f.g.noteWidth;
    f.span = std::max<qreal>(40, f.right - f.left);
    for (const ScheduleRow& row : m_rows) {
        f.units = std::max(f.units, row.units);
        f.unitsPerBlock = std::max(f.unitsPerBlock, row.unitsPerBlock);
    }
    if (hasEnds()) f.endUnits = f.unitsPerBlock;
    f.cell = f.span / (f.units + 2 * f.endUnits);
    return f;
}

QRectF ScheduleDiagram::cellsRect(const QRectF& area, int row, int unitBegin, int unitEnd) const {
    if (row < 0 || row >= int(m_rows.size())) return {};
    const ScheduleRow& r = m_rows[std::size_t(row)];
    const Frame f = frame(area, QColor());  // as paint() lays the cells out
    const int ends = r.ends && r.units > 0 ? f.endUnits : 0;
    unitBegin = std::max(-ends, unitBegin);
    unitEnd = std::min(r.units + ends, unitEnd);
    if (unitEnd <= unitBegin) return {};
    qreal y = area.top() + kMargin + f.g.headerHeight;
    for (int i = 0; i < row; ++i) y += rowHeight(m_rows[std::size_t(i)], f.g);
    return QRectF(f.unitX(unitBegin), y + f.g.markerHeight, (unitEnd - unitBegin) * f.cell,
                  f.g.cellHeight);
}

int ScheduleDiagram::rowAt(const QRectF& area, const QPointF& point) const {
    const Geometry g = geometry(area.width());
    qreal y = area.top() + kMargin + g.headerHeight;
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const qreal h = rowHeight(m_rows[i], g);
        if (point.y() >= y && point.y() < y + h) return int(i);
        y += h;
    }
    return -1;
}

void ScheduleDiagram::paint(QPainter& painter, const QRectF& area, int selected,
                            const QColor& text) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setFont(m_font);
    if (m_rows.empty()) {
        painter.setPen(text);
        painter.drawText(area, Qt::AlignCenter, noResultsTitle());
        painter.restore();
        return;
    }
    const Frame f = frame(area, text);
    qreal y = area.top() + kMargin;
    paintHeader(painter, f, y);
    y += f.g.headerHeight;
    const QColor highlight = QApplication::palette().color(QPalette::Highlight).lighter(185);
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const qreal h = rowHeight(m_rows[i], f.g);
        if (int(i) == selected)
            painter.fillRect(QRectF(area.left() + 2, y - 2, area.width() - 4, h - f.g.rowGap + 4),
                             highlight);
        paintRow(painter, f, m_rows[i], y);
        y += h;
    }
    paintLegend(painter, f, y);
    painter.restore();
}

// Block numbers over the cells, as many as fit, and what a transformer's two cells are.
void ScheduleDiagram::paintHeader(QPainter& painter, const Frame& f, qreal y) const {
    const qreal height = f.g.headerHeight;
    painter.setPen(f.text);
    painter.drawText(QRectF(f.area.left() + kMargin, y, f.g.labelWidth, height),
                     Qt::AlignLeft | Qt::AlignVCenter, ChartText::tr("block →"));
    const int blocks = f.units / f.unitsPerBlock;
    const qreal blockWidth = f.cell * f.unitsPerBlock;
    const int every = std::max(
        1, int(std::ceil(f.metrics.horizontalAdvance(QStringLiteral("000")) / blockWidth)));
    for (int b = 0; b < blocks; b += every)
        painter.drawText(QRectF(f.unitX(b * f.unitsPerBlock), y, blockWidth * every, height),
                         Qt::AlignLeft | Qt::AlignVCenter, QString::number(b));
    if (f.unitsPerBlock == 2)
        painter.drawText(QRectF(f.right, y, f.g.noteWidth, height),
                         Qt::AlignRight | Qt::AlignVCenter,
                         ChartText::tr("cells: attention | FFN"));
}

// One run: its name in its strategy's colour, its cells with the stored inputs and the
// recomputed segments, and the summary at the right (or why it has no schedule).
void ScheduleDiagram::paintRow(QPainter& painter, const Frame& f, const ScheduleRow& row,
                               qreal y) const {
    const qreal cellsTop = y + f.g.markerHeight;
    const qreal dot = 10 * f.g.scale, dotSpace = 15 * f.g.scale;
    const qreal labelWidth = f.g.labelWidth - dotSpace - 3;
    painter.setPen(Qt::NoPen);
    painter.setBrush(strategyColor(row.strategy, m_colourOrder));  // as in the charts
    painter.drawEllipse(
        QRectF(f.area.left() + kMargin, cellsTop + (f.g.cellHeight - dot) / 2, dot, dot));
    painter.setPen(f.text);
    painter.drawText(
        QRectF(f.area.left() + kMargin + dotSpace, cellsTop, labelWidth, f.g.cellHeight),
        Qt::AlignLeft | Qt::AlignVCenter,
        f.metrics.elidedText(row.strategy, Qt::ElideRight, labelWidth));
    if (row.units == 0) {
        const qreal width = f.span + f.g.noteWidth;
        painter.drawText(QRectF(f.left, cellsTop, width, f.g.cellHeight),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         f.metrics.elidedText(row.note, Qt::ElideRight, width));
        return;
    }
    paintCells(painter, f, row, cellsTop);
    if (row.ends) paintEnds(painter, f, row, cellsTop);
    paintCheckpoints(painter, f, row, y, cellsTop);
    paintSummary(painter, f, row, cellsTop);
}

// A cell per unit, coloured by how often its forward ran, the count written when it ran again.
void ScheduleDiagram::paintCells(QPainter& painter, const Frame& f, const ScheduleRow& row,
                                 qreal top) const {
    const bool roomForCounts = f.cell >= f.metrics.horizontalAdvance(QStringLiteral("0")) + 4;
    for (int u = 0; u < row.units; ++u) {
        const int count = u < int(row.forwardCounts.size()) ? row.forwardCounts[size_t(u)] : 1;
        const QRectF box(f.unitX(u), top, f.cell, f.g.cellHeight);
        painter.fillRect(box, m_blank ? QColor(Qt::white) : forwardCountColor(count));
        // Thin lines between units, darker between blocks.
        painter.setPen(
            QPen(u % row.unitsPerBlock == 0 ? QColor(90, 90, 90) : QColor(170, 170, 170), 0.8));
        painter.drawLine(box.topLeft(), box.bottomLeft());
        if (count > 1 && roomForCounts && !m_blank) {
            painter.setPen(count >= 3 ? Qt::white : Qt::black);
            painter.drawText(box, Qt::AlignCenter, QString::number(count));
        }
    }
    painter.setPen(QPen(QColor(90, 90, 90), 0.8));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(QRectF(f.unitX(0), top, row.units * f.cell, f.g.cellHeight));
}

// The embedding before the first unit and the LM head after the last: fixed cells, run once
// and never checkpointed, named when the name fits.
void ScheduleDiagram::paintEnds(QPainter& painter, const Frame& f, const ScheduleRow& row,
                                qreal top) const {
    const qreal width = f.endUnits * f.cell;
    for (const auto& [x, block] : {std::pair{f.unitX(-f.endUnits), kEmbeddingBlock},
                                   std::pair{f.unitX(row.units), kHeadBlock}}) {
        const QRectF box(x, top, width, f.g.cellHeight);
        painter.fillRect(box, chainEndColor());
        painter.setPen(QPen(QColor(90, 90, 90), 0.8));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(box);
        const QString name = chainEndName(block);
        if (f.metrics.horizontalAdvance(name) + 4 <= width) {
            painter.setPen(Qt::black);
            painter.drawText(box, Qt::AlignCenter, name);
        }
    }
}

// Stored inputs: a marker above the first unit of each checkpoint; its segment bracketed
// below, nested ones lower.
void ScheduleDiagram::paintCheckpoints(QPainter& painter, const Frame& f, const ScheduleRow& row,
                                       qreal y, qreal cellsTop) const {
    const qreal scale = f.g.scale;
    for (const CheckpointSpanView& s : row.spans) {
        const qreal x = f.unitX(s.begin);
        const QColor ink = s.level == 0 ? QColor(30, 30, 30) : QColor(100, 100, 100);
        QPolygonF marker;
        marker << QPointF(x, y) << QPointF(x + std::min<qreal>(8 * scale, f.cell), y)
               << QPointF(x, cellsTop);
        painter.setPen(Qt::NoPen);
        painter.setBrush(ink);
        painter.drawPolygon(marker);
        if (m_blank || !s.recomputed) continue;
        const qreal by = cellsTop + f.g.cellHeight + f.g.bracketStep * (s.level + 1);
        const qreal x0 = x + 1.5;
        const qreal x1 = f.unitX(s.end) - 1.5;
        painter.setPen(QPen(ink, 1.4 * scale));
        painter.drawLine(QPointF(x0, by), QPointF(x1, by));
        painter.drawLine(QPointF(x0, by), QPointF(x0, by - 3 * scale));
        painter.drawLine(QPointF(x1, by), QPointF(x1, by - 3 * scale));
    }
}

// "5 checkpoints, 20 recomputed" right of the cells, on two lines when one is too long.
void ScheduleDiagram::paintSummary(QPainter& painter, const Frame& f, const ScheduleRow& row,
                                   qreal cellsTop) const {
    if (m_blank) return;
    painter.setPen(f.text);
    const qreal pad = 8 * f.g.scale, width = f.g.noteWidth - pad;
    const QStringList lines = summaryLines(row);
    if (f.g.twoLineNotes && lines.size() == 2) {  // centred on the cells, one above the other
        const qreal top = cellsTop + f.g.cellHeight / 2 - f.g.lineHeight;
        for (int l = 0; l < 2; ++l)
            painter.drawText(QRectF(f.right + pad, top + l * f.g.lineHeight, width, f.g.lineHeight),
                             Qt::AlignLeft | Qt::AlignVCenter,
                             f.metrics.elidedText(lines[l], Qt::ElideRight, width));
        return;
    }
    painter.drawText(QRectF(f.right + pad, cellsTop, width, f.g.cellHeight),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     f.metrics.elidedText(summary(row), Qt::ElideRight, width));
}

// The legend under the rows: flows onto more lines when the font is large or the area narrow.
void ScheduleDiagram::paintLegend(QPainter& painter, const Frame& f, qreal y) const {
    const std::vector<LegendEntry> entries = legendEntries(hasEnds(), m_blank);
    const std::vector<LegendSlot> slots =
        layoutLegend(entries, f.metrics, f.g.scale, f.area.width() - 2 * kMargin);
    const qreal line = f.g.legendLine;
    const qreal box = std::min<qreal>(14 * f.g.scale, line - 4);
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const qreal x = f.area.left() + kMargin + slots[i].x;
        const qreal ly = y + 6 + slots[i].line * line;
        const qreal boxTop = ly + (line - box) / 2;
        if (entries[i].colour.isValid()) {
            painter.fillRect(QRectF(x, boxTop, box, box * 12 / 14), entries[i].colour);
            painter.setPen(QColor(90, 90, 90));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(QRectF(x, boxTop, box, box * 12 / 14));
        } else {  // the stored-input marker
            QPolygonF marker;
            marker << QPointF(x, boxTop) << QPointF(x + box * 8 / 14, boxTop)
                   << QPointF(x, boxTop + box);
            painter.setPen(Qt::NoPen);
            painter.setBrush(QColor(30, 30, 30));
            painter.drawPolygon(marker);
        }
        painter.setPen(f.text);
        painter.drawText(
            QRectF(x + 18 * f.g.scale, ly, slots[i].textWidth, line),
            Qt::AlignLeft | Qt::AlignVCenter,
            f.metrics.elidedText(entries[i].label, Qt::ElideRight, slots[i].textWidth));
    }
}

}  // namespace ckptlab::ui
