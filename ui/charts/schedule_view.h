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
};

}  // namespace ckptlab::ui
