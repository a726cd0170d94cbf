#pragma once
// The models under test: a chain of L blocks, each the seed's FFN block or a pre-LN
// transformer block, built from a seed so every run sees the same weights.

#include <torch/torch.h>

#include <memory>
#include <vector>

#include "ckptlab/model/config.h"

namespace ckptlab::engine {

class TokenEmbedding;  // chain_ends.h
class LmHead;

// A residual block made of one or more sub-blocks ("parts"), each `x + f(x)`. Parts are what
// sub-layer selective checkpointing wraps.
class Block : public torch::nn::Module {
public:
    virtual int partCount() const = 0;
    virtual torch::Tensor forwardPart(int part, const torch::Tensor& x) = 0;
    virtual std::vector<torch::Tensor> partParameters(int part) = 0;
    torch::Tensor forward(torch::Tensor x);
};

// x + Linear(h→d)(ReLU(Linear(d→h)(LayerNorm(x)))), the seed's SimpleTransformerBlock with
// h = ffnWidthOf(config): 4d unless the config sets it.
class FfnBlock : public Block {
public:
    FfnBlock(int width, int hidden);
    int partCount() const override { return 1; }
    torch::Tensor forwardPart(int part, const torch::Tensor& x) override;
    std::vector<torch::Tensor> partParameters(int part) override;

    // The FFN sub-block without the residual; shared with the transformer block.
    torch::Tensor ffn(const torch::Tensor& x);

private:
    torch::nn::LayerNorm norm_{nullptr};
    torch::nn::Linear up_{nullptr};
    torch::nn::Linear down_{nullptr};
};

// Pre-LayerNorm multi-head self-attention computed explicitly (QKᵀ/√d_h, softmax, dropout, ·V,
// output projection) so its S² activations are real, then the FFN; each with a residual.
class TransformerBlock : public Block {
public:
    // Dropout masks are drawn from `dropoutGenerator`, the model's own (generators.h); the
    // attention is computed as `attention` asks (attention.h), `attentionChunk` for
    // memory-efficient.
    TransformerBlock(int width, int heads, int ffnWidth, double dropout,
                     at::Generator dropoutGenerator, AttentionKind attention, int attentionChunk);
    int partCount() const override { return 2; }
    torch::Tensor forwardPart(int part, const torch::Tensor& x) override;
    std::vector<torch::Tensor> partParameters(int part) override;

private:
    torch::Tensor attention(const torch::Tensor& x);

    int heads_;
    double dropout_;
    at::Generator dropoutGenerator_;
    AttentionKind attention_;
    int attentionChunk_;
    torch::nn::LayerNorm norm_{nullptr};
    torch::nn::Linear qkv_{nullptr};
    torch::nn::Linear proj_{nullptr};
    std::shared_ptr<FfnBlock> ffn_;
};

// The chain of blocks, an nn::Module holding them in a ModuleList: parameters(), to() and train()
// are the Module's own. Parameters come block by block, each block's in registration order,
// the order Workbench::gradients() and gradientNames() rely on.
class Model : public torch::nn::Module {
public:
    // Use buildModel.
    Model(const ExperimentConfig& config, const torch::Device& device);

    int depth() const { return static_cast<int>(blocks_->size()); }
    // Sub-blocks per block (1 for an empty chain), the same for every block.
    int partsPerBlock() const { return blocks_->is_empty() ? 1 : block(0).partCount(); }
    Block& block(int index) { return blocks_->at<Block>(static_cast<std::size_t>(index)); }
    const Block& block(int index) const {
        return blocks_->at<Block>(static_cast<std::size_t>(index));
    }
    // What the model's dropout draws from, on its device: the run's own, not LibTorch's
    // process-wide default (generators.h). runStep reseeds it so every strategy sees the same
    // masks; a checkpoint saves and restores it around its recompute.
    at::Generator& generator() { return generator_; }

    // The chain's ends (chain_ends.h), present when hasChainEnds(config): the token embedding
    // in front of the blocks, the final norm, LM head and loss after them.
    bool hasEnds() const { return embedding_ != nullptr; }
    TokenEmbedding& embedding() { return *embedding_; }
    const TokenEmbedding& embedding() const { return *embedding_; }
    LmHead& head() { return *head_; }
    const LmHead& head() const { return *head_; }
    // Their own parameters, in Model::parameters()' order (embedding, blocks, head): the
    // embedding's weight; the final norm's weight and, untied, the LM head's projection.
    std::vector<torch::Tensor> embeddingParameters() const;
    std::vector<torch::Tensor> headParameters() const;

private:
    at::Generator generator_;
    std::shared_ptr<TokenEmbedding> embedding_;
    torch::nn::ModuleList blocks_{nullptr};
    std::shared_ptr<LmHead> head_;
};

// The dtype the parameters, the input and the tensors between blocks are stored in: bf16 for
// bf16; fp32 for fp32 and for mixed-bf16, whose fp32 master weights autocast casts to bf16
// inside the blocks (precision.h).
torch::ScalarType scalarType(DType dtype);

// Weights and input drawn from `config.seed` (from generators of their own), placed on
// `device` in `config.dtype`; the model in training mode.
Model buildModel(const ExperimentConfig& config, const torch::Device& device);
// Without chain ends: random activations (B, S, width) that need a gradient. With them: token
// ids (B, S) int64 in [0, vocab), drawn from a generator of their own.
torch::Tensor buildInput(const ExperimentConfig& config, const torch::Device& device);
// The next token of each position, the last wrapping to its sequence's first (so every
// position has a target and loss chunks are equal); undefined without chain ends.
torch::Tensor buildTargets(const ExperimentConfig& config, const torch::Tensor& tokens);

}  // namespace ckptlab::engine
