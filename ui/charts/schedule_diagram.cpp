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

constexpr qreal kLabelWidth = 150;
constexpr qreal kNoteWidth = 190;
constexpr qreal kCellHeight = 20;
constexpr qreal kMarkerHeight = 7;
constexpr qreal kBracketStep = 5;
constexpr qreal kRowGap = 8;
constexpr qreal kHeaderHeight = 22;
constexpr qreal kLegendHeight = 30;
constexpr qreal kMargin = 10;

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
    : m_rows(std::move(rows)), m_colourOrder(std::move(colourOrder)) {
    if (m_colourOrder.isEmpty())
        for (const ScheduleRow& row : m_rows) m_colourOrder << row.strategy;
}

qreal ScheduleDiagram::rowHeight(const ScheduleRow& row) const {
    return kMarkerHeight + kCellHeight + kBracketStep * (maxLevel(row) + 2) + kRowGap;
}

qreal ScheduleDiagram::heightFor(qreal) const {
    qreal height = 2 * kMargin + kHeaderHeight + kLegendHeight;
    for (const ScheduleRow& row : m_rows) height += rowHeight(row);
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
    const qreal left = area.left() + kMargin + kLabelWidth;
    const qreal right = area.right() - kMargin - kNoteWidth;
    const qreal cell = std::max<qreal>(40, right - left) / units;
    qreal y = area.top() + kMargin + kHeaderHeight;
    for (int i = 0; i < row; ++i) y += rowHeight(m_rows[std::size_t(i)]);
    return QRectF(left + unitBegin * cell, y + kMarkerHeight, (unitEnd - unitBegin) * cell,
                  kCellHeight);
}

int ScheduleDiagram::rowAt(const QRectF& area, const QPointF& point) const {
    qreal y = area.top() + kMargin + kHeaderHeight;
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        const qreal h = rowHeight(m_rows[i]);
        if (point.y() >= y && point.y() < y + h) return int(i);
        y += h;
    }
    return -1;
}

void ScheduleDiagram::paint(QPainter& painter, const QRectF& area, int selected,
                            const QColor& text) const {
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette palette = QApplication::palette();
    const QFontMetricsF metrics(painter.font());
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
        const qreal h = rowHeight(row);
        if (int(i) == selected)
            painter.fillRect(QRectF(area.left() + 2, y - 2, area.width() - 4, h - kRowGap + 4),
                             palette.color(QPalette::Highlight).lighter(185));
        const qreal cellsTop = y + kMarkerHeight;
        // Label with the strategy's colour, as in the charts.
        painter.setPen(Qt::NoPen);
        painter.setBrush(strategyColor(row.strategy, m_colourOrder));
        painter.drawEllipse(QRectF(area.left() + kMargin, cellsTop + kCellHeight / 2 - 5, 10, 10));
        painter.setPen(text);
        painter.drawText(
            QRectF(area.left() + kMargin + 15, cellsTop, kLabelWidth - 18, kCellHeight),
            Qt::AlignLeft | Qt::AlignVCenter,
            metrics.elidedText(row.strategy, Qt::ElideRight, kLabelWidth - 18));

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
            marker << QPointF(x, y) << QPointF(x + std::min<qreal>(8, cell), y)
                   << QPointF(x, cellsTop);
            painter.setPen(Qt::NoPen);
            painter.setBrush(ink);
            painter.drawPolygon(marker);
            const qreal by = cellsTop + kCellHeight + kBracketStep * (s.level + 1);
            const qreal x0 = x + 1.5;
            const qreal x1 = left + s.end * cell - 1.5;
            painter.setPen(QPen(ink, 1.4));
            painter.drawLine(QPointF(x0, by), QPointF(x1, by));
            painter.drawLine(QPointF(x0, by), QPointF(x0, by - 3));
            painter.drawLine(QPointF(x1, by), QPointF(x1, by - 3));
        }
        painter.setPen(text);
        const QString summary = row.note.isEmpty()
                                    ? ChartText::tr("%1, %2", "stored inputs, recomputed blocks")
                                          .arg(ChartText::tr("%n checkpoint(s)", nullptr,
                                                             row.storedInputs),
                                               ChartText::tr("%n recomputed", nullptr,
                                                             row.extraForwards))
                                    : row.note;
        painter.drawText(QRectF(right + 8, cellsTop, kNoteWidth - 8, kCellHeight),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         metrics.elidedText(summary, Qt::ElideRight, kNoteWidth - 8));
        y += h;
    }

    // Legend.
    qreal x = area.left() + kMargin;
    const qreal ly = y + 6;
    const auto swatch = [&](const QColor& colour, const QString& label) {
        painter.fillRect(QRectF(x, ly + 3, 14, 12), colour);
        painter.setPen(QColor(90, 90, 90));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRectF(x, ly + 3, 14, 12));
        painter.setPen(text);
        const qreal w = metrics.horizontalAdvance(label);
        painter.drawText(QRectF(x + 18, ly, w + 4, 18), Qt::AlignLeft | Qt::AlignVCenter, label);
        x += 18 + w + 16;
    };
    swatch(forwardCountColor(1), ChartText::tr("run once (kept)"));
    swatch(forwardCountColor(2), ChartText::tr("recomputed once"));
    swatch(forwardCountColor(3), ChartText::tr("twice"));
    swatch(forwardCountColor(4), ChartText::tr("3+ times"));
    QPolygonF marker;
    marker << QPointF(x, ly + 3) << QPointF(x + 8, ly + 3) << QPointF(x, ly + 15);
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(30, 30, 30));
    painter.drawPolygon(marker);
    painter.setPen(text);
    painter.drawText(QRectF(x + 12, ly, 600, 18), Qt::AlignLeft | Qt::AlignVCenter,
                     ChartText::tr("stored input; bracket: segment recomputed in backward "
                                 "(nested ones lower)"));
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
