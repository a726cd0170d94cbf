#include "teaching/handout_pages.h"

#include <QFontMetricsF>
#include <QPagedPaintDevice>
#include <QPainter>
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
                             qreal after) {
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
        line.setLineWidth(m_width);
        lines.push_back({line.textStart(), line.textLength(), line.height(), line.ascent()});
    }
    layout.endLayout();
    m_painter->save();
    m_painter->setFont(font);
    m_painter->setPen(color);
    for (const Line& line : lines) {
        if (m_y + line.height > m_bottom && m_y > 0) newPage();
        // Each line on its own: a paragraph may continue on the next page.
        const QString piece = text.mid(line.start, line.length);
        m_painter->drawText(QPointF(0, m_y + line.ascent),
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
