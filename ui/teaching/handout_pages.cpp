#include "teaching/handout_pages.h"

#include <QFontMetricsF>
#include <QPagedPaintDevice>
#include <QPainter>
#include <QPen>
#include <QTextLayout>

namespace ckptlab::ui {

HandoutPages::HandoutPages(QPagedPaintDevice* device, QPainter* painter, QString footer,
                           QFont footerFont)
    : m_device(device),
      m_painter(painter),
      m_footer(std::move(footer)),
      m_footerFont(std::move(footerFont)) {
    m_width = device->width();
    m_bottom = device->height() - QFontMetricsF(QFont(), device).height() * 2.2;
    drawFooter();
}

void HandoutPages::paragraph(const QString& text, const QFont& font, const QColor& color,
                             qreal after, qreal indent, const Mark& mark) {
    QTextLayout layout(text, font, m_device);
    QTextOption option;
    option.setWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    layout.setTextOption(option);
    layout.setCacheEnabled(true);
    layout.beginLayout();
    struct Line {
        int start, length;
        qreal height, ascent;
    };
    std::vector<Line> lines;
    for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
        line.setLineWidth(m_width - indent);
        lines.push_back({line.textStart(), line.textLength(), line.height(), line.ascent()});
    }
    layout.endLayout();
    m_painter->save();
    m_painter->setFont(font);
    m_painter->setPen(color);
    bool first = true;
    for (const Line& line : lines) {
        if (m_y + line.height > m_bottom && m_y > 0) newPage();
        if (first && mark) {
            m_painter->save();
            mark(*m_painter, QRectF(0, m_y, indent, line.height));
            m_painter->restore();
        }
        first = false;
        // Each line on its own: a paragraph may continue on the next page.
        const QString piece = text.mid(line.start, line.length);
        m_painter->drawText(QPointF(indent, m_y + line.ascent),
                            piece.endsWith(QLatin1Char('\n')) ? piece.chopped(1) : piece);
        m_y += line.height;
    }
    m_painter->restore();
    m_y += after;
}

QPointF HandoutPages::reserve(qreal height) {
    if (m_y + height > m_bottom && m_y > 0) newPage();
    const QPointF at(0, m_y);
    m_y += height;
    return at;
}

void HandoutPages::writingLines(int count, qreal spacing) {
    const QPointF at = reserve(count * spacing);
    m_painter->save();
    m_painter->setPen(QPen(QColor(0xb0, 0xb0, 0xb0), 0.6));
    for (int i = 1; i <= count; ++i)
        m_painter->drawLine(QPointF(0, at.y() + i * spacing),
                            QPointF(m_width, at.y() + i * spacing));
    m_painter->restore();
}

void HandoutPages::rule(qreal above, qreal below) {
    if (m_y + above + below > m_bottom) {
        newPage();
        return;
    }
    m_y += above;
    m_painter->save();
    m_painter->setPen(QPen(QColor(0x99, 0x99, 0x99), 0.8));
    m_painter->drawLine(QPointF(0, m_y), QPointF(m_width, m_y));
    m_painter->restore();
    m_y += below;
}

void HandoutPages::skip(qreal height) { m_y = qMin(m_y + height, m_bottom); }

void HandoutPages::newPage() {
    m_device->newPage();
    ++m_page;
    m_y = 0;
    drawFooter();
}

void HandoutPages::drawFooter() {
    const QFont& font = m_footerFont;
    m_painter->save();
    m_painter->setFont(font);
    m_painter->setPen(QColor(0x70, 0x70, 0x70));
    const QFontMetricsF metrics(font, m_device);
    const qreal y = m_device->height() - metrics.descent();
    const QString number = QString::number(m_page);
    m_painter->drawText(QPointF(0, y), metrics.elidedText(m_footer, Qt::ElideRight, m_width * 0.8));
    m_painter->drawText(QPointF(m_width - metrics.horizontalAdvance(number), y), number);
    m_painter->restore();
}

}  // namespace ckptlab::ui
