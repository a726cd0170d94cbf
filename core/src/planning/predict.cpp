// The plan replay behind predict(). It follows the engine's ownership rules:
// - a unit run with grad keeps `kept_bytes` (its saved tensors and its output);
// - a checkpoint runs its body without grad, keeping only each unit's output until the next
//   one replaces it, plus its RNG state; in backward it recomputes the body with grad, drops
//   the recomputed output (nothing saves it) and hands the incoming gradient to the body's
//   backward, whose last item frees it as any unit frees the gradient it received
//   (engine/gradient_handover.h);
// - a checkpoint frees its RNG state at the end of its backward;
// - the output of item k of a sequence is freed when item k+1's backward ends (the consumer
//   releases its saved input); the last item's output lives until its context ends;
// - every unit's backward allocates its parameters' gradients and its input's gradient, frees
//   its saved tensors and the gradient it received (unless a checkpoint still holds it).
#include <algorithm>

#include "ckptlab/cost_model.h"
#include "ckptlab/planner.h"

namespace ckptlab {
namespace {

class Replay {
public:
    explicit Replay(const CostModel& model) : m_(model) {}

    Prediction run(const Plan& plan) {
        const Plan units = toUnitLevel(plan, m_.unitsPerBlock);
        auto items = forwardSequence(units.segments, false);
        Prediction p;
        p.activation_bytes = mem_;
        backwardSequence(items, /*incomingGradBytes=*/0, /*holdIncoming=*/true);
        double optimizerMs = 0;
        std::int64_t optimizerPeak = 0;
        for (const auto& u : m_.units) {
            optimizerMs += u.optimizer_ms;
            optimizerPeak = std::max(optimizerPeak, u.optimizer_peak);
        }
        touch(optimizerPeak);
        p.peak_bytes = peak_;
        p.step_ms = time_ + optimizerMs;
        p.recompute_ms = recomputeMs_;
        return p;
    }

private:
    struct Item {
        const Segment* segment;  // a checkpoint, or a single plain unit when `unit` >= 0
        int unit = -1;
        bool recomputed = false;  // its forward ran in a recompute, just before its backward
    };

    void alloc(std::int64_t bytes) {
        mem_ += bytes;
        peak_ = std::max(peak_, mem_);
    }
    void release(std::int64_t bytes) { mem_ -= bytes; }
    void touch(std::int64_t transient) { peak_ = std::max(peak_, mem_ + transient); }
    void spend(double ms, bool recompute) {
        time_ += ms;
        if (recompute) recomputeMs_ += ms;
    }

    // Forward with grad of a segment list; returns the items backward will visit.
    std::vector<Item> forwardSequence(const std::vector<Segment>& segments, bool recompute) {
        std::vector<Item> items;
        for (const auto& s : segments) {
            if (s.checkpointed) {
                forwardWithoutGrad(s.begin, s.end, recompute);
                alloc(m_.checkpoint_bytes);
                items.push_back({&s, -1, recompute});
            } else if (!s.inner.empty()) {
                auto inner = forwardSequence(s.inner, recompute);
                items.insert(items.end(), inner.begin(), inner.end());
            } else {
                for (int u = s.begin; u < s.end; ++u) {
                    const auto& c = m_.units[u];
                    touch(forwardPeakOf(c));
                    alloc(c.kept_bytes);
                    spend(c.forward_ms, recompute);
                    items.push_back({&s, u, recompute});
                }
            }
        }
        return items;
    }

    // A checkpoint's body without grad: inner checkpoints are plain runs here.
    void forwardWithoutGrad(int begin, int end, bool recompute) {
        for (int u = begin; u < end; ++u) {
            const auto& c = m_.units[u];
            touch(nogradPeakOf(c));
            alloc(c.output_bytes);
            if (u > begin) release(m_.units[u - 1].output_bytes);
            spend(c.nograd_ms, recompute);
        }
    }

    // Backward over items in reverse. `incomingGradBytes` is the gradient of the sequence's
    // output (0 for the loss's, an expanded scalar); `holdIncoming`: something outside the
    // sequence keeps it alive (the step, for the loss's).
    void backwardSequence(const std::vector<Item>& items, std::int64_t incomingGradBytes,
                          bool holdIncoming) {
        std::int64_t gradBytes = incomingGradBytes;
        bool held = holdIncoming;
        for (std::size_t k = items.size(); k-- > 0;) {
            const Item& item = items[k];
            const int first = item.unit >= 0 ? item.unit : item.segment->begin;
            if (item.unit >= 0)
                backwardUnit(item.unit, gradBytes, held, item.recomputed);
            else
                backwardCheckpoint(*item.segment, gradBytes, held);
            gradBytes = first > 0 ? m_.units[first - 1].output_bytes : m_.units[first].output_bytes;
            held = false;
            // This item's backward released its saved input: the previous item's output.
            if (k > 0) release(outputOf(items[k - 1]));
        }
    }

    std::int64_t outputOf(const Item& item) const {
        const int last = item.unit >= 0 ? item.unit : item.segment->end - 1;
        return m_.units[last].output_bytes;
    }

    void backwardUnit(int u, std::int64_t gradBytes, bool held, bool recomputed) {
        const auto& c = m_.units[u];
        touch(backwardPeakOf(c));
        release(c.kept_bytes - c.output_bytes);
        alloc(c.param_grad_bytes);
        alloc(c.output_bytes);  // the gradient of its input, the same shape as its output
        if (!held) release(gradBytes);
        spend(backwardMsOf(c, recomputed), false);
    }

    void backwardCheckpoint(const Segment& s, std::int64_t gradBytes, bool held) {
        // Recompute with grad, nested checkpoints included, then differentiate it.
        std::vector<Segment> body = s.inner;
        if (body.empty()) body.push_back({s.begin, s.end, false, {}});
        auto items = forwardSequence(body, true);
        // The recomputed output is dropped before its backward starts: only its graph node
        // is needed (the engine's checkpoint, like PyTorch's non-reentrant one). The incoming
        // gradient goes to the body's backward as its own.
        release(outputOf(items.back()));
        backwardSequence(items, gradBytes, held);
        release(m_.checkpoint_bytes);
        // The forward's output of this checkpoint was released by its consumer already,
        // except at the end of the chain where the step still holds it.
    }

    const CostModel& m_;
    std::int64_t mem_ = 0;
    std::int64_t peak_ = 0;
    double time_ = 0;
    double recomputeMs_ = 0;
};

}  // namespace

Prediction predict(const CostModel& model, const Plan& plan) {
    if (model.units.empty()) return {};
    return Replay(model).run(plan);
}

}  // namespace ckptlab
