#pragma once
// The inner backward of a reentrant checkpoint, run so that the checkpoint's incoming gradient
// is owned by that backward alone, as PyTorch's non-reentrant checkpoint's is by its engine.
//
// Why: LibTorch's custom-Function machinery (the engine's call, CppNode::apply and the
// backward's argument) holds copies of the incoming gradient until the checkpoint's backward
// returns. The autograd engine accumulates a residual's gradient into the incoming buffer in
// place only when nothing else holds it; held, the sum is a new tensor and the incoming
// gradient stays alive beside it for the rest of the segment's backward: one output-sized
// tensor above PyTorch's at the peak of a transformer block (attention after the FFN).

#include <torch/csrc/autograd/edge.h>
#include <torch/torch.h>

namespace ckptlab::engine {

// Engine::execute from `root` with `incoming` as its gradient, capturing the gradients of
// `targets` (accumulate_grad off). When only LibTorch's custom-Function frames hold
// `incoming` (and it is a plain dense tensor outside any graph), its memory moves into the
// inner backward, which may reuse or free it; `incoming` is left empty. Otherwise it is
// passed as it is. Under create_graph it is never moved.
torch::autograd::variable_list backwardOwningIncoming(const torch::autograd::Edge& root,
                                                      torch::Tensor& incoming, bool keepGraph,
                                                      bool createGraph,
                                                      const torch::autograd::edge_list& targets);

}  // namespace ckptlab::engine
