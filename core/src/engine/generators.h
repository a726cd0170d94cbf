#pragma once
// A run's own random generators. LibTorch's default generators are process-wide: another
// thread that seeds or draws from them (the app's live forecast, a second runner) would change
// this run's weights, inputs and dropout masks, and a recompute would no longer replay its
// forward's masks. So every random op of the engine draws from a generator its run owns.
// LibTorch asks callers to hold a generator's mutex around its state; these helpers do.

#include <ATen/core/Generator.h>
#include <torch/torch.h>

#include <cstdint>

namespace ckptlab::engine {

// A new generator for tensors on `device`, seeded with `seed`.
at::Generator makeGenerator(const c10::Device& device, std::uint64_t seed);

// Restarts `generator` from `seed`, as torch::manual_seed does for the default one.
void reseed(at::Generator& generator, std::uint64_t seed);

at::Tensor generatorState(at::Generator& generator);
void setGeneratorState(at::Generator& generator, const at::Tensor& state);

// Standard normal values, drawn from `generator` (which must be on `options`' device).
torch::Tensor randn(at::IntArrayRef size, at::Generator& generator,
                    const torch::TensorOptions& options);

// torch::dropout on CPU, with its mask drawn from `generator`: a Bernoulli(1 − p) noise tensor
// of the input's shape and type, scaled by 1/(1 − p) and multiplied in, so autograd saves the
// same noise tensor (torch::dropout takes no generator). The input itself when p is 0, when
// not training or when it is empty; zeros when p is 1.
torch::Tensor dropout(const torch::Tensor& input, double p, bool train, at::Generator& generator);

}  // namespace ckptlab::engine
