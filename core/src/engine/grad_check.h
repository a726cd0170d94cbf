#pragma once
// Compares a run's gradients with the no-checkpoint run's on the same weights and input.

#include <torch/torch.h>

#include <vector>

#include "ckptlab/config.h"
#include "ckptlab/result.h"

namespace ckptlab::engine {

// Detached copies, so later steps cannot change them.
std::vector<torch::Tensor> snapshot(const std::vector<torch::Tensor>& gradients);

// Largest |a - b| over every pair; a gradient missing on one side counts as zeros.
double maxAbsDiff(const std::vector<torch::Tensor>& reference,
                  const std::vector<torch::Tensor>& gradients);

// Recomputation repeats the same arithmetic, so on CPU the difference is exactly zero; the
// tolerance only absorbs non-deterministic GPU kernels, scaled to the gradients' magnitude.
GradCheck checkGradients(const std::vector<torch::Tensor>& reference,
                         const std::vector<torch::Tensor>& gradients, DType dtype);

}  // namespace ckptlab::engine
