// detectScaling: whether a result set is a scaling sweep, and along which axis (the rule is
// core's detectScalingAxis, scaling.h).
#include "charts/chart_builders.h"

namespace ckptlab::ui {

bool detectScaling(const ResultSet& results, ScalingAxis* axis) {
    const auto found = detectScalingAxis(results);
    if (!found) return false;
    if (axis) *axis = *found;
    return true;
}

}  // namespace ckptlab::ui
