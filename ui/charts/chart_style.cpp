#include "charts/chart_style.h"

#include <QAbstractSeries>
#include <QAreaSeries>
#include <QChart>
#include <QFontMetricsF>
#include <QGraphicsLayout>
#include <QImage>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPainter>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>
#include <cmath>
#include <utility>

#include "charts/chart_builders.h"

namespace ckptlab::ui {

namespace {
constexpr const char* kNoLegendProperty = "ckptlabNoLegend";
}

namespace {
int normalLookScopes = 0;  // alive now: a file's charts are being built or painted
}

bool isProjectorLook() { return isProjectorMode() && normalLookScopes == 0; }

NormalLookScope::NormalLookScope() : m_was(isProjectorLook()) { ++normalLookScopes; }
NormalLookScope::~NormalLookScope() { --normalLookScopes; }

void applyProjectorLook(QChart* chart) {
    if (!isProjectorLook() || !chart) return;
    constexpr qreal kLineScale = 2.0, kMarkerScale = 1.6;
    auto thicker = [](QPen pen) {
        if (pen.style() != Qt::NoPen) pen.setWidthF(std::max<qreal>(pen.widthF(), 1) * kLineScale);
        return pen;
    };
    for (QAbstractSeries* series : chart->series()) {
        if (auto* scatter = qobject_cast<QScatterSeries*>(series)) {
            scatter->setMarkerSize(scatter->markerSize() * kMarkerScale);
            const qreal base = scatter->property("ckptlabBaseMarker").toReal();
            if (base > 0) scatter->setProperty("ckptlabBaseMarker", base * kMarkerScale);
        } else if (auto* line = qobject_cast<QLineSeries*>(series)) {
            line->setPen(thicker(line->pen()));
            const qreal base = line->property("ckptlabBaseWidth").toReal();
            if (base > 0) line->setProperty("ckptlabBaseWidth", base * kLineScale);
        } else if (auto* area = qobject_cast<QAreaSeries*>(series)) {
            area->setPen(thicker(area->pen()));
        }
    }
    for (QAbstractAxis* axis : chart->axes()) axis->setLinePen(thicker(axis->linePen()));
}

static QFont sized(int points, bool bold = false) {
    QFont font;
    font.setPointSizeF(points * (isProjectorLook() ? kProjectorFontScale : 1.0));
    font.setBold(bold);
    return font;
}

QFont chartTitleFont() { return sized(14, true); }
QFont axisTitleFont() { return sized(11); }
QFont axisLabelFont() { return sized(10); }
QFont legendFont() { return sized(10); }
QFont pointLabelFont() { return sized(10); }

void styleChart(QChart* chart, const QString& title) {
    // First: a theme resets the fonts and colours set before it.
    if (isProjectorLook()) chart->setTheme(QChart::ChartThemeHighContrast);
    chart->setTitle(title);
    chart->setTitleFont(chartTitleFont());
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setFont(legendFont());
    chart->legend()->setVisible(true);
    chart->setBackgroundRoundness(0);
    // Projector fonts leave a 1280×720 chart short of height (Chinese lines are taller still):
    // the plot gets the margins' room.
    if (isProjectorLook()) {
        chart->setMargins(QMargins(6, 2, 6, 2));
        chart->layout()->setContentsMargins(2, 2, 2, 2);
    }
}

QValueAxis* makeValueAxis(const QString& title) {
    auto* axis = new QValueAxis;
    axis->setTitleText(title);
    axis->setTitleFont(axisTitleFont());
    axis->setLabelsFont(axisLabelFont());
    return axis;
}

void setNiceRange(QValueAxis* axis, double lo, double hi, double pad, bool floorAtZero,
                  int targetTicks, bool snap) {
    if (!std::isfinite(lo) || !std::isfinite(hi)) lo = hi = 0;
    if (!(hi > lo)) {  // one value or none: give it some room
        const double half = std::max(std::abs(lo) * 0.1, 1.0);
        hi = lo + half;
        lo -= half;
    }
    const double span = hi - lo;
    lo -= span * pad;
    hi += span * pad;
    if (floorAtZero && lo < 0) lo = 0;
    // Step of 1, 2 or 5 times a power of ten giving about `targetTicks` intervals; the range
    // snaps to whole steps so every tick lands on a round number.
    const double raw = (hi - lo) / std::max(1, targetTicks);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10 * magnitude;
    for (double m : {1.0, 2.0, 5.0})
        if (m * magnitude >= raw * 0.999) {
            step = m * magnitude;
            break;
        }
    if (snap) {
        lo = std::floor(lo / step + 1e-9) * step;
        hi = std::ceil(hi / step - 1e-9) * step;
        axis->setTickCount(int(std::lround((hi - lo) / step)) + 1);
    } else {  // the data's own range, ticks on round values inside it
        axis->setTickType(QValueAxis::TicksDynamic);
        axis->setTickAnchor(0);
        axis->setTickInterval(step);
    }
    axis->setRange(lo, hi);
    const int decimals = step >= 1 ? 0 : std::min(6, int(std::lround(-std::log10(magnitude))));
    axis->setLabelFormat(QStringLiteral("%.%1f").arg(decimals));
}

void attach(QChart* chart, QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y) {
    chart->addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
}

void attachArea(QChart* chart, QAreaSeries* area, QAbstractAxis* x, QAbstractAxis* y) {
    attach(chart, area, x, y);  // the chart takes the area, breaking its tie to the upper line
    if (area->upperSeries()) area->upperSeries()->setParent(area);
    if (area->lowerSeries()) area->lowerSeries()->setParent(area);
}

void hideFromLegend(QChart* chart, QAbstractSeries* series) {
    series->setProperty(kNoLegendProperty, true);
    for (QLegendMarker* marker : chart->legend()->markers(series)) marker->setVisible(false);
}

void placeLegend(QChart* chart) {
    // Counted by our own mark: a marker's isVisible() is false until the chart is shown.
    // A bottom row wider than the chart usually is cuts every name short ("recom…"); projector
    // fonts get there with fewer entries, so the row is measured in the legend's font.
    const QFontMetricsF metrics(chart->legend()->font());
    int entries = 0;
    qreal row = 0;
    for (QLegendMarker* marker : chart->legend()->markers())
        if (!marker->series()->property(kNoLegendProperty).toBool()) {
            ++entries;
            row += metrics.horizontalAdvance(marker->label()) + 2.5 * metrics.height();
        }
    const qreal usualWidth = isProjectorLook() ? 650 : 1000;  // the plot's share of a chart
    chart->legend()->setAlignment(entries > 8 || row > usualWidth ? Qt::AlignRight
                                                                  : Qt::AlignBottom);
}

QColor phaseColor(Phase phase) {
    switch (phase) {
    case Phase::Forward: return QColor(70, 130, 200, 38);
    case Phase::Loss: return QColor(150, 150, 150, 50);
    case Phase::Recompute: return QColor(230, 120, 30, 60);
    case Phase::Backward: return QColor(60, 170, 90, 38);
    case Phase::Optimizer: return QColor(160, 90, 190, 45);
    case Phase::Idle: break;
    }
    return QColor(0, 0, 0, 0);
}

QString phaseLabel(Phase phase) {
    switch (phase) {
    case Phase::Forward: return ChartText::tr("forward", "phase of a training step");
    case Phase::Loss: return ChartText::tr("loss", "phase of a training step");
    case Phase::Recompute: return ChartText::tr("recompute", "phase of a training step");
    case Phase::Backward: return ChartText::tr("backward", "phase of a training step");
    case Phase::Optimizer: return ChartText::tr("optimizer", "phase of a training step");
    case Phase::Idle: break;
    }
    return ChartText::tr("idle", "phase of a training step");
}

QColor outOfMemoryColor() { return QColor(0xc0, 0x1c, 0x28); }

QScatterSeries* makeCrossMarker(const QString& strategy, const QColor& color, const QPointF& at) {
    constexpr int kSide = 64;  // drawn large, scaled down to the marker size: crisp at 2x
    QImage image(kSide, kSide, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        const qreal in = kSide * 0.18, out = kSide - in;
        for (const auto& [pen, width] :
             {std::pair{outOfMemoryColor(), kSide * 0.30}, std::pair{color, kSide * 0.16}}) {
            painter.setPen(QPen(pen, width, Qt::SolidLine, Qt::RoundCap));
            painter.drawLine(QPointF(in, in), QPointF(out, out));
            painter.drawLine(QPointF(in, out), QPointF(out, in));
        }
    }
    auto* series = new QScatterSeries;
    series->setName(strategy);
    series->setProperty(kStrategyProperty, strategy);
    series->setMarkerSize(18);
    series->setLightMarker(image);
    series->setColor(color);
    series->append(at);
    return series;
}

QString formatMiB(double mib) {
    const int decimals = std::abs(mib) >= 100 ? 1 : (std::abs(mib) >= 1 ? 2 : 3);
    return QStringLiteral("%1 MiB").arg(mib, 0, 'f', decimals);
}

QString formatMs(double ms) {
    const int decimals = std::abs(ms) >= 100 ? 1 : (std::abs(ms) >= 1 ? 2 : 3);
    return QStringLiteral("%1 ms").arg(ms, 0, 'f', decimals);
}

}  // namespace ckptlab::ui

namespace ckptlab::ui {

QChart* makeEmptyChart(const QString& title) {
    auto* chart = new QChart;
    styleChart(chart, title);
    chart->legend()->setVisible(false);
    return chart;
}

}  // namespace ckptlab::ui
