#pragma once
// Runs the model's forward pass by a unit-level Plan (toUnitLevel): plain sub-blocks,
// checkpointed segments, nested ones too, labelling every block for the memory tracker.

#include <torch/torch.h>

#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/planner.h"
#include "engine/model.h"
#include "engine/step_context.h"

namespace ckptlab::engine {

class Executor {
public:
    // The executor must stay alive until backward has finished: recomputes run its plan.
    Executor(Model& model, const Plan& plan, StepContext& context);

    // Without chain ends: the chain's output. With them (Model::hasEnds()) `input` holds token
    // ids: the embedding, the segments, then the final norm, LM head and loss against
    // `targets`; returns the scalar loss.
    torch::Tensor forward(const torch::Tensor& input, const torch::Tensor& targets = {});

private:
    torch::Tensor runSegments(const std::vector<Segment>& segments, torch::Tensor x);
    torch::Tensor runSegmentBody(const Segment& segment, torch::Tensor x);
    torch::Tensor runUnit(int unit, torch::Tensor x);
    torch::Tensor embed(const torch::Tensor& tokens);
    torch::Tensor headLoss(const torch::Tensor& hidden, const torch::Tensor& targets);
    std::vector<torch::Tensor> unitParameters(int begin, int end) const;
    void labelBackwardWhenGradArrives(const torch::Tensor& output, int block);

    Model& model_;
    Plan plan_;  // unit level
    int unitsPerBlock_;
    StepContext& context_;
};

}  // namespace ckptlab::engine
