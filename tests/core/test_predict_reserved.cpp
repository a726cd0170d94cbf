// predict()'s reserved bytes: the plan replay driven through the model of CUDA's caching
// allocator (cost_model.h, ReplayAllocator::Yes), on a tiny hand-built cost model worked out by
// hand, and its rules on random chains.
#include <gtest/gtest.h>

#include <random>

#include "ckptlab/planning/caching_allocator.h"
#include "ckptlab/planning/cost_model.h"
#include "ckptlab/planning/planner.h"
#include "strategy_text.h"

namespace ckptlab {
namespace {

constexpr std::int64_t KiB = 1024;
constexpr std::int64_t MiB = 1024 * 1024;

// Two units; each keeps its 512 KiB output and 4 MiB of saved tensors, peaks at what it keeps,
// has 1 MiB of parameters (one tensor) and no backward temporaries above what it leaves.
CostModel twoUnits() {
    CostModel model;
    model.checkpoint_bytes = 0;
    for (int u = 0; u < 2; ++u) {
        UnitCost c;
        c.output_bytes = 512 * KiB;
        c.kept_bytes = 512 * KiB + 4 * MiB;
        c.forward_peak = c.kept_bytes;
        c.nograd_peak = c.output_bytes;
        c.backward_peak = 0;
        c.param_grad_bytes = 1 * MiB;
        model.units.push_back(c);
    }
    return model;
}

// Worked by hand, segments numbered as reserved (s0, s1 ... ; small ones 2 MiB, large 20 MiB):
//   baseline: parameters 1 MiB -> s0 @0 (1 MiB left), 1 MiB -> s0 @1M (exact); input 512 KiB
//     -> s1 @0 (1.5 MiB left). Reserved 4 MiB, baseline 2.5 MiB.
//   forward u0: the 4.5 MiB transient reserves s2 (20 MiB) and is freed; output 512 KiB ->
//     s1 @512K; saved 4 MiB -> s2 @0. u1: transient in s2 and back; output -> s1 @1M; saved
//     -> s2 @4M. Counted: 9 MiB. The loss and its gradient, 512 bytes each: s1 @1.5M and
//     @1.5M+512 (511 KiB left there).
//   backward u1: saved freed; its 1 MiB parameter gradient finds no small block of 1 MiB ->
//     s3 @0; its input's gradient 512 KiB -> s3 @1M (the 511 KiB are too small). u0's output
//     freed (s1 @512K). u0: saved freed; its gradient 1 MiB: the free small blocks are 512 KiB
//     (s1 @512K, s3 @1.5M) and 511 KiB -> s4 @0; its input's gradient -> s1 @512K (ties with
//     s3 @1.5M, the earlier segment wins); u1's input gradient freed.
//   Reserved: 2 + 2 + 20 + 2 + 2 = 28 MiB; the counted peak is 9 MiB above the start.
TEST(ReservedPrediction, TwoUnitsByHand) {
    const CostModel model = twoUnits();
    const Plan none = makePlan(Strategy{}, 2);
    const Prediction p = predict(model, none, ReplayAllocator::Yes);
    EXPECT_EQ(p.peak_bytes, 9 * MiB);
    EXPECT_EQ(p.activation_bytes, 9 * MiB);
    EXPECT_EQ(p.baseline_bytes, 2 * MiB + 512 * KiB);
    ASSERT_TRUE(p.reserved_peak_bytes);
    EXPECT_EQ(*p.reserved_peak_bytes, 28 * MiB);
    EXPECT_GE(*p.reserved_peak_bytes, p.peak_bytes + p.baseline_bytes);

    // Without the allocator: the same counts, no reserved bytes.
    const Prediction counted = predict(model, none);
    EXPECT_FALSE(counted.reserved_peak_bytes);
    EXPECT_EQ(counted.peak_bytes, p.peak_bytes);
    EXPECT_EQ(counted.baseline_bytes, p.baseline_bytes);
}

// With an optimizer whose first step creates two 1 MiB tensors per unit (Adam's exp_avg and
// exp_avg_sq): the runner's step before the measured one runs as above (28 MiB); its end
// leaves 1 MiB free in s3 and in s4, where the state's first two tensors go (equal sizes: the
// earlier segment first); the other two reserve s5: 30 MiB. The step's gradients, output and
// loss are freed: s1 has 1.5 MiB free after the input, s3 and s4 1 MiB each before the state.
// The measured step: outputs s3 @0 (the smallest that fits) and s3 @512K, saved tensors s2,
// the loss s4 @0 and @512; u1's gradient s1 @512K, its input's gradient s1 @1.5M; u0's
// gradient finds only 512 KiB (s3 @0, u0's output freed) and 1023 KiB (s4) -> s6: 32 MiB.
TEST(ReservedPrediction, OptimizerStateAndTheStepBefore) {
    CostModel model = twoUnits();
    model.optimizer = true;
    for (auto& c : model.units) c.optimizer_state_tensors = {1 * MiB, 1 * MiB};
    const Prediction p = predict(model, makePlan(Strategy{}, 2), ReplayAllocator::Yes);
    EXPECT_EQ(p.peak_bytes, 9 * MiB);  // the measured step alone, as before
    EXPECT_EQ(p.baseline_bytes, 2 * MiB + 512 * KiB + 4 * MiB);
    ASSERT_TRUE(p.reserved_peak_bytes);
    EXPECT_EQ(*p.reserved_peak_bytes, 32 * MiB);
    EXPECT_GE(*p.reserved_peak_bytes, p.peak_bytes + p.baseline_bytes);
}

// Parameters listed per tensor are placed per tensor, and so are their gradients. Two 512 KiB
// tensors per unit: the four parameters fill s0 exactly, the input goes to s1 @0; the forward
// and the loss as in TwoUnitsByHand. Backward u1: s1 has only 511 KiB free, so its gradients
// reserve s3 (@0, @512K) and its input's gradient takes s3 @1M; u0's output freed (s1
// @512K). u0: its gradients take s1 @512K and s3 @1.5M (both exact; the earlier segment
// first), and its input's gradient finds no 512 KiB left -> s4. Reserved 28 MiB.
TEST(ReservedPrediction, ParametersListedPerTensor) {
    CostModel model = twoUnits();
    for (auto& c : model.units) c.parameter_tensors = {512 * KiB, 512 * KiB};
    const Prediction p = predict(model, makePlan(Strategy{}, 2), ReplayAllocator::Yes);
    EXPECT_EQ(p.baseline_bytes, 2 * MiB + 512 * KiB);
    ASSERT_TRUE(p.reserved_peak_bytes);
    EXPECT_EQ(*p.reserved_peak_bytes, 28 * MiB);
}

// MiB-sized random chains under every built-in strategy: the allocator's replay changes none of
// the counted numbers, and what it reserves holds the counted peak and the baseline.
TEST(ReservedPrediction, NeverBelowTheCountedPeakAndChangesNothingElse) {
    std::mt19937 rng(11);
    std::uniform_int_distribution<std::int64_t> kib(1, 6 * 1024);
    for (int trial = 0; trial < 30; ++trial) {
        CostModel model;
        model.checkpoint_bytes = trial % 3 ? 5056 : 0;
        model.optimizer = trial % 2;
        const int depth = 3 + trial % 6;
        for (int u = 0; u < depth; ++u) {
            UnitCost c;
            c.output_bytes = kib(rng) * KiB;
            c.kept_bytes = c.output_bytes + kib(rng) * KiB;
            c.forward_peak = c.kept_bytes + kib(rng) * KiB;
            c.nograd_peak = c.output_bytes + kib(rng) * KiB;
            c.backward_peak = kib(rng) * KiB;
            c.param_grad_bytes = kib(rng) * KiB;
            c.optimizer_peak = kib(rng) * KiB;
            if (model.optimizer) c.optimizer_state_tensors = {c.param_grad_bytes};
            c.forward_ms = 1;
            c.backward_ms = 2;
            model.units.push_back(c);
        }
        for (const char* name : {"none", "full", "every:2", "sqrt", "revolve:2"}) {
            const Plan plan = makePlan(parseStrategy(name, depth, BlockKind::Ffn), depth);
            const Prediction counted = predict(model, plan);
            const Prediction p = predict(model, plan, ReplayAllocator::Yes);
            ASSERT_TRUE(p.reserved_peak_bytes);
            EXPECT_GE(*p.reserved_peak_bytes, p.peak_bytes + p.baseline_bytes)
                << name << " trial " << trial;
            EXPECT_EQ(p.peak_bytes, counted.peak_bytes);
            EXPECT_EQ(p.activation_bytes, counted.activation_bytes);
            EXPECT_EQ(p.step_ms, counted.step_ms);
            EXPECT_EQ(p.recompute_ms, counted.recompute_ms);
            EXPECT_EQ(p.baseline_bytes, counted.baseline_bytes);
        }
    }
}

// The chain's ends counted by hand (cost_model.h, predict.cpp), one unit kept (none):
//   embedding forward peaks at 120, keeps its 100-byte output: 100. The unit: 100 + 350 = 450,
//   keeps 300: 400. The head: 400 + 900 = 1300, keeps 504 (the 4-byte loss and 500 of logits):
//   904, the forward's end. Its backward starts from the loss: 904 + 700 = 1604, the peak; it
//   leaves the loss, its gradient, its 30 bytes of gradients and the chain output's gradient,
//   and frees its saved input, the chain's output: 904 - 500 + 30 + 100 + 4 - 100 = 438. The
//   unit's backward: 438 + 50; it frees 200 saved and the incoming 100, adds 40 of gradients
//   and its input's 100: 278; the embedding's output goes (178); its backward peaks at
//   178 + 80, adds 60 and frees the chain's input gradient: 138; the loss's gradient goes with
//   the backward: 134, the loss and every gradient.
TEST(ReservedPrediction, ChainEndsByHand) {
    CostModel model;
    UnitCost unit;
    unit.output_bytes = 100, unit.kept_bytes = 300, unit.forward_peak = 350;
    unit.nograd_peak = 150, unit.backward_peak = 50, unit.param_grad_bytes = 40;
    model.units = {unit};
    UnitCost embedding;
    embedding.output_bytes = 100, embedding.kept_bytes = 100, embedding.forward_peak = 120;
    embedding.backward_peak = 80, embedding.param_grad_bytes = 60;
    UnitCost head;
    head.output_bytes = 4, head.kept_bytes = 504, head.forward_peak = 900;
    head.backward_peak = 700, head.param_grad_bytes = 30;
    model.first = embedding;
    model.last = head;
    model.input_bytes = 16;
    const Prediction p = predict(model, makePlan(Strategy{}, 1), ReplayAllocator::Yes);
    EXPECT_EQ(p.peak_bytes, 1604);
    EXPECT_EQ(p.activation_bytes, 904);
    EXPECT_EQ(p.baseline_bytes, 16 + 40 + 60 + 30);
    ASSERT_TRUE(p.reserved_peak_bytes);
    EXPECT_GE(*p.reserved_peak_bytes, p.peak_bytes + p.baseline_bytes);
    // A head whose backward transient is small: the step's end is the peak then.
    model.last->forward_peak = 0, model.last->backward_peak = 0, model.last->kept_bytes = 4;
    model.first->backward_peak = 2000;
    EXPECT_EQ(predict(model, makePlan(Strategy{}, 1)).peak_bytes, 178 + 2000);
}

// Random chains with ends under every built-in strategy, as above.
TEST(ReservedPrediction, ChainsWithEndsNeverBelowTheCountedPeak) {
    std::mt19937 rng(23);
    std::uniform_int_distribution<std::int64_t> kib(1, 6 * 1024);
    auto randomUnit = [&](std::int64_t output, bool optimizer) {
        UnitCost c;
        c.output_bytes = output;
        c.kept_bytes = c.output_bytes + kib(rng) * KiB;
        c.forward_peak = c.kept_bytes + kib(rng) * KiB;
        c.nograd_peak = c.output_bytes + kib(rng) * KiB;
        c.backward_peak = kib(rng) * KiB;
        c.param_grad_bytes = kib(rng) * KiB;
        c.optimizer_peak = kib(rng) * KiB;
        if (optimizer) c.optimizer_state_tensors = {c.param_grad_bytes};
        c.forward_ms = 1;
        c.backward_ms = 2;
        return c;
    };
    for (int trial = 0; trial < 20; ++trial) {
        CostModel model;
        model.checkpoint_bytes = trial % 3 ? 5056 : 0;
        model.optimizer = trial % 2;
        const int depth = 2 + trial % 5;
        const std::int64_t width = kib(rng) * KiB;
        for (int u = 0; u < depth; ++u) model.units.push_back(randomUnit(width, model.optimizer));
        model.first = randomUnit(width, model.optimizer);
        model.first->kept_bytes = width;  // an embedding keeps only its output
        model.last = randomUnit(4, model.optimizer);
        model.input_bytes = 2 * KiB;
        for (const char* name : {"none", "full", "every:2", "sqrt"}) {
            const Plan plan = makePlan(parseStrategy(name, depth, BlockKind::Ffn), depth);
            const Prediction counted = predict(model, plan);
            const Prediction p = predict(model, plan, ReplayAllocator::Yes);
            ASSERT_TRUE(p.reserved_peak_bytes);
            EXPECT_GE(*p.reserved_peak_bytes, p.peak_bytes + p.baseline_bytes)
                << name << " trial " << trial;
            EXPECT_EQ(p.peak_bytes, counted.peak_bytes);
            EXPECT_EQ(p.activation_bytes, counted.activation_bytes);
            EXPECT_EQ(p.baseline_bytes, counted.baseline_bytes);
        }
    }
}

}  // namespace
}  // namespace ckptlab
