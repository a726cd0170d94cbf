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

bool consistentScript(const AllocationScript& script) {
    std::vector<bool> live;
    if (script.empty() || !follow(script.forward, live) || !liveAt(live, script.output))
        return false;
    const int forwardAllocations = static_cast<int>(live.size());
    live[script.output] = false;  // the consumer frees it, not this backward
    if (!follow(script.backward, live) || !liveAt(live, script.input_grad, forwardAllocations))
        return false;
    std::vector<bool> nograd, optimizer;
    return follow(script.nograd, nograd) && liveAt(nograd, script.nograd_output) &&
           follow(script.optimizer, optimizer);
}

AllocatorReplay::AllocatorReplay(const CostModel& model) : m_(model) {
    for (const UnitCost& c : m_.units) scripted_.push_back(consistentScript(c.allocations));
}

std::int64_t AllocatorReplay::placeBaseline() {
    std::int64_t bytes = 0;
    for (const UnitCost& c : m_.units) {
        forEachParameter(c, [&](std::int64_t p) {
            place(p);
            bytes += p;
        });
    }
    place(m_.units.front().output_bytes);  // the input has a unit's output's shape
    return bytes + m_.units.front().output_bytes;
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
    const UnitCost& c = m_.units[unit];
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
    const UnitCost& c = m_.units[unit];
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

AllocatorReplay::Block AllocatorReplay::backward(int unit, Kept& kept) {
    const UnitCost& c = m_.units[unit];
    if (!scripted(unit)) {
        transient(backwardPeakOf(c));
        for (Block& b : kept.rest) free(b);
        forEachParameter(c, [&](std::int64_t p) { stepEnd_.push_back(place(p)); });
        return place(c.output_bytes);  // the gradient of its input, its output's shape
    }
    std::vector<Block>& handles = kept.rest;
    const std::size_t forwardAllocations = handles.size();
    run(c.allocations.backward, handles);
    const Block inputGrad = handles[c.allocations.input_grad];
    handles[c.allocations.input_grad] = {};
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
    for (std::size_t u = 0; u < m_.units.size(); ++u) {
        if (createState)
            for (std::int64_t t : m_.units[u].optimizer_state_tensors) place(t);
        peak = std::max(peak, m_.units[u].optimizer_peak);
        allScripted = allScripted && scripted_[u];
    }
    if (!allScripted) return transient(peak);
    for (const UnitCost& c : m_.units) {
        std::vector<Block> handles;
        run(c.allocations.optimizer, handles);
        for (Block& b : handles) free(b);
    }
}

void AllocatorReplay::endStep() {
    for (Block& b : stepEnd_) free(b);
    stepEnd_.clear();
}

}  // namespace ckptlab::detail
