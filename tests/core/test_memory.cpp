// The memory tracker and what the runner measures with it.
#include <gtest/gtest.h>
#include <torch/torch.h>
#include <torch/version.h>

#include "ckptlab/engine/runner.h"
#include "engine/memory_tracker.h"
#include "run_requests.h"
#include "strategy_text.h"
#include "test_configs.h"

using namespace ckptlab;

namespace {

using test::memoryConfig;

const RunResult& byName(const ResultSet& set, const std::string& name) {
    const RunResult* run = set.find(name);
    EXPECT_NE(run, nullptr) << name;
    return *run;
}

// The input's gradient among the gradients alive at `full`'s peak, in block 0's backward. With
// LibTorch 2.12 it is already there: the gradient of block 0's output, which the checkpoint
// holds at the peak (bytes `out`), passes through the residual connection and becomes the
// input's gradient, the block's own contribution added into it in place. LibTorch 1.13 adds the
// two into a new tensor after the peak. (The versions in between were not checked.)
std::int64_t inputGradientAtPeak([[maybe_unused]] std::int64_t out) {
#if TORCH_VERSION_MAJOR >= 2
    return out;
#else
    return 0;
#endif
}

}  // namespace

TEST(MemoryTracker, SeesAKnownAllocationExactly) {
    auto tracker = std::make_shared<engine::MemoryTracker>(c10::DeviceType::CPU);
    {
        engine::TrackingScope scope(tracker);
        tracker->setLabel(Phase::Forward, 3);
        auto t = torch::empty({1000, 3}, torch::kFloat32);
        EXPECT_EQ(tracker->total(), 12000);
        t.reset();
        EXPECT_EQ(tracker->total(), 0);
    }
    auto before = tracker->records().size();
    auto outside = torch::empty({10});  // not seen once the scope has ended
    EXPECT_EQ(tracker->records().size(), before);
    ASSERT_EQ(before, 2u);
    EXPECT_EQ(tracker->records()[0].delta, 12000);
    EXPECT_EQ(tracker->records()[1].delta, -12000);
    const auto& span = tracker->spans()[tracker->records()[0].span];
    EXPECT_EQ(span.phase, Phase::Forward);
    EXPECT_EQ(span.block, 3);
}

TEST(MemoryTracker, RunningTotalFollowsTheAllocatorsOwnCount) {
    auto tracker = std::make_shared<engine::MemoryTracker>(c10::DeviceType::CPU);
    {
        engine::TrackingScope scope(tracker);
        auto a = torch::randn({64, 64}, torch::requires_grad());
        auto b = torch::matmul(a, a).relu().sum();
        b.backward();
    }
    const auto& records = tracker->records();
    ASSERT_GT(records.size(), 4u);
    const std::int64_t offset = records[0].allocatorTotal - records[0].total;
    for (const auto& r : records) EXPECT_EQ(r.allocatorTotal - offset, r.total);
}

TEST(Measurement, FullKeepsAboutOneBlockInputPerBlock) {
    ExperimentConfig c = memoryConfig();
    ResultSet set = test::sweep(c, parseStrategies({"none", "full"}));
    const std::int64_t blockInput = std::int64_t(c.batch) * c.seq * c.width * 4;
    const auto& full = byName(set, "full");
    // One kept tensor per block (each checkpoint's output is the next one's input), plus the
    // CPU generator state each checkpoint saves for dropout (5 KiB in LibTorch 1.13).
    EXPECT_GE(full.metrics.activation_bytes, c.depth * blockInput);
    EXPECT_LE(full.metrics.activation_bytes, c.depth * (blockInput + 8192));
    // The seed's block keeps ~6 such tensors without checkpointing.
    const auto& none = byName(set, "none");
    EXPECT_GT(none.metrics.activation_bytes, 5 * c.depth * blockInput);
    EXPECT_LT(none.metrics.activation_bytes, 7 * c.depth * blockInput);
}

TEST(Measurement, ActivationsShrinkAsMoreBlocksAreCheckpointed) {
    ResultSet set =
        test::sweep(memoryConfig(), parseStrategies({"none", "every:4", "every:2", "full"}));
    const auto none = byName(set, "none").metrics.activation_bytes;
    const auto every4 = byName(set, "every:4").metrics.activation_bytes;
    const auto every2 = byName(set, "every:2").metrics.activation_bytes;
    const auto full = byName(set, "full").metrics.activation_bytes;
    EXPECT_GT(none, every4);
    EXPECT_GT(every4, every2);
    EXPECT_GT(every2, full);
    EXPECT_GT(byName(set, "none").metrics.peak_bytes, byName(set, "full").metrics.peak_bytes);
}

TEST(Measurement, TimelineLifetimesAndBreakdownAreConsistent) {
    ExperimentConfig c = memoryConfig();
    c.optimizer = Optimizer::Adam;
    ResultSet set = test::sweep(c, parseStrategies({"none", "segments:2"}));
    for (const auto& run : set.runs) {
        ASSERT_FALSE(run.error) << *run.error;
        std::int64_t max = 0;
        for (const auto& e : run.timeline) max = std::max(max, e.total);
        EXPECT_EQ(max, run.metrics.peak_bytes);
        const auto& b = run.breakdown;
        // Only the gradients (one per parameter and the input's) outlive the step.
        EXPECT_EQ(run.timeline.back().total, b.parameters + b.input);
        EXPECT_EQ(b.gradients + b.activations + b.other, run.metrics.peak_bytes);
        EXPECT_EQ(b.optimizer_state, 2 * b.parameters);  // Adam's two moments
        EXPECT_EQ(run.metrics.baseline_bytes, b.parameters + b.input + b.optimizer_state);
        EXPECT_FALSE(run.blocks.empty());
        for (const auto& life : run.blocks) EXPECT_GE(life.freed_ms, life.saved_ms);
    }
    const auto& segments = byName(set, "segments:2");
    int recomputeLifetimes = 0;
    for (const auto& life : segments.blocks) recomputeLifetimes += life.phase == Phase::Recompute;
    EXPECT_EQ(recomputeLifetimes, c.depth);
    EXPECT_EQ(segments.metrics.recomputed_blocks, c.depth);
}

// The peak of `full` is what the engine's ownership rules leave alive at the worst moment, and
// nothing more: the moment is block 0's backward (the last, when 7 blocks' parameter gradients
// exist), right after the ReLU's backward, in PyTorch's order of an addmm's gradients. Summed
// here from the shapes; the same sum is PyTorch's non-reentrant torch.utils.checkpoint at that
// moment (the recomputed block output is dropped before its backward; docs/MEASUREMENTS.md,
// "Peak memory against PyTorch's").
TEST(Measurement, FullPeakIsTheAnalyticMinimumOfTheOwnershipRules) {
    const ExperimentConfig c = memoryConfig();
    ASSERT_EQ(c.block, BlockKind::Ffn);
    ResultSet set = test::sweep(c, parseStrategies({"full"}));
    const auto& full = byName(set, "full");
    ASSERT_FALSE(full.error) << *full.error;
    const std::int64_t e = 4;  // float32
    const std::int64_t n = std::int64_t(c.batch) * c.seq, d = c.width;
    const std::int64_t out = n * d * e;         // a block's output (= the next one's input)
    const std::int64_t hidden = n * 4 * d * e;  // the 4d-wide activations
    const std::int64_t block = (2 * d + 8 * d * d + 5 * d) * e;  // one block's parameters
    const std::int64_t rng = at::detail::getDefaultCPUGenerator().get_state().nbytes();
    const std::int64_t expected =
        (c.depth - 1) * block    // the gradients of blocks 1..L-1
        + d * e + 4 * d * d * e  // block 0's `down` bias and weight gradients, just made
        + out                    // the step's output, held until the step ends
        + 2 * e                  // the loss and its gradient
        + rng                    // block 0's checkpoint: the RNG state it restores
        + out                    // the gradient of block 0's output, held by the checkpoint
        + out + 2 * n * e        // recomputed LayerNorm output, its mean and rstd
        + hidden                 // recomputed ReLU output (its input, `up`'s, is freed)
        + hidden                 // gradient of the ReLU output
        + hidden;                // gradient of `up`'s output (the ReLU's backward)
    EXPECT_EQ(full.metrics.peak_bytes, expected);
    // The stored inputs: one block output per checkpoint (block 0's is the step's input).
    EXPECT_EQ(full.metrics.activation_bytes, c.depth * (out + rng));
    EXPECT_EQ(full.breakdown.gradients,
              (c.depth - 1) * block + d * e + 4 * d * d * e + inputGradientAtPeak(out));
}

// The same for the transformer block, at a shape where its peak is in block 0's attention
// backward (S x S scores larger than the 4d-wide FFN tensors), right after the softmax's
// backward. The moment PyTorch's non-reentrant checkpoint peaks too, with the same tensors
// (bench/side_by_side/torch_side_by_side.py). There the FFN sub-block's residual gradient has
// been accumulated into the block's incoming gradient in place; a checkpoint that kept the
// incoming gradient alive through the whole segment's backward held one block output more.
TEST(Measurement, TransformerFullPeakIsTheAnalyticMinimumOfTheOwnershipRules) {
    ExperimentConfig c = test::quickConfig(BlockKind::Transformer, 4, 32, 128, 2, /*dropout=*/0);
    c.threads = 1;
    ResultSet set = test::sweep(c, parseStrategies({"full"}));
    const auto& full = byName(set, "full");
    ASSERT_FALSE(full.error) << *full.error;
    const std::int64_t e = 4;  // float32
    const std::int64_t n = std::int64_t(c.batch) * c.seq, d = c.width;
    const std::int64_t out = n * d * e;  // a sub-block's output, and q, k, v each
    const std::int64_t scores = std::int64_t(c.batch) * c.heads * c.seq * c.seq * e;
    const std::int64_t lnGrads = 2 * d * e;
    const std::int64_t attention = lnGrads + (3 * d * d + 3 * d) * e + (d * d + d) * e;
    const std::int64_t ffn = lnGrads + (4 * d * d + 4 * d) * e + (4 * d * d + d) * e;
    const std::int64_t rng = at::detail::getDefaultCPUGenerator().get_state().nbytes();
    ASSERT_GT(scores, 4 * out);  // the attention's backward is where the peak is
    const std::int64_t expected =
        (c.depth - 1) * (attention + ffn)  // the gradients of blocks 1..L-1
        + ffn                              // block 0's FFN gradients
        + (d * d + d) * e                  // block 0's `proj` gradients, just made
        + out                              // the step's output, held until the step ends
        + 2 * e                            // the loss and its gradient
        + rng                              // block 0's checkpoint: the RNG state it restores
        + out                              // the gradient of block 0's middle (h = x + attn(x)),
                                           // in the memory of the block's incoming gradient
        + out + 2 * n * e                  // recomputed LayerNorm output, its mean and rstd
        + 2 * out                          // q and kᵀ as the first product saves them
        + out                              // v's gradient, waiting for q's and k's
        + 3 * scores;                      // softmax output, its gradient, the scores'
    EXPECT_EQ(full.metrics.peak_bytes, expected);
    EXPECT_EQ(full.breakdown.gradients,
              (c.depth - 1) * (attention + ffn) + ffn + (d * d + d) * e + inputGradientAtPeak(out));
}
