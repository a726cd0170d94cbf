#pragma once
// Shared look of every chart: fonts, axis setup, phase colours. Keeping these in one place is
// what makes the window's charts and the exported PNG/SVG files look alike.

#include <QColor>
#include <QCoreApplication>
#include <QFont>
#include <QPointF>
#include <QString>

#include "base/projector_mode.h"
#include "ckptlab/model/result.h"

QT_BEGIN_NAMESPACE
class QChart;
class QValueAxis;
class QAbstractAxis;
class QAbstractSeries;
class QAreaSeries;
class QScatterSeries;
QT_END_NAMESPACE

namespace ckptlab::ui {

// The chart builders are plain functions: their texts go through ChartText::tr, the "ChartText"
// context of translations/*.ts.
class ChartText {
    Q_DECLARE_TR_FUNCTIONS(ChartText)
};

// Property on a series naming the strategy it draws; ChartView reads it for clicks and
// setSelectedStrategy for highlighting.
inline constexpr const char* kStrategyProperty = "ckptlabStrategy";

// Projector mode's look (base/projector_mode.h: the View menu or --projector; exports turn it
// off, see NormalLookScope): every chart font kProjectorFontScale times
// larger and Qt Charts' high-contrast theme (both in styleChart and the font functions), and
// thicker lines and larger markers (applyProjectorLook, on a built chart).
// On while projector mode is on and no NormalLookScope is alive.
bool isProjectorLook();
// Thicker lines (series and axes) and larger markers; the emphasis setSelectedStrategy gives
// scales with them. Does nothing unless isProjectorLook().
void applyProjectorLook(QChart* chart);

// The one rule for files: every export (PNG, SVG, the schedules, PDF handouts) has the normal
// look, in projector mode too; the projector look is for the room's screen only, and files go
// into papers and slides. Hold one while a file's charts are built and painted.
class NormalLookScope {
public:
    NormalLookScope();
    ~NormalLookScope();
    NormalLookScope(const NormalLookScope&) = delete;
    NormalLookScope& operator=(const NormalLookScope&) = delete;
    // Whether the projector look was on (the shown charts then differ from the file's).
    bool wasProjector() const { return m_was; }

private:
    bool m_was;
};

QFont chartTitleFont();
QFont axisTitleFont();
QFont axisLabelFont();
QFont legendFont();
QFont pointLabelFont();

// Title, fonts, legend at the bottom, no animation (exports must not catch a half-drawn frame).
void styleChart(QChart* chart, const QString& title);

// A value axis with a unit-bearing title and readable fonts.
QValueAxis* makeValueAxis(const QString& title);

// Sets [lo, hi] padded by `pad` of the span (never below zero when `floorAtZero`), with ticks
// every 1, 2 or 5 × 10^k (about `targetTicks` intervals) and a label format whose decimals suit
// the step. `snap` widens the range to whole steps; without it the range fits the data exactly
// (time axes, where an empty stretch after the step's end would only waste width).
void setNiceRange(QValueAxis* axis, double lo, double hi, double pad, bool floorAtZero,
                  int targetTicks = 8, bool snap = true);

// Attaches the series to both axes (which the chart must already hold).
void attach(QChart* chart, QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y);

// attach() for an area series, which then owns its upper and lower lines (QAreaSeries alone
// leaves them to the caller, and its QObject parent is the upper line).
void attachArea(QChart* chart, QAreaSeries* area, QAbstractAxis* x, QAbstractAxis* y);

// Hides a series' legend entry (repeated helpers such as a second baseline line).
void hideFromLegend(QChart* chart, QAbstractSeries* series);

// Call after the series are in: a long legend goes to the right, one entry per line, where
// its names are not cut short as they are in a crowded bottom row.
void placeLegend(QChart* chart);

// Translucent band colours for the step's phases, and their display names.
QColor phaseColor(Phase phase);
QString phaseLabel(Phase phase);

// Where runs ran out of memory and where the memory limit lies: one strong red for the
// limit lines, the crosses' rims and their labels.
QColor outOfMemoryColor();

// A scatter series of one point drawn as a thick "×" in `color` with a rim of
// outOfMemoryColor (a light marker, so it needs no marker shape Qt lacks), hidden from the
// legend by the caller. Its kStrategyProperty names `strategy`, so a click selects the run.
QScatterSeries* makeCrossMarker(const QString& strategy, const QColor& color, const QPointF& at);

// "12.3 MiB", "456 ms": numbers for tooltips with a sensible number of digits.
QString formatMiB(double mib);
QString formatMs(double ms);

}  // namespace ckptlab::ui

namespace ckptlab::ui {

// A styled chart titled "No results yet" with nothing in it: what every builder returns when
// there is nothing to plot, so views and exports never see a null chart. Translated when called.
inline QString noResultsTitle() { return ChartText::tr("No results yet"); }
QChart* makeEmptyChart(const QString& title = noResultsTitle());

}  // namespace ckptlab::ui
