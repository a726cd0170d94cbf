#pragma once
// checkpoint(segment, input): activation recomputation as a reentrant autograd Function.
// Forward runs the segment without a graph and keeps only its input; backward restores the
// state of the segment's generator (CheckpointOptions::generator), runs the segment again with
// grad on and differentiates it (docs/ARCHITECTURE.md).
// A backward with retain_graph=true can be repeated and recomputes the same way (same dropout
// masks); without it, a second backward is LibTorch's own "Trying to backward through the
// graph a second time". Under create_graph=true the gradients are differentiable (with
// respect to the input and the parameters), so double backward gives the plain model's
// second derivatives. A single plain backward drops the recompute state (RNG state) as soon
// as it has used it.

#include <torch/torch.h>

#include <functional>
#include <vector>

namespace ckptlab::engine {

class StepContext;

using SegmentFn = std::function<torch::Tensor(const torch::Tensor&)>;

struct CheckpointOptions {
    // Runs in backward instead of `segment` when set. Only to reproduce recompute bugs (the
    // tutorial's closure bug) so the gradient check can be seen catching them.
    SegmentFn recompute;
    // With `recompute`: the tensors it uses in place of `parameters`, in the same order and
    // of the same shapes. Backward differentiates the recompute with respect to them and
    // returns those gradients as the gradients of `parameters`, as PyTorch's non-reentrant
    // checkpoint does when its recompute runs other blocks: it keeps the forward's graph
    // (whose leaves are `parameters`) and swaps in what the recompute saved. Empty: the
    // recompute uses `parameters`.
    std::vector<torch::Tensor> recomputeParameters;
    StepContext* context = nullptr;  // labels and recompute timing; optional
    // The generator the segment's random ops draw from (the run's own: Model::generator()).
    // Forward saves its state and backward restores it for the recompute, so recomputed
    // dropout masks equal the forward's. Unset: LibTorch's default generator of the input's
    // device, for segments that draw from it (plain torch::dropout) on one thread only.
    at::Generator generator;
};

// `parameters` must hold every tensor the segment uses that needs a gradient: backward returns
// their gradients, so they get them even when `input` does not require grad.
torch::Tensor checkpoint(const SegmentFn& segment, const torch::Tensor& input,
                         const std::vector<torch::Tensor>& parameters,
                         CheckpointOptions options = {});

}  // namespace ckptlab::engine
