#pragma once
// The Pareto frontier of (memory, time) chart points: ckptlab::paretoFrontier (pareto.h in
// core) on QPointF, for the charts.

#include <QPointF>
#include <vector>

namespace ckptlab::ui {

// Indices of the points not dominated by any other (another point with x <= and y <=, and
// smaller in one of them), sorted by x ascending. Exact duplicates are both kept.
std::vector<int> paretoFrontier(const std::vector<QPointF>& points);

}  // namespace ckptlab::ui
