#pragma once
// A unit's allocation scripts as a full-size fit compares and replays them (full_size_fit.cpp).

#include <cstdint>

#include "ckptlab/planning/cost_model.h"

namespace ckptlab::fit {

// Whether two scripts allocate and free in the same order (their sizes may differ).
bool sameScripts(const AllocationScript& a, const AllocationScript& b);

// A unit's four peaks from its scripts, as cost_measure.cpp measures them.
struct ScriptPeaks {
    std::int64_t forward = 0, backward = 0, nograd = 0, optimizer = 0;
    bool operator==(const ScriptPeaks& o) const {
        return forward == o.forward && backward == o.backward && nograd == o.nograd &&
               optimizer == o.optimizer;
    }
};
ScriptPeaks peaksOf(const AllocationScript& a);
// The four peaks the measurement recorded.
ScriptPeaks measuredPeaks(const UnitCost& c);

}  // namespace ckptlab::fit
