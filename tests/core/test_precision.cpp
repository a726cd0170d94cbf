// The training precisions: fp32, bf16 and mixed-bf16 (fp32 master weights, bf16 compute under
// autocast). Gradient checks per precision, dtypes of weights, gradients and optimizer state, the
// checkpoint's recompute under the forward's autocast, and autocast's weight copies at the peak.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <string>
#include <vector>

#include "ckptlab/engine/runner.h"
#include "ckptlab/formats/results_io.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/planner.h"
#include "engine/checkpoint.h"
#include "engine/grad_check.h"
#include "engine/precision.h"
#include "engine/step.h"
#include "run_requests.h"
#include "test_configs.h"

using namespace ckptlab;

namespace {

const std::vector<DType> kPrecisions{DType::Float32, DType::BFloat16, DType::MixedBFloat16};

// A chain small enough for a few seconds per sweep; the transformer with dropout, so the
// recompute must also replay the masks; llama without (it has none).
ExperimentConfig chainOf(BlockKind block, DType dtype) {
    ExperimentConfig c =
        test::quickConfig(block, 4, 32, 32, 2, block == BlockKind::Transformer ? 0.1 : 0.0);
    c.dtype = dtype;
    return c;
}

std::vector<std::string> strategiesFor(BlockKind block) {
    std::vector<std::string> texts{"none", "full", "every:2", "sqrt"};
    if (block != BlockKind::Ffn) texts.insert(texts.end(), {"attn", "ffn"});
    return texts;
}

// The bf16 bytes of the weights whose copies the graph keeps for the backward: the matrices of
// the linear layers (LibTorch's C++ linear adds the bias to the product, uncast; the norms run
// in fp32). Counted from the model, less the last `skipLast` matrices.
std::int64_t savedWeightCopyBytes(engine::Model& model, int skipLast = 0) {
    std::vector<std::int64_t> matrices;
    for (const auto& p : model.parameters())
        if (p.dim() == 2) matrices.push_back(p.numel() * 2);  // bf16
    std::int64_t bytes = 0;
    for (std::size_t i = 0; i + skipLast < matrices.size(); ++i) bytes += matrices[i];
    return bytes;
}

std::int64_t parameterCount(engine::Model& model) {
    std::int64_t count = 0;
    for (const auto& p : model.parameters()) count += p.numel();
    return count;
}

}  // namespace

// Every precision, every block, the strategies that recompute whole blocks, every other block,
// sub-blocks and √L segments: each passes its check against the none of its own precision, with
// the tolerance of that precision written into the run.
TEST(Precision, EveryStrategyPassesItsGradientCheckInEveryPrecision) {
    for (BlockKind block : {BlockKind::Ffn, BlockKind::Transformer, BlockKind::Llama}) {
        for (DType dtype : kPrecisions) {
            const ExperimentConfig c = chainOf(block, dtype);
            const ResultSet set = test::sweep(c, parseStrategies(strategiesFor(block)));
            ASSERT_EQ(set.runs.size(), strategiesFor(block).size());
            for (const RunResult& run : set.runs) {
                const std::string where =
                    toString(block) + " " + toString(dtype) + " " + run.strategy.name();
                ASSERT_FALSE(run.error) << where << ": " << *run.error;
                EXPECT_TRUE(run.grad_check.passed()) << where << ": " << run.grad_check.max_abs_diff
                                                     << " > " << run.grad_check.tolerance;
                // On the CPU a recompute replays the forward's kernels on the same shapes
                // under the same autocast state: every strategy's gradients are bitwise none's,
                // in every precision (measured on 2026-12-02; a GPU may reorder sums).
                EXPECT_TRUE(run.grad_check.bitwise_equal) << where;
            }
        }
    }
}

// The tolerance is the precision's own: mixed-bf16 rounds fewer layers to bf16 than bf16 (its
// norms and loss stay fp32), fp32 none.
TEST(Precision, EachPrecisionHasItsOwnTolerance) {
    for (BlockKind block : {BlockKind::Ffn, BlockKind::Transformer, BlockKind::Llama}) {
        const auto fp32 = engine::gradCheckSize(chainOf(block, DType::Float32));
        const auto bf16 = engine::gradCheckSize(chainOf(block, DType::BFloat16));
        const auto mixed = engine::gradCheckSize(chainOf(block, DType::MixedBFloat16));
        const double a = engine::gradTolerance(fp32, 1);
        const double b = engine::gradTolerance(bf16, 1);
        const double m = engine::gradTolerance(mixed, 1);
        EXPECT_LT(a, m) << toString(block);
        EXPECT_LT(m, b) << toString(block);
        // The difference is bf16's unit roundoff, twice, per layer rounded to bf16.
        const int normsPerBlock = block == BlockKind::Ffn ? 1 : 2;
        EXPECT_DOUBLE_EQ(b - m, 2 * (normsPerBlock * 4 + 1) / 256.0) << toString(block);
    }
}

// mixed-bf16 trains fp32 master weights: the parameters, the input and every gradient are fp32,
// while the forward did compute in bf16 (its gradients differ from fp32's).
TEST(Precision, MixedGradientsLandInFp32OnFp32Parameters) {
    for (BlockKind block : {BlockKind::Ffn, BlockKind::Transformer}) {
        engine::Workbench mixed(chainOf(block, DType::MixedBFloat16), torch::kCPU);
        engine::Workbench fp32(chainOf(block, DType::Float32), torch::kCPU);
        const auto before = engine::AutocastState::current();
        for (engine::Workbench* bench : {&mixed, &fp32}) {
            engine::StepContext context;
            engine::runStep(*bench, makePlan(parseStrategy("full", 4, block), 4), context);
        }
        EXPECT_TRUE(engine::AutocastState::current() == before) << "runStep left autocast on";
        EXPECT_EQ(mixed.input.scalar_type(), torch::kFloat32);
        for (const auto& p : mixed.model.parameters()) {
            EXPECT_EQ(p.scalar_type(), torch::kFloat32);
            ASSERT_TRUE(p.grad().defined());
            EXPECT_EQ(p.grad().scalar_type(), torch::kFloat32);
        }
        for (const auto& g : mixed.gradients()) EXPECT_EQ(g.scalar_type(), torch::kFloat32);
        EXPECT_GT(engine::maxAbsDiff(fp32.gradients(), mixed.gradients()), 0.0)
            << "mixed-bf16 computed like fp32: autocast was not on";
    }
}

// A checkpoint captures autocast's state in its forward and restores it for the recompute, as
// torch.utils.checkpoint does: the recompute computes in bf16 again and gives bitwise the
// forward's values, although the backward that triggers it runs with autocast off.
TEST(Precision, TheRecomputeRunsUnderTheForwardsAutocast) {
    torch::manual_seed(3);
    torch::nn::Linear up(16, 64), down(64, 16);
    std::vector<torch::Tensor> params = up->parameters();
    for (const auto& p : down->parameters()) params.push_back(p);
    std::vector<torch::Tensor> outputs;  // the forward's, then the recompute's
    const engine::SegmentFn segment = [&](const torch::Tensor& x) {
        torch::Tensor y = down->forward(torch::relu(up->forward(x)));
        outputs.push_back(y.detach().clone());
        return x + y;
    };
    const torch::Tensor input = torch::randn({4, 16}, torch::requires_grad());
    torch::Tensor loss;
    {
        engine::AutocastScope autocast(
            engine::AutocastState::forStep(DType::MixedBFloat16, torch::kCPU));
        loss = engine::checkpoint(segment, input, params).sum();
    }
    ASSERT_FALSE(engine::AutocastState::current().anyEnabled());
    loss.backward();
    ASSERT_EQ(outputs.size(), 2u);
    EXPECT_EQ(outputs[0].scalar_type(), torch::kBFloat16);
    EXPECT_EQ(outputs[1].scalar_type(), torch::kBFloat16);
    EXPECT_TRUE(torch::equal(outputs[0], outputs[1]));
    for (const auto& p : params) EXPECT_EQ(p.grad().scalar_type(), torch::kFloat32);
    EXPECT_FALSE(engine::AutocastState::current().anyEnabled()) << "the recompute left it on";
}

// With none, autocast's bf16 copies of the weight matrices are kept for the backward by the
// graph: the breakdown counts them apart, and the parameters are the fp32 master weights. The
// peak comes early in the backward, at the first node (the last block's last projection),
// which frees that matrix's copy: whether the peak falls just before or just after that free
// depends on the temporaries the node's bf16 matmul kernel allocates, so the copies at the
// peak are all of them or all but that last matrix's, nothing else (measured on 2026-12-02 on
// one CPU: oneDNN's own choice, AMX there, gives all but the last; ONEDNN_MAX_CPU_ISA=
// AVX512_CORE gives all). The other precisions make no copies.
TEST(Precision, WeightCopiesAtThePeakAreTheWeightsBf16Copies) {
    for (BlockKind block : {BlockKind::Ffn, BlockKind::Transformer, BlockKind::Llama}) {
        for (DType dtype : kPrecisions) {
            const ExperimentConfig c = chainOf(block, dtype);
            engine::Workbench bench(c, torch::kCPU);
            const ResultSet set = test::sweep(c, parseStrategies({"none", "full"}));
            const RunResult* none = set.find("none");
            ASSERT_NE(none, nullptr);
            ASSERT_FALSE(none->error) << *none->error;
            const std::string where = toString(block) + " " + toString(dtype);
            const std::int64_t parameters = parameterCount(bench.model);
            EXPECT_EQ(none->breakdown.parameters, parameters * (dtype == DType::BFloat16 ? 2 : 4))
                << where;
            if (dtype != DType::MixedBFloat16) {
                EXPECT_EQ(none->breakdown.weight_copies, 0) << where;
                continue;
            }
            const std::int64_t allCopies = savedWeightCopyBytes(bench.model);
            const std::int64_t allButLast = savedWeightCopyBytes(bench.model, 1);
            EXPECT_TRUE(none->breakdown.weight_copies == allCopies ||
                        none->breakdown.weight_copies == allButLast)
                << where << ": " << none->breakdown.weight_copies << " bytes of copies, expected "
                << allCopies << " (all) or " << allButLast << " (all but the last matrix)";
            // full keeps no graph through the forward: its copies live only within a block's
            // recompute and backward, so fewer of them are alive at its peak.
            const RunResult* full = set.find("full");
            ASSERT_NE(full, nullptr);
            EXPECT_LT(full->breakdown.weight_copies, none->breakdown.weight_copies) << where;
        }
    }
}

// Adam's state for mixed-bf16 is fp32 like the master weights: two moments of 4 bytes per
// parameter.
TEST(Precision, MixedOptimizerStateIsFp32) {
    ExperimentConfig c = chainOf(BlockKind::Ffn, DType::MixedBFloat16);
    c.optimizer = Optimizer::Adam;
    engine::Workbench bench(c, torch::kCPU);
    const ResultSet set = test::sweep(c, parseStrategies({"none", "every:2"}));
    for (const RunResult& run : set.runs) {
        ASSERT_FALSE(run.error) << *run.error;
        EXPECT_EQ(run.breakdown.optimizer_state, 2 * 4 * parameterCount(bench.model))
            << run.strategy.name();
        EXPECT_TRUE(run.grad_check.passed()) << run.strategy.name();
    }
}

// The CPU always has bf16 (emulated where the CPU has no bf16 instructions): the check lets
// bf16 and mixed-bf16 through there.
TEST(Precision, TheCpuAcceptsEveryPrecision) {
    EXPECT_TRUE(engine::deviceHasBf16(torch::kCPU));
    for (DType dtype : kPrecisions) {
        SweepRequestData request;
        request.config = chainOf(BlockKind::Ffn, dtype);
        request.checked = parseStrategies({"none"});
        EXPECT_NO_THROW(Runner().check(request)) << toString(dtype);
    }
}

// bitwise_equal is written only when true, and an older file (without it) reads false.
TEST(Precision, BitwiseEqualRoundTripsThroughTheResultsFile) {
    ResultSet set = test::sweep(chainOf(BlockKind::Ffn, DType::MixedBFloat16),
                                parseStrategies({"none", "full"}));
    ASSERT_TRUE(set.runs[1].grad_check.bitwise_equal);
    set.runs[0].grad_check.bitwise_equal = false;
    const std::string text = resultsToJson(set);
    const ResultSet back = resultsFromJson(text);
    EXPECT_FALSE(back.runs[0].grad_check.bitwise_equal);
    EXPECT_TRUE(back.runs[1].grad_check.bitwise_equal);
    std::size_t keys = 0;
    for (std::size_t at = text.find("\"bitwise_equal\""); at != std::string::npos;
         at = text.find("\"bitwise_equal\"", at + 1))
        ++keys;
    EXPECT_EQ(keys, 1u);
}
