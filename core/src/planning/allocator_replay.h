#pragma once
// The caching allocator's side of predict()'s replay (predict.cpp): what each event of the plan
// replay allocates and frees, placed in a CachingAllocatorModel. A unit with an allocation
// script (cost_model.h) places its real tensors at their times; one without places its
// aggregates: its kept bytes as the output and one block of the rest, each transient as one
// block allocated and freed at once, its parameters' gradients per tensor.

#include <cstdint>
#include <vector>

#include "ckptlab/planning/caching_allocator.h"
#include "ckptlab/planning/cost_model.h"

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

    // Every unit's parameters (the embedding's first, the head's last), then the input.
    // Returns their bytes.
    std::int64_t placeBaseline();
    // Units are the chain's by number; kEmbedding and kHead name the chain's ends.
    static constexpr int kEmbedding = -1;
    static constexpr int kHead = -2;
    Kept forward(int unit);
    // A forward without grad; returns its output.
    Block nogradForward(int unit);
    // A unit's backward: frees what its forward kept (its output excepted: its consumer frees
    // it), leaves its parameters' gradients until endStep() and returns its input's gradient
    // (none for the embedding; the head's other gradient, the loss's, stays until endStep()).
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
    // Units in the order of the model's parameters: the embedding, the chain, the head.
    std::size_t indexOf(int unit) const;
    const UnitCost& cost(int unit) const { return *units_[indexOf(unit)]; }
    bool scripted(int unit) const { return scripted_[indexOf(unit)]; }
    // Runs `steps`: handles[n] is the block of the script's allocation number n.
    void run(const std::vector<AllocationStep>& steps, std::vector<Block>& handles);
    Block aggregateBackward(int unit, Kept& kept);

    const CostModel& m_;
    std::vector<const UnitCost*> units_;
    std::vector<bool> scripted_;  // per unit: its script is present and consistent
    CachingAllocatorModel allocator_;
    std::vector<Block> stepEnd_;
};

// Whether a script can be replayed: every number it names is an allocation made before and
// still allocated, and its output, input gradient and no-grad output are left allocated.
// `inputGradient` false: the unit's input has no gradient (the embedding's token ids), so its
// input_grad is -1.
bool consistentScript(const AllocationScript& script, bool inputGradient = true);

}  // namespace ckptlab::detail
