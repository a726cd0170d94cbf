#pragma once
// Flowing text and blocks down the pages of a PDF: paragraphs wrap to the page width and break
// between lines, a block (a chart) moves to the next page when it does not fit, and every page
// gets a footer with its number. Coordinates are the painter's, inside the page margins.

#include <QColor>
#include <QFont>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <functional>

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
    // The height of a page's text area, and what is left of it below the last paragraph.
    qreal pageHeight() const { return m_bottom; }
    qreal remaining() const { return m_bottom - m_y; }

    // Draws in the margin left of a paragraph's first line (a check box), given that line's
    // rectangle from the page's left edge to the text.
    using Mark = std::function<void(QPainter&, const QRectF& firstLine)>;

    // Word-wrapped text (CJK breaks between characters); lines that do not fit go on the
    // next page. `after` is the space left below it; `indent` moves the text right, `mark`
    // draws in the space the indent leaves on the first line.
    void paragraph(const QString& text, const QFont& font, const QColor& color = Qt::black,
                   qreal after = 0, qreal indent = 0, const Mark& mark = {});
    // `count` ruled lines `spacing` apart, to write on; they move to the next page together
    // when they do not fit.
    void writingLines(int count, qreal spacing);
    // A thin line across the page, `above` and `below` apart from the text.
    void rule(qreal above, qreal below);
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
