#include "engine/attention.h"

#include <cmath>
#include <stdexcept>

#include "engine/chunked_attention.h"
#include "engine/generators.h"

namespace ckptlab::engine {

namespace {

// Hugging Face's repeat_kv: key/value head g serves query heads g·n .. g·n + n − 1, as a copy
// of H heads (what the eager reference materialises and its matmuls save).
torch::Tensor repeatKv(const torch::Tensor& t, std::int64_t heads) {
    const auto kvHeads = t.size(1);
    if (kvHeads == heads) return t;
    const auto batch = t.size(0), seq = t.size(2), headDim = t.size(3);
    return t.unsqueeze(2)
        .expand({batch, kvHeads, heads / kvHeads, seq, headDim})
        .reshape({batch, heads, seq, headDim});
}

// The S x S scores and probabilities made real, as the textbook (and PyTorch's eager reference)
// writes it: autograd keeps the probabilities (and the dropout's mask) for backward.
torch::Tensor eagerAttention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                             const AttentionSpec& spec) {
    const auto heads = q.size(1), seq = q.size(2);
    const auto keys = repeatKv(k, heads), values = repeatKv(v, heads);
    auto scores = torch::matmul(q, keys.transpose(-2, -1)) / std::sqrt(double(q.size(3)));
    if (spec.causal) {
        // As Hugging Face's eager attention: an additive mask of -inf above the diagonal, added
        // in place on the fresh scores (the division's backward needs neither side). An add's
        // backward keeps nothing, so the mask is gone after this line; masked_fill_ would have
        // autograd keep a byte per score in every layer until its backward.
        scores.add_(torch::full({seq, seq}, -INFINITY, scores.options()).triu_(1));
    }
    auto probs = torch::softmax(scores, -1);
    if (spec.dropout > 0 && spec.training) {
        if (!spec.generator)
            throw std::logic_error("attention dropout needs the model's generator");
        probs = engine::dropout(probs, spec.dropout, spec.training, *spec.generator);
    }
    if (spec.keep_scores) *spec.keep_scores = scores;
    return torch::matmul(probs, values);
}

torch::Tensor fusedAttention(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                             const AttentionSpec& spec) {
#ifdef CKPTLAB_HAS_SDPA
    const auto heads = q.size(1);
    return at::scaled_dot_product_attention(q, repeatKv(k, heads), repeatKv(v, heads),
                                            /*attn_mask=*/{}, /*dropout_p=*/0.0, spec.causal);
#else
    // Runner::check refuses sdpa on this LibTorch before any work (SdpaNeedsLibTorch2).
    throw std::logic_error("scaled_dot_product_attention needs LibTorch 2.0 or later");
#endif
}

}  // namespace

torch::Tensor attend(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                     const AttentionSpec& spec) {
    switch (spec.kind) {
    case AttentionKind::MemoryEfficient: return chunkedAttention(q, k, v, spec.chunk, spec.causal);
    case AttentionKind::Sdpa: return fusedAttention(q, k, v, spec);
    case AttentionKind::Eager: break;
    }
    return eagerAttention(q, k, v, spec);
}

}  // namespace ckptlab::engine
