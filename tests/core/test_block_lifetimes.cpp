// Each block's activation lifetime (RunResult::blocks): from the end of its forward to the
// moment its backward freed what the forward saved. The chain's output is saved by no
// backward; the step holds it until it ends, as a PyTorch user's `out` does (the tutorial's
// `out_normal.sum().backward()`), and it is not the last block's activations: without
// checkpointing the last block's lifetime is the shortest, block 0's the longest.
#include <gtest/gtest.h>

#include <limits>

#include "ckptlab/engine/runner.h"
#include "run_requests.h"
#include "strategy_text.h"
#include "test_configs.h"

using namespace ckptlab;
using namespace ckptlab::test;

namespace {

// The block's backward: from its first backward span's start to its last one's end.
struct Window {
    double begin = std::numeric_limits<double>::infinity();
    double end = -std::numeric_limits<double>::infinity();
};

Window backwardOf(const RunResult& run, int block) {
    Window w;
    for (const auto& span : run.phases) {
        if (span.phase != Phase::Backward || span.block != block) continue;
        w.begin = std::min(w.begin, span.begin_ms);
        w.end = std::max(w.end, span.end_ms);
    }
    return w;
}

}  // namespace

TEST(BlockLifetimes, EachBlocksActivationsAreFreedByItsOwnBackward) {
    for (BlockKind block : {BlockKind::Ffn, BlockKind::Transformer}) {
        ExperimentConfig c = quickConfig(block, 6, 64, 64, 2, 0.0);
        c.threads = 1;
        const ResultSet set = test::sweep(c, parseStrategies({"none"}));
        const RunResult& run = set.runs.front();
        ASSERT_FALSE(run.error) << *run.error;
        ASSERT_EQ(run.blocks.size(), std::size_t(c.depth));
        double previous = std::numeric_limits<double>::infinity();
        for (const auto& life : run.blocks) {
            SCOPED_TRACE(testing::Message()
                         << "block " << life.block << " of kind " << static_cast<int>(block));
            const Window w = backwardOf(run, life.block);
            EXPECT_GE(life.freed_ms, w.begin);
            // The last block's used to run to the step's end: the output held by the step.
            EXPECT_LE(life.freed_ms, w.end);
            const double lifetime = life.freed_ms - life.saved_ms;
            EXPECT_LT(lifetime, previous) << "not shorter than the block before";
            previous = lifetime;
        }
    }
}

// The last block's bytes are what its backward needs, without the chain's output: the output
// is one B x S x d tensor, and every other block's bytes include theirs (the next block saves
// it as its input).
TEST(BlockLifetimes, TheChainsOutputIsNotTheLastBlocksActivation) {
    ExperimentConfig c = quickConfig(BlockKind::Ffn, 6, 64, 64, 2, 0.0);
    c.threads = 1;
    const ResultSet set = test::sweep(c, parseStrategies({"none"}));
    const RunResult& run = set.runs.front();
    ASSERT_FALSE(run.error) << *run.error;
    const std::int64_t output = std::int64_t{c.batch} * c.seq * c.width * 4;
    EXPECT_EQ(run.blocks.back().bytes, run.blocks.front().bytes - output);
}
