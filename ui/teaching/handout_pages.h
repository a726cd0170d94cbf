#pragma once
// Flowing text and blocks down the pages of a PDF: paragraphs wrap to the page width and break
// between lines, a block (a chart) moves to the next page when it does not fit, and every page
// gets a footer with its number. Coordinates are the painter's, inside the page margins.

#include <QColor>
#include <QFont>
#include <QPointF>
#include <QString>

class QPagedPaintDevice;
class QPainter;

namespace ckptlab::ui {

class HandoutPages {
public:
    // `painter` is active on `device`; `footer` is printed in `footerFont` at the bottom left of
    // every page.
    HandoutPages(QPagedPaintDevice* device, QPainter* painter, QString footer, QFont footerFont);

    qreal width() const { return m_width; }
    int pages() const { return m_page; }

    // Word-wrapped text (CJK breaks between characters); lines that do not fit go on the
    // next page. `after` is the space left below it.
    void paragraph(const QString& text, const QFont& font, const QColor& color = Qt::black,
                   qreal after = 0);
    // Where a block of `height` starts: here, or at the top of a new page when it does not fit
    // (a block taller than a page starts a page and is cut). Moves below it.
    QPointF reserve(qreal height);
    void skip(qreal height);
    void newPage();

private:
    void drawFooter();

    QPagedPaintDevice* m_device;
    QPainter* m_painter;
    QString m_footer;
    QFont m_footerFont;
    qreal m_width = 0;
    qreal m_bottom = 0;  // where the text area ends, above the footer
    qreal m_y = 0;
    int m_page = 1;
};

}  // namespace ckptlab::ui
