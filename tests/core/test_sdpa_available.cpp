// LibTorch >= 2.0 has at::scaled_dot_product_attention (CKPTLAB_HAS_SDPA, core/CMakeLists.txt):
// on a small CPU tensor it equals the eager softmax(Q K^T / sqrt(d)) V within the float32
// bound of tolerance.h. Debian's LibTorch 1.13 has none, and the test says so.
#include <gtest/gtest.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "tolerance.h"

namespace {

#ifdef CKPTLAB_HAS_SDPA

constexpr std::int64_t kBatch = 2, kHeads = 3, kSeq = 5, kHeadDim = 8;

struct Inputs {
    torch::Tensor q, k, v;
};

Inputs randomInputs() {
    torch::manual_seed(7);
    const auto shape = std::vector<std::int64_t>{kBatch, kHeads, kSeq, kHeadDim};
    return {torch::randn(shape), torch::randn(shape), torch::randn(shape)};
}

torch::Tensor eagerScores(const Inputs& in) {
    return torch::matmul(in.q, in.k.transpose(-2, -1)) / std::sqrt(double(kHeadDim));
}

// The two kernels sum in different orders (the fused one with an online softmax). A chain of
// reductions counts as one of all their terms (tolerance.h): the scores' kHeadDim, the
// softmax's normaliser and the weighted sum of V, kSeq each, plus 4 roundings per element
// (scale, max subtraction, exp, division). A score's absolute error, relative to its terms'
// magnitudes M = max |q|·|k| / sqrt(d), passes through exp as a relative error of its weight;
// the weights sum to 1, so the output's errors scale with max |v|.
double attentionTolerance(const Inputs& in) {
    const double magnitudes =
        (torch::matmul(in.q.abs(), in.k.abs().transpose(-2, -1)) / std::sqrt(double(kHeadDim)))
            .max()
            .item<double>();
    const double relative = ckptlab::test::tolerance::relative(ckptlab::test::tolerance::kFloat32,
                                                               kHeadDim + 2 * kSeq + 4);
    return relative * (1 + magnitudes) * in.v.abs().max().item<double>();
}

double maxDifference(const torch::Tensor& a, const torch::Tensor& b) {
    EXPECT_EQ(a.sizes(), b.sizes());
    return (a.to(torch::kFloat64) - b.to(torch::kFloat64)).abs().max().item<double>();
}

#endif

}  // namespace

TEST(Sdpa, EqualsTheEagerSoftmaxAttention) {
#ifdef CKPTLAB_HAS_SDPA
    const Inputs in = randomInputs();
    const torch::Tensor fused = at::scaled_dot_product_attention(in.q, in.k, in.v);
    const torch::Tensor eager = torch::matmul(torch::softmax(eagerScores(in), -1), in.v);
    const double bound = attentionTolerance(in);
    EXPECT_LE(maxDifference(fused, eager), bound) << "LibTorch " << TORCH_VERSION;
    // The bound is far below what a wrong scale would give (1/d instead of 1/sqrt(d)).
    const torch::Tensor wrongScale =
        torch::matmul(torch::softmax(eagerScores(in) / std::sqrt(double(kHeadDim)), -1), in.v);
    EXPECT_GT(maxDifference(fused, wrongScale), 100 * bound);
#else
    GTEST_SKIP() << "LibTorch " << TORCH_VERSION
                 << " has no at::scaled_dot_product_attention (LibTorch 1.13 has none; it came "
                    "with 2.0)";
#endif
}

TEST(Sdpa, CausalEqualsTheEagerMaskedSoftmaxAttention) {
#ifdef CKPTLAB_HAS_SDPA
    const Inputs in = randomInputs();
    const torch::Tensor fused = at::scaled_dot_product_attention(
        in.q, in.k, in.v, /*attn_mask=*/{}, /*dropout_p=*/0.0, /*is_causal=*/true);
    const torch::Tensor future = torch::ones({kSeq, kSeq}, torch::kBool).triu(1);
    const torch::Tensor eager =
        torch::matmul(torch::softmax(eagerScores(in).masked_fill(future, -INFINITY), -1), in.v);
    EXPECT_LE(maxDifference(fused, eager), attentionTolerance(in)) << "LibTorch " << TORCH_VERSION;
    // The mask matters: without it every position but the last sees other values.
    const torch::Tensor unmasked = torch::matmul(torch::softmax(eagerScores(in), -1), in.v);
    EXPECT_GT(maxDifference(fused, unmasked), 100 * attentionTolerance(in));
#else
    GTEST_SKIP() << "LibTorch " << TORCH_VERSION
                 << " has no at::scaled_dot_product_attention (LibTorch 1.13 has none; it came "
                    "with 2.0)";
#endif
}
