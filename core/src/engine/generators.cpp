#include "engine/generators.h"

#include <ATen/CPUGeneratorImpl.h>

#include <mutex>

namespace ckptlab::engine {

at::Generator makeGenerator(const c10::Device& device, std::uint64_t seed) {
    if (device.is_cpu()) return at::detail::createCPUGenerator(seed);
    // Other devices' generator types are only reachable through their default one: a copy of
    // it, reseeded, shares nothing with it afterwards.
    at::Generator original = at::globalContext().defaultGenerator(device);
    at::Generator copy;
    {
        std::lock_guard<std::mutex> lock(original.mutex());
        copy = original.clone();
    }
    reseed(copy, seed);
    return copy;
}

void reseed(at::Generator& generator, std::uint64_t seed) {
    std::lock_guard<std::mutex> lock(generator.mutex());
    generator.set_current_seed(seed);
}

at::Tensor generatorState(at::Generator& generator) {
    std::lock_guard<std::mutex> lock(generator.mutex());
    return generator.get_state();
}

void setGeneratorState(at::Generator& generator, const at::Tensor& state) {
    std::lock_guard<std::mutex> lock(generator.mutex());
    generator.set_state(state);
}

torch::Tensor randn(at::IntArrayRef size, at::Generator& generator,
                    const torch::TensorOptions& options) {
    return at::randn(size, generator, options);
}

torch::Tensor dropout(const torch::Tensor& input, double p, bool train, at::Generator& generator) {
    TORCH_CHECK(p >= 0 && p <= 1, "dropout probability has to be between 0 and 1, but got ", p);
    if (p == 0 || !train || input.numel() == 0) return input;
    if (p == 1) return input * at::zeros({}, input.options());
    // What at::dropout does on CPU (ATen's _dropout_impl), with the generator passed in.
    torch::Tensor noise = at::empty_like(input, at::MemoryFormat::Contiguous);
    noise.bernoulli_(1 - p, generator);
    noise.div_(1 - p);
    return input * noise;
}

}  // namespace ckptlab::engine
