// The Llama-family decoder layer (engine/llama_block.h): its parameters, its attention against
// one written out by hand, grouped-query attention against full attention with repeated heads,
// rotary embeddings, causality, and every strategy's gradients through the Runner.
#include <gtest/gtest.h>

#include <torch/torch.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ckptlab/engine/runner.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/estimate.h"
#include "ckptlab/planning/planner.h"
#include "engine/grad_check.h"
#include "engine/llama_block.h"
#include "engine/model.h"
#include "run_requests.h"
#include "strategy_text.h"
#include "test_configs.h"

using namespace ckptlab;
using namespace ckptlab::engine;

namespace {

// Grouped-query (4 query heads over 2 key/value heads) with Qwen2's q/k/v biases and a hidden
// width of its own, small enough for milliseconds.
ExperimentConfig tinyLlama(int depth = 1) {
    ExperimentConfig c = test::quickConfig(BlockKind::Llama, depth, 32, 16, 2, /*dropout=*/0);
    c.heads = 4;
    c.kv_heads = 2;
    c.qkv_bias = true;
    c.ffn_width = 48;
    return c;
}

// The attention kinds this LibTorch computes (sdpa needs 2.0; validate refuses it on 1.13).
constexpr AttentionKind kAttentionKindsHere[] = {AttentionKind::Eager,
                                                 AttentionKind::MemoryEfficient};

// `c` with `kind` of attention over `kvHeads` key/value heads; the memory-efficient chunks do
// not divide the sequence, so a partial chunk and the diagonal inside a chunk are exercised.
ExperimentConfig withAttention(ExperimentConfig c, AttentionKind kind, int kvHeads) {
    c.attention = kind;
    c.attention_chunk = 5;
    c.kv_heads = kvHeads;
    return c;
}

// What the parameters of one block add up to, from the shapes Hugging Face gives them.
std::int64_t llamaParameterCount(const ExperimentConfig& c) {
    const std::int64_t d = c.width, f = ffnWidthOf(c);
    const std::int64_t q = std::int64_t{c.heads} * headDimOf(c);
    const std::int64_t kv = std::int64_t{kvHeadsOf(c)} * headDimOf(c);
    const std::int64_t norms = 2 * d;
    const std::int64_t attention = d * q + 2 * d * kv + q * d + (c.qkv_bias ? q + 2 * kv : 0);
    return norms + attention + 3 * d * f;
}

std::int64_t countOf(const std::vector<torch::Tensor>& tensors) {
    std::int64_t n = 0;
    for (const auto& t : tensors) n += t.numel();
    return n;
}

std::shared_ptr<LlamaBlock> seededBlock(const ExperimentConfig& c, std::uint64_t seed) {
    torch::manual_seed(seed);
    auto block = std::make_shared<LlamaBlock>(c);
    // RMSNorm's weight starts at ones; other values show whether it is applied.
    torch::NoGradGuard noGrad;
    for (auto& p : block->named_parameters())
        if (p.key().find("layernorm") != std::string::npos) p.value().uniform_(0.5, 1.5);
    return block;
}

torch::Tensor rmsNormByHand(const torch::Tensor& x, const torch::Tensor& weight, double eps) {
    return x * torch::rsqrt(x.pow(2).mean(-1, /*keepdim=*/true) + eps) * weight;
}

// x's dimensions i and i + Dh/2 turned together by position · theta^(−2i/Dh), as a rotation of
// the pair, in float64. x is (B, heads, S, Dh).
torch::Tensor rotateByHand(const torch::Tensor& x, double theta) {
    const std::int64_t seq = x.size(2), half = x.size(3) / 2;
    auto angles = torch::empty({seq, half}, torch::kFloat64);
    for (std::int64_t p = 0; p < seq; ++p)
        for (std::int64_t i = 0; i < half; ++i)
            angles[p][i] = double(p) * std::pow(theta, -2.0 * double(i) / double(2 * half));
    const auto a = x.narrow(-1, 0, half), b = x.narrow(-1, half, half);
    return torch::cat({a * angles.cos() - b * angles.sin(), b * angles.cos() + a * angles.sin()},
                      -1);
}

// The attention sub-block as Hugging Face's LlamaAttention computes it, in float64 from the
// block's weights: each key/value head g serves query heads g·n .. g·n + n − 1.
torch::Tensor attentionPartByHand(LlamaBlock& block, const ExperimentConfig& c,
                                  const torch::Tensor& input) {
    auto p = block.named_parameters();
    auto w = [&](const std::string& name) { return p[name].detach().to(torch::kFloat64); };
    const torch::Tensor x = input.to(torch::kFloat64);
    const std::int64_t batch = x.size(0), seq = x.size(1), heads = c.heads, kvHeads = kvHeadsOf(c),
                       dh = headDimOf(c);
    const torch::Tensor n = rmsNormByHand(x, w("input_layernorm.weight"), c.rms_norm_eps);
    auto project = [&](const std::string& name, std::int64_t count) {
        torch::Tensor y = torch::matmul(n, w(name + ".weight").t());
        if (c.qkv_bias) y = y + w(name + ".bias");
        return y.view({batch, seq, count, dh}).permute({0, 2, 1, 3});
    };
    const torch::Tensor q = rotateByHand(project("q_proj", heads), c.rope_theta);
    const torch::Tensor k = rotateByHand(project("k_proj", kvHeads), c.rope_theta);
    const torch::Tensor v = project("v_proj", kvHeads);
    const torch::Tensor group = torch::arange(heads).div(heads / kvHeads, "floor");
    const torch::Tensor keys = k.index_select(1, group), values = v.index_select(1, group);
    torch::Tensor scores = torch::matmul(q, keys.transpose(-2, -1)) / std::sqrt(double(dh));
    scores = scores.masked_fill(torch::ones({seq, seq}, torch::kBool).triu(1), -INFINITY);
    const torch::Tensor context = torch::matmul(torch::softmax(scores, -1), values)
                                      .permute({0, 2, 1, 3})
                                      .reshape({batch, seq, heads * dh});
    return x + torch::matmul(context, w("o_proj.weight").t());
}

torch::Tensor mlpPartByHand(LlamaBlock& block, const ExperimentConfig& c,
                            const torch::Tensor& input) {
    auto p = block.named_parameters();
    auto w = [&](const std::string& name) { return p[name].detach().to(torch::kFloat64); };
    const torch::Tensor x = input.to(torch::kFloat64);
    const torch::Tensor n = rmsNormByHand(x, w("post_attention_layernorm.weight"), c.rms_norm_eps);
    const torch::Tensor gate = torch::matmul(n, w("gate_proj.weight").t());
    const torch::Tensor up = torch::matmul(n, w("up_proj.weight").t());
    return x + torch::matmul(torch::silu(gate) * up, w("down_proj.weight").t());
}

// Largest |a − b| relative to b's largest magnitude.
double relativeDiff(const torch::Tensor& a, const torch::Tensor& b) {
    const torch::Tensor wide = b.to(torch::kFloat64);
    return (a.to(torch::kFloat64) - wide).abs().max().item<double>() /
           wide.abs().max().item<double>();
}

// float32 sums over at most a few hundred terms, against float64.
constexpr double kFloat32Agreement = 1e-5;

}  // namespace

TEST(LlamaBlock, ParametersAreTheFormulasInPartOrder) {
    for (const bool bias : {true, false}) {
        ExperimentConfig c = tinyLlama();
        c.qkv_bias = bias;
        LlamaBlock block(c);
        EXPECT_EQ(countOf(block.parameters()), llamaParameterCount(c)) << "bias " << bias;
        // Parts in registration order: part 0 then part 1 is parameters().
        std::vector<torch::Tensor> parts = block.partParameters(0);
        for (const auto& t : block.partParameters(1)) parts.push_back(t);
        const auto all = block.parameters();
        ASSERT_EQ(parts.size(), all.size());
        for (std::size_t i = 0; i < all.size(); ++i) EXPECT_TRUE(parts[i].is_same(all[i])) << i;
        EXPECT_EQ(block.named_parameters().contains("q_proj.bias"), bias);
        EXPECT_FALSE(block.named_parameters().contains("o_proj.bias"));
    }
    // A head width apart from width / heads, and Llama's own hidden width (2/3 of 4d rounded up
    // to 256: 256 at d = 32).
    ExperimentConfig c = tinyLlama();
    c.head_dim = 16;
    c.ffn_width = 0;
    LlamaBlock block(c);
    EXPECT_EQ(block.named_parameters()["q_proj.weight"].sizes().vec(),
              (std::vector<std::int64_t>{64, 32}));
    EXPECT_EQ(block.named_parameters()["down_proj.weight"].sizes().vec(),
              (std::vector<std::int64_t>{32, 256}));
    EXPECT_EQ(countOf(block.parameters()), llamaParameterCount(c));
}

TEST(LlamaBlock, TheModelChainsLlamaBlocksAndNamesTheirGradients) {
    const ExperimentConfig c = tinyLlama(3);
    Model model = buildModel(c, torch::kCPU);
    ASSERT_EQ(model.depth(), 3);
    EXPECT_EQ(model.partsPerBlock(), 2);
    EXPECT_EQ(countOf(model.parameters()), 3 * llamaParameterCount(c));
    const auto names = gradientNames(model);
    EXPECT_EQ(names.size(), 1 + model.parameters().size());
    EXPECT_EQ(names[1], "block 0 input_layernorm.weight");
    EXPECT_EQ(names.back(), "block 2 down_proj.weight");
    // Nine chained reductions per block, like the transformer's, and the loss.
    EXPECT_EQ(gradCheckSize(c).layers, 3 * 9 + 1);
}

TEST(LlamaBlock, OutputKeepsTheInputsShape) {
    const ExperimentConfig c = tinyLlama();
    auto block = seededBlock(c, 1);
    const torch::Tensor x = torch::randn({c.batch, c.seq, c.width});
    for (int part : {0, 1}) EXPECT_EQ(block->forwardPart(part, x).sizes(), x.sizes()) << part;
    EXPECT_EQ(block->forward(x).sizes(), x.sizes());
    EXPECT_THROW(block->forwardPart(2, x), std::invalid_argument);
}

TEST(LlamaBlock, BothPartsMatchTheLayerWrittenOutByHand) {
    for (const AttentionKind kind : kAttentionKindsHere) {
        for (const int kvHeads : {2, 1, 4}) {
            const ExperimentConfig c = withAttention(tinyLlama(), kind, kvHeads);
            auto block = seededBlock(c, 2);
            torch::manual_seed(3);
            const torch::Tensor x = torch::randn({c.batch, c.seq, c.width});
            EXPECT_LT(relativeDiff(block->forwardPart(0, x), attentionPartByHand(*block, c, x)),
                      kFloat32Agreement)
                << toString(kind) << ", kv heads " << kvHeads;
            EXPECT_LT(relativeDiff(block->forwardPart(1, x), mlpPartByHand(*block, c, x)),
                      kFloat32Agreement);
        }
    }
}

TEST(LlamaBlock, GroupedQueryAttentionIsFullAttentionWithRepeatedHeads) {
    const ExperimentConfig grouped = tinyLlama();  // 4 query heads over 2 key/value heads
    ExperimentConfig full = grouped;
    full.kv_heads = 0;
    auto a = seededBlock(grouped, 4);
    auto b = seededBlock(full, 5);
    const std::int64_t repeat = grouped.heads / kvHeadsOf(grouped), dh = headDimOf(grouped);
    {
        torch::NoGradGuard noGrad;
        auto from = a->named_parameters();
        for (auto& p : b->named_parameters()) {
            const torch::Tensor source = from[p.key()];
            const bool keyOrValue =
                p.key().rfind("k_proj", 0) == 0 || p.key().rfind("v_proj", 0) == 0;
            if (!keyOrValue) {
                p.value().copy_(source);
                continue;
            }
            // Rows of head g, once for each query head it serves: (G·Dh, ...) -> (H·Dh, ...).
            const torch::Tensor heads = source.view({kvHeadsOf(grouped), dh, -1});
            p.value().copy_(heads.repeat_interleave(repeat, 0).reshape(p.value().sizes()));
        }
    }
    torch::manual_seed(6);
    const torch::Tensor x = torch::randn({grouped.batch, grouped.seq, grouped.width});
    const torch::Tensor y = a->forwardPart(0, x);
    EXPECT_LT(relativeDiff(y, b->forwardPart(0, x)), kFloat32Agreement);
    // Not vacuous: other key weights give another output.
    {
        torch::NoGradGuard noGrad;
        b->named_parameters()["k_proj.weight"].mul_(2);
    }
    EXPECT_GT(relativeDiff(y, b->forwardPart(0, x)), 100 * kFloat32Agreement);
}

TEST(LlamaBlock, RotaryScoresDependOnlyOnTheDistance) {
    const std::int64_t dh = 16;
    const double theta = 10000;
    torch::manual_seed(7);
    const torch::Tensor q = torch::randn({1, 1, 1, dh}, torch::kFloat64);
    const torch::Tensor k = torch::randn({1, 1, 1, dh}, torch::kFloat64);
    auto at = [&](const torch::Tensor& t, std::int64_t position) {
        return applyRotary(t, rotaryTable(torch::tensor({position}), dh, theta, torch::kFloat64));
    };
    auto score = [&](std::int64_t m, std::int64_t n) {
        return (at(q, m) * at(k, n)).sum().item<double>();
    };
    // The tables are computed in float32, as Hugging Face does: angles of positions up to a
    // few hundred are within about 1e-5 radians.
    const double tolerance = 1e-4 * q.norm().item<double>() * k.norm().item<double>();
    const std::vector<std::pair<std::int64_t, std::int64_t>> pairs{
        {0, 0}, {3, 1}, {1, 3}, {7, 0}, {0, 12}};
    for (const auto& [m, n] : pairs) {
        for (const std::int64_t shift : {1, 5, 40, 200}) {
            EXPECT_NEAR(score(m, n), score(m + shift, n + shift), tolerance)
                << "m " << m << " n " << n << " shift " << shift;
        }
        // Not vacuous: another distance gives another score.
        EXPECT_GT(std::abs(score(m, n) - score(m, n + 1)), 10 * tolerance) << m << " " << n;
    }
    // Position 0 is no rotation; rotateHalf is (x1, x2) -> (−x2, x1).
    EXPECT_TRUE(torch::allclose(at(q, 0), q));
    const torch::Tensor halves = torch::arange(4, torch::kFloat64);  // (0, 1, 2, 3)
    EXPECT_TRUE(
        torch::equal(rotateHalf(halves), torch::tensor({-2.0, -3.0, 0.0, 1.0}, torch::kFloat64)));
}

TEST(LlamaBlock, AttentionIsCausal) {
    for (const AttentionKind kind : kAttentionKindsHere) {
        const ExperimentConfig c = withAttention(tinyLlama(), kind, 2);
        auto block = seededBlock(c, 8);
        torch::manual_seed(9);
        const torch::Tensor x = torch::randn({c.batch, c.seq, c.width});
        torch::Tensor changed = x.clone();
        changed.select(1, c.seq - 1).normal_();
        const auto earlier = [&](const torch::Tensor& t) { return t.narrow(1, 0, c.seq - 1); };
        for (int part : {0, 1}) {
            const torch::Tensor before = block->forwardPart(part, x);
            const torch::Tensor after = block->forwardPart(part, changed);
            EXPECT_TRUE(torch::allclose(earlier(before), earlier(after), 0, 1e-6))
                << toString(kind) << ", part " << part;
            EXPECT_FALSE(torch::allclose(before.select(1, c.seq - 1), after.select(1, c.seq - 1)));
        }
        // The other way round, attention reaches back: the last token reads the first.
        torch::Tensor first = x.clone();
        first.select(1, 0).normal_();
        EXPECT_FALSE(torch::allclose(block->forwardPart(0, x).select(1, c.seq - 1),
                                     block->forwardPart(0, first).select(1, c.seq - 1)))
            << toString(kind);
    }
}

TEST(LlamaBlock, RmsNormComputesInFloat32AndCastsBack) {
    RmsNorm norm(8, 1e-5);
    torch::manual_seed(10);
    const torch::Tensor x = torch::randn({3, 8}).to(torch::kBFloat16);
    norm->to(torch::kBFloat16);
    const torch::Tensor y = norm->forward(x);
    EXPECT_EQ(y.scalar_type(), torch::kBFloat16);
    const torch::Tensor wide = x.to(torch::kFloat32);
    const torch::Tensor expected =
        (wide * torch::rsqrt(wide.pow(2).mean(-1, true) + 1e-5)).to(torch::kBFloat16) *
        norm->weight;
    EXPECT_TRUE(torch::equal(y, expected));
}

TEST(LlamaBlock, TheEstimateCountsItsParametersAndComesNearItsActivations) {
    ExperimentConfig c = tinyLlama(6);
    c.seq = 64;  // the scores a fair share of the activations
    const MemoryEstimate estimate = estimateMemory(c, makePlan(Strategy{}, c.depth));
    EXPECT_EQ(estimate.parameters,
              c.depth * llamaParameterCount(c) * std::int64_t{bytesPerElement(c.dtype)});
    const ResultSet set = test::sweep(c, parseStrategies({"none"}));
    ASSERT_FALSE(set.runs[0].error) << *set.runs[0].error;
    const double measured = double(set.runs[0].metrics.activation_bytes);
    // An analytic count of the tensors autograd keeps, not a replay: within a tenth.
    EXPECT_NEAR(double(estimate.activations), measured, 0.1 * measured);
}

TEST(LlamaBlock, EveryStrategyGivesThePlainGradientsThroughTheRunner) {
    const ExperimentConfig c = tinyLlama(6);
    const std::vector<std::string> all{"none", "full", "every:2", "attn", "ffn", "sqrt"};
    const ResultSet set = test::sweep(c, parseStrategies(all));
    ASSERT_EQ(set.runs.size(), all.size());
    for (const auto& run : set.runs) {
        ASSERT_FALSE(run.error) << run.strategy << ": " << *run.error;
        EXPECT_TRUE(run.grad_check.checked) << run.strategy;
        // Bitwise on CPU: the recompute replays the forward's kernels on the same shapes.
        EXPECT_EQ(run.grad_check.max_abs_diff, 0.0) << run.strategy;
        EXPECT_TRUE(run.ok()) << run.strategy;
    }
    auto peak = [&](const char* name) { return set.find(name)->metrics.peak_bytes; };
    EXPECT_LT(peak("full"), peak("none"));

    // optimal within a budget halfway between full's peak and none's must recompute something.
    const double budgetMib = (peak("full") + peak("none")) / 2.0 / (1024.0 * 1024.0);
    const ResultSet optimal =
        test::sweep(c, {test::strategy("none"), makeStrategy(StrategyKind::Optimal, budgetMib)});
    ASSERT_EQ(optimal.runs.size(), 2u);
    const RunResult& run = optimal.runs[1];
    ASSERT_FALSE(run.error) << run.strategy << ": " << *run.error;
    EXPECT_EQ(run.grad_check.max_abs_diff, 0.0) << run.strategy;
    EXPECT_TRUE(run.ok()) << run.strategy;
    bool recomputes = false;
    for (int count : run.forward_counts) recomputes = recomputes || count > 1;
    EXPECT_TRUE(recomputes) << run.strategy << ": " << run.schedule;
}

TEST(LlamaBlock, MemoryEfficientAttentionGivesThePlainGradientsThroughTheRunner) {
    const ExperimentConfig c = withAttention(tinyLlama(4), AttentionKind::MemoryEfficient, 2);
    const std::vector<std::string> all{"none", "full", "attn", "ffn", "sqrt"};
    const ResultSet set = test::sweep(c, parseStrategies(all));
    ASSERT_EQ(set.runs.size(), all.size());
    for (const auto& run : set.runs) {
        ASSERT_FALSE(run.error) << run.strategy << ": " << *run.error;
        EXPECT_EQ(run.grad_check.max_abs_diff, 0.0) << run.strategy;
        EXPECT_TRUE(run.ok()) << run.strategy;
    }
}
