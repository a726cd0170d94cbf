#include "engine/model.h"

#include <cmath>

#include "engine/generators.h"

namespace ckptlab::engine {

torch::Tensor Block::forward(torch::Tensor x) {
    for (int part = 0; part < partCount(); ++part) x = forwardPart(part, x);
    return x;
}

FfnBlock::FfnBlock(int width) {
    norm_ = register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({width})));
    up_ = register_module("up", torch::nn::Linear(width, 4 * width));
    down_ = register_module("down", torch::nn::Linear(4 * width, width));
}

torch::Tensor FfnBlock::ffn(const torch::Tensor& x) {
    return down_->forward(torch::relu(up_->forward(norm_->forward(x))));
}

torch::Tensor FfnBlock::forwardPart(int /*part*/, const torch::Tensor& x) { return x + ffn(x); }

std::vector<torch::Tensor> FfnBlock::partParameters(int /*part*/) { return parameters(); }

TransformerBlock::TransformerBlock(int width, int heads, double dropout,
                                   at::Generator dropoutGenerator)
    : heads_(heads), dropout_(dropout), dropoutGenerator_(std::move(dropoutGenerator)) {
    norm_ = register_module("norm", torch::nn::LayerNorm(torch::nn::LayerNormOptions({width})));
    qkv_ = register_module("qkv", torch::nn::Linear(width, 3 * width));
    proj_ = register_module("proj", torch::nn::Linear(width, width));
    ffn_ = register_module("ffn", std::make_shared<FfnBlock>(width));
}

torch::Tensor TransformerBlock::attention(const torch::Tensor& x) {
    const auto batch = x.size(0), seq = x.size(1), width = x.size(2);
    const auto headDim = width / heads_;
    // (B, S, 3, H, Dh) -> (3, B, H, S, Dh)
    auto qkv = qkv_->forward(norm_->forward(x)).view({batch, seq, 3, heads_, headDim});
    qkv = qkv.permute({2, 0, 3, 1, 4});
    auto q = qkv[0], k = qkv[1], v = qkv[2];
    auto scores = torch::matmul(q, k.transpose(-2, -1)) / std::sqrt(static_cast<double>(headDim));
    auto probs =
        engine::dropout(torch::softmax(scores, -1), dropout_, is_training(), dropoutGenerator_);
    auto context = torch::matmul(probs, v).transpose(1, 2).reshape({batch, seq, width});
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
    return dtype == DType::Float32 ? torch::kFloat32 : torch::kBFloat16;
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

}  // namespace

Model::Model(const ExperimentConfig& config, const torch::Device& device)
    : generator_(makeGenerator(device, config.seed + 1)) {
    blocks_ = register_module("blocks", torch::nn::ModuleList());
    for (int i = 0; i < config.depth; ++i) {
        std::shared_ptr<Block> block;
        if (config.block == BlockKind::Ffn)
            block = std::make_shared<FfnBlock>(config.width);
        else
            block = std::make_shared<TransformerBlock>(config.width, config.heads, config.dropout,
                                                       generator_);
        blocks_->push_back(block);
    }
    at::Generator weights = makeGenerator(torch::kCPU, config.seed);
    initializeLinearLayers(*this, weights);
    to(device, scalarType(config.dtype));
    train();
}

Model buildModel(const ExperimentConfig& config, const torch::Device& device) {
    return Model(config, device);  // not copied: returned in place
}

torch::Tensor buildInput(const ExperimentConfig& config, const torch::Device& device) {
    // Drawn after the weights, from a generator of its own, so depth does not change the input.
    auto generator = at::detail::createCPUGenerator(config.seed + 0x5eed);
    auto input = at::randn({config.batch, config.seq, config.width}, generator,
                           torch::TensorOptions().dtype(torch::kFloat32));
    return input.to(device, scalarType(config.dtype)).set_requires_grad(true);
}

}  // namespace ckptlab::engine
