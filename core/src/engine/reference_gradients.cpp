#include "engine/reference_gradients.h"

#include <new>
#include <string>

#include "engine/generators.h"
#include "engine/memory_tracker.h"

namespace ckptlab::engine {

std::vector<torch::Tensor> unitByUnitReferenceGradients(Workbench& bench) {
    bench.clearGradients();
    const int parts = bench.model.partsPerBlock();
    const int units = bench.model.depth() * parts;
    auto runUnit = [&](int u, const torch::Tensor& x) {
        return bench.model.block(u / parts).forwardPart(u % parts, x);
    };

    // The same dropout masks as runStep: the model's generator, same seed, units consumed in
    // the same order.
    at::Generator& generator = bench.model.generator();
    reseed(generator, bench.config.seed + 1);
    std::vector<torch::Tensor> inputs;
    std::vector<at::Tensor> rng;
    torch::Tensor x = bench.input.detach();
    {
        torch::NoGradGuard noGrad;
        for (int u = 0; u < units; ++u) {
            inputs.push_back(x);
            rng.push_back(generatorState(generator));
            x = runUnit(u, x);
        }
    }
    // loss = output.sum(), so the output's gradient is all ones.
    torch::Tensor grad = torch::ones_like(x);
    x = torch::Tensor();
    const at::Tensor after = generatorState(generator);
    for (int u = units - 1; u >= 0; --u) {
        setGeneratorState(generator, rng[static_cast<std::size_t>(u)]);
        torch::Tensor in = inputs[static_cast<std::size_t>(u)].detach().requires_grad_(true);
        inputs[static_cast<std::size_t>(u)] = torch::Tensor();
        torch::AutoGradMode enableGrad(true);
        torch::Tensor out = runUnit(u, in);
        out.backward(grad);  // accumulates into this unit's parameters' .grad
        grad = in.grad();
    }
    setGeneratorState(generator, after);
    if (bench.input.requires_grad()) bench.input.mutable_grad() = grad;
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

}  // namespace ckptlab::engine
