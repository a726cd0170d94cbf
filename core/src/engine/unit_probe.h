#pragma once
// Measures one unit of the chain (a block's part, the embedding or the LM head with its loss)
// on its own: the allocator's view of its forward with and without grad, its backward and its
// optimizer step, and their times (UnitProbe); the cost model is made of these
// (cost_measure.cpp).

#include <torch/torch.h>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/planning/cost_model.h"
#include "engine/generators.h"
#include "engine/model.h"
#include "engine/precision.h"
#include "engine/step.h"

namespace ckptlab::engine {

// Every probe's loop looks at the flag once per step it takes (a forward and its backward).
void throwIfCancelled(const std::atomic<bool>* cancel);

// Inputs and output gradients of the measurement, from a generator of its own (generators.h).
constexpr std::uint64_t kProbeSeedOffset = 2;

// Hidden states (B, S, d) in the config's stored dtype, drawn in turn from the probes' own
// generator: every probe starts it afresh, so each sees the same input and output gradient.
class HiddenDraws {
public:
    HiddenDraws(const ExperimentConfig& config, const torch::Device& device)
        : shape_{config.batch, config.seq, config.width},
          options_(torch::TensorOptions().dtype(engine::scalarType(config.dtype)).device(device)),
          generator_(engine::makeGenerator(device, config.seed + kProbeSeedOffset)) {}
    torch::Tensor next() { return engine::randn(shape_, generator_, options_); }

private:
    std::vector<std::int64_t> shape_;
    torch::TensorOptions options_;
    at::Generator generator_;
};

// What a probe measures: one unit of the chain (a block's part), or one of the chain's ends.
struct ProbeTarget {
    std::function<torch::Tensor(const torch::Tensor&)> forward;  // runs it on its argument
    // Its input: a unit's activations and the head's hidden states need a gradient; the
    // embedding's token ids have none.
    torch::Tensor input;
    // The gradient its output receives; undefined when the output is the loss, whose backward
    // starts from a gradient of ones created by the backward.
    torch::Tensor gradOut;
    std::vector<torch::Tensor> params;      // its own: the optimizer's, the baseline's
    std::vector<torch::Tensor> gradParams;  // whose gradients its backward makes
    // Gradients that exist before its backward (the embedding's tied weight: the head made it),
    // into which it adds in place.
    std::vector<torch::Tensor> presetGrads;
};

// One block's part: its input and its output's gradient drawn from the probe's generator.
ProbeTarget partTarget(engine::Block& block, int part, const ExperimentConfig& config,
                       const torch::Device& device);
// The token embedding: the step's token ids in, its output's gradient drawn like a unit's.
// With tied embeddings the head's backward has made the shared weight's gradient before the
// embedding's backward runs, which then adds into it.
ProbeTarget embeddingTarget(engine::Model& model, const torch::Tensor& tokens,
                            const ExperimentConfig& config, const torch::Device& device);
// The final norm, LM head and loss (in its chunks) on hidden states drawn like a unit's input.
ProbeTarget headTarget(engine::Model& model, const torch::Tensor& targets,
                       const ExperimentConfig& config, const torch::Device& device);

class UnitProbe {
public:
    UnitProbe(ProbeTarget target, const ExperimentConfig& config, const torch::Device& device)
        : target_(std::move(target)),
          device_(device),
          autocast_(engine::AutocastState::forStep(config.dtype, device)) {
        optimizer_ = engine::makeOptimizer(config.optimizer, target_.params);
    }

    void clearGrads();

    void sync() const;

    // The forward as the step runs it: under autocast with mixed-bf16 (precision.h).
    torch::Tensor forward() { return forwardOn(target_.input); }
    torch::Tensor forwardOn(const torch::Tensor& input);

    // Whether a forward with grad keeps its input alive. The probe's input is a leaf, which
    // autograd holds anyway, so this runs on a copy that is not one, as a unit's input inside
    // the chain (the previous unit's output), and sees whether dropping the last outside
    // reference frees it.
    bool keepsInput();

    // The backward from `y`: the output's gradient, or for the loss a gradient of ones, as
    // loss.backward() creates; that one lives until the caller lets it go, as the step's
    // lives until its whole backward ends.
    void backward(const torch::Tensor& y);

    UnitCost measureMemory();

    // The backward of a layer unit at the top of a chain without a head: from the sum loss's
    // gradient, one value expanded to the output's shape (cost_model.h). Made before the
    // trace, as the step's loss and its gradient are not counted either.
    SumLossBackward measureSumLossBackward();

    // Times of one block, interleaved so that every kind sees the same machine: a forward
    // without grad, a forward with grad and its backward right after (a recomputed block's
    // case: its activations are still in the caches, its memory reused), and an optimizer
    // step. A kept block's backward is measured on a chain: measureKeptRatio in cost_measure.cpp.
    void measureTimes(UnitCost& c, int warmup, int repeats, const std::atomic<bool>* cancel);

private:
    // A tied weight's two gradients, the head's and the embedding's, meet in the step's
    // autograd engine, which may add them into a new tensor (PyTorch's does: an aten::add of
    // two vocab x width tensors in the embedding's backward; engineSumsTiedGradients) once the
    // embedding's backward has run and released the gradient it received. The probe's preset
    // gradient takes the embedding's in place instead, so the sum's moment is added here: a
    // weight's gradient more, less the received gradient already gone.
    std::int64_t tiedSumBytes(const UnitCost& c) const;

    // Every weight its forward reads: its own and those whose gradients it makes (the head's
    // tied weight is the embedding's parameter but the head's to cast).
    std::vector<torch::Tensor> weights() const;

    bool isPreset(const torch::Tensor& p) const;

    ProbeTarget target_;
    torch::Device device_;
    std::optional<engine::AutocastState> autocast_;
    torch::Tensor lossGrad_;
    std::unique_ptr<torch::optim::Optimizer> optimizer_;
};

}  // namespace ckptlab::engine
