#pragma once
// Per-sub-block costs measured on the current config, and predictions of any plan from them:
// what a run will take before it runs (peak and activation bytes, step time).

#include <atomic>
#include <cstdint>
#include <vector>

#include "ckptlab/config.h"
#include "ckptlab/strategy.h"

namespace ckptlab {

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
    double forward_ms = 0;            // with grad
    double nograd_ms = 0;
    double backward_ms = 0;  // a recomputed unit's (see cost_measure.cpp)
    // A unit kept from the first forward: measured as a second forward-backward pair, which is
    // slower on CPU and matches kept blocks inside real steps. 0 = the same as backward_ms.
    double backward_kept_ms = 0;
    double optimizer_ms = 0;
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

struct CostModel {
    std::vector<UnitCost> units;  // depth * unitsPerBlock, in chain order
    int unitsPerBlock = 1;
    std::int64_t checkpoint_bytes = 0;  // kept by each checkpoint besides its input (RNG state)
    int threads = 0;  // intra-op threads the times were measured at (0: not measured)
};

struct Prediction {
    std::int64_t peak_bytes = 0;
    std::int64_t activation_bytes = 0;
    double step_ms = 0;
    double recompute_ms = 0;
};

// Replays the plan over the chain: what each forward keeps, when each tensor is freed (the
// checkpoint engine's rules), each backward's temporaries and the gradients that accumulate.
Prediction predict(const CostModel& model, const Plan& plan);

// measureCostModel, which runs LibTorch to fill a CostModel, is declared in runner.h.

}  // namespace ckptlab
