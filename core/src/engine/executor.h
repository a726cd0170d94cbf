#pragma once
// Runs the model's forward pass by a Plan: plain blocks, checkpointed segments (nested ones
// too) and sub-layer checkpoints, labelling every block for the memory tracker.

#include <torch/torch.h>

#include "ckptlab/strategy.h"
#include "engine/model.h"
#include "engine/step_context.h"

namespace ckptlab::engine {

class Executor {
public:
    Executor(Model& model, const Plan& plan, StepContext& context)
        : model_(model), plan_(plan), context_(context) {}

    torch::Tensor forward(const torch::Tensor& input);

private:
    torch::Tensor runSegments(const std::vector<Segment>& segments, torch::Tensor x);
    torch::Tensor runSegmentBody(const Segment& segment, torch::Tensor x);
    torch::Tensor runBlock(int index, torch::Tensor x);
    void labelBackwardWhenGradArrives(const torch::Tensor& output, int block);

    Model& model_;
    const Plan& plan_;
    StepContext& context_;
};

}  // namespace ckptlab::engine
