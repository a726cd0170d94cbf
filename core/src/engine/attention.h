#pragma once
// Attention itself, shared by the transformer and Llama blocks: softmax(q kᵀ / √d_h) v, computed
// the way ExperimentConfig::attention asks (eager, memory-efficient or LibTorch's sdpa).

#include <torch/torch.h>

#include "ckptlab/model/config.h"

namespace ckptlab::engine {

struct AttentionSpec {
    AttentionKind kind = AttentionKind::Eager;
    int chunk = 128;       // memory-efficient: queries and keys per chunk
    bool causal = false;   // each query sees only keys at its position and before
    double dropout = 0;    // on the probabilities; eager only (validate refuses the others)
    bool training = true;  // dropout applies only in training
    at::Generator* generator = nullptr;  // dropout's masks, the model's own (generators.h)
    // Eager: when set, receives the scaled (and masked) scores, so that the caller holds them as
    // long as the reference it mirrors does (the transformer's PyTorch peer keeps its `scores`
    // through the output projection). Null: they are freed when attend returns.
    torch::Tensor* keep_scores = nullptr;
};

// q: (B, H, S, Dh); k and v: (B, Hkv, S, Dh) with H a multiple of Hkv (grouped-query attention:
// query head h reads key/value head h / (H / Hkv)). Returns (B, H, S, Dh).
torch::Tensor attend(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                     const AttentionSpec& spec);

}  // namespace ckptlab::engine
