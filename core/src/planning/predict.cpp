// The plan replay behind predict(). It follows the engine's ownership rules:
// - a unit run with grad keeps `kept_bytes` (its saved tensors and its output);
// - a checkpoint runs its body without grad, keeping only each unit's output until the next
//   one replaces it, plus its RNG state; in backward it recomputes the body with grad, drops
//   the recomputed output (nothing saves it) and hands the incoming gradient to the body's
//   backward, whose last item frees it as any unit frees the gradient it received
//   (engine/gradient_handover.h);
// - a checkpoint frees its RNG state at the end of its backward;
// - the output of item k of a sequence is freed when item k+1's backward ends (the consumer
//   releases its saved input); the last item's output lives until its context ends. A unit
//   that does not keep its input (UnitCost::keeps_input) frees it when its forward is done, or
//   the first unit of a run of plain units when the run's forward is done (the engine's
//   segment loop holds its input until then); a sequence's own input is its caller's;
// - every unit's backward allocates its parameters' gradients and its input's gradient, frees
//   its saved tensors and the gradient it received (unless a checkpoint still holds it).
// - with the chain's ends (CostModel::first, last), the embedding runs before the chain and its
//   output, the chain's input, is freed by the chain's first item's backward; the head runs
//   after it (its forward is the forward's end: the step's forward returns the loss), and the
//   chain's output is its saved input, freed when its backward ends; its backward starts from
//   the loss and hands the gradient of the chain's output to the chain's last item, which
//   frees it; the embedding's backward frees the chain's input gradient; the loss's gradient
//   lives until the whole backward ends, the loss until the step's end;
// With ReplayAllocator::Yes every event is also placed in a model of CUDA's caching allocator
// (allocator_replay.h); its reserved bytes at the end of the step are the prediction's reserved
// peak.
// Every allocation and free of the count carries a category of PredictedSplit, and the
// categories are copied whenever a new peak is reached (the split); with PredictTimeline::Yes
// each is also an event of the predicted timeline, at the end of the work that makes it.
#include <algorithm>
#include <array>
#include <optional>

#include "ckptlab/planning/cost_model.h"
#include "ckptlab/planning/planner.h"
#include "planning/allocator_replay.h"

namespace ckptlab {
namespace {

using detail::AllocatorReplay;
using Block = AllocatorReplay::Block;

// The split's categories, in the order of the array the replay counts them in.
enum Category { kActivations, kGradients, kWeightCopies, kLogits, kOther, kCategories };

// `kTimeline`: with the timeline's events and spans (PredictTimeline::Yes); a parameter so that
// the planner's replays pay nothing for it.
template <bool kTimeline>
class Replay {
public:
    Replay(const CostModel& model, bool withAllocator)
        : m_(model), unitsPerBlock_(model.unitsPerBlock()) {
        if (withAllocator) allocator_.emplace(model);
    }

    Prediction run(const Plan& plan) {
        const Plan units = toUnitLevel(plan, m_.unitsPerBlock());
        Prediction p;
        p.baseline_bytes = baselineBytes();
        if (allocator_) {
            allocator_->placeBaseline();
            if (m_.optimizer) {
                // The runner's step before the measured one: it leaves the optimizer's state
                // and, in the allocator, the segments it reserved. Only the allocator keeps it.
                step(units, /*createOptimizerState=*/true);
                allocator_->endStep();
                mem_ = peak_ = 0;
                now_ = atPeak_ = {};
                time_ = recomputeMs_ = 0;
                events_.clear();
                spans_.clear();
            }
        }
        p.activation_bytes = step(units, false);
        p.peak_bytes = peak_;
        p.step_ms = time_;
        p.recompute_ms = recomputeMs_;
        if (allocator_) p.reserved_peak_bytes = allocator_->reservedPeak();
        p.split = {atPeak_[kActivations], atPeak_[kGradients], atPeak_[kWeightCopies],
                   atPeak_[kLogits], atPeak_[kOther]};
        p.timeline = std::move(events_);
        p.phases = std::move(spans_);
        return p;
    }

private:
    struct Item {
        const Segment* segment;  // a checkpoint, or a single plain unit when `unit` >= 0
        int unit = -1;
        bool recomputed = false;   // its forward ran in a recompute, just before its backward
        int placed = -1;           // with the allocator: its index in placed_
        bool outputFreed = false;  // in forward, by a consumer that does not keep its input
    };
    // In the allocator, what an item's forward left: its output and what else it keeps, and a
    // checkpoint's RNG state.
    struct Placed {
        AllocatorReplay::Kept kept;
        Block rng;
    };

    void alloc(std::int64_t bytes, Category category) {
        mem_ += bytes;
        now_[category] += bytes;
        if (mem_ > peak_) {
            peak_ = mem_;
            atPeak_ = now_;
        }
        if constexpr (kTimeline) event(bytes, mem_);
    }
    void release(std::int64_t bytes, Category category) {
        mem_ -= bytes;
        now_[category] -= bytes;
        if constexpr (kTimeline) event(-bytes, mem_);
    }
    // A peak above what is allocated that the work leaves behind at once.
    void touch(std::int64_t transient, Category category) {
        if (mem_ + transient > peak_) {
            peak_ = mem_ + transient;
            atPeak_ = now_;
            atPeak_[category] += transient;
        }
        if constexpr (kTimeline) {
            event(transient, mem_ + transient);
            event(-transient, mem_);
        }
    }
    // What a forward with grad keeps: its weight copies apart from the rest (`category`).
    static std::int64_t weightCopiesOf(const UnitCost& c) {
        return std::clamp<std::int64_t>(c.weight_copy_bytes, 0,
                                        std::max<std::int64_t>(0, c.kept_bytes - c.output_bytes));
    }
    // The bytes of `category` that are weight copies move to kWeightCopies as one allocation.
    void allocKept(const UnitCost& c, Category category) {
        if (c.weight_copy_bytes > 0) {
            const std::int64_t copies = weightCopiesOf(c);
            now_[kWeightCopies] += copies;
            now_[category] -= copies;
        }
        alloc(c.kept_bytes, category);
    }
    // What its backward frees of that: all but the output.
    void releaseSaved(const UnitCost& c, Category category) {
        if (c.weight_copy_bytes > 0) {
            const std::int64_t copies = weightCopiesOf(c);
            now_[kWeightCopies] -= copies;
            now_[category] += copies;
        }
        release(c.kept_bytes - c.output_bytes, category);
    }

    // The next piece of work: `ms` more of the step's time, labelled `phase` and `block`; the
    // allocations and frees that follow are stamped at its end.
    void work(Phase phase, int block, double ms, bool recompute) {
        const double begin = time_;
        time_ += ms;
        if (recompute) recomputeMs_ += ms;
        if constexpr (kTimeline) {
            phase_ = phase;
            block_ = block;
            if (!spans_.empty() && spans_.back().phase == phase && spans_.back().block == block &&
                spans_.back().end_ms == begin)
                spans_.back().end_ms = time_;
            else
                spans_.push_back({phase, block, begin, time_});
        }
    }
    void event(std::int64_t delta, std::int64_t total) {
        if (delta != 0) events_.push_back({time_, delta, total, phase_, block_});
    }
    int blockOf(int unit) const { return unit / unitsPerBlock_; }
    void free(Block& block) {
        if (allocator_) allocator_->free(block);
    }

    // Every unit's, the ends' included.
    template <class F>
    void forEachUnit(F f) const {
        if (m_.first) f(*m_.first);
        for (const auto& c : m_.units) f(c);
        if (m_.last) f(*m_.last);
    }

    // Parameters, input and optimizer state.
    std::int64_t baselineBytes() const {
        // Without ends the input has an output's shape.
        std::int64_t bytes = m_.input_bytes > 0 ? m_.input_bytes : m_.units.front().output_bytes;
        forEachUnit([&](const UnitCost& c) {
            bytes += c.parameter_tensors.empty() ? c.param_grad_bytes : 0;
            for (std::int64_t t : c.parameter_tensors) bytes += t;
            for (std::int64_t t : c.optimizer_state_tensors) bytes += t;
        });
        return bytes;
    }

    // The embedding's forward: what it leaves, its output the chain's input.
    Placed forwardEmbedding() {
        const UnitCost& c = *m_.first;
        work(Phase::Forward, kEmbeddingBlock, c.forward_ms, false);
        touch(forwardPeakOf(c), kOther);
        allocKept(c, kActivations);
        return {
            allocator_ ? allocator_->forward(AllocatorReplay::kEmbedding) : AllocatorReplay::Kept{},
            {}};
    }

    // The head's forward: the loss, which the step holds, and what its backward needs.
    AllocatorReplay::Kept forwardHead() {
        const UnitCost& c = *m_.last;
        work(Phase::Forward, kHeadBlock, c.forward_ms, false);
        touch(forwardPeakOf(c), kLogits);
        allocKept(c, kLogits);
        if (!allocator_) return {};
        AllocatorReplay::Kept kept = allocator_->forward(AllocatorReplay::kHead);
        allocator_->holdUntilStepEnds(kept.output);
        return kept;
    }

    // The head's backward, from the loss: it frees its saved input, the chain's output
    // (`chainOutput`, in the allocator), and returns the gradient of the chain's output, for
    // the chain's last item to free.
    // `chainOutput` is the chain's output block, null without the allocator's replay.
    Block backwardHead(AllocatorReplay::Kept& kept, Block* chainOutput) {
        const UnitCost& c = *m_.last;
        const std::int64_t outputBytes = m_.units.back().output_bytes;
        work(Phase::Backward, kHeadBlock, c.backward_ms, false);
        touch(headBackwardPeakOf(c, outputBytes), kLogits);
        releaseSaved(c, kLogits);  // the loss stays with the step
        alloc(c.param_grad_bytes, kGradients);
        alloc(outputBytes, kGradients);      // the gradient of the chain's output
        alloc(c.output_bytes, kLogits);      // the loss's gradient, until the backward ends
        release(outputBytes, kActivations);  // the chain's output, its saved input
        if (!allocator_) return {};
        const Block grad = allocator_->backward(AllocatorReplay::kHead, kept);
        allocator_->free(*chainOutput);
        return grad;
    }

    // The embedding's backward: its parameters' gradients (added in place into the head's
    // with tied embeddings); it frees the chain's input gradient and leaves none of its own.
    void backwardEmbedding(Placed& embedding, Block inputGrad) {
        const UnitCost& c = *m_.first;
        work(Phase::Backward, kEmbeddingBlock, c.backward_ms, false);
        touch(embeddingBackwardPeakOf(c), kOther);
        releaseSaved(c, kActivations);
        alloc(c.param_grad_bytes, kGradients);
        release(m_.units.front().output_bytes, kGradients);  // the chain's input's gradient
        if (!allocator_) return;
        allocator_->backward(AllocatorReplay::kEmbedding, embedding.kept);
        free(inputGrad);
    }

    // One step: forward, backward and the optimizer's temporaries, in the allocator with
    // `createOptimizerState` after the optimizer's state, which stays. Returns the bytes
    // allocated when forward ends.
    std::int64_t step(const Plan& units, bool createOptimizerState) {
        std::optional<Placed> embedding;
        if (m_.first) embedding = forwardEmbedding();
        auto items = forwardSequence(units.segments, false);
        AllocatorReplay::Kept head;
        if (m_.last) head = forwardHead();
        const std::int64_t activations = mem_;
        Block outputGrad;
        if (m_.last) {
            // Without the replay nothing was placed, so there is no block to name.
            outputGrad = backwardHead(head, allocator_ ? &outputBlock(items.back()) : nullptr);
        } else if (allocator_) {
            // The loss and its gradient, one element each (the count leaves them out), live
            // until the step ends.
            allocator_->holdUntilStepEnds(allocator_->place(1));
            allocator_->holdUntilStepEnds(allocator_->place(1));
        }
        const std::int64_t outputGradBytes = m_.last ? m_.units.back().output_bytes : 0;
        const Block inputGrad = backwardSequence(items, outputGrad, outputGradBytes,
                                                 /*holdIncoming=*/!m_.last);
        if (embedding) {
            // The chain's first item released its saved input, the embedding's output.
            release(m_.first->output_bytes, kActivations);
            if (allocator_) allocator_->free(embedding->kept.output);
            backwardEmbedding(*embedding, inputGrad);
        }
        // The loss's gradient: backward ended.
        if (m_.last) release(m_.last->output_bytes, kLogits);
        std::int64_t optimizerPeak = 0;
        double optimizerMs = 0;
        forEachUnit([&](const UnitCost& u) {
            optimizerMs += u.optimizer_ms;
            optimizerPeak = std::max(optimizerPeak, u.optimizer_peak);
        });
        if (m_.optimizer || optimizerMs > 0 || optimizerPeak > 0)
            work(Phase::Optimizer, -1, optimizerMs, false);
        touch(optimizerPeak, kOther);
        if (allocator_) {
            if (!embedding) allocator_->holdUntilStepEnds(inputGrad);
            if (!m_.last) allocator_->holdUntilStepEnds(outputBlock(items.back()));  // the output
            allocator_->optimizer(createOptimizerState);
        }
        return activations;
    }

    // Forward with grad of a segment list; returns the items backward will visit.
    std::vector<Item> forwardSequence(const std::vector<Segment>& segments, bool recompute) {
        std::vector<Item> items;
        for (const auto& s : segments) {
            if (s.checkpointed) {
                // The engine takes the RNG state before the body runs; the count adds it after
                // (where the measured peaks put it).
                const Block rng = allocator_ ? allocator_->place(m_.checkpoint_bytes) : Block{};
                const Block output = forwardWithoutGrad(s.begin, s.end, recompute);
                alloc(m_.checkpoint_bytes, kActivations);
                items.push_back({&s, -1, recompute});
                if (allocator_) {
                    items.back().placed = static_cast<int>(placed_.size());
                    placed_.push_back({{output, {}}, rng});
                }
            } else if (!s.inner.empty()) {
                auto inner = forwardSequence(s.inner, recompute);
                items.insert(items.end(), inner.begin(), inner.end());
            } else {
                const std::size_t before = items.size();  // the item whose output is the input
                for (int u = s.begin; u < s.end; ++u) {
                    const auto& c = m_.units[u];
                    work(forwardPhase(recompute), blockOf(u), c.forward_ms, recompute);
                    touch(forwardPeakOf(c), kOther);
                    allocKept(c, kActivations);
                    items.push_back({&s, u, recompute});
                    if (allocator_) {
                        items.back().placed = static_cast<int>(placed_.size());
                        placed_.push_back({allocator_->forward(u), {}});
                    }
                    if (u > s.begin && !c.keeps_input) freeOutput(items[items.size() - 2]);
                }
                if (before > 0 && !m_.units[s.begin].keeps_input) freeOutput(items[before - 1]);
            }
        }
        return items;
    }

    // An item's output that its consumer's forward let go (the consumer does not keep it).
    void freeOutput(Item& item) {
        release(outputOf(item), kActivations);
        if (allocator_) allocator_->free(outputBlock(item));
        item.outputFreed = true;
    }

    // A checkpoint's body without grad: inner checkpoints are plain runs here. Returns, in the
    // allocator, its last output, the checkpoint's.
    Block forwardWithoutGrad(int begin, int end, bool recompute) {
        Block previous;
        for (int u = begin; u < end; ++u) {
            const auto& c = m_.units[u];
            work(forwardPhase(recompute), blockOf(u), c.nograd_ms, recompute);
            touch(nogradPeakOf(c), kOther);
            alloc(c.output_bytes, kActivations);
            const Block output = allocator_ ? allocator_->nogradForward(u) : Block{};
            if (u > begin) {
                release(m_.units[u - 1].output_bytes, kActivations);
                free(previous);
            }
            previous = output;
        }
        return previous;
    }

    // Backward over items in reverse. `incomingGradBytes` is the gradient of the sequence's
    // output (0 for the loss's, an expanded scalar) and `incoming` its block; `holdIncoming`:
    // something outside the sequence keeps it alive (the step, for the loss's). Returns the
    // block of the gradient of the sequence's input.
    Block backwardSequence(std::vector<Item>& items, Block incoming, std::int64_t incomingGradBytes,
                           bool holdIncoming) {
        Block grad = incoming;
        std::int64_t gradBytes = incomingGradBytes;
        bool held = holdIncoming;
        for (std::size_t k = items.size(); k-- > 0;) {
            Item& item = items[k];
            const int first = item.unit >= 0 ? item.unit : item.segment->begin;
            if (item.unit >= 0)
                grad = backwardUnit(item, grad, gradBytes, held);
            else
                grad = backwardCheckpoint(item, grad, gradBytes, held);
            gradBytes = first > 0 ? m_.units[first - 1].output_bytes : m_.units[first].output_bytes;
            held = false;
            // This item's backward released its saved input: the previous item's output.
            if (k > 0 && !items[k - 1].outputFreed) {
                release(outputOf(items[k - 1]), kActivations);
                if (allocator_) allocator_->free(outputBlock(items[k - 1]));
            }
        }
        return grad;
    }

    Block& outputBlock(const Item& item) { return placed_[item.placed].kept.output; }

    std::int64_t outputOf(const Item& item) const {
        const int last = item.unit >= 0 ? item.unit : item.segment->end - 1;
        return m_.units[last].output_bytes;
    }

    Block backwardUnit(Item& item, Block grad, std::int64_t gradBytes, bool held) {
        const auto& c = m_.units[item.unit];
        work(Phase::Backward, blockOf(item.unit), backwardMsOf(c, item.recomputed), false);
        touch(backwardPeakOf(c), kOther);
        releaseSaved(c, kActivations);
        alloc(c.param_grad_bytes, kGradients);
        alloc(c.output_bytes, kGradients);  // the gradient of its input, its output's shape
        const Block inputGrad =
            allocator_ ? allocator_->backward(item.unit, placed_[item.placed].kept) : Block{};
        if (!held) {
            release(gradBytes, kGradients);
            free(grad);
        }
        return inputGrad;
    }

    Block backwardCheckpoint(Item& item, Block grad, std::int64_t gradBytes, bool held) {
        const Segment& s = *item.segment;
        // Recompute with grad, nested checkpoints included, then differentiate it.
        std::vector<Segment> body = s.inner;
        if (body.empty()) body.push_back({s.begin, s.end, false, {}});
        // The generator's state when the recompute starts, to go on from afterwards: alive
        // while the recompute's forward runs.
        Block resume = allocator_ ? allocator_->place(m_.checkpoint_bytes) : Block{};
        alloc(m_.checkpoint_bytes, kActivations);
        auto items = forwardSequence(body, true);
        release(m_.checkpoint_bytes, kActivations);
        free(resume);
        // The recomputed output is dropped before its backward starts: only its graph node
        // is needed (the engine's checkpoint, like PyTorch's non-reentrant one). The incoming
        // gradient goes to the body's backward as its own.
        release(outputOf(items.back()), kActivations);
        if (allocator_) allocator_->free(outputBlock(items.back()));
        const Block inputGrad = backwardSequence(items, grad, gradBytes, held);
        release(m_.checkpoint_bytes, kActivations);
        if (allocator_) allocator_->free(placed_[item.placed].rng);
        // The forward's output of this checkpoint was released by its consumer already,
        // except at the end of the chain where the step still holds it.
        return inputGrad;
    }

    static Phase forwardPhase(bool recompute) {
        return recompute ? Phase::Recompute : Phase::Forward;
    }

    const CostModel& m_;
    const int unitsPerBlock_;
    std::int64_t mem_ = 0;
    std::int64_t peak_ = 0;
    std::array<std::int64_t, kCategories> now_{};     // mem_ by category
    std::array<std::int64_t, kCategories> atPeak_{};  // the split at peak_
    double time_ = 0;
    double recomputeMs_ = 0;
    // With the timeline: the work running now, and what the step did so far.
    Phase phase_ = Phase::Idle;
    int block_ = -1;
    std::vector<TimelineEvent> events_;
    std::vector<PhaseSpan> spans_;
    std::optional<AllocatorReplay> allocator_;
    std::vector<Placed> placed_;
};

}  // namespace

Prediction predict(const CostModel& model, const Plan& plan, ReplayAllocator allocator,
                   PredictTimeline timeline) {
    if (model.units.empty()) return {};
    const bool withAllocator = allocator == ReplayAllocator::Yes;
    if (timeline == PredictTimeline::Yes) return Replay<true>(model, withAllocator).run(plan);
    return Replay<false>(model, withAllocator).run(plan);
}

}  // namespace ckptlab
