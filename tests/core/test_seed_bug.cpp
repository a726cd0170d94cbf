// seed-bug:K as the tutorial's non-reentrant code runs it (tests/side_by_side/
// test_seed_bug_peer.py compares it with PyTorch): each segment's recompute runs the last
// segment's blocks on the segment's input, and the segment's own parameters and input get
// those blocks' gradients there. So every block before the last segment and the input get a
// wrong gradient (but one bias, see below), none is left without one, the last segment's are
// right, and memory, time and forward counts are those of segments:K.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <vector>

#include "ckptlab/engine/runner.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/cost_model.h"
#include "ckptlab/planning/planner.h"
#include "engine/step.h"
#include "engine/step_context.h"
#include "run_requests.h"
#include "strategy_text.h"
#include "tensor_tolerance.h"
#include "test_configs.h"

using namespace ckptlab;
using namespace ckptlab::engine;
using namespace ckptlab::test;

namespace {

// No dropout: the formula below runs the blocks outside the step, without its generator.
ExperimentConfig chain(BlockKind block, int depth) {
    ExperimentConfig c = quickConfig(block, depth, 32, 32, 2, 0.0);
    c.threads = 1;
    return c;
}

std::vector<torch::Tensor> stepGradients(Workbench& bench, const std::string& strategy) {
    const ExperimentConfig& c = bench.config;
    bench.restoreInitialWeights();
    bench.clearGradients();
    StepContext context;
    runStep(bench, makePlan(parseStrategy(strategy, c.depth, c.block), c.depth), context);
    std::vector<torch::Tensor> grads;
    for (const auto& g : bench.gradients()) grads.push_back(g.defined() ? g.clone() : g);
    return grads;
}

torch::Tensor runBlocks(Model& model, int begin, int end, torch::Tensor x) {
    for (int b = begin; b < end; ++b)
        for (int part = 0; part < model.partsPerBlock(); ++part)
            x = model.block(b).forwardPart(part, x);
    return x;
}

// What the tutorial's code computes, written out: segment k's backward differentiates the last
// segment's first n_k blocks at segment k's input with segment k's incoming gradient, and the
// results go to segment k's parameters (in order) and on to segment k−1. Input first, then
// the parameters, as Workbench::gradients().
std::vector<torch::Tensor> tutorialGradients(Workbench& bench, int segments) {
    Model& model = bench.model;
    const int depth = bench.config.depth;
    const Plan plan = makePlan(
        parseStrategy("segments:" + std::to_string(segments), depth, bench.config.block), depth);
    bench.restoreInitialWeights();
    std::vector<torch::Tensor> inputs{bench.input.detach()};
    {
        torch::NoGradGuard noGrad;
        for (const Segment& s : plan.segments)
            inputs.push_back(runBlocks(model, s.begin, s.end, inputs.back()));
    }
    const Segment& last = plan.segments.back();
    std::vector<std::vector<torch::Tensor>> perBlock(depth);
    torch::Tensor incoming = torch::ones_like(inputs.back());  // loss = output.sum()
    for (int k = segments - 1; k >= 0; --k) {
        const Segment& s = plan.segments[k];
        const int n = s.end - s.begin;
        torch::Tensor x = inputs[k].clone().requires_grad_(true);
        std::vector<torch::Tensor> wrt{x};
        for (int b = last.begin; b < last.begin + n; ++b)
            for (auto& p : model.block(b).parameters()) wrt.push_back(p);
        const torch::Tensor y = runBlocks(model, last.begin, last.begin + n, x);
        const auto grads = torch::autograd::grad({y}, wrt, {incoming});
        std::size_t i = 1;
        for (int b = s.begin; b < s.end; ++b)
            for (std::size_t j = 0; j < model.block(b).parameters().size(); ++j)
                perBlock[b].push_back(grads[i++]);
        incoming = grads[0];
    }
    std::vector<torch::Tensor> out{incoming};
    for (auto& block : perBlock)
        for (auto& g : block) out.push_back(g);
    return out;
}

// Gradient slots (input first) of each block, and the block each slot belongs to (-1: input).
std::vector<int> blockOfSlot(Model& model) {
    std::vector<int> owner{-1};
    for (int b = 0; b < model.depth(); ++b)
        for (std::size_t j = 0; j < model.block(b).parameters().size(); ++j) owner.push_back(b);
    return owner;
}

void expectTheTutorialsGradients(BlockKind block, int depth, int segments) {
    const ExperimentConfig c = chain(block, depth);
    Workbench bench(c, torch::Device(torch::kCPU));
    const auto right = stepGradients(bench, "none");
    const auto bug = stepGradients(bench, "seed-bug:" + std::to_string(segments));
    const auto expected = tutorialGradients(bench, segments);
    const auto owner = blockOfSlot(bench.model);
    ASSERT_EQ(bug.size(), expected.size());
    ASSERT_EQ(bug.size(), owner.size());
    const Plan plan =
        makePlan(parseStrategy("segments:" + std::to_string(segments), depth, block), depth);
    const int lastBegin = plan.segments.back().begin;
    const ComputationSize size{std::int64_t{c.batch} * c.seq, 4 * depth};
    for (std::size_t i = 0; i < bug.size(); ++i) {
        SCOPED_TRACE(testing::Message() << "gradient " << i << " (block " << owner[i] << ")");
        ASSERT_TRUE(bug[i].defined()) << "no gradient: the reentrant-style emulation";
        EXPECT_TRUE(closeForItsSize(expected[i], bug[i], size));
        // The bias of the last linear layer before the last segment is right too: its gradient
        // is the sum of the last segment's input gradient, which is right.
        const bool lastBias =
            i + 1 < owner.size() && owner[i] == lastBegin - 1 && owner[i + 1] == lastBegin;
        if (owner[i] >= lastBegin || lastBias)
            EXPECT_TRUE(closeForItsSize(right[i], bug[i], size)) << "the last segment is right";
        else  // far outside any rounding: a wrong gradient, not noise
            EXPECT_GT((bug[i] - right[i]).abs().max().item<double>(),
                      0.01 * right[i].abs().max().item<double>());
    }
}

}  // namespace

TEST(SeedBug, FfnGradientsAreTheLastSegmentsAtEachSegmentsInput) {
    expectTheTutorialsGradients(BlockKind::Ffn, 6, 3);
}

TEST(SeedBug, TransformerGradientsAreTheLastSegmentsAtEachSegmentsInput) {
    expectTheTutorialsGradients(BlockKind::Transformer, 4, 2);
}

// Segments of 2, 2 and 3 blocks: the recompute of a shorter segment runs the last segment's
// first blocks, as many as it has (PyTorch matches saved tensors in order and stops there).
TEST(SeedBug, UnequalSegmentsRecomputeTheLastSegmentsFirstBlocks) {
    expectTheTutorialsGradients(BlockKind::Ffn, 7, 3);
}

// forward_counts say what ran: blocks 4 and 5 in every recompute, block 6 only in its own.
TEST(SeedBug, ForwardCountsAreTheForwardsTheTraceShows) {
    const ExperimentConfig c = chain(BlockKind::Ffn, 7);
    const ResultSet set = test::sweep(c, parseStrategies({"none", "seed-bug:3"}));
    const RunResult* bug = set.find("seed-bug:3");
    ASSERT_NE(bug, nullptr);
    ASSERT_FALSE(bug->error) << *bug->error;
    EXPECT_EQ(bug->forward_counts, (std::vector<int>{1, 1, 1, 1, 4, 4, 2}));
    std::vector<int> traced(c.depth, 1);
    for (const auto& span : bug->phases)
        if (span.phase == Phase::Recompute && span.block >= 0) ++traced[span.block];
    EXPECT_EQ(bug->forward_counts, traced);
    EXPECT_FALSE(bug->grad_check.passed());
}

// Memory as segments:K, to the byte, and predicted as such: every parameter's gradient is
// allocated, and each recompute holds what the segment's own would.
TEST(SeedBug, PeakIsSegmentsPeakAndIsPredicted) {
    for (BlockKind block : {BlockKind::Ffn, BlockKind::Transformer}) {
        ExperimentConfig c = quickConfig(block, 8, 64, 64, 2, 0.0);
        c.threads = 1;
        const ResultSet set = test::sweep(c, parseStrategies({"none", "segments:4", "seed-bug:4"}));
        const RunResult* bug = set.find("seed-bug:4");
        const RunResult* segments = set.find("segments:4");
        ASSERT_NE(bug, nullptr);
        ASSERT_NE(segments, nullptr);
        ASSERT_FALSE(bug->error) << *bug->error;
        EXPECT_EQ(bug->metrics.peak_bytes, segments->metrics.peak_bytes) << static_cast<int>(block);
        EXPECT_EQ(bug->metrics.activation_bytes, segments->metrics.activation_bytes);
        const CostModel model = measureCostModel(c);
        const Prediction p = predict(model, makePlan(bug->strategy, c.depth));
        EXPECT_LE(std::abs(p.peak_bytes - bug->metrics.peak_bytes), 8) << static_cast<int>(block);
    }
}
