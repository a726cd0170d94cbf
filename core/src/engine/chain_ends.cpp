#include "engine/chain_ends.h"

#include <algorithm>

#include "engine/generators.h"
#include "engine/step_context.h"

namespace ckptlab::engine {
namespace {

void labelHead(StepContext* context) {
    if (!context) return;
    context->throwIfCancelled();
    context->label(context->forwardPhase(), kHeadBlock);
}

}  // namespace

TokenEmbedding::TokenEmbedding(int vocab, int width, std::uint64_t seed) {
    weight = register_parameter("weight", torch::empty({vocab, width}));
    torch::NoGradGuard noGrad;
    at::Generator generator = makeGenerator(torch::kCPU, seed);
    weight.normal_(0, 1, generator);
}

torch::Tensor TokenEmbedding::forward(const torch::Tensor& tokens) {
    return torch::embedding(weight, tokens);
}

LmHead::LmHead(const ExperimentConfig& config, std::shared_ptr<TokenEmbedding> tiedTo)
    : chunks_(std::max(1, config.loss_chunks)), tiedTo_(std::move(tiedTo)) {
    norm_ = register_module("norm", RmsNorm(config.width, config.rms_norm_eps));
    if (!tiedTo_) {
        proj_ = register_module(
            "proj",
            torch::nn::Linear(torch::nn::LinearOptions(config.width, config.vocab).bias(false)));
    }
}

torch::Tensor LmHead::projection() const { return tiedTo_ ? tiedTo_->weight : proj_->weight; }

std::vector<torch::Tensor> LmHead::weights() const { return {norm_->weight, projection()}; }

torch::Tensor LmHead::logits(const torch::Tensor& hidden) {
    return torch::linear(norm_->forward(hidden), projection());
}

torch::Tensor LmHead::lossSum(const torch::Tensor& hidden, const torch::Tensor& targets) {
    const torch::Tensor scores = logits(hidden);
    // A view of the logits, not a copy: linear's output is contiguous. The targets of a chunk
    // are a strided slice; reshape copies those few ids.
    return torch::nn::functional::cross_entropy(
        scores.view({-1, scores.size(-1)}), targets.reshape({-1}),
        torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum));
}

torch::Tensor LmHead::loss(const torch::Tensor& hidden, const torch::Tensor& targets,
                           const CheckpointOptions& options) {
    TORCH_CHECK(targets.defined() && targets.dim() == 2 && hidden.dim() == 3 &&
                    targets.size(0) == hidden.size(0) && targets.size(1) == hidden.size(1),
                "LM head: targets of shape ", targets.sizes(), " for hidden states of shape ",
                hidden.sizes());
    StepContext* context = options.context;
    // Summed, then divided by every token of the batch: the chunks' parts add up to the mean.
    const double tokens = static_cast<double>(targets.numel());
    const std::int64_t seq = hidden.size(1);
    const std::int64_t pieces = std::min<std::int64_t>(chunks_, seq);
    labelHead(context);
    if (pieces <= 1) return lossSum(hidden, targets) / tokens;
    torch::Tensor total;
    for (std::int64_t c = 0; c < pieces; ++c) {
        const std::int64_t begin = seq * c / pieces, end = seq * (c + 1) / pieces;
        const torch::Tensor chunkTargets = targets.narrow(1, begin, end - begin);
        const SegmentFn body = [this, chunkTargets, context, tokens](const torch::Tensor& in) {
            labelHead(context);
            return lossSum(in, chunkTargets) / tokens;
        };
        const torch::Tensor part =
            checkpoint(body, hidden.narrow(1, begin, end - begin), weights(), options);
        total = total.defined() ? total + part : part;
    }
    return total;
}

}  // namespace ckptlab::engine
