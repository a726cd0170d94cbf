// A device of a given capacity (--memory-limit): the run that does not fit fails where it ran
// out, the others go on, and nothing is left allocated afterwards.
#include <gtest/gtest.h>
#include <malloc.h>
#include <torch/torch.h>

#include <atomic>

#include "ckptlab/engine/runner.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/planner.h"
#include "engine/memory_tracker.h"
#include "engine/reference_gradients.h"
#include "engine/step.h"
#include "run_requests.h"
#include "strategy_text.h"
#include "test_configs.h"

using namespace ckptlab;

namespace {

using test::outOfMemoryConfig;

std::int64_t deviceBytes(const RunResult& run) {
    return run.metrics.baseline_bytes + run.metrics.peak_bytes;
}

// A limit halfway between full's and none's whole footprint, measured first.
double limitBetweenFullAndNone(const ExperimentConfig& c) {
    const ResultSet free = test::sweep(c, parseStrategies({"none", "full"}));
    const std::int64_t none = deviceBytes(*free.find("none"));
    const std::int64_t full = deviceBytes(*free.find("full"));
    EXPECT_LT(full, none);
    return (none + full) / 2.0 / (1024.0 * 1024.0);
}

std::size_t mallocInUse() {
    const struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

}  // namespace

TEST(MemoryLimit, TheRunThatDoesNotFitFailsWhereItRanOutAndTheOthersGoOn) {
    ExperimentConfig c = outOfMemoryConfig();
    c.memory_limit_mib = limitBetweenFullAndNone(c);
    double lastFraction = 0;
    RunnerHooks hooks;
    hooks.progress = [&](double f, const CoreMessage&) { lastFraction = f; };
    const ResultSet set = test::sweep(c, parseStrategies({"none", "full", "every:2"}), hooks);
    ASSERT_EQ(set.runs.size(), 3u);
    const RunResult& none = set.runs[0];
    ASSERT_TRUE(none.error);
    ASSERT_TRUE(none.out_of_memory);
    const OutOfMemory& oom = *none.out_of_memory;
    EXPECT_EQ(oom.limit_bytes, static_cast<std::int64_t>(c.memory_limit_mib * 1024 * 1024));
    EXPECT_GT(oom.requested_bytes, 0);
    EXPECT_GT(oom.allocated_bytes + oom.requested_bytes, oom.limit_bytes);
    EXPECT_LE(oom.allocated_bytes, oom.limit_bytes);
    // none keeps every activation: it runs out in the forward pass, at a real block.
    EXPECT_EQ(oom.phase, Phase::Forward);
    EXPECT_GE(oom.block, 0);
    EXPECT_LT(oom.block, c.depth);
    for (const char* part : {"none", "out of memory at forward of block", "limit"})
        EXPECT_NE(none.error->find(part), std::string::npos) << *none.error;
    // Drawn where it stopped: a timeline that ends below the limit.
    ASSERT_FALSE(none.timeline.empty());
    EXPECT_LE(none.metrics.baseline_bytes + none.metrics.peak_bytes, oom.limit_bytes);
    for (std::size_t i : {1u, 2u}) {
        const RunResult& run = set.runs[i];
        ASSERT_FALSE(run.error) << run.strategy << ": " << *run.error;
        EXPECT_TRUE(run.grad_check.passed()) << run.strategy;
        EXPECT_EQ(run.grad_check.max_abs_diff, 0.0) << run.strategy;
        EXPECT_LE(deviceBytes(run), oom.limit_bytes) << run.strategy;
    }
    EXPECT_DOUBLE_EQ(lastFraction, 1.0);
}

TEST(MemoryLimit, OnTheTransformerTheAttentionScoresRunOutToo) {
    ExperimentConfig c = outOfMemoryConfig(BlockKind::Transformer);
    c.memory_limit_mib = limitBetweenFullAndNone(c);
    const ResultSet set = test::sweep(c, parseStrategies({"none", "full"}));
    ASSERT_TRUE(set.runs[0].out_of_memory);
    ASSERT_FALSE(set.runs[1].error) << *set.runs[1].error;
    EXPECT_EQ(set.runs[1].grad_check.max_abs_diff, 0.0);
}

TEST(MemoryLimit, TheTrackerIsBackAtZeroAfterTheFailedStep) {
    ExperimentConfig c = outOfMemoryConfig();
    engine::Workbench bench(c, torch::kCPU);
    engine::StepContext context;
    context.tracker = std::make_shared<engine::MemoryTracker>(c10::DeviceType::CPU);
    context.tracker->setLimit(0, 1 << 20);  // 1 MiB: none's activations pass it in forward
    {
        engine::TrackingScope scope(context.tracker);
        EXPECT_THROW(engine::runStep(bench, makePlan(Strategy{}, c.depth), context),
                     engine::OutOfMemoryError);
        bench.clearGradients();
    }
    // Every byte the step allocated was freed, and the refused block was never counted.
    EXPECT_EQ(context.tracker->total(), 0);
}

TEST(MemoryLimit, NothingLeaksAfterAnOutOfMemoryOrACancel) {
    ExperimentConfig c = outOfMemoryConfig();
    c.memory_limit_mib = limitBetweenFullAndNone(c);
    test::sweep(c, parseStrategies({"none", "full"}));  // warm: thread pools, lazy initialisation
    malloc_trim(0);
    const std::size_t before = mallocInUse();
    for (int i = 0; i < 3; ++i) test::sweep(c, parseStrategies({"none", "full"}));
    std::atomic<bool> cancel{false};
    RunnerHooks hooks;
    hooks.cancel = &cancel;
    hooks.progress = [&](double f, const CoreMessage&) {
        if (f > 0.3) cancel = true;
    };
    const ResultSet cancelled = test::sweep(c, parseStrategies({"full", "none", "every:2"}), hooks);
    EXPECT_TRUE(cancelled.cancelled);
    malloc_trim(0);
    const std::size_t after = mallocInUse();
    // none's activations alone are about 6 MiB; a leak of one step's tensors would show.
    EXPECT_LT(static_cast<double>(after) - static_cast<double>(before), 1024.0 * 1024.0)
        << "before " << before << " after " << after;
}

TEST(ReferenceGradients, UnitByUnitEqualsTheNoCheckpointStepBitwise) {
    for (BlockKind block : {BlockKind::Ffn, BlockKind::Transformer, BlockKind::Llama}) {
        ExperimentConfig c = outOfMemoryConfig(block);
        c.seq = 32;
        engine::Workbench bench(c, torch::kCPU);
        engine::StepContext context;
        engine::runStep(bench, makePlan(Strategy{}, c.depth), context);
        std::vector<torch::Tensor> plain;
        for (const auto& g : bench.gradients()) plain.push_back(g.clone());
        const auto reference = engine::unitByUnitReferenceGradients(bench);
        ASSERT_EQ(reference.size(), plain.size());
        for (std::size_t i = 0; i < plain.size(); ++i) {
            ASSERT_TRUE(reference[i].defined()) << i;
            EXPECT_TRUE(torch::equal(reference[i], plain[i]))
                << toString(block) << " gradient " << i;
        }
    }
}

TEST(Progress, ReachesTheEndWithAnOptimizer) {
    for (Optimizer optimizer : {Optimizer::Sgd, Optimizer::Adam}) {
        ExperimentConfig c = outOfMemoryConfig();
        c.seq = 16;
        c.optimizer = optimizer;
        double last = 0;
        RunnerHooks hooks;
        hooks.progress = [&](double f, const CoreMessage&) { last = f; };
        test::sweep(c, parseStrategies({"none", "full"}), hooks);
        EXPECT_DOUBLE_EQ(last, 1.0) << toString(optimizer);
    }
}

TEST(Threads, TheProcessCountIsRestoredAfterASweep) {
    const int before = at::get_num_threads();
    ExperimentConfig c = outOfMemoryConfig();
    c.seq = 16;
    c.threads = before == 1 ? 2 : 1;
    test::sweep(c, parseStrategies({"full"}));
    EXPECT_EQ(at::get_num_threads(), before);
}

TEST(MemoryLimit, TheFailedStepEndsWhereItRanOut) {
    ExperimentConfig c = outOfMemoryConfig();
    c.memory_limit_mib = limitBetweenFullAndNone(c);
    const ResultSet set = test::sweep(c, parseStrategies({"none"}));
    const RunResult& none = set.runs[0];
    ASSERT_TRUE(none.out_of_memory);
    const double stop = none.out_of_memory->t_ms;
    EXPECT_GT(stop, 0);
    ASSERT_FALSE(none.timeline.empty());
    // The frees of the unwinding after the failure are not part of the step.
    EXPECT_LE(none.timeline.back().t_ms, stop);
    EXPECT_GT(none.timeline.back().total, 0);
    for (const auto& phase : none.phases) EXPECT_LE(phase.end_ms, stop);
}
