#pragma once
// Gradients of the no-checkpoint step computed one unit at a time, for when the plain `none`
// step does not fit on the device: a forward without grad stores every unit's input and RNG
// state, then backward recomputes one unit with grad, takes its gradients and drops it.
// Written with plain autograd, not the checkpoint Function under test, so it stays an
// independent reference. On CPU the gradients are bitwise those of the `none` step. With chain
// ends the embedding runs first, and the LM head and loss go backward one loss chunk at a time
// before the units; the embedding's backward comes last.

#include <torch/torch.h>

#include <atomic>
#include <exception>
#include <string>
#include <vector>

#include "engine/step.h"

namespace ckptlab::engine {

// Input gradient first (none with chain ends), then the parameters', like Workbench::gradients().
// Throws Cancelled when `cancel` is set, looked at before every unit and loss chunk.
std::vector<torch::Tensor> unitByUnitReferenceGradients(Workbench& bench,
                                                        const std::atomic<bool>* cancel = nullptr);

// The gradients every run of a sweep is checked against: the no-checkpoint step's, or, when that
// step does not fit, unitByUnitReferenceGradients', said in `notes`. Gradients are cleared
// after. Throws Cancelled when `cancel` is set.
std::vector<torch::Tensor> referenceGradients(Workbench& bench, const std::atomic<bool>* cancel,
                                              std::vector<std::string>& notes);

// True for our modelled out-of-memory and for the allocators' own failures.
bool isOutOfMemory(const std::exception& error);

}  // namespace ckptlab::engine
