// `threads` is in effect wherever the engine measures: every entry point of runner.h, seen
// from inside (the hooks run on the measuring thread) or in what it returns.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <set>

#include "ckptlab/engine/runner.h"
#include "ckptlab/planning/cost_model.h"
#include "run_requests.h"
#include "strategy_text.h"
#include "test_configs.h"

using namespace ckptlab;

namespace {

// A count that is not this thread's: one more than LibTorch's default.
int otherThreadCount() { return at::get_num_threads() + 1; }

ExperimentConfig threadedConfig(int threads) {
    ExperimentConfig c = test::tinyChain(BlockKind::Ffn);
    c.depth = 3;
    c.threads = threads;
    return c;
}

// The intra-op thread counts seen by every hook call of a run.
struct Observed {
    std::set<int> counts;
    int calls = 0;
    RunnerHooks hooks() {
        RunnerHooks h;
        auto see = [this] {
            counts.insert(at::get_num_threads());
            ++calls;
        };
        h.progress = [see](double, const CoreMessage&) { see(); };
        h.traced = [see](const RunResult&) { see(); };
        h.result = [see](const RunResult&) { see(); };
        return h;
    }
};

}  // namespace

TEST(ThreadScope, SweepMeasuresAtTheConfiguredCount) {
    const int before = at::get_num_threads();
    const int threads = otherThreadCount();
    Observed seen;
    const ResultSet set =
        test::sweep(threadedConfig(threads), parseStrategies({"none", "full"}), seen.hooks());
    for (const RunResult& run : set.runs) EXPECT_TRUE(run.ok()) << run.strategy;
    EXPECT_GT(seen.calls, 0);
    EXPECT_EQ(seen.counts, std::set<int>{threads});
    EXPECT_EQ(set.environment.threads, threads);
    EXPECT_EQ(at::get_num_threads(), before);  // put back afterwards
}

TEST(ThreadScope, ParetoMeasuresItsCostModelAtTheConfiguredCount) {
    const int before = at::get_num_threads();
    const int threads = otherThreadCount();
    Observed seen;
    const ResultSet set =
        test::pareto(threadedConfig(threads), parseStrategies({"none"}), 2, seen.hooks());
    for (const RunResult& run : set.runs) EXPECT_TRUE(run.ok()) << run.strategy;
    EXPECT_GT(seen.calls, 0);
    EXPECT_EQ(seen.counts, std::set<int>{threads});  // "measuring the cost model" included
    EXPECT_EQ(set.environment.threads, threads);
    EXPECT_EQ(at::get_num_threads(), before);
}

TEST(ThreadScope, ScalingMeasuresEverySizeAtTheConfiguredCount) {
    const int before = at::get_num_threads();
    const int threads = otherThreadCount();
    Observed seen;
    const ResultSet set = test::scaling(threadedConfig(threads), ScalingAxis::Depth, {2, 3},
                                        parseStrategies({"none", "full"}), seen.hooks());
    for (const RunResult& run : set.runs) EXPECT_TRUE(run.ok()) << run.strategy;
    EXPECT_GT(seen.calls, 0);
    EXPECT_EQ(seen.counts, std::set<int>{threads});
    EXPECT_EQ(at::get_num_threads(), before);
}

// The CLI's plan and the app's live forecast measure through measureCostModel alone.
TEST(ThreadScope, CostModelIsMeasuredAtTheConfiguredCount) {
    const int before = at::get_num_threads();
    const int threads = otherThreadCount();
    EXPECT_EQ(measureCostModel(threadedConfig(threads)).threads, threads);
    EXPECT_EQ(at::get_num_threads(), before);
    // 0 keeps LibTorch's default.
    EXPECT_EQ(measureCostModel(threadedConfig(0)).threads, before);
}

// What a results file records about the machine, also when asked outside a measurement (the
// app's failed sweeps and its About box).
TEST(ThreadScope, EnvironmentReportsTheConfiguredCount) {
    const int threads = otherThreadCount();
    EXPECT_EQ(describeEnvironment(threadedConfig(threads)).threads, threads);
    EXPECT_EQ(describeEnvironment(threadedConfig(0)).threads, at::get_num_threads());
}
