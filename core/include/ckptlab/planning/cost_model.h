#pragma once
// Per-sub-block costs measured on the current config, and predictions of any plan from them:
// what a run will take before it runs (peak and activation bytes, step time).

#include <atomic>
#include <cstdint>
#include <optional>
#include <vector>

#include "ckptlab/model/block_kinds.h"
#include "ckptlab/model/config.h"
#include "ckptlab/model/result.h"
#include "ckptlab/model/strategy.h"

namespace ckptlab {

// One step of an allocation script: an allocation of `bytes` (as requested) or, when `frees` is
// not -1, the free of the script's allocation with that number. Allocations are numbered in
// order from 0.
struct AllocationStep {
    std::int64_t bytes = 0;
    int frees = -1;
};

// A unit's allocations and frees as the allocator saw them when the cost model was measured,
// for the caching allocator's replay (predict.cpp), which then places the unit's real tensors
// instead of its aggregates. Empty in hand-built models.
struct AllocationScript {
    std::vector<AllocationStep> forward;   // with grad; what it leaves allocated is kept
    int output = -1;                       // the forward's allocation that is the output
    std::vector<AllocationStep> backward;  // numbered on after the forward's allocations
    int input_grad = -1;  // the backward's allocation that is its input's gradient; the others
                          // it leaves allocated are its parameters' gradients
    std::vector<AllocationStep> nograd;  // a forward without grad, numbered from 0 again
    int nograd_output = -1;
    std::vector<AllocationStep> optimizer;  // one optimizer step, numbered from 0 again
    bool empty() const { return forward.empty(); }
};

// A unit's backward when it ends a chain without a head (ExperimentConfig::vocab == 0): the
// loss is then the output's sum, whose gradient is one value expanded to the output's shape
// (every stride 0), and some kernels first copy such a gradient whole (LibTorch 2.x's bf16
// matmul on CPUs with AVX-512 BF16 does). Inside the chain a unit's gradient is the next
// unit's dense input gradient, as the probe's is.
struct SumLossBackward {
    std::int64_t backward_peak = 0;        // as UnitCost::backward_peak
    std::vector<AllocationStep> backward;  // as AllocationScript::backward
    int input_grad = -1;                   // as AllocationScript::input_grad
};

// One unit of the chain: the ffn block is one unit, the transformer block two (attention, FFN).
// Bytes are measured by the allocator on one block with its input already allocated.
struct UnitCost {
    std::int64_t output_bytes = 0;   // its output, also the next unit's input and gradient size
    std::int64_t kept_bytes = 0;     // left allocated by a forward with grad, output included
    std::int64_t forward_peak = 0;   // highest above its start during a forward with grad
    std::int64_t nograd_peak = 0;    // highest above its start during a forward without grad
    std::int64_t backward_peak = 0;  // highest above `kept_bytes` during its backward
    std::int64_t param_grad_bytes = 0;
    std::int64_t optimizer_peak = 0;  // temporaries of one optimizer step over its parameters
    // Whether its forward with grad keeps its input alive (saves it, or a view of it). A bf16
    // Llama part saves only its RMSNorm's fp32 copy of the input, so inside a chain the
    // previous unit's output is freed once this unit's forward is done (predict.cpp).
    bool keeps_input = true;
    // Of `kept_bytes`, autocast's bf16 copies of its weights that its forward keeps for its
    // backward (mixed-bf16; 0 in the other precisions): counted as weight copies, not
    // activations, in the predicted split.
    std::int64_t weight_copy_bytes = 0;
    double forward_ms = 0;  // with grad
    double nograd_ms = 0;
    double backward_ms = 0;  // a recomputed unit's (see cost_measure.cpp)
    // A unit kept from the first forward: measured as a second forward-backward pair, which is
    // slower on CPU and matches kept blocks inside real steps. 0 = the same as backward_ms.
    double backward_kept_ms = 0;
    double optimizer_ms = 0;
    // For the caching allocator's replay (reserved bytes, predict.cpp): its parameters' sizes
    // in order, which are also their gradients' (empty: one tensor of param_grad_bytes), and
    // the state the optimizer's first step creates for them, in order (Adam: two tensors per
    // parameter; none without an optimizer or with plain SGD).
    std::vector<std::int64_t> parameter_tensors;
    std::vector<std::int64_t> optimizer_state_tensors;
    AllocationScript allocations;  // measured; empty: the replay places the aggregates
    // Measured layer units: the backward under the sum loss. While `at_chain_top` is set, the
    // unit is the last of a chain without a head and this holds the plain backward instead,
    // swapped out by placeChainTop.
    std::optional<SumLossBackward> sum_loss;
    bool at_chain_top = false;
};

// A unit's backward time: `recomputed` units run it right after their forward.
inline double backwardMsOf(const UnitCost& c, bool recomputed) {
    return recomputed || c.backward_kept_ms <= 0 ? c.backward_ms : c.backward_kept_ms;
}

// Peaks as the plan replay and the planner use them: never below what the unit leaves
// allocated (a measured peak always is; hand-made models may not be).
inline std::int64_t forwardPeakOf(const UnitCost& c) {
    return c.forward_peak > c.kept_bytes ? c.forward_peak : c.kept_bytes;
}
inline std::int64_t nogradPeakOf(const UnitCost& c) {
    return c.nograd_peak > c.output_bytes ? c.nograd_peak : c.output_bytes;
}
// Above `kept_bytes`; covers the end of backward: saved tensors gone, parameter gradients and
// the input's gradient (the output's size) allocated.
inline std::int64_t backwardPeakOf(const UnitCost& c) {
    const std::int64_t end = c.param_grad_bytes + 2 * c.output_bytes - c.kept_bytes;
    return c.backward_peak > end ? c.backward_peak : end;
}
// The same for the chain's ends (CostModel): the embedding leaves no input gradient; the head
// leaves the chain's output's gradient (`inputGradBytes`) and the loss's.
inline std::int64_t embeddingBackwardPeakOf(const UnitCost& c) {
    const std::int64_t end = c.param_grad_bytes + c.output_bytes - c.kept_bytes;
    return c.backward_peak > end ? c.backward_peak : end;
}
inline std::int64_t headBackwardPeakOf(const UnitCost& c, std::int64_t inputGradBytes) {
    const std::int64_t end =
        c.param_grad_bytes + 2 * c.output_bytes + inputGradBytes - c.kept_bytes;
    return c.backward_peak > end ? c.backward_peak : end;
}

// The chain's two ends (ExperimentConfig::vocab > 0) are measured as units too, with the same
// rules, and are never checkpointed by a strategy (the head's loss chunks are inside its own
// costs). Where they differ from a layer unit:
// - `first`, the token embedding: its input is the token ids, which have no gradient, so its
//   backward leaves only its parameters' gradients (none with tied embeddings: it adds into the
//   head's in place); its output is the chain's input, freed by the chain's first item's
//   backward; allocations.input_grad is -1.
// - `last`, the final norm, LM head and loss: its input is the chain's output, which the step
//   holds; its output is the scalar loss, which the step holds until it ends; its backward
//   starts from the loss (the loss's gradient, output_bytes, is created there and lives until
//   the whole backward ends: counted in backward_peak and left by its backward script) and
//   leaves the gradient of the chain's output besides its parameters' gradients (with tied
//   embeddings the shared weight's too, though its parameter_tensors leave that weight to
//   `first`).
struct CostModel {
    std::vector<UnitCost> units;          // depth * unitsPerBlock, in chain order
    std::optional<UnitCost> first, last;  // the chain's ends, when the model has them
    // What the step's baseline counts as its input (token ids and targets with ends); 0: one
    // tensor of a unit output's shape, the chain without ends.
    std::int64_t input_bytes = 0;
    BlockKind block = BlockKind::Ffn;  // the measured block's kind: its units per block
    int unitsPerBlock() const { return blockKind(block).unitsPerBlock(); }
    std::int64_t checkpoint_bytes = 0;  // kept by each checkpoint besides its input (RNG state)
    int threads = 0;  // intra-op threads the times were measured at (0: not measured)
    // Measured with an optimizer: the runner runs one step before the measured one so that the
    // optimizer's state exists (measure_run.cpp); the replay of reserved bytes does too.
    bool optimizer = false;
};

// What is allocated above the step's start at the predicted peak, by what it is; the parts sum
// to Prediction::peak_bytes. The measured run's Breakdown (result.h) counts by its own rules
// (test_predicted_split.cpp says where the two agree).
struct PredictedSplit {
    // What forwards and recomputes keep: units run with grad (their weight copies excepted),
    // the outputs of units run without grad, checkpoints' RNG states, the embedding's output.
    std::int64_t activations = 0;
    std::int64_t gradients = 0;  // parameters' gradients and inputs' gradients alive
    // mixed-bf16: autocast's bf16 copies of weights that forwards kept for their backward (the
    // LM head's too, as the measured breakdown counts them).
    std::int64_t weight_copies = 0;
    // The rest of the chain's last end (CostModel::last): what its forward keeps, the loss, its
    // forward's and backward's transients and the loss's gradient.
    std::int64_t logits = 0;
    // Transient peaks of the other units' forwards and backwards and of the optimizer, above
    // what is allocated.
    std::int64_t other = 0;
    std::int64_t total() const { return activations + gradients + weight_copies + logits + other; }
};

struct Prediction {
    std::int64_t peak_bytes = 0;  // above the step's start
    std::int64_t activation_bytes = 0;
    double step_ms = 0;
    double recompute_ms = 0;
    // What the step starts with: parameters, input and optimizer state.
    std::int64_t baseline_bytes = 0;
    // With ReplayAllocator::Yes, the same replay through CUDA's caching allocator
    // (caching_allocator.h), the baseline placed first: the bytes it has reserved at the
    // step's end, its peak, baseline included.
    std::optional<std::int64_t> reserved_peak_bytes;
    PredictedSplit split;
    // With PredictTimeline::Yes, the replayed step as a measured run's trace is (RunResult's
    // timeline and phases), for the same charts: the phases (Forward, Recompute, Backward,
    // Optimizer) of each unit's work back to back from 0 to step_ms, by the units' times (all 0
    // in a model without times), its block the unit's index over unitsPerBlock (kEmbeddingBlock,
    // kHeadBlock for the ends); each allocation and free at the end of the work that makes it,
    // a transient peak as an allocation and a free at once, so the highest total is peak_bytes.
    // Empty otherwise.
    std::vector<TimelineEvent> timeline;
    std::vector<PhaseSpan> phases;
};

// Whether predict() also replays the caching allocator: it costs several times the rest, so
// the planner's searches leave it out.
enum class ReplayAllocator { No, Yes };
// Whether predict() also writes the step's timeline and phases (Prediction::timeline): the
// planner's searches leave them out.
enum class PredictTimeline { No, Yes };

// Replays the plan over the chain: what each forward keeps, when each tensor is freed (the
// checkpoint engine's rules), each backward's temporaries and the gradients that accumulate.
// With ReplayAllocator::Yes the caching allocator replays it too: first the baseline (each
// unit's parameters, then the input), with an optimizer one whole step before the predicted one
// whose end creates the optimizer's state and frees the gradients, then the predicted step. A
// unit with an allocation script places its real tensors, at their times; one without places
// its aggregates as blocks (its kept bytes as the output and one block of the rest, each
// transient as one block allocated and freed at once, its parameters' gradients per tensor).
Prediction predict(const CostModel& model, const Plan& plan,
                   ReplayAllocator allocator = ReplayAllocator::No,
                   PredictTimeline timeline = PredictTimeline::No);

// Gives the last unit of a chain without a head (no `last`) its backward under the sum loss,
// and every other unit its plain one: what measureCostModel and costModelAtDepth return, so
// that every planner and the replay see the chain's top as it runs. Units without
// `sum_loss` (hand-built, or fitted at full size) keep their backward.
void placeChainTop(CostModel& model);

// The plain backward back in every unit, as inside a chain: what a fit over several shapes
// takes from each measured model.
void removeChainTop(CostModel& model);

// measureCostModel, which runs LibTorch to fill a CostModel, is declared in runner.h.

}  // namespace ckptlab
