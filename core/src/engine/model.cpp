#include "engine/model.h"

#include <cmath>
#include <stdexcept>

#include "engine/attention.h"
#include "engine/chain_ends.h"
#include "engine/generators.h"
#include "engine/llama_block.h"

namespace ckptlab::engine {

torch::Tensor Block::forward(torch::Tensor x) {
    for (int part = 0; part < partCount(); ++part) x = forwardPart(part, x);
    return x;
}

FfnBlock::FfnBlock(int width, int hidden) {
    norm_ = register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({width})));
    up_ = register_module("up", torch::nn::Linear(width, hidden));
    down_ = register_module("down", torch::nn::Linear(hidden, width));
}

torch::Tensor FfnBlock::ffn(const torch::Tensor& x) {
    return down_->forward(torch::relu(up_->forward(norm_->forward(x))));
}

torch::Tensor FfnBlock::forwardPart(int /*part*/, const torch::Tensor& x) { return x + ffn(x); }

std::vector<torch::Tensor> FfnBlock::partParameters(int /*part*/) { return parameters(); }

TransformerBlock::TransformerBlock(int width, int heads, int ffnWidth, double dropout,
                                   at::Generator dropoutGenerator, AttentionKind attention,
                                   int attentionChunk)
    : heads_(heads),
      dropout_(dropout),
      dropoutGenerator_(std::move(dropoutGenerator)),
      attention_(attention),
      attentionChunk_(attentionChunk) {
    norm_ = register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({width})));
    qkv_ = register_module("qkv", torch::nn::Linear(width, 3 * width));
    proj_ = register_module("proj", torch::nn::Linear(width, width));
    ffn_ = register_module("ffn", std::make_shared<FfnBlock>(width, ffnWidth));
}

torch::Tensor TransformerBlock::attention(const torch::Tensor& x) {
    const auto batch = x.size(0), seq = x.size(1), width = x.size(2);
    const auto headDim = width / heads_;
    // (B, S, 3, H, Dh) -> (3, B, H, S, Dh)
    auto qkv = qkv_->forward(norm_->forward(x)).view({batch, seq, 3, heads_, headDim});
    qkv = qkv.permute({2, 0, 3, 1, 4});
    // Held until the projection's output exists, as in the PyTorch peer (tests/side_by_side).
    torch::Tensor scores;
    AttentionSpec spec;
    spec.keep_scores = &scores;
    spec.kind = attention_;
    spec.chunk = attentionChunk_;
    spec.dropout = dropout_;
    spec.training = is_training();
    spec.generator = &dropoutGenerator_;
    auto context =
        attend(qkv[0], qkv[1], qkv[2], spec).transpose(1, 2).reshape({batch, seq, width});
    return proj_->forward(context);
}

torch::Tensor TransformerBlock::forwardPart(int part, const torch::Tensor& x) {
    return part == 0 ? x + attention(x) : x + ffn_->ffn(x);
}

std::vector<torch::Tensor> TransformerBlock::partParameters(int part) {
    if (part == 1) return ffn_->parameters();
    std::vector<torch::Tensor> params;
    for (auto* module :
         {static_cast<torch::nn::Module*>(norm_.get()), static_cast<torch::nn::Module*>(qkv_.get()),
          static_cast<torch::nn::Module*>(proj_.get())}) {
        for (auto& p : module->parameters()) params.push_back(p);
    }
    return params;
}

torch::ScalarType scalarType(DType dtype) {
    return dtype == DType::BFloat16 ? torch::kBFloat16 : torch::kFloat32;
}

namespace {

// nn::Linear draws its default initialisation from LibTorch's process-wide generator, which
// another thread may be seeding or drawing from at the same time: draw every Linear again, in
// construction order and with the same distributions (kaiming_uniform_ with a = √5 for the
// weight, U(±1/√fan_in) for the bias, bounds computed as LinearImpl::reset_parameters does),
// from `generator`. LayerNorm's ones and zeros need no generator.
void initializeLinearLayers(torch::nn::Module& model, at::Generator& generator) {
    torch::NoGradGuard noGrad;
    for (const auto& module : model.modules(/*include_self=*/false)) {
        auto* linear = module->as<torch::nn::Linear>();
        if (!linear) continue;
        const auto fanIn = linear->weight.size(1);
        const double gain = torch::nn::init::calculate_gain(torch::kLeakyReLU, std::sqrt(5));
        const double weightBound = std::sqrt(3.0) * (gain / std::sqrt(fanIn));
        linear->weight.uniform_(-weightBound, weightBound, generator);
        if (linear->bias.defined()) {
            const double biasBound = 1 / std::sqrt(fanIn);
            linear->bias.uniform_(-biasBound, biasBound, generator);
        }
    }
}

// Each kind's module; a new kind without one fails the build here (-Werror=switch).
std::shared_ptr<Block> makeBlock(const ExperimentConfig& config, at::Generator& generator) {
    switch (config.block) {
    case BlockKind::Ffn: return std::make_shared<FfnBlock>(config.width, ffnWidthOf(config));
    case BlockKind::Transformer:
        return std::make_shared<TransformerBlock>(config.width, config.heads, ffnWidthOf(config),
                                                  config.dropout, generator, config.attention,
                                                  config.attention_chunk);
    case BlockKind::Llama: return std::make_shared<LlamaBlock>(config);
    }
    throw std::logic_error("no module for block kind " + toString(config.block));
}

}  // namespace

Model::Model(const ExperimentConfig& config, const torch::Device& device)
    : generator_(makeGenerator(device, config.seed + 1)) {
    // Registered first, so Model::parameters() starts with it; drawn from its own generator.
    if (hasChainEnds(config)) {
        embedding_ = register_module("embedding", std::make_shared<TokenEmbedding>(
                                                      config.vocab, config.width, config.seed + 3));
    }
    blocks_ = register_module("blocks", torch::nn::ModuleList());
    for (int i = 0; i < config.depth; ++i) {
        blocks_->push_back(makeBlock(config, generator_));
    }
    // After the blocks: its projection is drawn after theirs, leaving their weights as they are.
    if (hasChainEnds(config)) {
        head_ = register_module(
            "head", std::make_shared<LmHead>(config, config.tie_embeddings ? embedding_ : nullptr));
    }
    at::Generator weights = makeGenerator(torch::kCPU, config.seed);
    initializeLinearLayers(*this, weights);
    to(device, scalarType(config.dtype));
    train();
}

std::vector<torch::Tensor> Model::embeddingParameters() const {
    return embedding_ ? embedding_->parameters() : std::vector<torch::Tensor>{};
}

std::vector<torch::Tensor> Model::headParameters() const {
    return head_ ? head_->parameters() : std::vector<torch::Tensor>{};
}

Model buildModel(const ExperimentConfig& config, const torch::Device& device) {
    return Model(config, device);  // not copied: returned in place
}

torch::Tensor buildInput(const ExperimentConfig& config, const torch::Device& device) {
    if (hasChainEnds(config)) {
        at::Generator tokens = makeGenerator(torch::kCPU, config.seed + 0x5eed);
        return at::randint(config.vocab, {config.batch, config.seq}, tokens,
                           torch::TensorOptions().dtype(torch::kInt64))
            .to(device);
    }
    // Drawn after the weights, from a generator of its own, so depth does not change the input.
    auto generator = at::detail::createCPUGenerator(config.seed + 0x5eed);
    auto input = at::randn({config.batch, config.seq, config.width}, generator,
                           torch::TensorOptions().dtype(torch::kFloat32));
    return input.to(device, scalarType(config.dtype)).set_requires_grad(true);
}

torch::Tensor buildTargets(const ExperimentConfig& config, const torch::Tensor& tokens) {
    if (!hasChainEnds(config)) return {};
    // Position s predicts token s + 1; the last position wraps to the sequence's first token
    // rather than being dropped, so all B x S logits count and chunks cut evenly.
    return tokens.roll(-1, 1).contiguous();
}

}  // namespace ckptlab::engine
