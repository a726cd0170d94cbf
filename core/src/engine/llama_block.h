#pragma once
// The Llama family's decoder layer as Hugging Face's LlamaDecoderLayer computes it: RMSNorm,
// rotary grouped-query causal attention, RMSNorm, the SwiGLU MLP, each with a residual and
// without dropout. Qwen2 is the same layer with biases on q, k and v (ExperimentConfig::qkv_bias).

#include <torch/torch.h>

#include <cstdint>
#include <vector>

#include "ckptlab/model/config.h"
#include "engine/model.h"

namespace ckptlab::engine {

// Hugging Face's LlamaRMSNorm: x / √(mean(x²) + eps) computed in fp32, cast back to x's dtype,
// then times a learnt weight that starts at ones. Shared with the chain's final norm.
class RmsNormImpl : public torch::nn::Module {
public:
    RmsNormImpl(int width, double eps);
    torch::Tensor forward(const torch::Tensor& x);

    torch::Tensor weight;

private:
    double eps_;
};
TORCH_MODULE(RmsNorm);

// Rotary position embeddings (Hugging Face's LlamaRotaryEmbedding, default rope type): for
// each position p and frequency i < headDim/2, the angle p · theta^(−2i/headDim), repeated for
// the two halves of a head. Both tables are (positions, headDim).
struct RotaryTable {
    torch::Tensor cos;
    torch::Tensor sin;
};

// The tables for `positions` (a 1-D tensor on the target device), computed in fp32 and cast to
// `dtype`, as Hugging Face does.
RotaryTable rotaryTable(const torch::Tensor& positions, std::int64_t headDim, double theta,
                        torch::ScalarType dtype);
// (x1, x2) -> (−x2, x1) over the halves of the last dimension.
torch::Tensor rotateHalf(const torch::Tensor& x);
// x · cos + rotateHalf(x) · sin; x is (B, heads, S, headDim), the tables (S, headDim).
torch::Tensor applyRotary(const torch::Tensor& x, const RotaryTable& table);

// Part 0: x + o_proj(attention(rope(q_proj(n)), rope(k_proj(n)), v_proj(n))), n = RMSNorm(x),
// with `heads` query heads and kvHeadsOf(config) key/value heads of headDimOf(config), computed
// by attend() (config.attention). Part 1: x + down(silu(gate(n)) · up(n)), n = a second
// RMSNorm, hidden width ffnWidthOf(config). Parameters are registered part by part, so
// partParameters(0) followed by partParameters(1) is parameters().
//
// The rotary tables of positions 0 .. seq − 1 are buffers of the block, made when it is built
// and moved with it (the cos_cached / sin_cached buffers of Hugging Face's per-layer rotary
// module before 4.38): model state, like the weights, so a step allocates none and every
// forward, recompute and cost-model probe of a block uses the same tensors. Only a longer
// sequence, or a dtype the block is not in (autocast), makes a table for that forward.
class LlamaBlock : public Block {
public:
    explicit LlamaBlock(const ExperimentConfig& config);
    int partCount() const override { return 2; }
    torch::Tensor forwardPart(int part, const torch::Tensor& x) override;
    std::vector<torch::Tensor> partParameters(int part) override;

private:
    RotaryTable rotaryFor(std::int64_t seq, torch::ScalarType dtype, const torch::Device& device);
    torch::Tensor attention(const torch::Tensor& x);
    torch::Tensor mlp(const torch::Tensor& x);

    int heads_;
    int kvHeads_;
    int headDim_;
    double ropeTheta_;
    AttentionKind attentionKind_;
    int attentionChunk_;
    torch::Tensor rotaryCos_;  // (seq, headDim) buffers
    torch::Tensor rotarySin_;
    RmsNorm inputNorm_{nullptr};
    torch::nn::Linear qProj_{nullptr};
    torch::nn::Linear kProj_{nullptr};
    torch::nn::Linear vProj_{nullptr};
    torch::nn::Linear oProj_{nullptr};
    RmsNorm postAttentionNorm_{nullptr};
    torch::nn::Linear gateProj_{nullptr};
    torch::nn::Linear upProj_{nullptr};
    torch::nn::Linear downProj_{nullptr};
};

}  // namespace ckptlab::engine
