#pragma once
// Compares a run's gradients with the no-checkpoint run's on the same weights and input.

#include <torch/torch.h>

#include <string>
#include <vector>

#include "ckptlab/config.h"
#include "ckptlab/result.h"

namespace ckptlab::engine {

class Model;

// Detached copies, so later steps cannot change them.
std::vector<torch::Tensor> snapshot(const std::vector<torch::Tensor>& gradients);

// Largest |a - b| over every pair; a gradient missing on one side counts as zeros. NaN when an
// element is NaN in one run and not in the other, else Inf when an infinity differs; elements
// that are NaN in both runs, or the same infinity in both, count as equal (checkGradients
// says where they are). Pairs must have the same shape.
double maxAbsDiff(const std::vector<torch::Tensor>& reference,
                  const std::vector<torch::Tensor>& gradients);

// Recomputation repeats the same arithmetic, so on CPU the difference is exactly zero; the
// tolerance only absorbs non-deterministic GPU kernels, scaled to the finite gradients'
// magnitude. A NaN or Inf difference fails. When a gradient holds NaN or Inf in either run,
// `note` says which, in how many elements and in which run, naming gradient i `names[i]`
// ("gradient i" when `names` is shorter).
GradCheck checkGradients(const std::vector<torch::Tensor>& reference,
                         const std::vector<torch::Tensor>& gradients, DType dtype,
                         const std::vector<std::string>& names = {});

// Names of Workbench::gradients() in its order: "input", then "block 3 ffn.up.weight", ...
// (blocks counted from 0, as in the charts).
std::vector<std::string> gradientNames(const Model& model);

}  // namespace ckptlab::engine
