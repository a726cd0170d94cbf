#include "charts/schedule_diagram.h"

#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QImage>
#include <QPalette>
#include <QSvgGenerator>
#include <algorithm>
#include <cmath>

#include "charts/chart_builders.h"
#include "charts/chart_export.h"
#include "charts/chart_style.h"
#include "ckptlab/planner.h"
#include "ckptlab/sweep_policy.h"

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

std::vector<LegendEntry> legendEntries() {
    return {{forwardCountColor(1), ChartText::tr("run once (kept)")},
            {forwardCountColor(2), ChartText::tr("recomputed once")},
            {forwardCountColor(3), ChartText::tr("twice")},
            {forwardCountColor(4), ChartText::tr("3+ times")},
            {QColor(), ChartText::tr("stored input; bracket: segment recomputed in backward "
                                     "(nested ones lower)")}};
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

ScheduleRow rowFor(const RunResult& run) {
    ScheduleRow row;
    row.strategy = QString::fromStdString(run.strategy);
    row.unitsPerBlock = run.config.block == BlockKind::Transformer ? 2 : 1;
    row.units = run.config.depth * row.unitsPerBlock;
    Plan plan;
    try {
        plan = recordedPlan(run);
    } catch (const std::exception& e) {
        row.note = QString::fromStdString(e.what());
        row.units = 0;
        return row;
    }
    if (!plan.segments.empty()) row.units = std::max(row.units, plan.segments.back().end);
    row.forwardCounts = forwardCounts(plan, row.units);
    for (const CheckpointSpan& s : checkpointSpans(plan))
        row.spans.push_back({s.begin, s.end, s.level});
    row.storedInputs = int(row.spans.size());
    for (int count : row.forwardCounts) row.extraForwards += std::max(0, count - 1);
    if (run.error) row.note = ChartText::tr("failed: %1").arg(QString::fromStdString(*run.error));
    return row;
}

int maxLevel(const ScheduleRow& row) {
    int level = -1;
    for (const CheckpointSpanView& s : row.spans) level = std::max(level, s.level);
    return level;
}

}  // namespace

std::vector<ScheduleRow> scheduleRows(const ResultSet& results) {
    std::vector<ScheduleRow> rows;
    for (const RunResult& run : results.runs) rows.push_back(rowFor(run));
    return rows;
}

QColor forwardCountColor(int forwards) {
    switch (forwards) {
    case 0:
    case 1: return QColor(0xdd, 0xe6, 0xf1);   // run once: its activations were kept
    case 2: return QColor(0xf6, 0xc1, 0x77);   // recomputed once
    case 3: return QColor(0xe6, 0x61, 0x00);   // twice (nested checkpoints)
    default: return QColor(0xa5, 0x1d, 0x2d);  // three times or more
    }
}

ScheduleDiagram::ScheduleDiagram(std::vector<ScheduleRow> rows, QStringList colourOrder)
    : m_rows(std::move(rows)), m_colourOrder(std::move(colourOrder)), m_font(legendFont()) {
    if (m_colourOrder.isEmpty())
        for (const ScheduleRow& row : m_rows) m_colourOrder << row.strategy;
}

QString ScheduleDiagram::summary(const ScheduleRow& row) const {
    if (!row.note.isEmpty()) return row.note;
    return ChartText::tr("%1, %2", "stored inputs, recomputed blocks")
        .arg(ChartText::tr("%n checkpoint(s)", nullptr, row.storedInputs),
             ChartText::tr("%n recomputed", nullptr, row.extraForwards));
}

QStringList ScheduleDiagram::summaryLines(const ScheduleRow& row) const {
    if (!row.note.isEmpty()) return {row.note};
    return {ChartText::tr("%n checkpoint(s)", nullptr, row.storedInputs),
            ChartText::tr("%n recomputed", nullptr, row.extraForwards)};
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

int ScheduleDiagram::legendLines(qreal width, const Geometry& g) const {
    const auto slots = layoutLegend(legendEntries(), QFontMetricsF(m_font), g.scale,
                                    width - 2 * kMargin);
    return slots.empty() ? 0 : slots.back().line + 1;
}

qreal ScheduleDiagram::heightFor(qreal width) const {
    const Geometry g = geometry(width);
    qreal height = 2 * kMargin + g.headerHeight + 12 + g.legendLine * legendLines(width, g);
    for (const ScheduleRow& row : m_rows) height += rowHeight(row, g);
    return height;
}

QRectF ScheduleDiagram::cellsRect(const QRectF& area, int row, int unitBegin,
                                  int unitEnd) const {
    if (row < 0 || row >= int(m_rows.size())) return {};
    const ScheduleRow& r = m_rows[std::size_t(row)];
    unitBegin = std::max(0, unitBegin);
    unitEnd = std::min(r.units, unitEnd);
    if (unitEnd <= unitBegin) return {};
    int units = 1;  // as paint() lays the cells out
    for (const ScheduleRow& other : m_rows) units = std::max(units, other.units);
    const Geometry g = geometry(area.width());
    const qreal left = area.left() + kMargin + g.labelWidth;
    const qreal right = area.right() - kMargin - g.noteWidth;
    const qreal cell = std::max<qreal>(40, right - left) / units;
    qreal y = area.top() + kMargin + g.headerHeight;
    for (int i = 0; i < row; ++i) y += rowHeight(m_rows[std::size_t(i)], g);
    return QRectF(left + unitBegin * cell, y + g.markerHeight, (unitEnd - unitBegin) * cell,
                  g.cellHeight);
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
    const QPalette palette = QApplication::palette();
    const QFontMetricsF metrics(m_font);
    const Geometry g = geometry(area.width());
    // The sizes below, in this font (they shadow the normal-font constants).
    const qreal kLabelWidth = g.labelWidth, kNoteWidth = g.noteWidth, kCellHeight = g.cellHeight,
                kMarkerHeight = g.markerHeight, kBracketStep = g.bracketStep,
                kRowGap = g.rowGap, kHeaderHeight = g.headerHeight;
    const qreal dot = 10 * g.scale, dotSpace = 15 * g.scale;
    const qreal left = area.left() + kMargin + kLabelWidth;
    const qreal right = area.right() - kMargin - kNoteWidth;
    const qreal span = std::max<qreal>(40, right - left);

    if (m_rows.empty()) {
        painter.setPen(text);
        painter.drawText(area, Qt::AlignCenter, ChartText::tr("No results yet"));
        painter.restore();
        return;
    }

    int units = 1;
    int unitsPerBlock = 1;
    for (const ScheduleRow& row : m_rows) {
        units = std::max(units, row.units);
        unitsPerBlock = std::max(unitsPerBlock, row.unitsPerBlock);
    }
    const qreal cell = span / units;

    // Header: block numbers, as many as fit.
    qreal y = area.top() + kMargin;
    painter.setPen(text);
    painter.drawText(QRectF(area.left() + kMargin, y, kLabelWidth, kHeaderHeight),
                     Qt::AlignLeft | Qt::AlignVCenter, ChartText::tr("block →"));
    const int blocks = units / unitsPerBlock;
    const qreal blockWidth = cell * unitsPerBlock;
    const int every =
        std::max(1, int(std::ceil(metrics.horizontalAdvance(QStringLiteral("000")) / blockWidth)));
    for (int b = 0; b < blocks; b += every)
        painter.drawText(QRectF(left + b * blockWidth, y, blockWidth * every, kHeaderHeight),
                         Qt::AlignLeft | Qt::AlignVCenter, QString::number(b));
    if (unitsPerBlock == 2)
        painter.drawText(QRectF(right, y, kNoteWidth, kHeaderHeight),
                         Qt::AlignRight | Qt::AlignVCenter, ChartText::tr("cells: attention | FFN"));
    y += kHeaderHeight;

    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const ScheduleRow& row = m_rows[i];
        const qreal h = rowHeight(row, g);
        if (int(i) == selected)
            painter.fillRect(QRectF(area.left() + 2, y - 2, area.width() - 4, h - kRowGap + 4),
                             palette.color(QPalette::Highlight).lighter(185));
        const qreal cellsTop = y + kMarkerHeight;
        // Label with the strategy's colour, as in the charts.
        painter.setPen(Qt::NoPen);
        painter.setBrush(strategyColor(row.strategy, m_colourOrder));
        painter.drawEllipse(
            QRectF(area.left() + kMargin, cellsTop + (kCellHeight - dot) / 2, dot, dot));
        painter.setPen(text);
        painter.drawText(
            QRectF(area.left() + kMargin + dotSpace, cellsTop, kLabelWidth - dotSpace - 3,
                   kCellHeight),
            Qt::AlignLeft | Qt::AlignVCenter,
            metrics.elidedText(row.strategy, Qt::ElideRight, kLabelWidth - dotSpace - 3));

        if (row.units == 0) {
            painter.drawText(QRectF(left, cellsTop, span + kNoteWidth, kCellHeight),
                             Qt::AlignLeft | Qt::AlignVCenter,
                             metrics.elidedText(row.note, Qt::ElideRight, span + kNoteWidth));
            y += h;
            continue;
        }
        for (int u = 0; u < row.units; ++u) {
            const int count = u < int(row.forwardCounts.size()) ? row.forwardCounts[size_t(u)] : 1;
            const QRectF box(left + u * cell, cellsTop, cell, kCellHeight);
            painter.fillRect(box, forwardCountColor(count));
            // Thin lines between units, darker between blocks.
            painter.setPen(
                QPen(u % row.unitsPerBlock == 0 ? QColor(90, 90, 90) : QColor(170, 170, 170), 0.8));
            painter.drawLine(box.topLeft(), box.bottomLeft());
            if (count > 1 && cell >= metrics.horizontalAdvance(QStringLiteral("0")) + 4) {
                painter.setPen(count >= 3 ? Qt::white : Qt::black);
                painter.drawText(box, Qt::AlignCenter, QString::number(count));
            }
        }
        painter.setPen(QPen(QColor(90, 90, 90), 0.8));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRectF(left, cellsTop, row.units * cell, kCellHeight));

        // Stored inputs: a marker above the first unit of each checkpoint; brackets below.
        for (const CheckpointSpanView& s : row.spans) {
            const qreal x = left + s.begin * cell;
            const QColor ink = s.level == 0 ? QColor(30, 30, 30) : QColor(100, 100, 100);
            QPolygonF marker;
            marker << QPointF(x, y) << QPointF(x + std::min<qreal>(8 * g.scale, cell), y)
                   << QPointF(x, cellsTop);
            painter.setPen(Qt::NoPen);
            painter.setBrush(ink);
            painter.drawPolygon(marker);
            const qreal by = cellsTop + kCellHeight + kBracketStep * (s.level + 1);
            const qreal x0 = x + 1.5;
            const qreal x1 = left + s.end * cell - 1.5;
            painter.setPen(QPen(ink, 1.4 * g.scale));
            painter.drawLine(QPointF(x0, by), QPointF(x1, by));
            painter.drawLine(QPointF(x0, by), QPointF(x0, by - 3 * g.scale));
            painter.drawLine(QPointF(x1, by), QPointF(x1, by - 3 * g.scale));
        }
        painter.setPen(text);
        const qreal pad = 8 * g.scale;
        const QStringList lines = summaryLines(row);
        if (g.twoLineNotes && lines.size() == 2) {  // centred on the cells, one above the other
            const qreal top = cellsTop + kCellHeight / 2 - g.lineHeight;
            for (int l = 0; l < 2; ++l)
                painter.drawText(
                    QRectF(right + pad, top + l * g.lineHeight, kNoteWidth - pad, g.lineHeight),
                    Qt::AlignLeft | Qt::AlignVCenter,
                    metrics.elidedText(lines[l], Qt::ElideRight, kNoteWidth - pad));
        } else {
            painter.drawText(QRectF(right + pad, cellsTop, kNoteWidth - pad, kCellHeight),
                             Qt::AlignLeft | Qt::AlignVCenter,
                             metrics.elidedText(summary(row), Qt::ElideRight, kNoteWidth - pad));
        }
        y += h;
    }

    // Legend: flows onto more lines when the font is large or the area narrow.
    const std::vector<LegendEntry> entries = legendEntries();
    const std::vector<LegendSlot> slots =
        layoutLegend(entries, metrics, g.scale, area.width() - 2 * kMargin);
    const qreal box = std::min<qreal>(14 * g.scale, g.legendLine - 4);
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const qreal x = area.left() + kMargin + slots[i].x;
        const qreal ly = y + 6 + slots[i].line * g.legendLine;
        const qreal boxTop = ly + (g.legendLine - box) / 2;
        if (entries[i].colour.isValid()) {
            painter.fillRect(QRectF(x, boxTop, box, box * 12 / 14), entries[i].colour);
            painter.setPen(QColor(90, 90, 90));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(QRectF(x, boxTop, box, box * 12 / 14));
        } else {
            QPolygonF marker;
            marker << QPointF(x, boxTop) << QPointF(x + box * 8 / 14, boxTop)
                   << QPointF(x, boxTop + box);
            painter.setPen(Qt::NoPen);
            painter.setBrush(QColor(30, 30, 30));
            painter.drawPolygon(marker);
        }
        painter.setPen(text);
        painter.drawText(QRectF(x + 18 * g.scale, ly, slots[i].textWidth, g.legendLine),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         metrics.elidedText(entries[i].label, Qt::ElideRight, slots[i].textWidth));
    }
    painter.restore();
}

namespace {

bool fail(QString* error, const QString& message) {
    if (error) *error = message;
    return false;
}

}  // namespace

bool exportSchedulePng(const ResultSet& results, const QString& path, int scale, QString* error) {
    if (scale != 1 && scale != 2) return fail(error, ChartText::tr("PNG scale must be 1 or 2."));
    const ScheduleDiagram diagram(scheduleRows(results), strategyOrder(results));
    const QSizeF size(kExportSize.width(), diagram.heightFor(kExportSize.width()));
    QImage image((size * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
    if (image.isNull()) return fail(error, ChartText::tr("Could not allocate the image."));
    image.setDevicePixelRatio(scale);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        diagram.paint(painter, QRectF(QPointF(0, 0), size), -1, Qt::black);
    }
    if (!image.save(path, "PNG"))
        return fail(error,
                    ChartText::tr("Could not write %1.").arg(QFileInfo(path).absoluteFilePath()));
    return true;
}

bool exportScheduleSvg(const ResultSet& results, const QString& path, const QString& description,
                       QString* error) {
    {
        QFile probe(path);
        if (!probe.open(QIODevice::WriteOnly))
            return fail(error, ChartText::tr("Could not write %1: %2")
                                   .arg(QFileInfo(path).absoluteFilePath(), probe.errorString()));
    }
    const ScheduleDiagram diagram(scheduleRows(results), strategyOrder(results));
    const QSizeF size(kExportSize.width(), diagram.heightFor(kExportSize.width()));
    QSvgGenerator generator;
    generator.setFileName(path);
    generator.setSize(size.toSize());
    generator.setViewBox(QRectF(QPointF(0, 0), size));
    generator.setTitle(ChartText::tr("Checkpoint schedules"));
    generator.setDescription(description.toHtmlEscaped());  // Qt 6.4 does not escape it
    {
        QPainter painter(&generator);
        painter.fillRect(QRectF(QPointF(0, 0), size), Qt::white);
        diagram.paint(painter, QRectF(QPointF(0, 0), size), -1, Qt::black);
    }
    return true;
}

}  // namespace ckptlab::ui
