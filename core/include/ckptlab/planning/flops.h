#pragma once
// How much arithmetic a training step does: the FLOPs of the blocks' matrix multiplications
// (2 per multiply-add), counted from the shapes, and the rate a measured step reached.
//
// What is counted, per unit (N = B·S tokens, d = width, f = ffnWidthOf, 4d unless set):
//   ffn unit (the seed's block, and the transformer's second sub-block):
//     Linear d→f and Linear f→d: 2·N·d·f each, 4·N·d·f in all (16·N·d² at f = 4d);
//   attention unit (the transformer's first sub-block):
//     QKV projection d→3d: 6·N·d²; scores Q·Kᵀ: 2·B·S²·d (over all heads);
//     probabilities·V: 2·B·S²·d; output projection d→d: 2·N·d²; 8·N·d² + 4·B·S²·d in all.
//   llama attention unit (H query heads, G key/value heads, each Dh wide):
//     q d→H·Dh: 2·N·d·H·Dh; k and v d→G·Dh: 2·N·d·G·Dh each; scores and probabilities·V:
//     2·B·S²·H·Dh each (every query head multiplies, grouped or not); o H·Dh→d: 2·N·H·Dh·d.
//     Causal attention is counted over the full S × S, which the eager path computes before
//     masking; a kernel that skips the masked half does up to half of that part.
//   llama MLP unit: gate and up d→f and down f→d: 6·N·d·f.
//   the LM head (with --vocab): d→V, 2·N·d·V, run again in backward with loss chunks; the
//     embedding is a lookup, no matmul.
//   memory-efficient attention: its backward computes every chunk pair's Q·Kᵀ again, counted
//     as recompute (2·B·S²·H·Dh per forward of the unit).
//   forward:   every unit once;
//   recompute: every unit's forward again as often as the plan recomputes it
//              (RunResult::forward_counts − 1 per unit);
//   backward:  2× each unit's forward: for every product C = A·B both A's gradient dC·Bᵀ and
//              B's gradient Aᵀ·dC are computed (the model's input requires grad, so even the
//              first block's input gradient is), each as many FLOPs as the product itself.
// Not counted: biases, LayerNorm, RMSNorm, rotary embeddings, ReLU, SiLU and the gate's
// product, softmax, dropout, residual adds, the loss and the optimizer (elementwise, a few
// FLOPs per element: under 1 % at the default config).

#include <optional>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/result.h"

namespace ckptlab {

struct StepFlops {
    double forward = 0;
    double recompute = 0;
    double backward = 0;
    double total() const { return forward + recompute + backward; }
};

// Matmul FLOPs of one forward of sub-block `part` (0 ≤ part < unitsPerBlockOf(config.block),
// planner.h).
double unitForwardFlops(const ExperimentConfig& config, int part);
// Of the LM head's forward (0 without the chain's ends).
double headForwardFlops(const ExperimentConfig& config);
// Of one whole block's forward.
double blockForwardFlops(const ExperimentConfig& config);

// One step's matmul FLOPs. `forwardCounts` holds how many times each unit's forward ran
// (RunResult::forward_counts, depth × unitsPerBlockOf entries); empty means once each (no
// recompute). Throws std::invalid_argument when its size matches neither.
StepFlops stepFlops(const ExperimentConfig& config, const std::vector<int>& forwardCounts = {});

// FLOPs per second of a step of `stepMs`, in GFLOP/s; empty when the time is not positive
// and finite.
std::optional<double> gflopPerSecond(double flops, double stepMs);

// Sets run.metrics.step_gflop and gflop_per_s from the run's config, forward_counts and median
// step time; leaves them empty for a failed run or one without a step time.
void setFlopMetrics(RunResult& run);

}  // namespace ckptlab
