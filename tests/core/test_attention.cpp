// Attention computed three ways (engine/attention.h): memory-efficient attention's output and
// gradients against eager attention's, what its chunk size changes, how the activations of
// each grow with the sequence, and the exact memory of one memory-efficient call.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <algorithm>
#include <cstdint>
#include <iomanip>
#include <iostream>
#include <vector>

#include "ckptlab/engine/runner.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/scaling.h"
#include "engine/attention.h"
#include "engine/memory_tracker.h"
#include "run_requests.h"
#include "tensor_tolerance.h"
#include "test_configs.h"
#include "tolerance.h"

using namespace ckptlab;
using engine::AttentionSpec;

namespace {

struct Case {
    std::int64_t batch = 2, heads = 4, kvHeads = 4, seq = 40, headDim = 8;
    int chunk = 16;
    bool causal = false;
    torch::ScalarType dtype = torch::kFloat32;
};

struct Inputs {
    torch::Tensor q, k, v, gradOut;
};

Inputs draw(const Case& c) {
    auto generator = at::detail::createCPUGenerator(1234);
    auto randn = [&](std::int64_t heads) {
        return at::randn({c.batch, heads, c.seq, c.headDim}, generator, torch::kFloat32)
            .to(c.dtype);
    };
    Inputs in;
    in.q = randn(c.heads);
    in.k = randn(c.kvHeads);
    in.v = randn(c.kvHeads);
    in.gradOut = randn(c.heads);
    return in;
}

struct Outcome {
    torch::Tensor out, dq, dk, dv;
};

// Attention of `kind` on the inputs converted to `type`, and its gradients for gradOut.
Outcome run(const Inputs& in, const Case& c, AttentionKind kind, torch::ScalarType type,
            int chunk) {
    auto leaf = [&](const torch::Tensor& t) { return t.to(type).detach().requires_grad_(); };
    auto q = leaf(in.q), k = leaf(in.k), v = leaf(in.v);
    AttentionSpec spec;
    spec.kind = kind;
    spec.chunk = chunk;
    spec.causal = c.causal;
    auto out = engine::attend(q, k, v, spec);
    out.backward(in.gradOut.to(type));
    return {out.detach(), q.grad(), k.grad(), v.grad()};
}

// The chain of reductions behind a gradient: the scores (Dh terms), the softmax's normaliser
// and the sum over v (S each), in backward dP and D (Dh each), then dQ, dK and dV (S terms, or
// G·S for k and v, whose gradients sum over the G query heads that share them).
test::ComputationSize sizeOf(const Case& c) {
    return {std::max(c.heads / c.kvHeads * c.seq, c.headDim), 5};
}

// A bf16 result against the exact one (float64 from the same bf16 values): memory-efficient
// attention accumulates in float32 and rounds once to bf16 at the end, so the bound is float32's
// for the computation's size plus one bf16 rounding (its unit roundoff) of the largest value.
::testing::AssertionResult closeForBf16(const torch::Tensor& exact, const torch::Tensor& actual,
                                        test::ComputationSize size, int roundings = 1) {
    const auto e = exact.to(torch::kFloat64), a = actual.to(torch::kFloat64);
    const double scale = e.abs().max().item<double>();
    const double diff = (e - a).abs().max().item<double>();
    const double bound =
        (roundings * test::tolerance::kBFloat16 +
         test::tolerance::relative(test::tolerance::kFloat32, size.reduction, size.layers)) *
        scale;
    if (diff <= bound) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "max |diff| " << diff << " > " << bound;
}

void expectSameAttention(const Case& c) {
    const Inputs in = draw(c);
    const Outcome fast = run(in, c, AttentionKind::MemoryEfficient, c.dtype, c.chunk);
    const auto size = sizeOf(c);
    if (c.dtype == torch::kFloat32) {
        const Outcome eager = run(in, c, AttentionKind::Eager, c.dtype, c.chunk);
        EXPECT_TRUE(test::closeForItsSize(eager.out, fast.out, size)) << "output";
        EXPECT_TRUE(test::closeForItsSize(eager.dq, fast.dq, size)) << "dq";
        EXPECT_TRUE(test::closeForItsSize(eager.dk, fast.dk, size)) << "dk";
        EXPECT_TRUE(test::closeForItsSize(eager.dv, fast.dv, size)) << "dv";
    } else {
        const Outcome exact = run(in, c, AttentionKind::Eager, torch::kFloat64, c.chunk);
        EXPECT_EQ(fast.out.scalar_type(), c.dtype);
        EXPECT_EQ(fast.dq.scalar_type(), c.dtype);
        EXPECT_TRUE(closeForBf16(exact.out, fast.out, size)) << "output";
        EXPECT_TRUE(closeForBf16(exact.dq, fast.dq, size)) << "dq";
        EXPECT_TRUE(closeForBf16(exact.dk, fast.dk, size)) << "dk";
        EXPECT_TRUE(closeForBf16(exact.dv, fast.dv, size)) << "dv";
    }
}

}  // namespace

TEST(MemoryEfficientAttention, MatchesEagerInFloat32) {
    for (const bool causal : {false, true}) {
        SCOPED_TRACE(causal ? "causal" : "full");
        Case c;
        c.causal = causal;
        expectSameAttention(c);
    }
}

TEST(MemoryEfficientAttention, MatchesEagerInBf16) {
    for (const bool causal : {false, true}) {
        SCOPED_TRACE(causal ? "causal" : "full");
        Case c;
        c.causal = causal;
        c.dtype = torch::kBFloat16;
        expectSameAttention(c);
    }
}

TEST(MemoryEfficientAttention, MatchesEagerWithGroupedQueryHeads) {
    for (const auto dtype : {torch::kFloat32, torch::kBFloat16}) {
        for (const bool causal : {false, true}) {
            SCOPED_TRACE(testing::Message() << dtype << (causal ? " causal" : " full"));
            Case c;
            c.heads = 6;
            c.kvHeads = 2;
            c.causal = causal;
            c.dtype = dtype;
            expectSameAttention(c);
        }
    }
}

// 40 positions in chunks of 16: the last chunk of queries and of keys is short.
TEST(MemoryEfficientAttention, MatchesEagerWhenTheChunkDoesNotDivideTheSequence) {
    Case c;
    c.seq = 37;
    c.chunk = 16;
    c.causal = true;
    expectSameAttention(c);
    c.chunk = 1;
    expectSameAttention(c);
}

// The chunk changes the order of the sums, not their value: chunks of 16 and 64 against one
// chunk of the whole sequence, within the same bounds.
TEST(MemoryEfficientAttention, TheChunkSizeDoesNotChangeTheResult) {
    for (const auto dtype : {torch::kFloat32, torch::kBFloat16}) {
        for (const bool causal : {false, true}) {
            SCOPED_TRACE(testing::Message() << dtype << (causal ? " causal" : " full"));
            Case c;
            c.seq = 200;
            c.heads = 4;
            c.kvHeads = 2;
            c.causal = causal;
            c.dtype = dtype;
            const Inputs in = draw(c);
            const Outcome whole =
                run(in, c, AttentionKind::MemoryEfficient, dtype, static_cast<int>(c.seq));
            for (const int chunk : {16, 64}) {
                const Outcome part = run(in, c, AttentionKind::MemoryEfficient, dtype, chunk);
                const auto size = sizeOf(c);
                for (const auto& [a, b, name] :
                     {std::tuple{whole.out, part.out, "output"},
                      std::tuple{whole.dq, part.dq, "dq"}, std::tuple{whole.dk, part.dk, "dk"},
                      std::tuple{whole.dv, part.dv, "dv"}}) {
                    if (dtype == torch::kFloat32)
                        EXPECT_TRUE(test::closeForItsSize(a, b, size))
                            << name << " chunk " << chunk;
                    else  // both rounded once to bf16
                        EXPECT_TRUE(closeForBf16(a, b, size, 2)) << name << " chunk " << chunk;
                }
            }
        }
    }
}

namespace {

// Bytes of a float32 tensor of `elements`.
std::int64_t f32(std::int64_t elements) { return 4 * elements; }

struct Peaks {
    std::int64_t forward = 0, backward = 0;
};

// One memory-efficient call and its backward on float32 inputs made under the tracker: the
// highest total of the forward and of the backward, from nothing allocated.
Peaks measurePeaks(const Case& c) {
    auto tracker = std::make_shared<engine::MemoryTracker>(c10::DeviceType::CPU);
    std::size_t forwardEnd = 0;
    {
        engine::TrackingScope scope(tracker);
        const Inputs in = draw(c);  // q, k, v and the output's gradient: four tensors, no more
        auto q = in.q.requires_grad_(), k = in.k.requires_grad_(), v = in.v.requires_grad_();
        AttentionSpec spec;
        spec.kind = AttentionKind::MemoryEfficient;
        spec.chunk = c.chunk;
        spec.causal = c.causal;
        auto out = engine::attend(q, k, v, spec);
        forwardEnd = tracker->records().size();
        out.backward(in.gradOut);
    }
    Peaks peaks;
    const auto& records = tracker->records();
    for (std::size_t i = 0; i < records.size(); ++i) {
        auto& peak = i < forwardEnd ? peaks.forward : peaks.backward;
        peak = std::max(peak, records[i].total);
    }
    return peaks;
}

}  // namespace

// At S = 4096 eager attention would hold B·H·S² = 64 Mi scores (256 MiB) per copy; this call
// holds its inputs, its results and a workspace of one chunk pair, so its peaks are these sums
// of the shapes, to the byte: nothing grows with S² (engine/chunked_attention.cpp).
TEST(MemoryEfficientAttention, PeakAtALongSequenceIsItsTensorsAndOneChunkPair) {
    at::set_num_threads(1);
    for (const bool causal : {false, true}) {
        SCOPED_TRACE(causal ? "causal" : "full");
        Case c;
        c.batch = 1;
        c.heads = 4;
        c.kvHeads = 2;
        c.seq = 4096;
        c.headDim = 16;
        c.chunk = 64;
        c.causal = causal;
        const std::int64_t n = c.batch * c.seq, C = c.chunk, Dh = c.headDim;
        const std::int64_t rows = c.batch * c.heads * C;  // a query chunk, every head
        const std::int64_t keyRows = c.batch * c.kvHeads * C;
        const std::int64_t q = f32(n * c.heads * Dh), kv = f32(n * c.kvHeads * Dh);
        const std::int64_t inputs = q + 2 * kv + q;          // q, k, v and the output's gradient
        const std::int64_t out = q, lse = f32(n * c.heads);  // lse: one per query row
        const std::int64_t mask = causal ? C * C : 0;        // a byte per pair of the diagonal
        const std::int64_t scale = f32(1);                   // 1/√Dh as a tensor
        // Forward: one chunk of scores, 4 numbers per row (max, sum, new max, rescale), the
        // query chunk and the output's accumulator, a key and a value chunk.
        const std::int64_t forwardWork = f32(rows * C) + 4 * f32(rows) + 2 * f32(rows * Dh) +
                                         2 * f32(keyRows * Dh) + scale + mask;
        // Backward: dq (float32), dk, dv; D = rowsum(dO ∘ O) per row; P and dS of one chunk
        // pair, lse's and D's chunk, the q, dO and dQ chunks, k and v chunks and dK and dV's
        // accumulators.
        const std::int64_t grads = q + 2 * kv, rowDots = f32(n * c.heads);
        const std::int64_t backwardWork = 2 * f32(rows * C) + 2 * f32(rows) + 3 * f32(rows * Dh) +
                                          4 * f32(keyRows * Dh) + scale + mask;
        const Peaks peaks = measurePeaks(c);
        EXPECT_EQ(peaks.forward, inputs + out + lse + forwardWork);
        EXPECT_EQ(peaks.backward, inputs + out + lse + grads + rowDots + backwardWork);
        // What eager attention keeps of its probabilities alone.
        const std::int64_t scores = f32(c.batch * c.heads * c.seq * c.seq);
        EXPECT_LT(peaks.backward, scores / 8);
    }
}

namespace {

// The activations (what forward leaves for backward) of a one-block transformer without
// dropout, whose attention is `kind`, at each sequence length: their power law over all the
// lengths and over the two longest.
struct Growth {
    PowerFit all, longest;
};

Growth activationGrowth(AttentionKind kind, const std::vector<int>& seqs) {
    ExperimentConfig c = test::quickConfig(BlockKind::Transformer, 1, 32, seqs.front(), 1, 0);
    c.heads = 2;
    c.threads = 1;
    c.attention = kind;
    c.attention_chunk = 32;
    const auto none = parseStrategies({"none"});
    const ResultSet set = test::scaling(c, ScalingAxis::Seq, seqs, none);
    std::vector<double> x, y;
    for (const auto& run : set.runs) {
        x.push_back(run.config.seq);
        y.push_back(static_cast<double>(run.metrics.activation_bytes));
    }
    const auto tail = [](const std::vector<double>& v) {
        return std::vector<double>(v.end() - 2, v.end());
    };
    return {fitRuns(set, none.front(), ScalingAxis::Seq, ScalingMetric::ActivationBytes),
            fitPowerLaw(tail(x), tail(y))};
}

}  // namespace

// Eager attention keeps B·H·S² probabilities, the rest of the block B·S·d numbers: at long
// sequences its activations grow as S². Memory-efficient attention keeps q, k, v, the output
// and a log-sum-exp per row: everything grows as S. Measured on 2026-12-02 at width 32, 2 heads,
// S = 512, 1024, 2048: memory-efficient 1.000 (both fits); eager 1.83 over the three, 1.88
// from 1024 to 2048.
TEST(MemoryEfficientAttention, ActivationsGrowLinearlyWhereEagerGrowsQuadratically) {
    const std::vector<int> seqs{512, 1024, 2048};
    const Growth efficient = activationGrowth(AttentionKind::MemoryEfficient, seqs);
    const Growth eager = activationGrowth(AttentionKind::Eager, seqs);
    ASSERT_EQ(efficient.all.points, 3);
    ASSERT_EQ(eager.all.points, 3);
    EXPECT_NEAR(efficient.all.exponent, 1.0, 0.02);
    EXPECT_NEAR(efficient.longest.exponent, 1.0, 0.02);
    EXPECT_GT(eager.all.exponent, 1.75);
    EXPECT_GT(eager.longest.exponent, eager.all.exponent);  // nearer 2 the longer S
    EXPECT_LE(eager.longest.exponent, 2.0);
    std::cout << std::setprecision(4) << "activation exponents over S: memory-efficient "
              << efficient.all.exponent << " (longest " << efficient.longest.exponent << "), eager "
              << eager.all.exponent << " (longest " << eager.longest.exponent << ")\n";
}
