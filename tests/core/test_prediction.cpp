// Predictions from the measured cost model against what the runner then measures.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "ckptlab/engine/runner.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/model/summary.h"
#include "ckptlab/planning/caching_allocator.h"
#include "ckptlab/planning/cost_model.h"
#include "ckptlab/planning/pareto.h"
#include "ckptlab/planning/planner.h"
#include "planning/allocator_replay.h"
#include "run_requests.h"
#include "strategy_text.h"
#include "test_configs.h"
#include "tolerance.h"

using namespace ckptlab;

namespace {

using test::predictionConfig;

// A predicted step time sums a few costs per unit (forward, recompute, backward, kept backward)
// in orders that differ between the planner and the replay: 4 roundings a unit, of values up
// to the step's time.
double stepSlack(double stepMs, std::size_t units) {
    return test::tolerance::formula(stepMs, 4 * static_cast<int>(units));
}

// The cost model's units: a transformer block is two (attention, FFN).
std::size_t unitsOf(const ExperimentConfig& c) {
    return static_cast<std::size_t>(c.depth) * unitsPerBlockOf(c.block);
}

// "Slower than optimal" is (step / optimal − 1) · 100 of two such sums: their slack relative to
// the step, in percent, and the formula's own 3 roundings.
double slowerSlackPct(std::size_t units) {
    return 100 * stepSlack(1.0, units) + test::tolerance::formula(100.0, 3);
}

double errorPct(double predicted, double measured) {
    return 100.0 * (predicted - measured) / measured;
}

// `peakSlack`: how many bytes a predicted peak may miss by (the loss and its gradient, 8 bytes,
// are not in the cost model); < 0: only the 5 % bound.
void expectPredictionsWithin5Percent(const ExperimentConfig& c,
                                     const std::vector<std::string>& strategies,
                                     std::int64_t peakSlack = -1) {
    const CostModel model = measureCostModel(c);
    const ResultSet set = test::sweep(c, parseStrategies(strategies));
    for (const auto& run : set.runs) {
        ASSERT_FALSE(run.error) << *run.error;
        const Prediction p = predict(model, makePlan(run.strategy, c.depth));
        const double peakError = errorPct(p.peak_bytes, run.metrics.peak_bytes);
        const double activationError = errorPct(p.activation_bytes, run.metrics.activation_bytes);
        std::printf(
            "%-12s peak %10lld predicted %10lld (%+.2f%%)  activations %10lld predicted "
            "%10lld (%+.2f%%)  step %.1f ms predicted %.1f ms\n",
            run.strategy.name().c_str(), (long long)run.metrics.peak_bytes, (long long)p.peak_bytes,
            peakError, (long long)run.metrics.activation_bytes, (long long)p.activation_bytes,
            activationError, run.metrics.step_ms, p.step_ms);
        EXPECT_LT(std::abs(peakError), 5.0) << run.strategy;
        if (peakSlack >= 0)
            EXPECT_LE(std::abs(p.peak_bytes - run.metrics.peak_bytes), peakSlack) << run.strategy;
        EXPECT_LT(std::abs(activationError), 5.0) << run.strategy;
    }
}

}  // namespace

TEST(Prediction, FfnBlockStrategiesWithin5Percent) {
    expectPredictionsWithin5Percent(
        predictionConfig(BlockKind::Ffn),
        {"none", "full", "every:2", "every:4", "segments:2", "segments:4", "from:3", "sqrt"},
        /*peakSlack=*/8);
}

TEST(Prediction, TransformerStrategiesWithin5Percent) {
    // To the byte: the replay hands a checkpoint's incoming gradient to its body's backward as
    // the engine does, and counts the generator state a checkpoint keeps during its
    // recompute's forward, where attn peaks.
    expectPredictionsWithin5Percent(
        predictionConfig(BlockKind::Transformer),
        {"none", "full", "every:2", "segments:2", "sqrt", "ffn", "attn"}, /*peakSlack=*/8);
}

TEST(Prediction, LlamaStrategiesWithin5Percent) {
    // Grouped-query attention with biases on q, k and v, no dropout: its units are measured and
    // replayed as the transformer's are.
    ExperimentConfig c = predictionConfig(BlockKind::Llama);
    c.kv_heads = 2;
    c.qkv_bias = true;
    expectPredictionsWithin5Percent(c, {"none", "full", "every:2", "sqrt", "attn", "ffn"},
                                    /*peakSlack=*/8);
}

TEST(Prediction, Bf16LlamaPartsFreeTheirInputAndArePredictedExactly) {
    // In bf16 the Llama block's RMSNorm saves its fp32 copy of the input, not the input, so
    // inside the chain each part's input is freed once its forward is done; in fp32 the copy
    // is the input itself and stays.
    ExperimentConfig c = predictionConfig(BlockKind::Llama);
    for (const auto& unit : measureCostModel(c).units) EXPECT_TRUE(unit.keeps_input);
    c.dtype = DType::BFloat16;
    for (const auto& unit : measureCostModel(c).units) EXPECT_FALSE(unit.keeps_input);
    expectPredictionsWithin5Percent(c, {"none", "full", "attn", "ffn", "every:2"},
                                    /*peakSlack=*/8);
}

TEST(Prediction, TiedEmbeddingsArePredictedToTheByte) {
    // The tied weight's two gradients meet in the engine, which adds them into a new tensor in
    // the embedding's backward: with a vocabulary large next to the tokens that sum is the
    // step's peak, one vocab x width tensor above what the embedding's own backward makes.
    ExperimentConfig c = predictionConfig(BlockKind::Llama);
    c.vocab = 2000;
    c.tie_embeddings = true;
    c.seq = 8;
    c.depth = 2;
    for (const DType precision : {DType::Float32, DType::MixedBFloat16}) {
        c.dtype = precision;
        expectPredictionsWithin5Percent(c, {"none", "full", "attn"}, /*peakSlack=*/8);
    }
}

TEST(Prediction, AdamStateAndStepAreIncluded) {
    ExperimentConfig c = predictionConfig(BlockKind::Ffn);
    c.optimizer = Optimizer::Adam;
    expectPredictionsWithin5Percent(c, {"none", "full", "segments:2"});
}

TEST(Prediction, NoHandWrittenStrategyBeatsTheOptimalPlan) {
    // In the cost model's own terms the planner's class contains every built-in strategy, so
    // none may be faster than the optimum at its own peak (plus the planner's rounding).
    for (BlockKind block : {BlockKind::Ffn, BlockKind::Transformer, BlockKind::Llama}) {
        const ExperimentConfig c = predictionConfig(block);
        const CostModel model = measureCostModel(c);
        const OptimalPlanner planner(model, 1000);
        std::vector<std::string> strategies{"none",    "full",       "every:2",
                                            "every:4", "segments:2", "segments:4",
                                            "from:3",  "sqrt",       "revolve:2"};
        if (block != BlockKind::Ffn) strategies.insert(strategies.end(), {"attn", "ffn"});
        for (const auto& name : strategies) {
            const Prediction p =
                predict(model, makePlan(parseStrategy(name, c.depth, block), c.depth));
            const std::int64_t budget = p.peak_bytes + planner.roundingSlack(p.peak_bytes);
            const PlannedSchedule best = planner.plan(budget);
            EXPECT_LE(best.prediction.step_ms, p.step_ms + stepSlack(p.step_ms, model.units.size()))
                << name << " is below the optimal curve: planner or cost model is wrong";
            EXPECT_LE(best.prediction.peak_bytes, budget);
        }
    }
}

TEST(Prediction, MeasuredOptimalScheduleRespectsItsBudget) {
    const ExperimentConfig c = predictionConfig(BlockKind::Ffn);
    const CostModel model = measureCostModel(c);
    const std::int64_t minimum = OptimalPlanner(model).minimumPeak();
    const double budgetMib = (minimum * 1.1) / (1024.0 * 1024.0);
    Runner runner;
    runner.useCostModel(model);
    Strategy optimal{StrategyKind::Optimal, 0};
    optimal.budget_mib = budgetMib;
    const ResultSet set = test::sweep(runner, c, parseStrategies({"none", optimal.name()}));
    const RunResult* run = set.find(optimal.name());
    ASSERT_NE(run, nullptr);
    ASSERT_FALSE(run->error) << *run->error;
    EXPECT_TRUE(run->ok());
    EXPECT_LE(run->metrics.peak_bytes, static_cast<std::int64_t>(budgetMib * 1024 * 1024));
    EXPECT_LT(run->metrics.peak_bytes, set.find("none")->metrics.peak_bytes);

    Strategy tooSmall{StrategyKind::Optimal, 0};
    tooSmall.budget_mib = minimum / 2 / (1024.0 * 1024.0);
    try {
        test::sweep(runner, c, {tooSmall});
        FAIL() << "expected BudgetError";
    } catch (const BudgetError& e) {
        EXPECT_NE(std::string(e.what()).find("smallest feasible schedule, which needs"),
                  std::string::npos);
    }
}

TEST(Prediction, ParetoSweepRunsTheCurveAndNothingBeatsIt) {
    const ExperimentConfig c = predictionConfig(BlockKind::Ffn);
    const std::vector<Strategy> handWritten = defaultParetoStrategies(c.depth, c.block);
    // from:10 does not exist at depth 8; the others do.
    EXPECT_EQ(handWritten,
              parseStrategies({"none", "full", "every:2", "every:4", "segments:4", "sqrt"}));
    const ResultSet set = test::pareto(c, handWritten, 4);
    ASSERT_FALSE(set.cancelled);

    // How many points the frontier has depends on this machine's costs: where a kept block's
    // backward costs more than its recompute and backward, the smallest schedule is also the
    // fastest and the frontier is one point (seen on CI). Its shape is pinned in
    // test_planner.cpp.
    ASSERT_FALSE(set.predicted_frontier.empty());
    for (std::size_t i = 1; i < set.predicted_frontier.size(); ++i) {
        EXPECT_GT(set.predicted_frontier[i].peak_bytes, set.predicted_frontier[i - 1].peak_bytes);
        EXPECT_LT(set.predicted_frontier[i].step_ms, set.predicted_frontier[i - 1].step_ms);
    }
    int optimalRuns = 0;
    const std::vector<SummaryRow> rows = summarize(set);
    for (std::size_t i = 0; i < set.runs.size(); ++i) {
        const RunResult& run = set.runs[i];
        ASSERT_FALSE(run.error) << run.strategy << ": " << *run.error;
        EXPECT_TRUE(run.ok()) << run.strategy;
        ASSERT_TRUE(rows[i].slower_than_optimal_pct) << run.strategy;
        EXPECT_GE(*rows[i].slower_than_optimal_pct, -slowerSlackPct(unitsOf(c)))
            << run.strategy << " is below the optimal curve: planner or cost model is wrong";
        if (hasMemoryBudget(run.strategy)) {
            ++optimalRuns;
            const Strategy& s = run.strategy;
            EXPECT_LE(run.metrics.peak_bytes, std::int64_t(s.budget_mib * 1024 * 1024 * 1.05))
                << run.strategy;
        }
    }
    EXPECT_GE(optimalRuns, 3);
    // The top budget is the no-checkpoint peak: the planner keeps everything there, unless a
    // recompute's backward is predicted to beat a kept block's.
    const RunResult& top = set.runs.back();
    const RunResult& none = *set.find("none");
    const double noneSlack = stepSlack(none.prediction->step_ms, unitsOf(c));
    EXPECT_LE(top.prediction->step_ms, none.prediction->step_ms + noneSlack) << top.schedule;
    EXPECT_LE(top.prediction->peak_bytes, none.prediction->peak_bytes) << top.schedule;
    // The frontier spans the runs: it starts at or below every run's peak and ends at or
    // below `none`'s time.
    for (const RunResult& run : set.runs)
        EXPECT_LE(set.predicted_frontier.front().peak_bytes, run.prediction->peak_bytes)
            << run.strategy;
    EXPECT_LE(set.predicted_frontier.back().step_ms, none.prediction->step_ms + noneSlack);
}

TEST(Prediction, PlannerMatchesBruteForceOnMeasuredCosts) {
    // Real, heterogeneous sub-block costs (attention and FFN differ): the planner's schedule
    // lies between the exact optimum at the budget and the one at the budget less its rounding.
    for (BlockKind block : {BlockKind::Ffn, BlockKind::Transformer}) {
        ExperimentConfig c = predictionConfig(block);
        c.depth = block == BlockKind::Ffn ? 6 : 3;  // 6 units: 25,216 schedules
        const CostModel model = measureCostModel(c);
        const OptimalPlanner planner(model);
        const std::int64_t low = planner.minimumPeak();
        Plan none;
        none.unitLevel = true;
        none.segments.push_back({0, static_cast<int>(model.units.size()), false, {}});
        const std::int64_t high = predict(model, none).peak_bytes;
        for (int i = 0; i <= 4; ++i) {
            const std::int64_t budget = low + (high - low) * i / 4;
            const PlannedSchedule planned = planner.plan(budget);
            const double exact = bruteForcePlan(model, budget).best.prediction.step_ms;
            EXPECT_GE(planned.prediction.step_ms, exact - stepSlack(exact, model.units.size()));
            EXPECT_LE(planned.prediction.peak_bytes, budget);
            try {
                const double tighter = bruteForcePlan(model, budget - planner.roundingSlack(budget))
                                           .best.prediction.step_ms;
                EXPECT_LE(planned.prediction.step_ms,
                          tighter + stepSlack(tighter, model.units.size()))
                    << toString(block) << " budget " << budget << ": "
                    << describeSchedule(planned.plan);
            } catch (const BudgetError&) {
            }
        }
    }
}

// The chain's ends (vocab > 0: the token embedding, the final norm, LM head and loss) measured
// once each and replayed: the predicted peak is the measured one, to the byte, for plans that
// keep, recompute whole blocks or sub-blocks, and for the optimal plan at a budget halfway
// between its floor and keeping everything. Transformer and Llama blocks, without dropout;
// the head whole and in loss chunks, and tied to the embedding with Adam's state and step.
TEST(Prediction, ChainEndsPeaksAreExact) {
    struct Variant {
        int lossChunks;
        bool tied;
        Optimizer optimizer;
    };
    for (BlockKind block : {BlockKind::Transformer, BlockKind::Llama}) {
        for (const Variant& v :
             {Variant{1, false, Optimizer::None}, Variant{4, false, Optimizer::None},
              Variant{2, true, Optimizer::Adam}}) {
            const int lossChunks = v.lossChunks;
            ExperimentConfig c = test::quickConfig(block, 4, 64, 64, 2, /*dropout=*/0.0);
            c.vocab = 512;
            c.loss_chunks = lossChunks;
            c.tie_embeddings = v.tied;
            c.optimizer = v.optimizer;
            const CostModel model = measureCostModel(c);
            ASSERT_TRUE(model.first && model.last);
            const OptimalPlanner planner(model);
            const std::int64_t keepAll = predict(model, makePlan(Strategy{}, c.depth)).peak_bytes;
            Strategy optimal{StrategyKind::Optimal, 0};
            optimal.budget_mib = (planner.minimumPeak() + keepAll) / 2 / (1024.0 * 1024.0);
            std::vector<Strategy> strategies = parseStrategies({"none", "full", "attn", "every:2"});
            strategies.push_back(optimal);
            Runner runner;
            runner.useCostModel(model);
            const ResultSet set = test::sweep(runner, c, strategies);
            for (const RunResult& run : set.runs) {
                SCOPED_TRACE(toString(block) + " loss chunks " + std::to_string(lossChunks) +
                             (v.tied ? " tied " : " ") + toString(v.optimizer) + " " +
                             run.strategy.name());
                ASSERT_FALSE(run.error) << *run.error;
                ASSERT_TRUE(run.prediction);
                EXPECT_EQ(run.prediction->peak_bytes, run.metrics.peak_bytes);
                EXPECT_EQ(run.prediction->activation_bytes, run.metrics.activation_bytes);
                // The caching allocator's reserved bytes, replayed with the ends' scripts.
                ASSERT_TRUE(run.allocator && run.prediction->reserved_peak_bytes);
                EXPECT_LE(
                    std::abs(*run.prediction->reserved_peak_bytes - run.allocator->reserved_peak),
                    caching::kSmallBuffer);
                EXPECT_EQ(predict(model, makePlan(Strategy{}, c.depth)).baseline_bytes,
                          run.metrics.baseline_bytes);
            }
        }
    }
}

// The allocation scripts the cost model records for the caching allocator's replay hold
// together and add up to the aggregates measured beside them: what the forward leaves is
// kept_bytes and its highest running total forward_peak, the backward's highest is
// backward_peak above that, what it leaves is the parameters' gradients and the input's, and
// a forward without grad peaks at nograd_peak.
TEST(Prediction, AllocationScriptsAddUpToTheMeasuredCosts) {
    auto run = [](const std::vector<AllocationStep>& steps, std::vector<std::int64_t>& sizes,
                  std::int64_t start = 0) {
        std::int64_t total = start, peak = start;
        for (const AllocationStep& s : steps) {
            if (s.frees >= 0) {
                total -= sizes[s.frees];
                sizes[s.frees] = 0;
            } else {
                sizes.push_back(s.bytes);
                total += s.bytes;
            }
            peak = std::max(peak, total);
        }
        return std::pair{total, peak};
    };
    for (BlockKind block : {BlockKind::Ffn, BlockKind::Transformer, BlockKind::Llama}) {
        for (Optimizer optimizer : {Optimizer::None, Optimizer::Adam}) {
            ExperimentConfig c = predictionConfig(block);
            c.optimizer = optimizer;
            const CostModel model = measureCostModel(c);
            EXPECT_EQ(model.optimizer, optimizer != Optimizer::None);
            for (std::size_t u = 0; u < model.units.size(); ++u) {
                const UnitCost& unit = model.units[u];
                const AllocationScript& script = unit.allocations;
                SCOPED_TRACE(toString(block) + " " + toString(optimizer) + " unit " +
                             std::to_string(u));
                ASSERT_TRUE(detail::consistentScript(script));
                std::vector<std::int64_t> sizes;
                const auto [kept, forwardPeak] = run(script.forward, sizes);
                EXPECT_EQ(kept, unit.kept_bytes);
                EXPECT_EQ(forwardPeak, unit.forward_peak);
                EXPECT_EQ(sizes[script.output], unit.output_bytes);
                const std::size_t forwardAllocations = sizes.size();
                const auto [left, backwardPeak] = run(script.backward, sizes, kept);
                EXPECT_EQ(backwardPeak - kept, unit.backward_peak);
                EXPECT_EQ(sizes[script.input_grad], unit.output_bytes);
                std::int64_t gradients = 0;
                for (std::size_t n = forwardAllocations; n < sizes.size(); ++n)
                    if (static_cast<int>(n) != script.input_grad) gradients += sizes[n];
                EXPECT_EQ(gradients, unit.param_grad_bytes);
                std::int64_t parameters = 0;
                for (std::int64_t p : unit.parameter_tensors) parameters += p;
                EXPECT_EQ(parameters, unit.param_grad_bytes);
                std::vector<std::int64_t> nogradSizes;
                EXPECT_EQ(run(script.nograd, nogradSizes).second, unit.nograd_peak);
                std::int64_t state = 0;
                for (std::int64_t t : unit.optimizer_state_tensors) state += t;
                EXPECT_EQ(state, optimizer == Optimizer::Adam ? 2 * parameters : 0);
                (void)left;
            }
        }
    }
}

// The caching allocator's reserved bytes, predicted (the replay through CachingAllocatorModel
// with the units' allocation scripts) against the caching CPU allocator's own count of the
// traced step, baseline included. Equal on this config when measured (2026-12-02); a segment
// of slack for an allocation order that differs between the cost model's probe and the run.
TEST(Prediction, ReservedBytesMatchTheCachingAllocator) {
    for (BlockKind block : {BlockKind::Ffn, BlockKind::Transformer, BlockKind::Llama}) {
        for (Optimizer optimizer : {Optimizer::None, Optimizer::Adam}) {
            ExperimentConfig c = predictionConfig(block);
            c.optimizer = optimizer;
            c.allocator = AllocatorKind::Caching;
            const ResultSet set =
                test::sweep(c, parseStrategies({"none", "full", "every:2", "sqrt"}));
            for (const RunResult& run : set.runs) {
                ASSERT_FALSE(run.error) << *run.error;
                ASSERT_TRUE(run.allocator);
                ASSERT_EQ(run.allocator->source, AllocatorSource::CachingModel);
                ASSERT_TRUE(run.prediction && run.prediction->reserved_peak_bytes);
                const std::int64_t predicted = *run.prediction->reserved_peak_bytes;
                const std::int64_t measured = run.allocator->reserved_peak;
                std::printf("%-11s %-4s %-8s reserved %10lld predicted %10lld\n",
                            toString(block).c_str(), toString(optimizer).c_str(),
                            run.strategy.name().c_str(), (long long)measured, (long long)predicted);
                EXPECT_LE(std::abs(predicted - measured), caching::kSmallBuffer)
                    << toString(block) << " " << toString(optimizer) << " " << run.strategy;
                EXPECT_GE(predicted, run.prediction->peak_bytes + run.metrics.baseline_bytes);
            }
        }
    }
}
