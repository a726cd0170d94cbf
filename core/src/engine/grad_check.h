#pragma once
// Compares a run's gradients with the no-checkpoint run's on the same weights and input.

#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/result.h"

namespace ckptlab::engine {

class Model;

// Detached copies, so later steps cannot change them.
std::vector<torch::Tensor> snapshot(const std::vector<torch::Tensor>& gradients);

// Largest |a - b| over every pair; a gradient missing on one side counts as zeros. NaN when an
// element is NaN in one run and not in the other, else Inf when an infinity differs; elements
// that are NaN in both runs, or the same infinity in both, count as equal (checkGradients
// says where they are). Pairs must have the same shape.
double maxAbsDiff(const std::vector<torch::Tensor>& reference,
                  const std::vector<torch::Tensor>& gradients);

// What the gradient check's tolerance is derived from: the dtype and the size of the step.
struct GradCheckSize {
    // From a dtype alone: one term in one layer, only the rounding of the values themselves
    // (gradients made by hand, in tests).
    GradCheckSize(DType dtype = DType::Float32, std::int64_t reduction = 1, int layers = 1)
        : dtype(dtype), reduction(reduction), layers(layers) {}
    DType dtype;
    std::int64_t reduction;  // the most terms one value sums (a matmul's inner size, tokens)
    int layers;              // reductions chained between the loss and the deepest gradient
    // Of `layers`, those mixed-bf16 computes in fp32: autocast leaves the norms (their input is
    // the fp32 residual stream) and the loss in fp32. 0 unless gradCheckSize sets it.
    int fp32Layers = 0;
};

// A step of `config`: reduction max(ffnWidthOf, width, batch·seq, and for llama heads·head
// width) (the MLP's hidden size, 4·width unless set; a weight's gradient sums over every token;
// attention's sums are no longer), layers depth × the block's chained reductions (FFN: norm,
// up, down; transformer: norm, qkv, scores, softmax, context, proj, and its FFN's 3; llama:
// RMSNorm, q/k/v, scores, softmax, context, o_proj, and its MLP's RMSNorm, gate/up, down)
// + 1 for the loss.
GradCheckSize gradCheckSize(const ExperimentConfig& config);

// The largest |difference| two computations of the same gradients may show when their kernels
// sum in different orders (GPU atomics, another BLAS path), `scale` being the reference's
// largest finite |gradient|:
//   2 · (layers · u_out + bound(layers · reduction, u_sum)) · scale,
// where bound(n, u), relative to the magnitudes summed, is the smaller of the worst case
// n·u / (1 − n·u) of a sum of n terms in any order (Higham 2002, §3.1) and the probabilistic
// exp(10·√n·u + n·u²/(1 − u)) − 1 (Higham & Mary 2019, Thm 2.4; exceeded with probability
// below 1e-12 up to n = 2.6e9), layers chaining their sums; u_sum = 2^-24 (float32 and bfloat16
// both sum in float32), u_out = 2^-8 for bfloat16's rounding of each layer's output (0 for
// float32); and 2 because each run is within the bound of the exact value. A layer rounded to
// bf16 can turn a reordered sum's last-bit difference into a whole bf16 step, hence u_out per
// such layer. The precisions differ in which layers are rounded: fp32 none (u_out = 0), bf16
// every one, mixed-bf16 those autocast computes in bf16 (the products, softmax, activations):
// `layers` − `fp32Layers`. Where the two runs replay the same kernels (a recompute on the CPU)
// the difference is 0 in every precision, and checkGradients says so (bitwise_equal).
// tests/support/tolerance.h applies the same rule to the tests' comparisons.
double gradTolerance(const GradCheckSize& size, double scale);

// Recomputation replays the same kernels on the same shapes, so on CPU the difference is
// exactly zero; gradTolerance only admits reordered sums. A NaN or Inf difference fails. When a
// gradient holds NaN or Inf in either run, `note` says which, in how many elements and in which
// run, naming gradient i `names[i]` ("gradient i" when `names` is shorter).
GradCheck checkGradients(const std::vector<torch::Tensor>& reference,
                         const std::vector<torch::Tensor>& gradients, const GradCheckSize& size,
                         const std::vector<std::string>& names = {});

// Names of Workbench::gradients() in its order: "input", then "block 3 ffn.up.weight", ...; with
// chain ends no "input" but "embedding weight" first and "head norm.weight", "head proj.weight"
// (untied only) last.
// (blocks counted from 0, as in the charts).
std::vector<std::string> gradientNames(const Model& model);

}  // namespace ckptlab::engine
