#pragma once
// The cost model's layer on the tradeoff chart: each predicted point (hollow, in its strategy's
// colour) tied to its measured point, the planner's predicted frontier (dashed) and the measured
// curve through the optimal:* runs (solid). Putting prediction beside measurement is the point.

#include <QPointF>
#include <QString>
#include <QStringList>
#include <vector>

#include "ckptlab/model/result.h"

QT_BEGIN_NAMESPACE
class QChart;
class QValueAxis;
QT_END_NAMESPACE

namespace ckptlab::ui {

// Property on a predicted-point series naming its strategy (not kStrategyProperty: these series
// are neither counted as a strategy's dots nor emphasised).
inline constexpr const char* kPredictedProperty = "ckptlabPredictedOf";

// (peak MiB, step ms) of the run's prediction; false when it has none worth drawing.
bool predictedPoint(const RunResult& run, QPointF* at);

// Why a run's predicted point sits where it does when that is not obvious, else empty: the
// cost model predicts the plan, and seed-bug:K's plan is segments:K's (the same memory and
// time), while what ran differs (its recomputes run the last segment's blocks).
QString predictionNote(const RunResult& run);

// Every value the overlays draw, so the axes can be sized to hold them.
std::vector<QPointF> overlayValues(const ResultSet& results,
                                   const std::vector<const RunResult*>& runs);

class PointLabels;

// Adds the overlays to a chart whose axes are already in place. A predicted point that needs
// words (predictionNote) gets a label in `labels` when given.
void addPredictionOverlays(QChart* chart, QValueAxis* x, QValueAxis* y, const ResultSet& results,
                           const std::vector<const RunResult*>& runs, const QStringList& order,
                           PointLabels* labels = nullptr);

}  // namespace ckptlab::ui
