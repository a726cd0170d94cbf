// Matmul FLOPs of a step (flops.h), against counts done by hand for tiny configs, and the
// results file's step_gflop / gflop_per_s fields.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "ckptlab/formats/results_io.h"
#include "ckptlab/planning/flops.h"
#include "strategy_text.h"

namespace ckptlab {
namespace {

ExperimentConfig tinyFfn() {
    ExperimentConfig c;
    c.block = BlockKind::Ffn;
    c.depth = 2;
    c.width = 8;
    c.seq = 4;
    c.batch = 1;
    return c;
}

ExperimentConfig tinyTransformer() {
    ExperimentConfig c = tinyFfn();
    c.block = BlockKind::Transformer;
    c.depth = 1;
    c.heads = 2;
    return c;
}

// By hand, ffn with N = B·S = 4 tokens, d = 8:
//   up   [4, 8]·[8, 32]: 4·8·32 = 1024 multiply-adds = 2048 FLOPs
//   down [4, 32]·[32, 8]: 1024 multiply-adds = 2048 FLOPs        -> 4096 per block forward
TEST(Flops, FfnBlockByHand) {
    EXPECT_DOUBLE_EQ(unitForwardFlops(tinyFfn(), 0), 4096);
    EXPECT_DOUBLE_EQ(blockForwardFlops(tinyFfn()), 4096);
    EXPECT_THROW(unitForwardFlops(tinyFfn(), 1), std::invalid_argument);
}

// By hand, transformer with B = 1, S = 4, d = 8, 2 heads of 4:
//   qkv   [4, 8]·[8, 24]:             768 MACs = 1536 FLOPs
//   QKᵀ   2 heads × [4, 4]·[4, 4]:    128 MACs =  256 FLOPs
//   P·V   2 heads × [4, 4]·[4, 4]:    128 MACs =  256 FLOPs
//   proj  [4, 8]·[8, 8]:              256 MACs =  512 FLOPs   -> attention 2560
//   ffn as above                                               -> 4096
TEST(Flops, TransformerBlockByHand) {
    EXPECT_DOUBLE_EQ(unitForwardFlops(tinyTransformer(), 0), 2560);
    EXPECT_DOUBLE_EQ(unitForwardFlops(tinyTransformer(), 1), 4096);
    EXPECT_DOUBLE_EQ(blockForwardFlops(tinyTransformer()), 6656);
    // The heads split d: their number does not change the work.
    ExperimentConfig oneHead = tinyTransformer();
    oneHead.heads = 1;
    EXPECT_DOUBLE_EQ(blockForwardFlops(oneHead), 6656);
}

ExperimentConfig tinyLlama() {
    ExperimentConfig c = tinyTransformer();
    c.block = BlockKind::Llama;
    c.kv_heads = 1;
    c.ffn_width = 16;
    return c;
}

// By hand, llama with B = 1, S = 4, d = 8, 2 query heads and 1 key/value head of 4, f = 16:
//   q     [4, 8]·[8, 8]:              256 MACs =  512 FLOPs
//   k, v  [4, 8]·[8, 4] each:         128 MACs =  256 FLOPs each
//   QKᵀ   2 heads × [4, 4]·[4, 4]:    128 MACs =  256 FLOPs (causal, counted in full)
//   P·V   2 heads × [4, 4]·[4, 4]:    128 MACs =  256 FLOPs
//   o     [4, 8]·[8, 8]:              256 MACs =  512 FLOPs   -> attention 2048
//   gate, up [4, 8]·[8, 16], down [4, 16]·[16, 8]: 512 MACs = 1024 FLOPs each -> MLP 3072
TEST(Flops, LlamaBlockByHand) {
    EXPECT_DOUBLE_EQ(unitForwardFlops(tinyLlama(), 0), 2048);
    EXPECT_DOUBLE_EQ(unitForwardFlops(tinyLlama(), 1), 3072);
    EXPECT_DOUBLE_EQ(blockForwardFlops(tinyLlama()), 5120);
    EXPECT_THROW(unitForwardFlops(tinyLlama(), 2), std::invalid_argument);
    // As many key/value heads as query heads: the transformer's attention count.
    ExperimentConfig full = tinyLlama();
    full.kv_heads = 0;
    EXPECT_DOUBLE_EQ(unitForwardFlops(full, 0), unitForwardFlops(tinyTransformer(), 0));
    // A head width of its own: q and o are heads × head_dim wide, not d.
    ExperimentConfig wide = tinyLlama();
    wide.head_dim = 8;  // q 16 wide, k and v 8
    EXPECT_DOUBLE_EQ(unitForwardFlops(wide, 0), 1024 + 2 * 512 + 2 * 512 + 1024);
    // Llama's hidden width by default: 2/3 of 4d rounded up to 256 (d = 256: 768).
    ExperimentConfig c;
    c.block = BlockKind::Llama;
    EXPECT_DOUBLE_EQ(unitForwardFlops(c, 1), 6.0 * 512 * 256 * 768);
}

TEST(Flops, TheMlpWidthIsTheConfigsWhenSet) {
    ExperimentConfig c = tinyFfn();
    c.ffn_width = 16;  // up and down [4, 8]·[8, 16]: 512 MACs each
    EXPECT_DOUBLE_EQ(unitForwardFlops(c, 0), 2048);
    c = tinyTransformer();
    c.ffn_width = 16;
    EXPECT_DOUBLE_EQ(unitForwardFlops(c, 1), 2048);
}

TEST(Flops, StepWithoutRecompute) {
    // Two blocks: forward 2 × 4096, backward 2 × forward.
    const StepFlops none = stepFlops(tinyFfn(), {1, 1});
    EXPECT_DOUBLE_EQ(none.forward, 8192);
    EXPECT_DOUBLE_EQ(none.recompute, 0);
    EXPECT_DOUBLE_EQ(none.backward, 16384);
    EXPECT_DOUBLE_EQ(none.total(), 24576);
    // Empty counts mean once each.
    EXPECT_DOUBLE_EQ(stepFlops(tinyFfn()).total(), 24576);
}

TEST(Flops, RecomputeFollowsTheForwardCounts) {
    // full: every block's forward runs twice.
    const StepFlops full = stepFlops(tinyFfn(), {2, 2});
    EXPECT_DOUBLE_EQ(full.recompute, 8192);
    EXPECT_DOUBLE_EQ(full.total(), 32768);
    // Nested recompute: block 0 three times, block 1 once.
    EXPECT_DOUBLE_EQ(stepFlops(tinyFfn(), {3, 1}).recompute, 2 * 4096);
    // Transformer units: attention recomputed once, FFN not (the `attn` strategy).
    const StepFlops attn = stepFlops(tinyTransformer(), {2, 1});
    EXPECT_DOUBLE_EQ(attn.forward, 6656);
    EXPECT_DOUBLE_EQ(attn.recompute, 2560);
    EXPECT_DOUBLE_EQ(attn.backward, 13312);
    EXPECT_THROW(stepFlops(tinyTransformer(), {2}), std::invalid_argument);
    EXPECT_THROW(stepFlops(tinyFfn(), {1, 1, 1}), std::invalid_argument);
}

TEST(Flops, TheLmHeadCountsOnceMoreWithLossChunks) {
    ExperimentConfig c = tinyFfn();
    c.vocab = 100;
    const double head = 2.0 * c.batch * c.seq * c.width * c.vocab;  // Linear d→V
    EXPECT_DOUBLE_EQ(headForwardFlops(c), head);
    const StepFlops plain = stepFlops(tinyFfn(), {1, 1});
    const StepFlops withHead = stepFlops(c, {1, 1});
    EXPECT_DOUBLE_EQ(withHead.forward - plain.forward, head);
    EXPECT_DOUBLE_EQ(withHead.backward - plain.backward, 2 * head);
    EXPECT_DOUBLE_EQ(withHead.recompute, 0);
    c.loss_chunks = 2;  // each chunk's head runs again in backward
    EXPECT_DOUBLE_EQ(stepFlops(c, {1, 1}).recompute, head);
}

TEST(Flops, MemoryEfficientAttentionRecomputesItsScores) {
    ExperimentConfig c = tinyTransformer();
    c.dropout = 0;
    const StepFlops eager = stepFlops(c, {1, 1});
    c.attention = AttentionKind::MemoryEfficient;
    const StepFlops chunked = stepFlops(c, {1, 1});
    EXPECT_DOUBLE_EQ(chunked.forward, eager.forward);
    // Q·Kᵀ once more: 2·B·S²·d.
    EXPECT_DOUBLE_EQ(chunked.recompute, 2.0 * c.batch * c.seq * c.seq * c.width);
}

TEST(Flops, DefaultConfigScalesAsTheFormula) {
    // ffn at the default config: 16·N·d² per block, N = 2·256, d = 256.
    ExperimentConfig c;
    const double perBlock = 16.0 * 512 * 256 * 256;
    EXPECT_DOUBLE_EQ(blockForwardFlops(c), perBlock);
    EXPECT_DOUBLE_EQ(stepFlops(c).total(), 3 * 20 * perBlock);  // 10.7 GFLOP
    // Attention: 8·N·d² + 4·B·S²·d, the S² part growing 4× when S doubles.
    c.block = BlockKind::Transformer;
    EXPECT_DOUBLE_EQ(unitForwardFlops(c, 0), 8.0 * 512 * 256 * 256 + 4.0 * 2 * 256 * 256 * 256);
    c.seq = 512;
    EXPECT_DOUBLE_EQ(unitForwardFlops(c, 0), 8.0 * 1024 * 256 * 256 + 4.0 * 2 * 512 * 512 * 256);
}

TEST(Flops, RateOfAStep) {
    EXPECT_DOUBLE_EQ(*gflopPerSecond(2e9, 1000), 2.0);
    EXPECT_DOUBLE_EQ(*gflopPerSecond(24576, 0.001), 24.576);
    EXPECT_FALSE(gflopPerSecond(1e9, 0));
    EXPECT_FALSE(gflopPerSecond(1e9, std::nan("")));
    EXPECT_FALSE(gflopPerSecond(1e9, -1));
}

RunResult measuredRun() {
    RunResult run;
    run.config = tinyFfn();
    run.strategy = test::strategy("full");
    run.forward_counts = {2, 2};
    run.schedule = "ckpt[0,1){0} ckpt[1,2){1}";
    run.metrics.step_ms = 0.004;
    run.metrics.step_samples_ms = {0.004};
    return run;
}

TEST(Flops, SetOnARunFromItsCountsAndMedian) {
    RunResult run = measuredRun();
    setFlopMetrics(run);
    ASSERT_TRUE(run.metrics.step_gflop && run.metrics.gflop_per_s);
    EXPECT_DOUBLE_EQ(*run.metrics.step_gflop, 32768e-9);
    EXPECT_DOUBLE_EQ(*run.metrics.gflop_per_s, 32768 / 0.004e-3 / 1e9);  // 8.192
    run.error = "out of memory";
    setFlopMetrics(run);
    EXPECT_FALSE(run.metrics.step_gflop);
    EXPECT_FALSE(run.metrics.gflop_per_s);
}

TEST(Flops, RoundTripThroughTheResultsFile) {
    ResultSet set;
    set.runs = {measuredRun()};
    setFlopMetrics(set.runs[0]);
    const std::string text = resultsToJson(set);
    EXPECT_NE(text.find("\"gflop_per_s\""), std::string::npos);
    const ResultSet loaded = resultsFromJson(text);
    ASSERT_EQ(loaded.runs.size(), 1u);
    ASSERT_TRUE(loaded.runs[0].metrics.gflop_per_s);
    EXPECT_DOUBLE_EQ(*loaded.runs[0].metrics.gflop_per_s, *set.runs[0].metrics.gflop_per_s);
    EXPECT_DOUBLE_EQ(*loaded.runs[0].metrics.step_gflop, *set.runs[0].metrics.step_gflop);

    // Files from before the fields: absent, not zero.
    set.runs[0].metrics.step_gflop.reset();
    set.runs[0].metrics.gflop_per_s.reset();
    const std::string old = resultsToJson(set);
    EXPECT_EQ(old.find("gflop"), std::string::npos);
    EXPECT_FALSE(resultsFromJson(old).runs[0].metrics.gflop_per_s);

    // A negative rate is refused with its place.
    std::string bad = text;
    const auto at = bad.find("\"gflop_per_s\"");
    const auto value = bad.find_first_of("0123456789", bad.find(':', at));
    bad.insert(value, "-");
    try {
        resultsFromJson(bad);
        FAIL() << "a negative gflop_per_s loaded";
    } catch (const ResultsFileError& e) {
        EXPECT_NE(std::string(e.what()).find("runs[0].metrics.gflop_per_s"), std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace ckptlab
