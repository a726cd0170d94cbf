#pragma once
// ChartView: the QChartView the window shows the builders' charts in. It adds hover tooltips
// with each chart's numbers and reports clicks on a strategy.
//
//   auto* view = new ckptlab::ui::ChartView(parent);
//   view->showChart(ckptlab::ui::buildTradeoffChart(results));   // view owns the chart
//   connect(view, &ckptlab::ui::ChartView::strategyClicked,
//           this, &MainWindow::selectStrategy);                   // QString: run's strategy
//
// strategyClicked fires for a point of the tradeoff scatter, a line of the timeline, a bar or
// top dot of the breakdown, and a bar of the lifetimes chart (its run). hoverTextChanged carries
// the tooltip text (empty when the mouse leaves), e.g. for a status bar.

#include <QChartView>
#include <QString>

namespace ckptlab::ui {

class ChartView : public QChartView {
    Q_OBJECT
public:
    explicit ChartView(QWidget* parent = nullptr);

    // Shows `chart` (taking ownership) and deletes the chart shown before. nullptr clears.
    void showChart(QChart* chart);

Q_SIGNALS:
    void strategyClicked(const QString& strategy);
    void hoverTextChanged(const QString& text);

private:
    void connectSeries(QAbstractSeries* series);
    void showHover(const QString& text);
    void emitClickedLater(const QString& strategy);
};

}  // namespace ckptlab::ui
