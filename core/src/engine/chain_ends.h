#pragma once
// The chain's two ends (ExperimentConfig::vocab > 0): a token embedding in front of the blocks,
// and at the end the final RMSNorm, the LM head and the cross-entropy over the next tokens, as
// a Llama-family causal language model has them. Without them the chain is the tutorial's:
// random activations in, the output's sum as the loss.

#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "ckptlab/model/config.h"
#include "engine/checkpoint.h"
#include "engine/llama_block.h"

namespace ckptlab::engine {

// vocab x width rows, looked up by token id: (B, S) int64 -> (B, S, width). Initialised
// N(0, 1) as nn::Embedding is, from a generator of its own seeded with `seed`, so the blocks'
// weights do not depend on whether the chain has ends.
class TokenEmbedding : public torch::nn::Module {
public:
    TokenEmbedding(int vocab, int width, std::uint64_t seed);
    torch::Tensor forward(const torch::Tensor& tokens);

    torch::Tensor weight;
};

// The final RMSNorm ("norm"), the LM head (width -> vocab, no bias: "proj", or the embedding's
// weight when tied) and the mean cross-entropy over every token.
class LmHead : public torch::nn::Module {
public:
    // `tiedTo` null: a projection of its own; otherwise the head uses that embedding's weight.
    LmHead(const ExperimentConfig& config, std::shared_ptr<TokenEmbedding> tiedTo);

    int chunks() const { return chunks_; }
    bool tied() const { return tiedTo_ != nullptr; }
    // The (vocab, width) matrix the logits are taken with.
    torch::Tensor projection() const;
    // What the head differentiates: the norm's weight, then projection().
    std::vector<torch::Tensor> weights() const;

    // proj(norm(hidden)): (..., width) -> (..., vocab).
    torch::Tensor logits(const torch::Tensor& hidden);
    // The summed cross-entropy of one piece of the sequence against its targets; no checkpoint.
    torch::Tensor lossSum(const torch::Tensor& hidden, const torch::Tensor& targets);
    // The mean cross-entropy over all B x S tokens. With chunks() > 1 the sequence is cut into
    // that many chunks and each one's head and loss runs inside a checkpoint (checkpoint.h,
    // with `options`): its logits are freed after its forward and recomputed in its backward,
    // so the whole logits never exist at once. With options.context set, the head's work is
    // labelled kHeadBlock (forward, and recompute inside the chunks' backward).
    torch::Tensor loss(const torch::Tensor& hidden, const torch::Tensor& targets,
                       const CheckpointOptions& options = {});

private:
    int chunks_;
    RmsNorm norm_{nullptr};
    torch::nn::Linear proj_{nullptr};
    std::shared_ptr<TokenEmbedding> tiedTo_;  // not registered: its weight is the embedding's
};

}  // namespace ckptlab::engine
