#include "charts/schedule_view.h"

#include <QMouseEvent>
#include <QPainter>
#include <cmath>

#include "charts/chart_builders.h"

namespace ckptlab::ui {

ScheduleView::ScheduleView(QWidget* parent)
    : QWidget(parent), m_diagram(std::make_unique<ScheduleDiagram>(std::vector<ScheduleRow>{})) {
    setObjectName(QStringLiteral("scheduleView"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    setToolTip(
        tr("Each cell is a block (or a transformer sub-block); its colour and number say "
           "how often its forward runs in one training step. Click a row to select the "
           "run."));
}

void ScheduleView::setResults(const ResultSet& results, int selectedRun) {
    m_diagram = std::make_unique<ScheduleDiagram>(scheduleRows(results), strategyOrder(results));
    m_selected = selectedRun;
    // Its height does not depend on the width: a fixed minimum lets a scroll area scroll it.
    setMinimumHeight(heightForWidth(width()));
    updateGeometry();
    update();
}

void ScheduleView::setSelectedRun(int run) {
    m_selected = run;
    update();
}

QSize ScheduleView::sizeHint() const { return {900, heightForWidth(900)}; }

int ScheduleView::heightForWidth(int width) const {
    return int(std::ceil(m_diagram->heightFor(width)));
}

void ScheduleView::setPlaybackHighlight(int run, int unitBegin, int unitEnd, const QColor& color) {
    const Highlight next{run, unitBegin, unitEnd, color};
    if (next.run == m_highlight.run && next.begin == m_highlight.begin &&
        next.end == m_highlight.end && next.color == m_highlight.color)
        return;
    m_highlight = next;
    update();
}

QRectF ScheduleView::playbackHighlightRect() const {
    return m_diagram->cellsRect(QRectF(rect()), m_highlight.run, m_highlight.begin,
                                m_highlight.end);
}

void ScheduleView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    m_diagram->paint(painter, QRectF(rect()), m_selected, palette().color(QPalette::WindowText));
    const QRectF cells = playbackHighlightRect();
    if (cells.isEmpty()) return;
    // The phase's colour over the cells, framed in the ink of the text so it shows on any cell.
    QColor fill = m_highlight.color;
    fill.setAlpha(110);
    painter.fillRect(cells, fill);
    painter.setPen(QPen(palette().color(QPalette::WindowText), 3));
    painter.drawRect(cells.adjusted(-1.5, -1.5, 1.5, 1.5));
}

void ScheduleView::mousePressEvent(QMouseEvent* event) {
    const int row = m_diagram->rowAt(QRectF(rect()), event->position());
    if (row >= 0) Q_EMIT strategyClicked(m_diagram->rows()[size_t(row)].strategy);
    QWidget::mousePressEvent(event);
}

}  // namespace ckptlab::ui
