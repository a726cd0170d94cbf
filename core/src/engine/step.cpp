#include "engine/step.h"

#include <torch/cuda.h>

#include <chrono>

#include "engine/executor.h"

namespace ckptlab::engine {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

Workbench::Workbench(const ExperimentConfig& cfg, const torch::Device& dev)
    : config(cfg), device(dev), model(buildModel(cfg, dev)), input(buildInput(cfg, dev)) {
    torch::NoGradGuard noGrad;
    for (const auto& p : model.parameters()) initialWeights.push_back(p.detach().clone());
    resetOptimizer();
}

void Workbench::restoreInitialWeights() {
    torch::NoGradGuard noGrad;
    auto params = model.parameters();
    for (std::size_t i = 0; i < params.size(); ++i) params[i].copy_(initialWeights[i]);
}

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(Optimizer kind,
                                                       std::vector<torch::Tensor> parameters) {
    switch (kind) {
    case Optimizer::Sgd:
        return std::make_unique<torch::optim::SGD>(parameters, torch::optim::SGDOptions(1e-3));
    case Optimizer::Adam:
        return std::make_unique<torch::optim::Adam>(parameters, torch::optim::AdamOptions(1e-3));
    case Optimizer::None: break;
    }
    return nullptr;
}

void Workbench::resetOptimizer() {
    optimizer.reset();
    optimizer = makeOptimizer(config.optimizer, model.parameters());
}

void Workbench::clearGradients() {
    // Set to none rather than zeroed, so a step allocates its gradients and the tracker sees it.
    input.mutable_grad().reset();
    for (auto& p : model.parameters()) p.mutable_grad().reset();
}

std::vector<torch::Tensor> Workbench::gradients() const {
    std::vector<torch::Tensor> grads{input.grad()};
    for (const auto& p : model.parameters()) grads.push_back(p.grad());
    return grads;
}

StepTimes runStep(Workbench& bench, const Plan& plan, StepContext& context,
                  std::int64_t* activationBytes) {
    const bool cuda = bench.device.is_cuda();
    auto sync = [&] {
        if (cuda) torch::cuda::synchronize();
    };
    // The tutorial's protocol adds this step's gradients into the previous step's.
    if (!context.keepGradients) bench.clearGradients();
    // The same dropout masks for every strategy, so their gradients can be compared.
    torch::manual_seed(bench.config.seed + 1);
    context.syncCuda = cuda;
    context.recomputeMs = 0;
    context.recomputedUnits = 0;
    sync();

    StepTimes times;
    const auto start = Clock::now();
    Executor executor(bench.model, plan, context);
    torch::Tensor output = executor.forward(bench.input);
    sync();
    times.forward_ms = msSince(start);
    if (activationBytes && context.tracker) *activationBytes = context.tracker->total();

    const auto backwardStart = Clock::now();
    context.label(Phase::Loss);
    torch::Tensor loss = output.sum();
    loss.backward();
    sync();
    times.backward_ms = msSince(backwardStart);

    if (bench.optimizer) {
        context.throwIfCancelled();
        const auto optimizerStart = Clock::now();
        context.label(Phase::Optimizer);
        bench.optimizer->step();
        sync();
        times.optimizer_ms = msSince(optimizerStart);
    }
    context.label(Phase::Idle);
    // Free the step's last tensors while still traced, so every activation's end is seen.
    loss.reset();
    output.reset();
    times.step_ms = msSince(start);
    times.recompute_ms = context.recomputeMs;
    times.recomputed_blocks = context.recomputedUnits / bench.model.partsPerBlock();
    return times;
}

}  // namespace ckptlab::engine
