#include "engine/executor.h"

#include "engine/checkpoint.h"

namespace ckptlab::engine {

torch::Tensor Executor::forward(const torch::Tensor& input) {
    return runSegments(plan_.segments, input);
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
        if (plan_.recomputeLastSegment) {
            // The tutorial's bug: the closure sees the loop variable's final value, so every
            // segment recomputes the last segment's blocks.
            const Segment& last = segments.back();
            options.recompute = [this, &last](const torch::Tensor& in) {
                return runSegmentBody(last, in);
            };
        }
        x = checkpoint(body, x, model_.blockParameters(segment.begin, segment.end), options);
        labelBackwardWhenGradArrives(x, segment.end - 1);
    }
    return x;
}

torch::Tensor Executor::runSegmentBody(const Segment& segment, torch::Tensor x) {
    if (!segment.inner.empty()) return runSegments(segment.inner, x);
    for (int i = segment.begin; i < segment.end; ++i) x = runBlock(i, x);
    return x;
}

torch::Tensor Executor::runBlock(int index, torch::Tensor x) {
    context_.throwIfCancelled();
    context_.label(context_.forwardPhase(), index);
    if (context_.recomputeDepth > 0) ++context_.recomputedBlocks;
    Block& block = *model_.blocks[index];
    for (int part = 0; part < block.partCount(); ++part) {
        const bool selective =
            (plan_.subLayer == SubLayer::Attention && part == 0 && block.partCount() == 2) ||
            (plan_.subLayer == SubLayer::Ffn && part == 1);
        if (!selective || !torch::GradMode::is_enabled()) {
            x = block.forwardPart(part, x);
            continue;
        }
        SegmentFn body = [this, &block, part, index](const torch::Tensor& in) {
            context_.label(context_.forwardPhase(), index);
            if (context_.recomputeDepth > 0) ++context_.recomputedBlocks;
            return block.forwardPart(part, in);
        };
        CheckpointOptions options;
        options.context = &context_;
        x = checkpoint(body, x, block.partParameters(part), options);
    }
    labelBackwardWhenGradArrives(x, index);
    return x;
}

void Executor::labelBackwardWhenGradArrives(const torch::Tensor& output, int block) {
    if (!output.requires_grad()) return;
    StepContext* context = &context_;
    // A hook on a block's output fires when its gradient is complete: its backward begins.
    output.register_hook([context, block](const torch::Tensor&) {
        context->throwIfCancelled();
        context->label(Phase::Backward, block);
    });
}

}  // namespace ckptlab::engine
