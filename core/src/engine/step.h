#pragma once
// One training step (forward, loss, backward, optional optimizer step) on a workbench that
// holds the model, its input and optimizer; traced under the memory tracker or timed.

#include <torch/torch.h>

#include <memory>
#include <optional>

#include "ckptlab/model/config.h"
#include "ckptlab/model/result.h"
#include "ckptlab/model/strategy.h"
#include "engine/model.h"
#include "engine/step_context.h"

namespace ckptlab::engine {

// The optimizer a config asks for over `parameters` (null for Optimizer::None). One factory
// for the runner's steps and the cost model's, so both measure the same state and step.
std::unique_ptr<torch::optim::Optimizer> makeOptimizer(Optimizer kind,
                                                       std::vector<torch::Tensor> parameters);

struct Workbench {
    Workbench(const ExperimentConfig& config, const torch::Device& device);

    // Puts the initial weights back and starts a fresh optimizer, so every strategy's
    // gradients are taken at the same point.
    void restoreInitialWeights();
    void resetOptimizer();
    void clearGradients();
    // The input's first (none with chain ends: token ids have no gradient), then the
    // parameters' in Model::parameters()' order.
    std::vector<torch::Tensor> gradients() const;

    ExperimentConfig config;
    torch::Device device;
    Model model;
    torch::Tensor input;    // activations, or token ids with chain ends (buildInput)
    torch::Tensor targets;  // with chain ends: the next tokens (buildTargets); else undefined
    std::vector<torch::Tensor> initialWeights;
    std::unique_ptr<torch::optim::Optimizer> optimizer;
};

struct StepTimes {
    double step_ms = 0, forward_ms = 0, backward_ms = 0, recompute_ms = 0, optimizer_ms = 0;
    int recomputed_blocks = 0;
    // CUDA's caching allocator during the step (cuda_allocator_stats.h); empty on CPU.
    std::optional<AllocatorStats> cudaAllocator;
};

// Runs one step. With `context.tracker` set, activation bytes (tracker total when forward
// ends) are written to `activationBytes`. Throws Cancelled when `context.cancel` is set before
// the step starts or at any unit, recompute or optimizer step in it.
StepTimes runStep(Workbench& bench, const Plan& plan, StepContext& context,
                  std::int64_t* activationBytes = nullptr);

}  // namespace ckptlab::engine
