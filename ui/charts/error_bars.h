#pragma once
// The tradeoff chart's error bars: each measured point's step-time interval (the median's 95%
// distribution-free interval, or the min-max range of fewer than 6 samples; step_stats.h) as a
// vertical line with short caps, one QLineSeries per point. Each bar names its strategy
// (kStrategyProperty), so a click selects the run, the selection thickens it and projector
// mode and several-file styling treat it like the strategy's other lines.

#include <QColor>
#include <QString>
#include <vector>

#include "ckptlab/model/result.h"

QT_BEGIN_NAMESPACE
class QChart;
class QValueAxis;
QT_END_NAMESPACE

namespace ckptlab::ui {

struct StepErrorBar {
    QString strategy;
    double peakMiB = 0;  // where the point is
    double lowMs = 0;
    double highMs = 0;
    bool is95 = false;  // false: the min-max range of fewer than 6 samples
};

// The bars of the runs drawn as points (finite peak and step time) that have an interval with
// a width; none for runs without samples (files written before step-time samples were recorded) or
// with one sample.
std::vector<StepErrorBar> stepErrorBars(const std::vector<const RunResult*>& runs);

// Adds one series per bar, objectName "stepInterval", its ends in the properties
// "ckptlabIntervalLow" and "ckptlabIntervalHigh", out of the legend. The caps are 0.6% of the
// memory axis wide; the axes must have their final range.
void addStepErrorBars(QChart* chart, QValueAxis* x, QValueAxis* y,
                      const std::vector<StepErrorBar>& bars, const QStringList& order);

// One tooltip line: "step 457.2 ms, 95% interval [454.9, 466.0] from 12 samples"; empty
// without an interval.
QString stepIntervalLine(const RunResult& run);

}  // namespace ckptlab::ui
