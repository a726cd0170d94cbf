// The chain's two ends (ExperimentConfig::vocab): the token embedding, the final norm, the LM
// head and the cross-entropy, tied or not, in loss chunks or not, under every strategy.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "ckptlab/engine/runner.h"
#include "ckptlab/planning/planner.h"
#include "engine/chain_ends.h"
#include "engine/executor.h"
#include "engine/generators.h"
#include "engine/grad_check.h"
#include "engine/reference_gradients.h"
#include "engine/step.h"
#include "run_requests.h"
#include "tensor_tolerance.h"
#include "test_configs.h"

using namespace ckptlab;
using namespace ckptlab::engine;

namespace {

ExperimentConfig endsConfig(BlockKind block, int lossChunks = 1) {
    // Dropout only where the block has it: the transformer's recompute must replay its masks.
    const double dropout = block == BlockKind::Transformer ? 0.2 : 0.0;
    ExperimentConfig c = test::quickConfig(block, 4, 32, 16, 2, dropout);
    c.vocab = 96;
    c.loss_chunks = lossChunks;
    return c;
}

Plan planOf(const std::string& strategy, const ExperimentConfig& c) {
    return makePlan(parseStrategy(strategy, c.depth, c.block), c.depth);
}

// One forward and backward of `plan` on a fresh workbench's step; the loss and the gradients.
struct LossAndGradients {
    double loss = 0;
    std::vector<torch::Tensor> gradients;
};

LossAndGradients lossAndGradients(const ExperimentConfig& c, const std::string& strategy) {
    Workbench bench(c, torch::kCPU);
    StepContext context;
    reseed(bench.model.generator(), c.seed + 1);
    Executor executor(bench.model, planOf(strategy, c), context);
    torch::Tensor loss = executor.forward(bench.input, bench.targets);
    loss.backward();
    return {loss.item<double>(), snapshot(bench.gradients())};
}

const RunResult& runNamed(const ResultSet& set, const std::string& name) {
    const RunResult* run = set.find(name);
    EXPECT_NE(run, nullptr) << name;
    return *run;
}

bool hasSpan(const RunResult& run, Phase phase, int block) {
    return std::any_of(run.phases.begin(), run.phases.end(),
                       [&](const PhaseSpan& s) { return s.phase == phase && s.block == block; });
}

// "optimal:<MiB>" halfway between two peaks.
std::string optimalBetween(std::int64_t low, std::int64_t high) {
    char text[64];
    std::snprintf(text, sizeof text, "optimal:%.3f", (low + high) / 2.0 / (1024.0 * 1024.0));
    return text;
}

}  // namespace

TEST(ChainEnds, EveryStrategyPassesTheGradientCheck) {
    for (BlockKind block : {BlockKind::Ffn, BlockKind::Transformer, BlockKind::Llama}) {
        for (int chunks : {1, 3}) {
            SCOPED_TRACE(toString(block) + ", loss chunks " + std::to_string(chunks));
            const ExperimentConfig c = endsConfig(block, chunks);
            const ResultSet hand =
                test::sweep(c, parseStrategies({"none", "full", "every:2", "sqrt"}));
            for (const RunResult& run : hand.runs) {
                ASSERT_FALSE(run.error) << run.strategy.name() << ": " << *run.error;
                EXPECT_TRUE(run.grad_check.passed())
                    << run.strategy.name() << ": " << run.grad_check.max_abs_diff << " > "
                    << run.grad_check.tolerance << " " << run.grad_check.note;
                // On CPU a recompute replays the same kernels on the same shapes.
                EXPECT_EQ(run.grad_check.max_abs_diff, 0.0) << run.strategy.name();
            }
            // Recomputed blocks count blocks only, never the head's recomputed chunks.
            EXPECT_EQ(runNamed(hand, "full").metrics.recomputed_blocks, c.depth);
            EXPECT_EQ(runNamed(hand, "none").metrics.recomputed_blocks, 0);

            const std::string optimal = optimalBetween(runNamed(hand, "full").metrics.peak_bytes,
                                                       runNamed(hand, "none").metrics.peak_bytes);
            const ResultSet planned = test::sweep(c, parseStrategies({"none", optimal}));
            const RunResult& run = runNamed(planned, optimal);
            ASSERT_FALSE(run.error) << optimal << ": " << *run.error;
            EXPECT_TRUE(run.grad_check.passed()) << optimal << ": " << run.grad_check.note;
        }
    }
}

TEST(ChainEnds, GradientsAreTheParametersOnlyAndNamedByEnd) {
    const ExperimentConfig c = endsConfig(BlockKind::Ffn);
    Workbench bench(c, torch::kCPU);
    EXPECT_EQ(bench.input.scalar_type(), torch::kInt64);
    EXPECT_FALSE(bench.input.requires_grad());
    EXPECT_GE(bench.input.min().item<std::int64_t>(), 0);
    EXPECT_LT(bench.input.max().item<std::int64_t>(), c.vocab);
    // Each position's target is the next token; the last wraps to its sequence's first.
    EXPECT_TRUE(
        torch::equal(bench.targets.narrow(1, 0, c.seq - 1), bench.input.narrow(1, 1, c.seq - 1)));
    EXPECT_TRUE(torch::equal(bench.targets.select(1, c.seq - 1), bench.input.select(1, 0)));

    StepContext context;
    runStep(bench, planOf("full", c), context);
    const auto gradients = bench.gradients();
    const auto names = gradientNames(bench.model);
    ASSERT_EQ(gradients.size(), bench.model.parameters().size());  // no input gradient
    ASSERT_EQ(names.size(), gradients.size());
    EXPECT_EQ(names.front(), "embedding weight");
    EXPECT_EQ(names[names.size() - 2], "head norm.weight");
    EXPECT_EQ(names.back(), "head proj.weight");
    EXPECT_EQ(gradients.front().sizes(), (std::vector<std::int64_t>{c.vocab, c.width}));
    EXPECT_EQ(gradients.back().sizes(), (std::vector<std::int64_t>{c.vocab, c.width}));
    for (const auto& g : gradients) EXPECT_TRUE(g.defined());
}

// Tied, the head's projection is the embedding's weight: one weight fewer, and its gradient is
// the sum of what its two uses give, here computed by hand with two separate copies of it.
TEST(ChainEnds, TiedWeightGetsTheSumOfBothUses) {
    ExperimentConfig c = endsConfig(BlockKind::Ffn);
    const std::size_t untied = Workbench(c, torch::kCPU).model.parameters().size();
    c.tie_embeddings = true;
    Workbench bench(c, torch::kCPU);
    EXPECT_EQ(bench.model.parameters().size(), untied - 1);
    EXPECT_TRUE(bench.model.head().tied());
    EXPECT_EQ(gradientNames(bench.model).back(), "head norm.weight");
    StepContext context;
    runStep(bench, planOf("none", c), context);
    const torch::Tensor tiedGradient = bench.model.embedding().weight.grad().clone();

    // By hand: the lookup with one copy, the logits with the other, the norm written out.
    const torch::Tensor weight = bench.model.embedding().weight.detach();
    const torch::Tensor lookup = weight.clone().requires_grad_(true);
    const torch::Tensor projection = weight.clone().requires_grad_(true);
    torch::Tensor x = torch::embedding(lookup, bench.input);
    for (int i = 0; i < c.depth; ++i) x = bench.model.block(i).forward(x);
    const torch::Tensor normWeight = bench.model.head().weights()[0].detach();
    const torch::Tensor normed =
        normWeight * (x * torch::rsqrt(x.pow(2).mean(-1, true) + c.rms_norm_eps));
    const torch::Tensor logits = torch::matmul(normed, projection.t());
    const torch::Tensor loss =
        -torch::log_softmax(logits, -1).gather(-1, bench.targets.unsqueeze(-1)).mean();
    loss.backward();
    const torch::Tensor byHand = lookup.grad() + projection.grad();
    EXPECT_TRUE(lookup.grad().abs().max().item<double>() > 0);
    EXPECT_TRUE(projection.grad().abs().max().item<double>() > 0);
    // The hand computation sums in other orders (mean, matmul): within the tolerance of a step.
    const GradCheckSize size = gradCheckSize(c);
    EXPECT_TRUE(test::closeForItsSize(byHand, tiedGradient, {size.reduction, size.layers}));
}

TEST(ChainEnds, LossChunksGiveTheSameLossAndGradients) {
    for (BlockKind block : {BlockKind::Ffn, BlockKind::Transformer}) {
        for (bool tied : {false, true}) {
            SCOPED_TRACE(toString(block) + (tied ? ", tied" : ", untied"));
            ExperimentConfig c = endsConfig(block, 1);
            c.tie_embeddings = tied;
            const LossAndGradients whole = lossAndGradients(c, "every:2");
            c.loss_chunks = 4;
            const LossAndGradients chunked = lossAndGradients(c, "every:2");
            const GradCheckSize size = gradCheckSize(c);
            // The loss is a sum over every token's log-probability, in another order.
            EXPECT_NEAR(chunked.loss, whole.loss,
                        test::tolerance::relative(test::tolerance::kFloat32,
                                                  std::int64_t{c.batch} * c.seq * c.vocab) *
                            std::abs(whole.loss));
            ASSERT_EQ(chunked.gradients.size(), whole.gradients.size());
            for (std::size_t i = 0; i < whole.gradients.size(); ++i) {
                EXPECT_TRUE(test::closeForItsSize(whole.gradients[i], chunked.gradients[i],
                                                  {size.reduction, size.layers}))
                    << i;
            }
        }
    }
}

// In bfloat16 each chunk rounds its own sum: equal within the gradient check's bf16 rule.
TEST(ChainEnds, LossChunksInBFloat16AreWithinTheGradientChecksTolerance) {
    ExperimentConfig c = endsConfig(BlockKind::Ffn, 1);
    c.dtype = DType::BFloat16;
    const LossAndGradients whole = lossAndGradients(c, "full");
    c.loss_chunks = 4;
    const LossAndGradients chunked = lossAndGradients(c, "full");
    const GradCheckSize size = gradCheckSize(c);
    EXPECT_NEAR(chunked.loss, whole.loss, gradTolerance(size, std::abs(whole.loss)));
    const GradCheck check = checkGradients(whole.gradients, chunked.gradients, size);
    EXPECT_TRUE(check.passed()) << check.max_abs_diff << " > " << check.tolerance;
    EXPECT_GT(check.max_abs_diff, 0.0);  // the chunks did round differently
}

TEST(ChainEnds, UnitByUnitReferenceEqualsTheNoneStep) {
    for (int chunks : {1, 3}) {
        for (bool tied : {false, true}) {
            ExperimentConfig c = endsConfig(BlockKind::Transformer, chunks);
            c.tie_embeddings = tied;
            Workbench bench(c, torch::kCPU);
            StepContext context;
            runStep(bench, planOf("none", c), context);
            const auto none = snapshot(bench.gradients());
            const auto reference = unitByUnitReferenceGradients(bench);
            ASSERT_EQ(reference.size(), none.size());
            // The same kernels on the same shapes, the head's chunks in the step's order.
            EXPECT_EQ(maxAbsDiff(none, reference), 0.0) << "chunks " << chunks << " tied " << tied;
        }
    }
}

TEST(ChainEnds, TimelineAndLifetimesKnowBothEnds) {
    const ExperimentConfig c = endsConfig(BlockKind::Ffn, 2);
    const ResultSet set = test::sweep(c, parseStrategies({"full"}));
    const RunResult& run = runNamed(set, "full");
    ASSERT_FALSE(run.error) << *run.error;
    EXPECT_TRUE(hasSpan(run, Phase::Forward, kEmbeddingBlock));
    EXPECT_TRUE(hasSpan(run, Phase::Backward, kEmbeddingBlock));
    EXPECT_TRUE(hasSpan(run, Phase::Forward, kHeadBlock));
    EXPECT_TRUE(hasSpan(run, Phase::Recompute, kHeadBlock));  // the loss chunks
    EXPECT_TRUE(hasSpan(run, Phase::Backward, kHeadBlock));
    EXPECT_FALSE(hasSpan(run, Phase::Loss, -1));  // the loss is the head's
    auto eventsOf = [&](int block) {
        return std::count_if(run.timeline.begin(), run.timeline.end(),
                             [&](const TimelineEvent& e) { return e.block == block; });
    };
    EXPECT_GT(eventsOf(kEmbeddingBlock), 0);
    EXPECT_GT(eventsOf(kHeadBlock), 0);
    // The embedding's output is the first checkpoint's input: it lives until the backward.
    EXPECT_TRUE(std::any_of(run.blocks.begin(), run.blocks.end(),
                            [](const BlockLifetime& l) { return l.block == kEmbeddingBlock; }));
    const auto& b = run.breakdown;
    EXPECT_EQ(b.input, 2 * std::int64_t{c.batch} * c.seq * 8);  // token ids and targets, int64
    EXPECT_EQ(b.gradients + b.activations + b.other + b.logits, run.metrics.peak_bytes);
    EXPECT_EQ(describeWhere(Phase::Backward, kHeadBlock), "backward of the LM head");
    EXPECT_EQ(describeWhere(Phase::Forward, kEmbeddingBlock), "forward of the embedding");
}

// The whole logits (B x S x V) and their log-probabilities, 4 bytes each per element, dwarf the
// blocks here; in 4 loss chunks only a quarter of them exists at a time. Unchunked, the head's
// backward holds the log-probabilities, their gradient and the logits' gradient at once (3 x
// B·S·V·4); chunked a quarter of that, plus each chunk's projection gradient (V·d·4) before
// it is added in. Measured with LibTorch 1.13.1 on 2026-12-02: peak 6820872 -> 2337992 bytes,
// a saving of 4482880 bytes = 2.14 x B·S·V·4 (B·S·V·4 = 2 MiB); the head's share of the
// peaks (Breakdown::logits) 6390792 and 1907912 bytes.
TEST(ChainEnds, LossChunksLowerThePeakByWhatTheLogitsCost) {
    ExperimentConfig c = test::quickConfig(BlockKind::Ffn, 2, 32, 128, 2);
    c.vocab = 2048;
    c.threads = 1;
    const std::int64_t logits = std::int64_t{c.batch} * c.seq * c.vocab * 4;  // 2 MiB
    const RunResult whole = test::sweep(c, parseStrategies({"none"})).runs.at(0);
    c.loss_chunks = 4;
    const RunResult chunked = test::sweep(c, parseStrategies({"none"})).runs.at(0);
    ASSERT_FALSE(whole.error) << *whole.error;
    ASSERT_FALSE(chunked.error) << *chunked.error;
    const std::int64_t saving = whole.metrics.peak_bytes - chunked.metrics.peak_bytes;
    std::printf(
        "peak %lld -> %lld bytes, saving %lld = %.3f x B*S*V*4; logits at the peaks %lld, %lld\n",
        static_cast<long long>(whole.metrics.peak_bytes),
        static_cast<long long>(chunked.metrics.peak_bytes), static_cast<long long>(saving),
        double(saving) / logits, static_cast<long long>(whole.breakdown.logits),
        static_cast<long long>(chunked.breakdown.logits));
    EXPECT_GE(saving, 3 * 2 * logits / 4);  // at least most of the logits and log-probabilities

    // Unchunked, the peak is inside the head, and what the head holds then is counted apart.
    const auto peak =
        std::find_if(whole.timeline.begin(), whole.timeline.end(),
                     [&](const TimelineEvent& e) { return e.total == whole.metrics.peak_bytes; });
    ASSERT_NE(peak, whole.timeline.end());
    EXPECT_EQ(peak->block, kHeadBlock);
    EXPECT_GE(whole.breakdown.logits, 2 * logits);
    EXPECT_EQ(whole.breakdown.gradients + whole.breakdown.activations + whole.breakdown.other +
                  whole.breakdown.logits,
              whole.metrics.peak_bytes);
}

// A limit the blocks fit under but not the head's logits: the step runs out of memory in the
// LM head, and says so.
TEST(ChainEnds, RunningOutOfMemoryInTheHeadNamesIt) {
    ExperimentConfig c = test::quickConfig(BlockKind::Ffn, 2, 32, 128, 2);
    c.vocab = 2048;
    const std::int64_t logits = std::int64_t{c.batch} * c.seq * c.vocab * 4;
    Workbench bench(c, torch::kCPU);
    StepContext context;
    context.tracker = std::make_shared<MemoryTracker>(c10::DeviceType::CPU);
    context.tracker->setLimit(0, logits);  // one whole logits tensor, not its log-probabilities
    TrackingScope scope(context.tracker);
    try {
        runStep(bench, planOf("none", c), context);
        ADD_FAILURE() << "the step fitted under " << logits << " bytes";
    } catch (const OutOfMemoryError& e) {
        EXPECT_EQ(e.where.block, kHeadBlock);
        EXPECT_EQ(e.where.phase, Phase::Forward);
        EXPECT_NE(std::string(e.what()).find("forward of the LM head"), std::string::npos)
            << e.what();
    }
    bench.clearGradients();
}
