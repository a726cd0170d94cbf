// Two threads measuring at once, as the app's live forecast and a sweep do: neither may change
// the other's random numbers, so every gradient check of the sweep stays exact.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>

#include "ckptlab/engine/runner.h"
#include "ckptlab/planning/cost_model.h"
#include "run_requests.h"
#include "strategy_text.h"
#include "test_configs.h"

using namespace ckptlab;

namespace {

// A transformer with dropout, small enough that a sweep takes about a second.
ExperimentConfig droppingTransformer() {
    return test::quickConfig(BlockKind::Transformer, 4, 64, 64, 2, 0.1);
}

const std::vector<std::string> kStrategies{"none", "full", "every:2", "attn", "ffn", "segments:2"};

struct Sweeps {
    std::vector<RunResult> runs;
    int backgroundRounds = 0;
};

// Runs `background` again and again on another thread (started first, so it is busy when the
// first sweep begins) while `count` sweeps run on this one.
Sweeps sweepWhile(const std::function<void()>& background, int count) {
    std::atomic<bool> stop{false};
    std::atomic<int> rounds{0};
    std::atomic<bool> started{false};
    std::thread other([&] {
        while (!stop.load()) {
            started = true;
            background();
            ++rounds;
        }
    });
    while (!started.load()) std::this_thread::yield();
    Sweeps sweeps;
    for (int i = 0; i < count; ++i) {
        ResultSet set = test::sweep(droppingTransformer(), parseStrategies(kStrategies));
        sweeps.runs.insert(sweeps.runs.end(), set.runs.begin(), set.runs.end());
    }
    stop = true;
    other.join();
    sweeps.backgroundRounds = rounds.load();
    return sweeps;
}

// Every run checked and equal to `none`'s gradients: the recompute replays the forward's
// dropout masks with the same kernels.
void expectExactGradientChecks(const Sweeps& sweeps) {
    ASSERT_EQ(sweeps.runs.size() % kStrategies.size(), 0u);
    ASSERT_FALSE(sweeps.runs.empty());
    int failed = 0;
    for (const RunResult& run : sweeps.runs) {
        ASSERT_FALSE(run.error) << run.strategy << ": " << *run.error;
        EXPECT_TRUE(run.grad_check.checked) << run.strategy;
        EXPECT_EQ(run.grad_check.max_abs_diff, 0.0) << run.strategy;
        if (!run.grad_check.passed()) ++failed;
    }
    EXPECT_EQ(failed, 0) << "of " << sweeps.runs.size() << " runs";
}

}  // namespace

// The app's order: the forecast measures the cost model while a sweep starts.
TEST(ConcurrentRuns, CostModelMeasuredDuringASweepKeepsEveryGradientCheckExact) {
    ExperimentConfig forecast = droppingTransformer();
    const Sweeps sweeps = sweepWhile([&] { measureCostModel(forecast); }, 3);
    EXPECT_GT(sweeps.backgroundRounds, 0);
    expectExactGradientChecks(sweeps);
}

// Any other code of the process that seeds or draws from LibTorch's default generator (a
// second library, a user's script) does not reach a run's weights, inputs or dropout masks.
TEST(ConcurrentRuns, TheDefaultGeneratorIsNotTheRunsGenerator) {
    std::uint64_t seed = 0;
    const Sweeps sweeps = sweepWhile(
        [&] {
            torch::manual_seed(++seed);
            torch::dropout(torch::ones({64, 64}), 0.5, true);
            torch::randn({64, 64});
        },
        2);
    EXPECT_GT(sweeps.backgroundRounds, 0);
    expectExactGradientChecks(sweeps);
}
