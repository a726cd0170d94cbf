// The caching allocator's side of predict()'s replay (allocator_replay.h).
#include "planning/allocator_replay.h"

#include <algorithm>

namespace ckptlab::detail {
namespace {

// Calls f(bytes) for each parameter tensor of a unit (one of param_grad_bytes when the model
// lists none).
template <class F>
void forEachParameter(const UnitCost& c, F f) {
    if (c.parameter_tensors.empty()) return f(c.param_grad_bytes);
    for (std::int64_t p : c.parameter_tensors) f(p);
}

// Follows `steps` on `live` (one flag per allocation number); false at the first number that
// was never allocated or is already free.
bool follow(const std::vector<AllocationStep>& steps, std::vector<bool>& live) {
    for (const AllocationStep& s : steps) {
        if (s.frees < 0) {
            if (s.bytes < 0) return false;
            live.push_back(true);
        } else {
            if (s.frees >= static_cast<int>(live.size()) || !live[s.frees]) return false;
            live[s.frees] = false;
        }
    }
    return true;
}

bool liveAt(const std::vector<bool>& live, int n, int from = 0) {
    return n >= from && n < static_cast<int>(live.size()) && live[n];
}

}  // namespace

bool consistentScript(const AllocationScript& script, bool inputGradient) {
    std::vector<bool> live;
    if (script.empty() || !follow(script.forward, live) || !liveAt(live, script.output))
        return false;
    const int forwardAllocations = static_cast<int>(live.size());
    live[script.output] = false;  // the consumer frees it, not this backward
    if (!follow(script.backward, live)) return false;
    if (inputGradient ? !liveAt(live, script.input_grad, forwardAllocations)
                      : script.input_grad != -1)
        return false;
    std::vector<bool> nograd, optimizer;
    return follow(script.nograd, nograd) && liveAt(nograd, script.nograd_output) &&
           follow(script.optimizer, optimizer);
}

AllocatorReplay::AllocatorReplay(const CostModel& model) : m_(model) {
    if (m_.first) units_.push_back(&*m_.first);
    for (const UnitCost& c : m_.units) units_.push_back(&c);
    if (m_.last) units_.push_back(&*m_.last);
    for (const UnitCost* c : units_)
        scripted_.push_back(consistentScript(c->allocations, !(m_.first && c == &*m_.first)));
}

std::size_t AllocatorReplay::indexOf(int unit) const {
    if (unit == kEmbedding) return 0;
    if (unit == kHead) return units_.size() - 1;
    return static_cast<std::size_t>(unit) + (m_.first ? 1 : 0);
}

std::int64_t AllocatorReplay::placeBaseline() {
    std::int64_t bytes = 0;
    for (const UnitCost* c : units_) {
        forEachParameter(*c, [&](std::int64_t p) {
            place(p);
            bytes += p;
        });
    }
    // Without ends the input has a unit's output's shape.
    const std::int64_t input = m_.input_bytes > 0 ? m_.input_bytes : m_.units.front().output_bytes;
    place(input);
    return bytes + input;
}

void AllocatorReplay::run(const std::vector<AllocationStep>& steps, std::vector<Block>& handles) {
    for (const AllocationStep& s : steps) {
        if (s.frees >= 0)
            free(handles[s.frees]);
        else
            handles.push_back(place(s.bytes));
    }
}

AllocatorReplay::Kept AllocatorReplay::forward(int unit) {
    const UnitCost& c = cost(unit);
    Kept kept;
    if (scripted(unit)) {
        run(c.allocations.forward, kept.rest);
        kept.output = kept.rest[c.allocations.output];
        kept.rest[c.allocations.output] = {};
        return kept;
    }
    transient(forwardPeakOf(c));
    kept.output = place(c.output_bytes);
    kept.rest.push_back(place(c.kept_bytes - c.output_bytes));
    return kept;
}

AllocatorReplay::Block AllocatorReplay::nogradForward(int unit) {
    const UnitCost& c = cost(unit);
    if (!scripted(unit)) {
        transient(nogradPeakOf(c));
        return place(c.output_bytes);
    }
    std::vector<Block> handles;
    run(c.allocations.nograd, handles);
    const Block output = handles[c.allocations.nograd_output];
    handles[c.allocations.nograd_output] = {};
    for (Block& b : handles) free(b);  // nothing else outlives a forward without grad
    return output;
}

AllocatorReplay::Block AllocatorReplay::aggregateBackward(int unit, Kept& kept) {
    const UnitCost& c = cost(unit);
    const std::int64_t chainOutput = m_.units.back().output_bytes;
    transient(unit == kHead        ? headBackwardPeakOf(c, chainOutput)
              : unit == kEmbedding ? embeddingBackwardPeakOf(c)
                                   : backwardPeakOf(c));
    for (Block& b : kept.rest) free(b);
    std::int64_t listed = 0;
    forEachParameter(c, [&](std::int64_t p) { listed += p; });
    if (listed == c.param_grad_bytes)
        forEachParameter(c, [&](std::int64_t p) { stepEnd_.push_back(place(p)); });
    else  // the head's with tied embeddings: the shared weight's gradient too
        stepEnd_.push_back(place(c.param_grad_bytes));
    if (unit == kEmbedding) return {};
    if (unit == kHead) {
        stepEnd_.push_back(place(c.output_bytes));  // the loss's gradient
        return place(chainOutput);
    }
    return place(c.output_bytes);  // the gradient of its input, its output's shape
}

AllocatorReplay::Block AllocatorReplay::backward(int unit, Kept& kept) {
    const UnitCost& c = cost(unit);
    if (!scripted(unit)) return aggregateBackward(unit, kept);
    std::vector<Block>& handles = kept.rest;
    const std::size_t forwardAllocations = handles.size();
    run(c.allocations.backward, handles);
    Block inputGrad;
    if (c.allocations.input_grad >= 0) {
        inputGrad = handles[c.allocations.input_grad];
        handles[c.allocations.input_grad] = {};
    }
    for (std::size_t n = 0; n < handles.size(); ++n) {
        if (n < forwardAllocations)
            free(handles[n]);  // kept by the forward, gone with the unit's graph
        else if (!handles[n].empty())
            stepEnd_.push_back(handles[n]);  // its parameters' gradients
    }
    handles.clear();
    return inputGrad;
}

void AllocatorReplay::optimizer(bool createState) {
    std::int64_t peak = 0;
    bool allScripted = true;
    for (std::size_t u = 0; u < units_.size(); ++u) {
        if (createState)
            for (std::int64_t t : units_[u]->optimizer_state_tensors) place(t);
        peak = std::max(peak, units_[u]->optimizer_peak);
        allScripted = allScripted && scripted_[u];
    }
    if (!allScripted) return transient(peak);
    for (const UnitCost* c : units_) {
        std::vector<Block> handles;
        run(c->allocations.optimizer, handles);
        for (Block& b : handles) free(b);
    }
}

void AllocatorReplay::endStep() {
    for (Block& b : stepEnd_) free(b);
    stepEnd_.clear();
}

}  // namespace ckptlab::detail
