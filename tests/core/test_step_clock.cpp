// The step's clock (engine/step_clock.h) and what runStep measures with it on CPU: host times,
// recomputes timed by their marks, no CUDA allocator statistics, and the same measured run
// reporting its matmul rate (flops.h). The CUDA side (events, allocator statistics) needs a
// GPU and a CUDA LibTorch; it is not compiled here (bench/gpu/README.md).
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

#include "ckptlab/engine/runner.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/flops.h"
#include "ckptlab/planning/planner.h"
#include "engine/checkpoint.h"
#include "engine/step.h"
#include "engine/step_clock.h"
#include "run_requests.h"
#include "strategy_text.h"
#include "test_configs.h"
#include "tolerance.h"

namespace ckptlab {
namespace {

TEST(StepClock, HostClockOnCpu) {
    engine::StepClock clock(torch::kCPU);
    EXPECT_FALSE(clock.usesEvents());
    const int a = clock.mark();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const int b = clock.mark();
    clock.finish();
    // sleep_for waits at least its time on the steady clock the host clock reads; no upper
    // bound, which a loaded machine stretches at will.
    EXPECT_GE(clock.ms(a, b), 20.0 - test::tolerance::formula(20.0, 1));
    EXPECT_TRUE(std::isfinite(clock.ms(a, b)));
    EXPECT_EQ(clock.ms(b, b), 0.0);
    EXPECT_THROW(clock.ms(a, 7), std::out_of_range);
}

Strategy parsed(const std::string& text, const ExperimentConfig& c) {
    return parseStrategy(text, c.depth, c.block);
}

TEST(StepClock, RunStepTimesRecomputesByTheirMarks) {
    const ExperimentConfig c = test::quickConfig(BlockKind::Ffn, 6, 64, 64, 2);
    engine::Workbench bench(c, torch::kCPU);
    engine::StepContext context;
    const Plan full = makePlan(parsed("full", c), c.depth);
    const engine::StepTimes t = engine::runStep(bench, full, context);
    EXPECT_EQ(context.clock, nullptr);             // the step's clock is gone with the step
    EXPECT_EQ(context.recomputeMarks.size(), 6u);  // one start and end per recomputed block
    EXPECT_EQ(t.recomputed_blocks, 6);
    // Orders that hold by construction, whatever the load: the recomputes' marks lie inside
    // the backward's, the forward's and the backward's inside the step's, all on one monotonic
    // clock; only each difference's rounding to a double is allowed for.
    EXPECT_GT(t.recompute_ms, 0.0);
    EXPECT_LE(t.recompute_ms, t.backward_ms + test::tolerance::formula(t.backward_ms, 13));
    EXPECT_GE(t.step_ms + test::tolerance::formula(t.step_ms, 3), t.forward_ms + t.backward_ms);
    EXPECT_FALSE(t.cudaAllocator);  // CPU: no caching allocator to ask

    const engine::StepTimes none = engine::runStep(bench, makePlan(Strategy{}, c.depth), context);
    EXPECT_TRUE(context.recomputeMarks.empty());
    EXPECT_EQ(none.recompute_ms, 0.0);
}

TEST(StepClock, ClockIsReleasedWhenAStepThrows) {
    const ExperimentConfig c = test::quickConfig(BlockKind::Ffn, 4, 32, 16, 1);
    engine::Workbench bench(c, torch::kCPU);
    std::atomic<bool> cancel{true};
    engine::StepContext context;
    context.cancel = &cancel;
    EXPECT_THROW(engine::runStep(bench, makePlan(parsed("full", c), c.depth), context),
                 engine::Cancelled);
    EXPECT_EQ(context.clock, nullptr);
}

TEST(StepClock, CheckpointOutsideAStepTimesItselfOnTheHost) {
    torch::manual_seed(0);
    auto linear = torch::nn::Linear(16, 16);
    auto x = torch::randn({8, 16}, torch::requires_grad());
    engine::StepContext context;  // no clock: not inside runStep
    engine::CheckpointOptions options;
    options.context = &context;
    engine::SegmentFn body = [&](const torch::Tensor& in) { return linear->forward(in).relu(); };
    auto y = engine::checkpoint(body, x, linear->parameters(), options);
    y.sum().backward();
    EXPECT_TRUE(context.recomputeMarks.empty());
    EXPECT_GT(context.recomputeMs, 0.0);
}

TEST(StepClock, SweepReportsTheMatmulRateOfEachRun) {
    const ExperimentConfig c = test::quickConfig(BlockKind::Transformer, 3, 32, 16, 2);
    Runner runner;
    const ResultSet set = test::sweep(runner, c, parseStrategies({"none", "full"}));
    ASSERT_EQ(set.runs.size(), 2u);
    for (const RunResult& run : set.runs) {
        ASSERT_TRUE(run.ok()) << run.strategy;
        ASSERT_TRUE(run.metrics.step_gflop && run.metrics.gflop_per_s) << run.strategy;
        const double flops = stepFlops(c, run.forward_counts).total();
        // flops.cpp's formulas, in the same order: bitwise.
        EXPECT_EQ(*run.metrics.step_gflop, flops / 1e9);
        EXPECT_EQ(*run.metrics.gflop_per_s, flops / (run.metrics.step_ms * 1e-3) / 1e9);
        // On the CPU no CUDA counts: the caching CPU allocator's own, the default.
        ASSERT_TRUE(run.allocator);
        EXPECT_EQ(run.allocator->source, AllocatorSource::CachingModel);
    }
    // full recomputes every block's forward once: a third more matmul work than none.
    // Three roundings (two divisions by 1e9, one ratio) against the exact 4/3.
    EXPECT_NEAR(*set.runs[1].metrics.step_gflop / *set.runs[0].metrics.step_gflop, 4.0 / 3,
                test::tolerance::formula(4.0 / 3, 3));
}

}  // namespace
}  // namespace ckptlab
