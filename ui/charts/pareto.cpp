#include "charts/pareto.h"

#include "ckptlab/planning/pareto.h"

namespace ckptlab::ui {

std::vector<int> paretoFrontier(const std::vector<QPointF>& points) {
    std::vector<std::pair<double, double>> xy;
    xy.reserve(points.size());
    for (const QPointF& p : points) xy.emplace_back(p.x(), p.y());
    return ckptlab::paretoFrontier(xy);
}

}  // namespace ckptlab::ui
