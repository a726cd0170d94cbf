#include "charts/chart_view.h"

#include <QAbstractBarSeries>
#include <QAreaSeries>
#include <QBarSet>
#include <QCursor>
#include <QToolTip>
#include <QXYSeries>

#include "charts/chart_interaction.h"

namespace ckptlab::ui {

ChartView::ChartView(QWidget* parent) : QChartView(parent) {
    setRenderHint(QPainter::Antialiasing);
    setMouseTracking(true);
    setMinimumSize(320, 220);
}

void ChartView::showChart(QChart* chart) {
    QChart* previous = this->chart();
    if (chart && chart == previous) return;  // already shown and connected
    showHover(QString());
    if (!chart) chart = new QChart;  // QChartView needs one; an empty chart draws nothing
    setChart(chart);                 // releases `previous` to us
    if (previous && previous != chart) delete previous;
    const auto series = chart->series();
    for (QAbstractSeries* s : series) connectSeries(s);
    if (const ChartInteraction* interaction = ChartInteraction::of(chart))
        connect(interaction, &ChartInteraction::hovered, this, &ChartView::showHover);
}

void ChartView::connectSeries(QAbstractSeries* series) {
    // Lambdas look the interaction up on each event: the chart owns it and may be replaced.
    auto pointHover = [this, series](const QPointF& value, bool entered) {
        const ChartInteraction* interaction = ChartInteraction::of(chart());
        if (!entered || !interaction || !interaction->pointTooltip) return showHover(QString());
        showHover(interaction->pointTooltip(series, value));
    };
    auto pointClick = [this, series](const QPointF& value) {
        const ChartInteraction* interaction = ChartInteraction::of(chart());
        if (!interaction || !interaction->pointStrategy) return;
        const QString strategy = interaction->pointStrategy(series, value);
        if (!strategy.isEmpty()) emitClickedLater(strategy);
    };
    if (auto* xy = qobject_cast<QXYSeries*>(series)) {
        connect(xy, &QXYSeries::hovered, this, pointHover);
        connect(xy, &QXYSeries::clicked, this, pointClick);
    } else if (auto* area = qobject_cast<QAreaSeries*>(series)) {
        connect(area, &QAreaSeries::hovered, this, pointHover);
        connect(area, &QAreaSeries::clicked, this, pointClick);
    } else if (auto* bars = qobject_cast<QAbstractBarSeries*>(series)) {
        connect(bars, &QAbstractBarSeries::hovered, this, [this](bool on, int index, QBarSet* set) {
            const ChartInteraction* interaction = ChartInteraction::of(chart());
            if (!on || !interaction || !interaction->barTooltip) return showHover(QString());
            showHover(interaction->barTooltip(set, index));
        });
        connect(bars, &QAbstractBarSeries::clicked, this, [this](int index, QBarSet* set) {
            const ChartInteraction* interaction = ChartInteraction::of(chart());
            if (!interaction || !interaction->barStrategy) return;
            const QString strategy = interaction->barStrategy(set, index);
            if (!strategy.isEmpty()) emitClickedLater(strategy);
        });
    }
}

// A click selects the strategy everywhere, which restyles or rebuilds charts, this one too.
// Qt Charts is still inside the mouse release of the clicked item then, so the signal waits
// for the next turn of the event loop instead of deleting that item under it.
void ChartView::emitClickedLater(const QString& strategy) {
    QMetaObject::invokeMethod(
        this, [this, strategy] { Q_EMIT strategyClicked(strategy); }, Qt::QueuedConnection);
}

void ChartView::showHover(const QString& text) {
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(QCursor::pos(), text, this);
    Q_EMIT hoverTextChanged(text);
}

}  // namespace ckptlab::ui
