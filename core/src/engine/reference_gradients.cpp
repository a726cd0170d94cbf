#include "engine/reference_gradients.h"

#include <algorithm>
#include <new>
#include <string>

#include "ckptlab/planning/planner.h"
#include "engine/caching_cpu_allocator.h"
#include "engine/chain_ends.h"
#include "engine/generators.h"
#include "engine/grad_check.h"
#include "engine/memory_tracker.h"
#include "engine/precision.h"
#include "engine/step_context.h"

namespace ckptlab::engine {
namespace {

void throwIfCancelled(const std::atomic<bool>* cancel) {
    if (cancel && cancel->load(std::memory_order_relaxed)) throw Cancelled();
}

// The LM head's and loss's backward with plain autograd, one loss chunk at a time, the last
// first as the step's backward visits them: accumulates into the head's weights' gradients and
// returns the gradient of the hidden states.
torch::Tensor headBackward(LmHead& head, const torch::Tensor& hidden, const torch::Tensor& targets,
                           const std::atomic<bool>* cancel) {
    torch::AutoGradMode enableGrad(true);
    const double tokens = static_cast<double>(targets.numel());
    const std::int64_t seq = hidden.size(1);
    const std::int64_t pieces = std::min<std::int64_t>(head.chunks(), seq);
    torch::Tensor grad = torch::empty_like(hidden);
    for (std::int64_t c = pieces - 1; c >= 0; --c) {
        throwIfCancelled(cancel);
        const std::int64_t begin = seq * c / pieces, length = seq * (c + 1) / pieces - begin;
        torch::Tensor in = hidden.narrow(1, begin, length).detach().requires_grad_(true);
        torch::Tensor loss = head.lossSum(in, targets.narrow(1, begin, length)) / tokens;
        loss.backward();
        grad.narrow(1, begin, length).copy_(in.grad());
    }
    return grad;
}

}  // namespace

std::vector<torch::Tensor> unitByUnitReferenceGradients(Workbench& bench,
                                                        const std::atomic<bool>* cancel) {
    bench.clearGradients();
    const int parts = bench.model.partsPerBlock();
    const int units = bench.model.depth() * parts;
    // mixed-bf16: each unit's forward under autocast as in runStep, its backward outside it.
    const std::optional<AutocastState> autocast =
        AutocastState::forStep(bench.config.dtype, bench.device);
    auto runUnit = [&](int u, const torch::Tensor& x) {
        const AutocastScope scope(autocast);
        return bench.model.block(u / parts).forwardPart(u % parts, x);
    };

    // The same dropout masks as runStep: the model's generator, same seed, units consumed in
    // the same order.
    at::Generator& generator = bench.model.generator();
    reseed(generator, bench.config.seed + 1);
    std::vector<torch::Tensor> inputs;
    std::vector<at::Tensor> rng;
    const bool ends = bench.model.hasEnds();
    torch::Tensor x = bench.input.detach();
    {
        torch::NoGradGuard noGrad;
        if (ends) x = bench.model.embedding().forward(bench.input);
        for (int u = 0; u < units; ++u) {
            throwIfCancelled(cancel);
            inputs.push_back(x);
            rng.push_back(generatorState(generator));
            x = runUnit(u, x);
        }
    }
    // Without chain ends loss = output.sum(), so the output's gradient is all ones.
    torch::Tensor grad =
        ends ? headBackward(bench.model.head(), x, bench.targets, cancel) : torch::ones_like(x);
    x = torch::Tensor();
    const at::Tensor after = generatorState(generator);
    for (int u = units - 1; u >= 0; --u) {
        throwIfCancelled(cancel);
        setGeneratorState(generator, rng[static_cast<std::size_t>(u)]);
        torch::Tensor in = inputs[static_cast<std::size_t>(u)].detach().requires_grad_(true);
        inputs[static_cast<std::size_t>(u)] = torch::Tensor();
        torch::AutoGradMode enableGrad(true);
        torch::Tensor out = runUnit(u, in);
        out.backward(grad);  // accumulates into this unit's parameters' .grad
        grad = in.grad();
    }
    setGeneratorState(generator, after);
    if (ends) {
        torch::AutoGradMode enableGrad(true);
        bench.model.embedding().forward(bench.input).backward(grad);
    } else if (bench.input.requires_grad()) {
        bench.input.mutable_grad() = grad;
    }
    return bench.gradients();
}

bool isOutOfMemory(const std::exception& error) {
    if (dynamic_cast<const OutOfMemoryError*>(&error) ||
        dynamic_cast<const std::bad_alloc*>(&error))
        return true;
    const std::string text = error.what();
    // c10's CPU allocator: "DefaultCPUAllocator: not enough memory" or "can't allocate
    // memory" (posix_memalign failed); CUDA: "CUDA out of memory".
    return text.find("not enough memory") != std::string::npos ||
           text.find("can't allocate memory") != std::string::npos ||
           text.find("out of memory") != std::string::npos;
}

std::vector<torch::Tensor> referenceGradients(Workbench& bench, const std::atomic<bool>* cancel,
                                              std::vector<std::string>& notes) {
    StepContext context;
    context.cancel = cancel;
    std::vector<torch::Tensor> reference;
    try {
        runStep(bench, makePlan(Strategy{}, bench.config.depth), context);
        const SystemAllocatorScope labCopy;  // not the training's memory
        reference = snapshot(bench.gradients());
    } catch (const std::exception& e) {
        if (!isOutOfMemory(e)) throw;
        bench.clearGradients();
        std::vector<torch::Tensor> gradients = unitByUnitReferenceGradients(bench, cancel);
        const SystemAllocatorScope labCopy;  // not the training's memory
        reference = snapshot(gradients);
        notes.push_back(
            "the no-checkpoint reference step ran out of memory, so gradients are checked "
            "against a unit-by-unit reference (plain autograd, one unit recomputed at a time)");
    }
    bench.clearGradients();
    return reference;
}

}  // namespace ckptlab::engine
