#pragma once
// What the optimal planner's DP (optimal_planner.cpp) and the least-peak search
// (least_peak.cpp) share: the memory terms of a schedule of the planner's class, in bytes,
// exactly as predict()'s replay counts them (predict.cpp), and how a schedule is assembled from
// their choices. The DP rounds every term up to its quantum; the least-peak search uses them as
// they are, so its peak is the replay's to the byte.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ckptlab/cost_model.h"
#include "ckptlab/strategy.h"

namespace ckptlab {

class ChainMemory {
public:
    explicit ChainMemory(const CostModel& model) : m_(model) {
        const int n = static_cast<int>(model.units.size());
        gradPrefix_.assign(n + 1, 0);
        for (int u = 0; u < n; ++u)
            gradPrefix_[u + 1] = gradPrefix_[u] + model.units[u].param_grad_bytes;
    }

    const UnitCost& unit(int u) const { return m_.units[u]; }
    // Parameter gradients of units [a, b).
    std::int64_t grads(int a, int b) const { return gradPrefix_[b] - gradPrefix_[a]; }

    // The output of [.., j) still held when its backward begins: the step holds the chain's;
    // a checkpoint drops its recomputed body's output before the body's backward.
    std::int64_t heldOutput(int j, bool body) const { return body ? 0 : unit(j - 1).output_bytes; }

    // A checkpoint's incoming gradient (its output's size), counted in the level where its
    // body starts: the body's backward owns it and frees it (or reuses it for the next
    // gradient) with the body's last item's backward (engine/gradient_handover.h). Levels
    // after that moment are this much lower. The chain's last checkpoint receives the loss's
    // gradient, an expanded scalar of no bytes (only its body ends at the chain's end).
    std::int64_t incomingFreedAfterLast(int j, bool body) const {
        return body && j < static_cast<int>(m_.units.size()) ? unit(j - 1).output_bytes : 0;
    }

    // Level above the start of [i, j) when unit i, run with grad first, begins its backward.
    std::int64_t levelAtPlainBackward(int i, int j, bool body) const {
        const UnitCost& c = unit(i);
        if (i + 1 == j) return c.kept_bytes - c.output_bytes + heldOutput(j, body);
        return c.kept_bytes + heldOutput(j, body) + grads(i + 1, j) -
               incomingFreedAfterLast(j, body);
    }

    // Kept by the checkpoint [i, k) while the rest runs: its output and its RNG state.
    std::int64_t keptByCheckpoint(int k) const {
        return unit(k - 1).output_bytes + m_.checkpoint_bytes;
    }

    // Level above the start of [i, j) when the checkpoint [i, k)'s recompute begins.
    std::int64_t levelAtCheckpointBackward(int k, int j, bool body) const {
        if (k == j) return heldOutput(k, body) + m_.checkpoint_bytes;
        return keptByCheckpoint(k) + heldOutput(j, body) + grads(k, j) -
               incomingFreedAfterLast(j, body);
    }

    // Unit u's no-grad forward inside a checkpoint starting at i: the previous unit's output
    // is freed only when u's is complete.
    std::int64_t nogradPeakIn(int i, int u) const {
        return (u > i ? unit(u - 1).output_bytes : 0) + nogradPeakOf(unit(u));
    }

    // After the whole backward: every gradient, the input's gradient and the held output; then
    // the optimizer's temporaries. The same for every plan.
    std::int64_t endOfStepPeak() const {
        std::int64_t optimizer = 0;
        for (const auto& u : m_.units) optimizer = std::max(optimizer, u.optimizer_peak);
        return grads(0, static_cast<int>(m_.units.size())) + 2 * m_.units.front().output_bytes +
               optimizer;
    }

private:
    const CostModel& m_;
    std::vector<std::int64_t> gradPrefix_;
};

// Appends unit i run with grad, merged into the plain segment before it when there is one.
inline void appendPlainUnit(std::vector<Segment>& items, int i) {
    if (!items.empty() && !items.back().checkpointed && items.back().inner.empty() &&
        items.back().end == i)
        items.back().end = i + 1;
    else
        items.push_back({i, i + 1, false, {}});
}

// The checkpoint [i, k) with its body's schedule; a body of plain units needs no inner plan.
inline Segment checkpointOf(int i, int k, std::vector<Segment> body) {
    Segment s{i, k, true, std::move(body)};
    if (s.inner.size() == 1 && !s.inner[0].checkpointed && s.inner[0].inner.empty())
        s.inner.clear();
    return s;
}

}  // namespace ckptlab
