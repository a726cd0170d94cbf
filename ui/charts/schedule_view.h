#pragma once
// The schedule diagram as a widget: every run of the results, the selected one highlighted;
// clicking a row selects its run.

#include <QWidget>
#include <memory>

#include "charts/schedule_diagram.h"

namespace ckptlab::ui {

class ScheduleView : public QWidget {
    Q_OBJECT
public:
    explicit ScheduleView(QWidget* parent = nullptr);

    void setResults(const ResultSet& results, int selectedRun);
    void setSelectedRun(int run);
    const ScheduleDiagram& diagram() const { return *m_diagram; }
    // Playback: outlines the cells [unitBegin, unitEnd) of `run`'s row in `color`; run -1 clears.
    void setPlaybackHighlight(int run, int unitBegin, int unitEnd, const QColor& color);
    QRectF playbackHighlightRect() const;

    QSize sizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

Q_SIGNALS:
    void strategyClicked(const QString& strategy);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    std::unique_ptr<ScheduleDiagram> m_diagram;
    int m_selected = -1;
    struct Highlight {
        int run = -1;
        int begin = 0;
        int end = 0;
        QColor color;
    } m_highlight;
};

}  // namespace ckptlab::ui
