#include "engine/executor.h"

#include <algorithm>

#include "engine/chain_ends.h"
#include "engine/checkpoint.h"

namespace ckptlab::engine {

Executor::Executor(Model& model, const Plan& plan, StepContext& context)
    : model_(model), unitsPerBlock_(model.partsPerBlock()), context_(context) {
    plan_ = toUnitLevel(plan, unitsPerBlock_);
}

torch::Tensor Executor::forward(const torch::Tensor& input, const torch::Tensor& targets) {
    if (!model_.hasEnds()) return runSegments(plan_.segments, input);
    torch::Tensor hidden = runSegments(plan_.segments, embed(input));
    return headLoss(hidden, targets);
}

torch::Tensor Executor::embed(const torch::Tensor& tokens) {
    context_.throwIfCancelled();
    context_.label(context_.forwardPhase(), kEmbeddingBlock);
    torch::Tensor x = model_.embedding().forward(tokens);
    // Its gradient is complete when block 0's backward ends: the embedding's backward begins.
    labelBackwardWhenGradArrives(x, kEmbeddingBlock);
    return x;
}

torch::Tensor Executor::headLoss(const torch::Tensor& hidden, const torch::Tensor& targets) {
    // Loss chunks run in checkpoints; the head draws nothing random, but a checkpoint saves and
    // restores a generator, which must be the run's own rather than LibTorch's shared one.
    CheckpointOptions options;
    options.context = &context_;
    options.generator = model_.generator();
    return model_.head().loss(hidden, targets, options);
}

torch::Tensor Executor::runSegments(const std::vector<Segment>& segments, torch::Tensor x) {
    for (const Segment& segment : segments) {
        if (!segment.checkpointed) {
            x = runSegmentBody(segment, x);
            continue;
        }
        SegmentFn body = [this, &segment](const torch::Tensor& in) {
            return runSegmentBody(segment, in);
        };
        CheckpointOptions options;
        options.context = &context_;
        options.generator = model_.generator();
        if (plan_.recomputeLastSegment) {
            // The tutorial's bug as PyTorch's non-reentrant checkpoint runs it: the closure
            // sees the loop variable's final value, so the recompute runs the last segment's
            // blocks on this segment's input. PyTorch keeps this segment's graph and swaps in
            // the tensors the recompute saved, so this segment's parameters and input get the
            // last segment's gradients at this input. It matches saved tensors in order and
            // stops once it has as many as the forward saved (torch 2.x; 1.13 runs the rest for
            // nothing): the last segment's first units, as many as this segment has.
            const Segment& last = segments.back();
            const int units = std::min(segment.end - segment.begin, last.end - last.begin);
            const Segment wrong{last.begin, last.begin + units, true, {}};
            options.recompute = [this, wrong](const torch::Tensor& in) {
                return runSegmentBody(wrong, in);
            };
            if (wrong.end - wrong.begin == segment.end - segment.begin)
                options.recomputeParameters = unitParameters(wrong.begin, wrong.end);
        }
        x = checkpoint(body, x, unitParameters(segment.begin, segment.end), options);
        labelBackwardWhenGradArrives(x, (segment.end - 1) / unitsPerBlock_);
    }
    return x;
}

torch::Tensor Executor::runSegmentBody(const Segment& segment, torch::Tensor x) {
    if (!segment.inner.empty()) return runSegments(segment.inner, x);
    for (int u = segment.begin; u < segment.end; ++u) x = runUnit(u, x);
    return x;
}

torch::Tensor Executor::runUnit(int unit, torch::Tensor x) {
    const int block = unit / unitsPerBlock_;
    context_.throwIfCancelled();
    context_.label(context_.forwardPhase(), block);
    if (context_.recomputeDepth > 0) ++context_.recomputedUnits;
    x = model_.block(block).forwardPart(unit % unitsPerBlock_, x);
    labelBackwardWhenGradArrives(x, block);
    return x;
}

std::vector<torch::Tensor> Executor::unitParameters(int begin, int end) const {
    std::vector<torch::Tensor> params;
    for (int u = begin; u < end; ++u) {
        for (auto& p : model_.block(u / unitsPerBlock_).partParameters(u % unitsPerBlock_))
            params.push_back(p);
    }
    return params;
}

void Executor::labelBackwardWhenGradArrives(const torch::Tensor& output, int block) {
    if (!output.requires_grad()) return;
    StepContext* context = &context_;
    // A hook on an output fires when its gradient is complete: that block's backward begins.
    output.register_hook([context, block](const torch::Tensor&) {
        context->throwIfCancelled();
        context->label(Phase::Backward, block);
    });
}

}  // namespace ckptlab::engine
