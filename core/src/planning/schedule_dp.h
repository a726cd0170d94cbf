#pragma once
// What the optimal planner's DP (optimal_planner.cpp) and the least-peak search
// (least_peak.cpp) share: the memory terms of a schedule of the planner's class, in bytes,
// exactly as predict()'s replay counts them (predict.cpp), and how a schedule is assembled from
// their choices. The DP rounds every term up to its quantum; the least-peak search uses them as
// they are, so its peak is the replay's to the byte. Units that do not keep their input
// (UnitCost::keeps_input, bf16 Llama parts) are counted here as if they did: the replay frees
// that input earlier, so its peak is then at most these terms', never above.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/cost_model.h"

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
    // a checkpoint drops its recomputed body's output before the body's backward. With a head
    // (CostModel::last) the head's backward freed the chain's output, its saved input, and
    // left the gradient of it in its place (the incoming gradient, freed by the chain's last
    // item), the loss, the loss's gradient and the head's parameters' gradients.
    std::int64_t heldOutput(int j, bool body) const {
        if (body) return 0;
        const std::int64_t output = unit(j - 1).output_bytes;
        if (!m_.last) return output;
        return output + 2 * m_.last->output_bytes + m_.last->param_grad_bytes;
    }

    // A checkpoint's incoming gradient (its output's size), counted in the level where its
    // body starts: the body's backward owns it and frees it (or reuses it for the next
    // gradient) with the body's last item's backward (engine/gradient_handover.h). Levels
    // after that moment are this much lower. Without a head the chain's last item receives the
    // loss's gradient, an expanded scalar of no bytes; with one, the head's real gradient.
    std::int64_t incomingFreedAfterLast(int j, bool body) const {
        const bool atEnd = j == static_cast<int>(m_.units.size());
        return (body && !atEnd) || (atEnd && m_.last) ? unit(j - 1).output_bytes : 0;
    }

    // Held by a checkpoint's backward while its recompute's forward runs, above the level its
    // body starts at: the generator's state to go on from afterwards. Inside a body (`body`)
    // every forward is such a recompute's.
    std::int64_t recomputeForwardExtra(bool body) const { return body ? m_.checkpoint_bytes : 0; }

    // Where the chain starts above the step's start: what the embedding's forward keeps (its
    // output, the chain's input, freed by the chain's first item's backward).
    std::int64_t chainStart() const { return m_.first ? m_.first->kept_bytes : 0; }

    // Above the level where the whole chain's forward ends: the head's forward and backward
    // (none without a head, nor inside a checkpoint's body).
    std::int64_t tailPeak(bool body) const {
        if (body || !m_.last) return 0;
        const UnitCost& head = *m_.last;
        return std::max(forwardPeakOf(head),
                        head.kept_bytes + headBackwardPeakOf(head, m_.units.back().output_bytes));
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

    // The peaks every plan has, above the step's start: after the whole backward, every
    // gradient, the input's gradient and the held output, then the optimizer's temporaries;
    // with ends also the embedding's forward and backward and what the head left.
    std::int64_t fixedPeak() const {
        const int n = static_cast<int>(m_.units.size());
        std::int64_t optimizer = 0;
        for (const auto& u : m_.units) optimizer = std::max(optimizer, u.optimizer_peak);
        if (!m_.first && !m_.last)
            return grads(0, n) + 2 * m_.units.front().output_bytes + optimizer;
        if (m_.first) optimizer = std::max(optimizer, m_.first->optimizer_peak);
        if (m_.last) optimizer = std::max(optimizer, m_.last->optimizer_peak);
        // What the chain's backward leaves besides the input's gradient: its parameters'
        // gradients and the chain's output, which the step holds; with a head instead the
        // loss and the head's parameters' gradients (the loss's gradient goes when the
        // backward ends).
        std::int64_t held = grads(0, n);
        held +=
            m_.last ? m_.last->output_bytes + m_.last->param_grad_bytes : unit(n - 1).output_bytes;
        const std::int64_t lossGrad = m_.last ? m_.last->output_bytes : 0;
        const std::int64_t inputGrad = m_.units.front().output_bytes;
        if (!m_.first) return held + inputGrad + optimizer;
        const UnitCost& embedding = *m_.first;
        const std::int64_t atEmbeddingBackward = held + lossGrad + embedding.kept_bytes -
                                                 embedding.output_bytes + inputGrad +
                                                 embeddingBackwardPeakOf(embedding);
        return std::max({forwardPeakOf(embedding), atEmbeddingBackward,
                         held + embedding.param_grad_bytes + optimizer});
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
