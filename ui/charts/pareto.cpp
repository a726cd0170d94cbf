#include "charts/pareto.h"

#include <algorithm>
#include <numeric>

namespace ckptlab::ui {

std::vector<int> paretoFrontier(const std::vector<QPointF>& points) {
    std::vector<int> order(points.size());
    std::iota(order.begin(), order.end(), 0);
    // By x, then y, so a sweep keeping the lowest y seen so far finds the frontier.
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        if (points[a].x() != points[b].x()) return points[a].x() < points[b].x();
        return points[a].y() < points[b].y();
    });
    std::vector<int> frontier;
    for (int index : order) {
        const QPointF& p = points[index];
        if (!frontier.empty()) {
            const QPointF& last = points[frontier.back()];
            // `last` has x <= p.x; it dominates p unless p is strictly faster or an exact copy.
            if (p.y() > last.y() || (p.y() == last.y() && p.x() != last.x())) continue;
        }
        frontier.push_back(index);
    }
    return frontier;
}

}  // namespace ckptlab::ui
