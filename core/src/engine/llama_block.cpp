#include "engine/llama_block.h"

#include <stdexcept>
#include <string>

#include "engine/attention.h"

namespace ckptlab::engine {

RmsNormImpl::RmsNormImpl(int width, double eps) : eps_(eps) {
    weight = register_parameter("weight", torch::ones({width}));
}

torch::Tensor RmsNormImpl::forward(const torch::Tensor& x) {
    const torch::Tensor wide = x.to(torch::kFloat32);
    const torch::Tensor variance = wide.pow(2).mean(-1, /*keepdim=*/true);
    return weight * (wide * torch::rsqrt(variance + eps_)).to(x.scalar_type());
}

RotaryTable rotaryTable(const torch::Tensor& positions, std::int64_t headDim, double theta,
                        torch::ScalarType dtype) {
    const auto fp32 = positions.options().dtype(torch::kFloat32);
    const torch::Tensor exponents =
        torch::arange(0, headDim, 2, positions.options().dtype(torch::kInt64)).to(torch::kFloat32) /
        static_cast<double>(headDim);
    const torch::Tensor inverseFrequency = 1.0 / torch::pow(theta, exponents);
    // An elementwise product, not outer(): autocast would run a matmul in bf16.
    const torch::Tensor angles = positions.to(fp32).unsqueeze(1) * inverseFrequency.unsqueeze(0);
    const torch::Tensor both = torch::cat({angles, angles}, -1);
    return {both.cos().to(dtype), both.sin().to(dtype)};
}

torch::Tensor rotateHalf(const torch::Tensor& x) {
    const auto half = x.size(-1) / 2;
    return torch::cat({-x.narrow(-1, half, half), x.narrow(-1, 0, half)}, -1);
}

torch::Tensor applyRotary(const torch::Tensor& x, const RotaryTable& table) {
    return x * table.cos + rotateHalf(x) * table.sin;
}

LlamaBlock::LlamaBlock(const ExperimentConfig& config)
    : heads_(config.heads),
      kvHeads_(kvHeadsOf(config)),
      headDim_(headDimOf(config)),
      ropeTheta_(config.rope_theta),
      attentionKind_(config.attention),
      attentionChunk_(config.attention_chunk) {
    using torch::nn::Linear;
    using torch::nn::LinearOptions;
    const int d = config.width, hidden = ffnWidthOf(config);
    const int queryWidth = heads_ * headDim_, kvWidth = kvHeads_ * headDim_;
    const bool bias = config.qkv_bias;
    inputNorm_ = register_module("input_layernorm", RmsNorm(d, config.rms_norm_eps));
    qProj_ = register_module("q_proj", Linear(LinearOptions(d, queryWidth).bias(bias)));
    kProj_ = register_module("k_proj", Linear(LinearOptions(d, kvWidth).bias(bias)));
    vProj_ = register_module("v_proj", Linear(LinearOptions(d, kvWidth).bias(bias)));
    oProj_ = register_module("o_proj", Linear(LinearOptions(queryWidth, d).bias(false)));
    postAttentionNorm_ =
        register_module("post_attention_layernorm", RmsNorm(d, config.rms_norm_eps));
    gateProj_ = register_module("gate_proj", Linear(LinearOptions(d, hidden).bias(false)));
    upProj_ = register_module("up_proj", Linear(LinearOptions(d, hidden).bias(false)));
    downProj_ = register_module("down_proj", Linear(LinearOptions(hidden, d).bias(false)));
    const RotaryTable table =
        rotaryTable(torch::arange(config.seq), headDim_, ropeTheta_, torch::kFloat32);
    rotaryCos_ = register_buffer("rotary_cos", table.cos);
    rotarySin_ = register_buffer("rotary_sin", table.sin);
}

RotaryTable LlamaBlock::rotaryFor(std::int64_t seq, torch::ScalarType dtype,
                                  const torch::Device& device) {
    if (seq > rotaryCos_.size(0))
        return rotaryTable(torch::arange(seq, torch::TensorOptions().device(device)), headDim_,
                           ropeTheta_, dtype);
    // Hugging Face's .to(x.dtype): a copy only when the block computes in another dtype.
    return {rotaryCos_.narrow(0, 0, seq).to(dtype), rotarySin_.narrow(0, 0, seq).to(dtype)};
}

torch::Tensor LlamaBlock::attention(const torch::Tensor& x) {
    const auto batch = x.size(0), seq = x.size(1);
    const torch::Tensor n = inputNorm_->forward(x);
    // (B, S, heads · Dh) -> (B, heads, S, Dh)
    auto split = [&](const torch::Tensor& t, int heads) {
        return t.view({batch, seq, heads, headDim_}).transpose(1, 2);
    };
    torch::Tensor q = split(qProj_->forward(n), heads_);
    torch::Tensor k = split(kProj_->forward(n), kvHeads_);
    const torch::Tensor v = split(vProj_->forward(n), kvHeads_);
    const RotaryTable rotary = rotaryFor(seq, q.scalar_type(), x.device());
    q = applyRotary(q, rotary);
    k = applyRotary(k, rotary);
    AttentionSpec spec;
    spec.kind = attentionKind_;
    spec.chunk = attentionChunk_;
    spec.causal = true;
    spec.training = is_training();
    const torch::Tensor context =
        attend(q, k, v, spec).transpose(1, 2).reshape({batch, seq, heads_ * headDim_});
    return oProj_->forward(context);
}

torch::Tensor LlamaBlock::mlp(const torch::Tensor& x) {
    const torch::Tensor n = postAttentionNorm_->forward(x);
    return downProj_->forward(torch::silu(gateProj_->forward(n)) * upProj_->forward(n));
}

torch::Tensor LlamaBlock::forwardPart(int part, const torch::Tensor& x) {
    if (part == 0) return x + attention(x);
    if (part == 1) return x + mlp(x);
    throw std::invalid_argument("a llama block has parts 0 and 1 (got " + std::to_string(part) +
                                ")");
}

std::vector<torch::Tensor> LlamaBlock::partParameters(int part) {
    const std::vector<torch::nn::Module*> modules =
        part == 0 ? std::vector<torch::nn::Module*>{inputNorm_.get(), qProj_.get(), kProj_.get(),
                                                    vProj_.get(), oProj_.get()}
                  : std::vector<torch::nn::Module*>{postAttentionNorm_.get(), gateProj_.get(),
                                                    upProj_.get(), downProj_.get()};
    std::vector<torch::Tensor> params;
    for (auto* module : modules)
        for (auto& p : module->parameters()) params.push_back(p);
    return params;
}

}  // namespace ckptlab::engine
