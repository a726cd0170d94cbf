// The predicted step's split by what memory holds at its peak (Prediction::split), the bf16
// weight copies the cost model measures (UnitCost::weight_copy_bytes) and the predicted
// timeline (PredictTimeline::Yes).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>

#include "ckptlab/engine/runner.h"
#include "ckptlab/planning/cost_model.h"
#include "ckptlab/planning/planner.h"
#include "planning/planner_candidates.h"
#include "run_requests.h"
#include "strategy_text.h"
#include "test_configs.h"

using namespace ckptlab;

namespace {

// A chain of `units` units of `block`s, with integer costs of varied size:
// bf16 weight copies in what a forward keeps, units that free their input, with `ends` the
// embedding and the head, with `optimizer` an optimizer's transient.
CostModel handMadeChain(int units, BlockKind block, bool ends, bool optimizer, std::mt19937& rng) {
    std::uniform_int_distribution<int> small(1, 6), big(4, 20), ms(1, 9), coin(0, 1);
    CostModel model;
    model.block = block;
    model.checkpoint_bytes = 1;
    model.optimizer = optimizer;
    for (int u = 0; u < units; ++u) {
        UnitCost c;
        c.output_bytes = 4;
        c.weight_copy_bytes = small(rng);
        c.kept_bytes = c.output_bytes + c.weight_copy_bytes + big(rng);
        c.forward_peak = c.kept_bytes + small(rng);
        c.nograd_peak = c.output_bytes + small(rng);
        c.backward_peak = big(rng);
        c.param_grad_bytes = small(rng);
        c.keeps_input = coin(rng) == 1;
        c.optimizer_peak = optimizer ? small(rng) : 0;
        c.forward_ms = ms(rng);
        c.nograd_ms = c.forward_ms * 0.8;
        c.backward_ms = 2 * ms(rng);
        c.optimizer_ms = optimizer ? 0.5 : 0;
        model.units.push_back(c);
    }
    if (!ends) return model;
    UnitCost embedding;
    embedding.output_bytes = 4;
    embedding.kept_bytes = embedding.output_bytes;
    embedding.forward_peak = embedding.kept_bytes + small(rng);
    embedding.backward_peak = small(rng);
    embedding.param_grad_bytes = big(rng);
    embedding.forward_ms = ms(rng);
    embedding.backward_ms = ms(rng);
    UnitCost head;
    head.output_bytes = 1;  // the loss
    head.weight_copy_bytes = small(rng);
    head.kept_bytes = head.output_bytes + head.weight_copy_bytes + big(rng);
    head.forward_peak = head.kept_bytes + 3 * big(rng);
    head.backward_peak = 3 * big(rng);
    head.param_grad_bytes = big(rng);
    head.forward_ms = ms(rng);
    head.backward_ms = ms(rng);
    model.first = embedding;
    model.last = head;
    model.input_bytes = 2;
    return model;
}

// Every built-in strategy's plan with every parameter the chain takes, the least-peak
// schedule and the optimal planner's halfway between that and keeping everything.
std::vector<Plan> everyPlan(const CostModel& model) {
    std::vector<Plan> plans = builtInPlans(model);
    plans.push_back(leastPeakPlan(model));
    const OptimalPlanner planner(model);
    const std::int64_t keepAll = predict(model, plans.front()).peak_bytes;
    plans.push_back(planner.plan((planner.minimumPeak() + keepAll) / 2).plan);
    return plans;
}

// What the step leaves allocated at its end: every parameter's gradient and, without the
// ends, the chain's output and its input's gradient; with them the loss.
std::int64_t leftAtTheEnd(const CostModel& model) {
    std::int64_t bytes = 0;
    for (const UnitCost& c : model.units) bytes += c.param_grad_bytes;
    if (!model.last)
        return bytes + model.units.back().output_bytes + model.units.front().output_bytes;
    return bytes + model.first->param_grad_bytes + model.last->param_grad_bytes +
           model.last->output_bytes;
}

// The predicted timeline against the prediction it came with: each event's total the running
// sum of the deltas, the highest the peak, the deltas adding up to what the step leaves, times
// in order up to the step's time, phases covering the step.
void expectTimelineOf(const CostModel& model, const Prediction& p, const std::string& where) {
    ASSERT_FALSE(p.timeline.empty()) << where;
    std::int64_t total = 0, highest = 0;
    double t = 0;
    for (const TimelineEvent& e : p.timeline) {
        total += e.delta;
        EXPECT_NE(e.delta, 0) << where;
        EXPECT_EQ(e.total, total) << where;
        EXPECT_GE(e.t_ms, t) << where;
        t = e.t_ms;
        highest = std::max(highest, e.total);
    }
    EXPECT_EQ(highest, p.peak_bytes) << where;
    EXPECT_EQ(total, leftAtTheEnd(model)) << where;
    EXPECT_DOUBLE_EQ(p.timeline.back().t_ms, p.step_ms) << where;
    ASSERT_FALSE(p.phases.empty()) << where;
    EXPECT_EQ(p.phases.front().begin_ms, 0.0) << where;
    EXPECT_DOUBLE_EQ(p.phases.back().end_ms, p.step_ms) << where;
    for (std::size_t i = 1; i < p.phases.size(); ++i)
        EXPECT_EQ(p.phases[i].begin_ms, p.phases[i - 1].end_ms) << where;
}

std::string splitText(const PredictedSplit& s) {
    return "activations " + std::to_string(s.activations) + ", gradients " +
           std::to_string(s.gradients) + ", weight copies " + std::to_string(s.weight_copies) +
           ", logits " + std::to_string(s.logits) + ", other " + std::to_string(s.other);
}

Plan nonePlan(int depth) { return makePlan(Strategy{}, depth); }

}  // namespace

// Two units without ends, by hand: the peak is the first unit's backward transient, with the
// second unit's output and the first's kept tensors still there and the second's gradients.
TEST(PredictedSplit, ByHandWithoutEnds) {
    CostModel model;
    for (std::int64_t transient : {100, 1}) {
        UnitCost c;
        c.output_bytes = 10;
        c.kept_bytes = 30;  // its output, 15 bytes saved and a 5-byte weight copy
        c.weight_copy_bytes = 5;
        c.forward_peak = 30;
        c.nograd_peak = 10;
        c.backward_peak = transient;
        c.param_grad_bytes = 7;
        c.forward_ms = 1;
        c.backward_ms = 2;
        model.units.push_back(c);
    }
    const Prediction p = predict(model, nonePlan(2), ReplayAllocator::No, PredictTimeline::Yes);
    // Unit 0's backward: 25 + 5 kept by unit 0 and unit 1's output (10) less unit 1's saved
    // tensors; unit 1's parameters' gradients (7) and its input's (10); the transient.
    EXPECT_EQ(p.peak_bytes, 147);
    EXPECT_EQ(p.split.activations, 25);
    EXPECT_EQ(p.split.weight_copies, 5);
    EXPECT_EQ(p.split.gradients, 17);
    EXPECT_EQ(p.split.logits, 0);
    EXPECT_EQ(p.split.other, 100);
    EXPECT_EQ(p.split.total(), p.peak_bytes);
    EXPECT_DOUBLE_EQ(p.step_ms, 6.0);
    expectTimelineOf(model, p, "by hand");
    // The spans: forward of blocks 0 and 1, backward of 1 and 0.
    ASSERT_EQ(p.phases.size(), 4u);
    EXPECT_EQ(p.phases[0].phase, Phase::Forward);
    EXPECT_EQ(p.phases[0].block, 0);
    EXPECT_EQ(p.phases[2].phase, Phase::Backward);
    EXPECT_EQ(p.phases[2].block, 1);
    EXPECT_DOUBLE_EQ(p.phases[2].end_ms, 4.0);
}

// With the ends, by hand: the peak is the head's backward transient; the head's kept weight
// copy counts as a weight copy, the rest of what it holds as logits.
TEST(PredictedSplit, ByHandWithEnds) {
    CostModel model;
    for (int u = 0; u < 2; ++u) {
        UnitCost c;
        c.output_bytes = 10;
        c.kept_bytes = 30;
        c.weight_copy_bytes = 5;
        c.forward_peak = 30;
        c.nograd_peak = 10;
        c.backward_peak = 1;
        c.param_grad_bytes = 7;
        model.units.push_back(c);
    }
    UnitCost embedding;
    embedding.output_bytes = 10;
    embedding.kept_bytes = 10;
    embedding.forward_peak = 10;
    embedding.param_grad_bytes = 20;
    UnitCost head;
    head.output_bytes = 1;
    head.kept_bytes = 41;  // the loss, an 8-byte weight copy, 32 bytes of logits
    head.weight_copy_bytes = 8;
    head.forward_peak = 100;
    head.backward_peak = 200;
    head.param_grad_bytes = 9;
    model.first = embedding;
    model.last = head;
    const Prediction p = predict(model, nonePlan(2), ReplayAllocator::No, PredictTimeline::Yes);
    // The head's backward: everything the forward kept (the embedding's output and the units'
    // 25 each, 10 bytes of their copies, the head's 41) and its 200-byte transient.
    EXPECT_EQ(p.peak_bytes, 311);
    EXPECT_EQ(p.split.activations, 60);
    EXPECT_EQ(p.split.weight_copies, 18);
    EXPECT_EQ(p.split.gradients, 0);
    EXPECT_EQ(p.split.logits, 233);
    EXPECT_EQ(p.split.other, 0);
    expectTimelineOf(model, p, "by hand with ends");
    EXPECT_EQ(p.timeline.front().block, kEmbeddingBlock);
    const auto peak =
        std::max_element(p.timeline.begin(), p.timeline.end(),
                         [](const auto& a, const auto& b) { return a.total < b.total; });
    EXPECT_EQ(peak->block, kHeadBlock);
    EXPECT_EQ(peak->phase, Phase::Backward);
}

// Every built-in strategy on random chains of either block, with and without the ends and an
// optimizer: the split sums to the peak, never goes below zero, and is the same with the
// caching allocator's replay and the timeline; the timeline holds together.
TEST(PredictedSplit, SumsToThePeakForEveryStrategy) {
    std::mt19937 rng(7);
    for (BlockKind block : {BlockKind::Ffn, BlockKind::Transformer}) {
        const int unitsPerBlock = blockKind(block).unitsPerBlock();
        for (bool ends : {false, true}) {
            for (bool optimizer : {false, true}) {
                const CostModel model =
                    handMadeChain(6 * unitsPerBlock, block, ends, optimizer, rng);
                for (const Plan& plan : everyPlan(model)) {
                    const std::string where =
                        std::to_string(unitsPerBlock) + " units a block" + (ends ? ", ends" : "") +
                        (optimizer ? ", optimizer " : " ") + describeSchedule(plan);
                    const Prediction p = predict(model, plan);
                    EXPECT_EQ(p.split.total(), p.peak_bytes) << where;
                    for (std::int64_t part : {p.split.activations, p.split.gradients,
                                              p.split.weight_copies, p.split.logits, p.split.other})
                        EXPECT_GE(part, 0) << where << ": " << splitText(p.split);
                    if (!ends) {
                        EXPECT_EQ(p.split.logits, 0) << where;
                    }
                    EXPECT_TRUE(p.timeline.empty() && p.phases.empty()) << where;

                    const Prediction full =
                        predict(model, plan, ReplayAllocator::Yes, PredictTimeline::Yes);
                    EXPECT_EQ(full.peak_bytes, p.peak_bytes) << where;
                    EXPECT_EQ(splitText(full.split), splitText(p.split)) << where;
                    EXPECT_EQ(full.step_ms, p.step_ms) << where;
                    expectTimelineOf(model, full, where);
                }
            }
        }
    }
}

// mixed-bf16 keeps autocast's bf16 copies of a Llama part's weight matrices for its backward
// (2 bytes an element; the RMSNorm's weight is not cast), measured apart in what the part
// keeps; the LM head keeps its projection's (one loss chunk: its logits are not recomputed).
// fp32 has none.
TEST(PredictedSplit, WeightCopiesOfMixedBf16LlamaParts) {
    ExperimentConfig c = test::quickConfig(BlockKind::Llama, 2, 64, 32, 2, /*dropout=*/0.0);
    c.vocab = 256;
    const CostModel fp32 = measureCostModel(c, nullptr, MeasureTimes::No);
    for (const UnitCost& u : fp32.units) EXPECT_EQ(u.weight_copy_bytes, 0);
    EXPECT_EQ(fp32.first->weight_copy_bytes, 0);
    EXPECT_EQ(fp32.last->weight_copy_bytes, 0);
    c.dtype = DType::MixedBFloat16;
    const CostModel mixed = measureCostModel(c, nullptr, MeasureTimes::No);
    const std::int64_t d = c.width, q = headDimOf(c) * c.heads, kv = headDimOf(c) * kvHeadsOf(c);
    const std::int64_t attention = 2 * (d * q + 2 * d * kv + q * d);  // q, k, v, o
    const std::int64_t mlp = 2 * 3 * d * ffnWidthOf(c);               // gate, up, down
    ASSERT_EQ(mixed.units.size(), 4u);
    for (std::size_t u = 0; u < mixed.units.size(); ++u) {
        const UnitCost& part = mixed.units[u];
        EXPECT_EQ(part.weight_copy_bytes, u % 2 == 0 ? attention : mlp) << "part " << u;
        EXPECT_LT(part.weight_copy_bytes, part.kept_bytes - part.output_bytes) << "part " << u;
    }
    EXPECT_EQ(mixed.first->weight_copy_bytes, 0);  // an embedding's lookup casts nothing
    EXPECT_EQ(mixed.last->weight_copy_bytes, 2 * d * c.vocab);
}

// The split of a measured model, mixed-bf16 Llama with its ends, against what the runner's
// traced step held at its peak (Breakdown). The two count by different rules in places:
// - a transient peak inside a unit's backward: the prediction knows only the backward's highest
//   point above what the unit kept, so everything the backward has done by then counts as
//   `other` on top of the state before it; the measured run sees at that moment some of the
//   unit's saved tensors and weight copies already freed and some parameters' gradients
//   allocated. The sums agree; the prediction's activations and weight copies are at least the
//   measured ones there;
// - gradients: the measured breakdown counts only the parameters' gradients (those still
//   allocated when the step ends), the gradient flowing between units as `other`; the
//   prediction counts both as gradients;
// - the gradient of the chain's output, which the head's backward allocates, is the measured
//   breakdown's logits and the prediction's gradients.
// Where the peak is the head's (none, attn: everything the forward kept, then the head's
// logits), the rules agree and every part is equal to the byte; the peak is always equal.
TEST(PredictedSplit, MeasuredMixedBf16LlamaWithEnds) {
    ExperimentConfig c = test::quickConfig(BlockKind::Llama, 2, 64, 32, 2, /*dropout=*/0.0);
    c.vocab = 256;
    c.dtype = DType::MixedBFloat16;
    const CostModel model = measureCostModel(c);
    for (const Plan& plan : everyPlan(model)) {
        const Prediction p = predict(model, plan, ReplayAllocator::No, PredictTimeline::Yes);
        EXPECT_EQ(p.split.total(), p.peak_bytes) << describeSchedule(plan);
        expectTimelineOf(model, p, describeSchedule(plan));
    }
    Runner runner;
    runner.useCostModel(model);
    const ResultSet set =
        test::sweep(runner, c, parseStrategies({"none", "attn", "full", "ffn", "every:2"}));
    for (const RunResult& run : set.runs) {
        SCOPED_TRACE(run.strategy.name());
        ASSERT_FALSE(run.error) << *run.error;
        const Prediction p = predict(model, makePlan(run.strategy, c.depth));
        const Breakdown& b = run.breakdown;
        std::printf(
            "%-8s measured  %8lld: activations %lld, gradients %lld, weight copies %lld, "
            "logits %lld, other %lld\n",
            run.strategy.name().c_str(), (long long)run.metrics.peak_bytes,
            (long long)b.activations, (long long)b.gradients, (long long)b.weight_copies,
            (long long)b.logits, (long long)b.other);
        std::printf("%-8s predicted %8lld: %s\n", run.strategy.name().c_str(),
                    (long long)p.peak_bytes, splitText(p.split).c_str());
        ASSERT_EQ(p.peak_bytes, run.metrics.peak_bytes);
        EXPECT_EQ(p.split.total(),
                  b.activations + b.gradients + b.weight_copies + b.logits + b.other);
        if (run.strategy == test::strategy("none") || run.strategy == test::strategy("attn")) {
            EXPECT_EQ(p.split.logits, b.logits);
            EXPECT_GT(p.split.weight_copies, 0);
            EXPECT_GT(p.split.logits, 0);
            EXPECT_EQ(p.split.activations, b.activations);
            EXPECT_EQ(p.split.gradients, b.gradients);
            EXPECT_EQ(p.split.weight_copies, b.weight_copies);
            EXPECT_EQ(p.split.other, b.other);
        } else {
            EXPECT_GE(p.split.activations, b.activations);
            EXPECT_GE(p.split.weight_copies, b.weight_copies);
        }
    }
}
