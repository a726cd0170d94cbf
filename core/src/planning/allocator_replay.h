#pragma once
// The caching allocator's side of predict()'s replay (predict.cpp): what each event of the plan
// replay allocates and frees, placed in a CachingAllocatorModel. A unit with an allocation
// script (cost_model.h) places its real tensors at their times; one without places its
// aggregates: its kept bytes as the output and one block of the rest, each transient as one
// block allocated and freed at once, its parameters' gradients per tensor.

#include <cstdint>
#include <vector>

#include "ckptlab/caching_allocator.h"
#include "ckptlab/cost_model.h"

namespace ckptlab::detail {

class AllocatorReplay {
public:
    using Block = CachingAllocatorModel::Block;
    // What a unit's forward with grad leaves allocated: its output, and the rest (a scripted
    // unit's by allocation number, the output's place empty).
    struct Kept {
        Block output;
        std::vector<Block> rest;
    };

    explicit AllocatorReplay(const CostModel& model);

    // Every unit's parameters, then the input. Returns their bytes.
    std::int64_t placeBaseline();
    Kept forward(int unit);
    // A forward without grad; returns its output.
    Block nogradForward(int unit);
    // A unit's backward: frees what its forward kept (its output excepted: its consumer frees
    // it), leaves its parameters' gradients until endStep() and returns its input's gradient.
    Block backward(int unit, Kept& kept);
    // The optimizer's step: with `createState` first the state its first step creates, which
    // stays; then its temporaries.
    void optimizer(bool createState);
    // What the step holds at its end besides the gradients (its output, its input's gradient).
    void holdUntilStepEnds(Block block) { stepEnd_.push_back(block); }
    // The runner's step ends: its output and gradients are freed.
    void endStep();

    Block place(std::int64_t bytes) { return bytes > 0 ? allocator_.allocate(bytes) : Block{}; }
    void free(Block& block) {
        allocator_.free(block);
        block = {};
    }
    void transient(std::int64_t bytes) { allocator_.free(place(bytes)); }

    std::int64_t reservedPeak() const { return allocator_.peakReserved(); }

private:
    bool scripted(int unit) const { return scripted_[static_cast<std::size_t>(unit)]; }
    // Runs `steps`: handles[n] is the block of the script's allocation number n.
    void run(const std::vector<AllocationStep>& steps, std::vector<Block>& handles);

    const CostModel& m_;
    std::vector<bool> scripted_;  // per unit: its script is present and consistent
    CachingAllocatorModel allocator_;
    std::vector<Block> stepEnd_;
};

// Whether a script can be replayed: every number it names is an allocation made before and
// still allocated, and its output, input gradient and no-grad output are left allocated.
bool consistentScript(const AllocationScript& script);

}  // namespace ckptlab::detail
