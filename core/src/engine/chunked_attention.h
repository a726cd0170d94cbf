#pragma once
// Memory-efficient attention: FlashAttention's algorithm on the CPU, as an autograd Function of
// our own. It never holds more than one chunk pair of scores, forward or backward.

#include <torch/torch.h>

namespace ckptlab::engine {

// softmax(q kᵀ / √d_h) v over `chunk` queries by `chunk` keys at a time. q: (B, H, S, Dh); k and
// v: (B, Hkv, S, Dh) with H a multiple of Hkv (query head h reads key/value head h / (H / Hkv)).
// Saves only q, k, v, the output and each row's log-sum-exp for backward.
torch::Tensor chunkedAttention(const torch::Tensor& q, const torch::Tensor& k,
                               const torch::Tensor& v, int chunk, bool causal);

}  // namespace ckptlab::engine
