// The rules both front ends share (plan_of_strategy.h, sweep_memory.h, sweep_strategies.h,
// sweep_check.h, curve_standing.h, cost_forecast.h, pareto.h, scaling.h, strategy.h): typed
// strategy predicates, plan resolution, the fit forecast, the strategies a sweep runs, the
// scaling pre-check, the Pareto verdict and the chart helpers that moved out of ui/charts.
#include <gtest/gtest.h>

#include <sstream>

#include "ckptlab/planning/cost_forecast.h"
#include "ckptlab/planning/curve_standing.h"
#include "ckptlab/planning/pareto.h"
#include "ckptlab/planning/plan_of_strategy.h"
#include "ckptlab/planning/scaling.h"
#include "ckptlab/planning/sweep_check.h"
#include "ckptlab/planning/sweep_memory.h"
#include "ckptlab/planning/sweep_strategies.h"
#include "strategy_text.h"

using namespace ckptlab;

namespace {

ExperimentConfig smallConfig() {
    ExperimentConfig c;
    c.depth = 8;
    c.width = 32;
    c.seq = 16;
    c.batch = 2;
    return c;
}

// A chain of `units` identical units, large enough in bytes that budgets in MiB mean something.
CostModel uniformChain(int units) {
    CostModel model;
    model.checkpoint_bytes = 1024;
    for (int u = 0; u < units; ++u) {
        UnitCost c;
        c.output_bytes = 1 << 20;
        c.kept_bytes = 4 << 20;
        c.forward_peak = 5 << 20;
        c.nograd_peak = 2 << 20;
        c.backward_peak = 2 << 20;
        c.param_grad_bytes = 1 << 16;
        c.forward_ms = 1;
        c.nograd_ms = 0.8;
        c.backward_ms = 2;
        model.units.push_back(c);
    }
    return model;
}

RunResult runOf(const std::string& strategy, const ExperimentConfig& config) {
    RunResult run;
    run.strategy = test::strategy(strategy);
    run.config = config;
    return run;
}

}  // namespace

TEST(StrategyPredicates, SayWhatTheFrontEndsAskWithoutText) {
    const auto parse = [](const std::string& text) {
        return parseStrategy(text, 8, BlockKind::Ffn);
    };
    EXPECT_TRUE(isComputedSchedule(parse("optimal:64")));
    EXPECT_TRUE(isComputedSchedule(parse("revolve:2")));
    EXPECT_FALSE(isComputedSchedule(parse("every:2")));
    EXPECT_TRUE(needsCostModel(parse("optimal:1.5")));
    EXPECT_FALSE(needsCostModel(parse("revolve:2")));
    EXPECT_TRUE(hasMemoryBudget(parse("optimal:2")));
    EXPECT_EQ(budgetBytes(parse("optimal:2")), 2 * 1024 * 1024);
    EXPECT_EQ(budgetBytes(parse("full")), 0);
    EXPECT_TRUE(isBaseline(parse("none")));
    EXPECT_FALSE(isBaseline(parse("full")));
}

TEST(StrategyPredicates, EqualityIsKindParameterAndBudget) {
    EXPECT_EQ(test::strategy("every:2"), (Strategy{StrategyKind::Every, 2}));
    EXPECT_EQ(test::strategy("every:02"), test::strategy("every:2"));  // one strategy, two texts
    EXPECT_NE(test::strategy("every:2"), test::strategy("every:3"));
    EXPECT_NE(test::strategy("every:2"), test::strategy("segments:2"));
    EXPECT_EQ(test::strategy("optimal:1.5"), makeStrategy(StrategyKind::Optimal, 1.5));
    EXPECT_NE(test::strategy("optimal:1.5"), test::strategy("optimal:1.25"));
    EXPECT_THROW(parseStrategies({"none", "optimalish:3"}), StrategyError);
    std::string why;
    EXPECT_FALSE(tryParseStrategy("bogus", 8, BlockKind::Ffn, &why));
    EXPECT_NE(why.find("unknown strategy"), std::string::npos);
}

TEST(PlanResolution, OptimalHasNoStandInPlan) {
    EXPECT_THROW(makePlan(parseStrategy("optimal:8", 8, BlockKind::Ffn), 8), std::invalid_argument);
    const CostModel costs = uniformChain(8);
    const Strategy optimal = parseStrategy("optimal:12", 8, BlockKind::Ffn);
    const Plan plan = resolvePlan(optimal, costs);
    EXPECT_TRUE(plan.unitLevel);
    EXPECT_LE(predict(costs, plan).peak_bytes, budgetBytes(optimal));
    const OptimalPlanner planner(costs);
    EXPECT_EQ(describeSchedule(resolvePlan(optimal, costs, &planner)), describeSchedule(plan));
    // Hand-written strategies are their block plan, in units.
    const Plan every = resolvePlan(parseStrategy("every:2", 8, BlockKind::Ffn), costs);
    EXPECT_EQ(
        describeSchedule(every),
        describeSchedule(toUnitLevel(makePlan(parseStrategy("every:2", 8, BlockKind::Ffn), 8), 1)));
}

TEST(PlanResolution, RecordedRunsUseTheirScheduleOrTheirStrategy) {
    const ExperimentConfig c = smallConfig();
    RunResult optimal = runOf("optimal:4", c);
    EXPECT_THROW(recordedPlan(optimal), std::invalid_argument);  // no schedule recorded
    optimal.schedule = "ckpt[0,4){0 1 2 3} 4 5 6 7";
    EXPECT_EQ(describeSchedule(recordedPlan(optimal)), optimal.schedule);
    int checkpointed = 0;  // blocks whose forward is checkpointed: all of full's
    for (const auto& segment : recordedPlan(runOf("full", c)).segments)
        if (segment.checkpointed) checkpointed += segment.end - segment.begin;
    EXPECT_EQ(checkpointed, c.depth);
}

TEST(MemoryForecast, TakesAnOptimalBudgetAsTheUpperBoundOfItsPeak) {
    const ExperimentConfig c = smallConfig();
    const MemoryEstimate none = estimateMemory(c, makePlan(Strategy{}, c.depth));
    const StrategyEstimate tight = estimateStrategy(c, parseStrategy("optimal:0.01", 8, c.block));
    EXPECT_TRUE(tight.budgetBound);
    EXPECT_EQ(tight.estimate.peak, std::int64_t(0.01 * 1024 * 1024));
    const StrategyEstimate loose = estimateStrategy(c, parseStrategy("optimal:100000", 8, c.block));
    EXPECT_EQ(loose.estimate.peak, none.peak);  // never above the plan without checkpoints
    EXPECT_FALSE(estimateStrategy(c, parseStrategy("full", 8, c.block)).budgetBound);
}

// Memory-efficient attention keeps no S x S term: its activations grow with the sequence as
// everything else does, eager's faster.
TEST(MemoryEstimate, MemoryEfficientAttentionIsLinearInTheSequence) {
    for (BlockKind block : {BlockKind::Transformer, BlockKind::Llama}) {
        ExperimentConfig c = smallConfig();
        c.block = block;
        c.dropout = 0;
        auto activations = [&](AttentionKind kind, int seq) {
            ExperimentConfig sized = c;
            sized.attention = kind;
            sized.seq = seq;
            return estimateMemory(sized, makePlan(Strategy{}, sized.depth)).activations;
        };
        const std::int64_t efficient = activations(AttentionKind::MemoryEfficient, 64);
        EXPECT_EQ(activations(AttentionKind::MemoryEfficient, 128), 2 * efficient)
            << toString(block);
        EXPECT_GT(activations(AttentionKind::Eager, 128), 2 * activations(AttentionKind::Eager, 64))
            << toString(block);
        EXPECT_LT(efficient, activations(AttentionKind::Eager, 64)) << toString(block);
    }
}

// mixed-bf16 stores fp32 master weights (and Adam's state beside them) and computes in bf16:
// its parameters are fp32's, its activations bf16's.
TEST(MemoryEstimate, MixedPrecisionStoresFp32AndComputesInBf16) {
    for (BlockKind block : {BlockKind::Ffn, BlockKind::Transformer, BlockKind::Llama}) {
        ExperimentConfig c = smallConfig();
        c.block = block;
        c.optimizer = Optimizer::Adam;
        auto estimate = [&](DType dtype) {
            ExperimentConfig typed = c;
            typed.dtype = dtype;
            return estimateMemory(typed, makePlan(Strategy{}, typed.depth));
        };
        const MemoryEstimate fp32 = estimate(DType::Float32), bf16 = estimate(DType::BFloat16),
                             mixed = estimate(DType::MixedBFloat16);
        EXPECT_EQ(mixed.parameters, fp32.parameters) << toString(block);
        EXPECT_EQ(mixed.optimizer_state, fp32.optimizer_state) << toString(block);
        EXPECT_EQ(2 * bf16.parameters, fp32.parameters) << toString(block);
        EXPECT_EQ(mixed.activations, bf16.activations) << toString(block);
    }
}

// The chain's ends: the embedding table (and the LM head's own unless tied, and the final
// norm's weight), the token ids and targets as the input, and the head's logits, which loss
// chunks cut into pieces.
TEST(MemoryEstimate, ChainEndsAddTheirTablesAndTheLogits) {
    ExperimentConfig c = smallConfig();
    c.block = BlockKind::Llama;
    const MemoryEstimate chain = estimateMemory(c, makePlan(Strategy{}, c.depth));
    c.vocab = 4096;
    const MemoryEstimate untied = estimateMemory(c, makePlan(Strategy{}, c.depth));
    const std::int64_t table = std::int64_t{c.vocab} * c.width * 4;
    EXPECT_EQ(untied.parameters, chain.parameters + 2 * table + c.width * 4);
    EXPECT_EQ(untied.input, 2 * std::int64_t{c.batch} * c.seq * 8);
    c.tie_embeddings = true;
    EXPECT_EQ(estimateMemory(c, makePlan(Strategy{}, c.depth)).parameters,
              chain.parameters + table + c.width * 4);
    // The vocabulary dwarfs the width here: the logits are the step's peak, and chunks cut it.
    const Plan full = makePlan(parseStrategy("full", c.depth, c.block), c.depth);
    const MemoryEstimate whole = estimateMemory(c, full);
    EXPECT_GT(whole.peak, chain.peak);
    c.loss_chunks = 4;
    EXPECT_LT(estimateMemory(c, full).peak, whole.peak);
}

TEST(MemoryForecast, OneCallSaysWhatFitsAndWhy) {
    const ExperimentConfig c = smallConfig();
    const FitForecast roomy =
        forecastFit(c, parseStrategies({"none", "full", "every:99"}), std::int64_t(1) << 40);
    ASSERT_TRUE(roomy.valid);
    EXPECT_FALSE(roomy.refused);
    EXPECT_EQ(roomy.largestStrategy, Strategy{});
    ASSERT_EQ(roomy.invalid.size(), 1u);  // beyond this model's depth
    EXPECT_EQ(roomy.invalid[0].text, "every:99");
    EXPECT_EQ(roomy.invalid[0].why.code, MessageCode::StrategyParameterOutOfRange);
    EXPECT_FALSE(roomy.nearLimit());

    const FitForecast tight = forecastFit(c, parseStrategies({"optimal:1000"}), 1024);
    EXPECT_TRUE(tight.refused);
    EXPECT_TRUE(tight.largestIsBound);
    ASSERT_TRUE(tight.refusal);
    EXPECT_EQ(tight.refusal->code, MessageCode::DoesNotFitBudgetBound);
    EXPECT_EQ(tight.refusal->args.at(0), "optimal:1000");
    EXPECT_NE(tight.refusal->english.find("upper bound"), std::string::npos);
    EXPECT_NE(tight.refusal->english.find("is predicted to need"), std::string::npos);
    EXPECT_GT(tight.runnerPredicted, 1024);

    ExperimentConfig bad = c;
    bad.depth = 0;
    EXPECT_FALSE(forecastFit(bad, {Strategy{}}, 0).valid);
}

TEST(SweepStrategies, CurveSweepsDropBudgetsAndFallBackToTheirSets) {
    const std::vector<Strategy> checked = parseStrategies({"none", "optimal:3", "full"});
    EXPECT_EQ(sweepStrategies(SweepKind::Sweep, checked, 8, BlockKind::Ffn), checked);
    EXPECT_EQ(sweepStrategies(SweepKind::Scaling, checked, 8, BlockKind::Ffn),
              parseStrategies({"none", "full"}));
    EXPECT_EQ(
        sweepStrategies(SweepKind::Scaling, parseStrategies({"optimal:3"}), 8, BlockKind::Ffn),
        defaultScalingStrategies());
    EXPECT_EQ(sweepStrategies(SweepKind::Pareto, {}, 8, BlockKind::Ffn),
              defaultParetoStrategies(8, BlockKind::Ffn));
    EXPECT_EQ(defaultScalingStrategies(), parseStrategies({"none", "sqrt", "full"}));
    EXPECT_EQ(defaultSweepStrategies(), parseStrategies({"none", "full", "every:2", "sqrt"}));
    // The seed's tradeoff and sqrt, less what a depth-8 model cannot take (from:10).
    EXPECT_EQ(defaultParetoStrategies(8, BlockKind::Ffn),
              parseStrategies({"none", "full", "every:2", "every:4", "segments:4", "sqrt"}));
}

TEST(SweepCheck, RefusesInTheRunnersOrder) {
    SweepRequestData r;
    r.config = smallConfig();
    r.checked = {};
    EXPECT_EQ(checkSweep(r, 0).verdict, SweepCheck::Verdict::NoStrategy);
    r.checked = parseStrategies({"none", "attn"});  // attn needs the transformer block
    EXPECT_EQ(checkSweep(r, 0).verdict, SweepCheck::Verdict::InvalidStrategy);
    r.checked = parseStrategies({"none", "full"});
    const SweepCheck ok = checkSweep(r, 0);
    EXPECT_TRUE(ok.ok());
    EXPECT_EQ(ok.forecasts.size(), 1u);
    EXPECT_EQ(checkSweep(r, 1024).verdict, SweepCheck::Verdict::DoesNotFit);

    r.kind = SweepKind::Scaling;
    r.axis = ScalingAxis::Depth;
    r.values = {4, 0};
    const SweepCheck bad = checkSweep(r, 0);
    ASSERT_EQ(bad.verdict, SweepCheck::Verdict::InvalidSize);
    EXPECT_EQ(bad.size->value, 0);
    EXPECT_EQ(bad.problem->english, "at depth=0: depth must be between 1 and 512 (got 0)");
    r.values = {4, 6};
    const SweepCheck sizes = checkSweep(r, 0);
    ASSERT_TRUE(sizes.ok());
    ASSERT_EQ(sizes.forecasts.size(), 2u);
    EXPECT_EQ(*sizes.forecasts[1].value, 6);
    ExperimentConfig bigger = r.config;
    bigger.depth = 0;
    r.config = bigger;
    EXPECT_EQ(checkSweep(r, 0).verdict, SweepCheck::Verdict::InvalidConfig);
}

TEST(SweepCheck, OneHomeForEveryRuleBothFrontEndsApply) {
    using Verdict = SweepCheck::Verdict;
    SweepRequestData r;
    r.config = smallConfig();
    r.checked = parseStrategies({"none", "every:2", "every:02"});
    SweepCheck check = checkSweep(r, 0);
    ASSERT_EQ(check.verdict, Verdict::InvalidStrategy);
    ASSERT_EQ(check.invalid.size(), 1u);
    EXPECT_EQ(check.problem->english, "strategies: every:2 is listed twice (items 2 and 3)");
    EXPECT_EQ(check.invalid[0].text, "every:2");

    // What the app's table could not parse comes first, as the front end said it.
    r.checked = parseStrategies({"none", "every:99"});
    r.unparsed = {{"bogus", CoreMessage(MessageCode::UnknownStrategy, {"bogus", "none, full"})}};
    check = checkSweep(r, 0);
    ASSERT_EQ(check.invalid.size(), 2u);
    EXPECT_EQ(check.invalid[0].text, "bogus");
    EXPECT_EQ(check.invalid[1].text, "every:99");
    EXPECT_EQ(check.invalid[1].why.english, "every:N needs N between 1 and 8 for depth 8 (got 99)");
    r.unparsed.clear();

    // Pareto: the points' range, then the planner's chain limit (128 ffn blocks, 64 transformer).
    r.kind = SweepKind::Pareto;
    r.checked = {Strategy{}};
    r.paretoPoints = kParetoMaxPoints + 1;
    check = checkSweep(r, 0);
    ASSERT_EQ(check.verdict, Verdict::InvalidPoints);
    EXPECT_EQ(check.problem->english, "points must be between 2 and 50 (got 51)");
    r.paretoPoints = kParetoMinPoints;
    r.config.depth = 129;
    check = checkSweep(r, 0);
    ASSERT_EQ(check.verdict, Verdict::PlannerLimit);
    EXPECT_EQ(check.problem->english.rfind("a Pareto sweep plans at most 128 units", 0), 0u)
        << check.problem->english;
    EXPECT_EQ(check.problem->code, MessageCode::ParetoTooManyUnits);
    EXPECT_NE(
        check.problem->english.find("depth 129 of ffn blocks is 129 units: use depth 1 to 128"),
        std::string::npos)
        << check.problem->english;
    r.config.depth = 128;
    EXPECT_TRUE(checkSweep(r, 0).ok());
    r.config.block = BlockKind::Transformer;
    r.config.width = 32;
    r.config.heads = 4;
    r.config.depth = 65;
    EXPECT_EQ(checkSweep(r, 0).verdict, Verdict::PlannerLimit);
    r.config.depth = 64;
    EXPECT_TRUE(checkSweep(r, 0).ok());

    // An optimal budget on a chain too long for the planner, in a plain sweep.
    r.kind = SweepKind::Sweep;
    r.config = smallConfig();
    r.config.depth = 300;
    r.checked = parseStrategies({"none", "optimal:10"});
    check = checkSweep(r, 0);
    ASSERT_EQ(check.verdict, Verdict::InvalidStrategy);
    EXPECT_EQ(check.invalid[0].why.code, MessageCode::PlannerTooManyUnits);

    // Scaling: the two-values rule, every size's config, then each strategy at every size.
    r.kind = SweepKind::Scaling;
    r.config = smallConfig();
    r.axis = ScalingAxis::Depth;
    r.checked = parseStrategies({"none", "optimal:3", "segments:6"});
    r.values = {8};
    check = checkSweep(r, 0);
    ASSERT_EQ(check.verdict, Verdict::InvalidValues);
    EXPECT_EQ(check.problem->english, "values: give at least two values to fit");
    r.values = {8, 4, 8};
    check = checkSweep(r, 0);
    ASSERT_EQ(check.verdict, Verdict::InvalidValues);
    EXPECT_EQ(check.problem->english,
              "values: 8 is listed twice (items 1 and 3); a fit needs distinct sizes");
    r.values = {8, 4};
    check = checkSweep(r, 0);
    ASSERT_EQ(check.verdict, Verdict::InvalidStrategy);
    EXPECT_EQ(check.problem->english,
              "at depth=4: segments:N needs N between 1 and 4 for depth 4 (got 6)");
    r.checked = parseStrategies({"none", "optimal:3"});
    check = checkSweep(r, 0);
    ASSERT_TRUE(check.ok());
    EXPECT_EQ(check.strategies, parseStrategies({"none"}));  // a fixed budget is left out
    EXPECT_FALSE(scalingValuesError({2, 4}));
}

TEST(ScalingPreCheck, NamesTheFirstInvalidSize) {
    const ExperimentConfig c = smallConfig();
    EXPECT_FALSE(firstInvalidSize(c, ScalingAxis::Width, {16, 32}));
    const auto bad = firstInvalidSize(c, ScalingAxis::Width, {16, -1, 0});
    ASSERT_TRUE(bad);
    EXPECT_EQ(bad->value, -1);
    const auto configs = scalingConfigs(c, ScalingAxis::Seq, {4, 8});
    ASSERT_EQ(configs.size(), 2u);
    EXPECT_EQ(configs[1].seq, 8);
    EXPECT_EQ(configs[1].width, c.width);
}

TEST(ParetoRules, PointsRangeAndVerdictThresholds) {
    EXPECT_FALSE(paretoPointsError(kParetoMinPoints));
    EXPECT_FALSE(paretoPointsError(kParetoMaxPoints));
    ASSERT_TRUE(paretoPointsError(1));
    EXPECT_EQ(paretoPointsError(1)->english, "points must be between 2 and 50 (got 1)");
    EXPECT_TRUE(paretoPointsError(51));
    EXPECT_EQ(standingFor(-0.5), CurveStanding::Below);
    EXPECT_EQ(standingFor(0.0), CurveStanding::OnCurve);
    EXPECT_EQ(standingFor(0.049), CurveStanding::OnCurve);
    EXPECT_EQ(standingFor(0.05), CurveStanding::Above);

    ResultSet set;
    set.runs = {runOf("full", smallConfig()), runOf("optimal:3", smallConfig()),
                runOf("none", smallConfig())};
    std::vector<SummaryRow> rows(3);
    rows[0].slower_than_optimal_pct = 12.0;
    rows[1].slower_than_optimal_pct = 0.0;  // a budget: never compared with itself
    const auto standings = standingsAgainstOptimal(set, rows);
    ASSERT_EQ(standings.size(), 1u);
    EXPECT_EQ(standings[0].row, 0u);
    EXPECT_EQ(standings[0].standing, CurveStanding::Above);
}

TEST(ParetoFrontier, OnPlainPoints) {
    const std::vector<std::pair<double, double>> pts{{10, 5}, {5, 10}, {12, 7}, {20, 1}, {8, 6}};
    EXPECT_EQ(paretoFrontier(pts), (std::vector<int>{1, 4, 0, 3}));
    EXPECT_EQ(paretoFrontier({{10, 5}, {10, 5}}), (std::vector<int>{0, 1}));
    EXPECT_TRUE(paretoFrontier({}).empty());
}

TEST(ScalingDetection, OneVaryingAxisAmongFinishedRuns) {
    ResultSet set;
    ExperimentConfig a = smallConfig(), b = smallConfig();
    b.seq = 32;
    set.runs = {runOf("none", a), runOf("none", b)};
    ASSERT_TRUE(detectScalingAxis(set));
    EXPECT_EQ(*detectScalingAxis(set), ScalingAxis::Seq);
    set.runs[1].error = "failed";
    EXPECT_FALSE(detectScalingAxis(set));
    EXPECT_FALSE(detectScalingAxis(ResultSet{}));
}

TEST(CostForecast, ReplaysEveryStrategyAndPlansBudgets) {
    ExperimentConfig c = smallConfig();
    const CostModel costs = uniformChain(8);
    const CostForecast f =
        forecastFromCosts(costs, c, parseStrategies({"none", "full", "optimal:12", "every:99"}));
    ASSERT_EQ(f.strategies.size(), 4u);
    EXPECT_TRUE(f.strategies[0].ok);
    EXPECT_EQ(f.strategies[0].peak_bytes, f.none_peak);
    EXPECT_LT(f.strategies[1].peak_bytes, f.none_peak);
    EXPECT_TRUE(f.strategies[2].ok);
    EXPECT_LE(f.strategies[2].peak_bytes, 12 * 1024 * 1024);
    EXPECT_FALSE(f.strategies[3].ok);
    ASSERT_TRUE(f.strategies[3].error);
    EXPECT_EQ(f.strategies[3].error->code, MessageCode::StrategyParameterOutOfRange);
    EXPECT_GT(f.minimum_peak, 0);
    EXPECT_LE(f.minimum_peak, f.strategies[1].peak_bytes);
}

TEST(StrategyForm, TheTextFormApartFromTheModelsRanges) {
    const auto every = parseStrategyForm("every:50");  // too deep for most models, still a form
    ASSERT_TRUE(every);
    EXPECT_EQ(every->param, 50);
    EXPECT_THROW(checkStrategy(*every, 20, BlockKind::Ffn), StrategyError);
    EXPECT_NO_THROW(checkStrategy(*every, 64, BlockKind::Ffn));
    std::string why;
    EXPECT_FALSE(parseStrategyForm("every:x", &why));
    EXPECT_NE(why.find("needs an integer parameter"), std::string::npos);
    EXPECT_FALSE(parseStrategyForm("bogus"));
    const auto attn = parseStrategyForm("attn");
    ASSERT_TRUE(attn);
    EXPECT_THROW(checkStrategy(*attn, 8, BlockKind::Ffn), StrategyError);
    // The messages are parseStrategy's, which is the form and the check together.
    try {
        parseStrategy("every:50", 20, BlockKind::Ffn);
        FAIL();
    } catch (const StrategyError& e) {
        EXPECT_STREQ(e.what(), "every:N needs N between 1 and 20 for depth 20 (got 50)");
    }
}

TEST(StrategyForm, CatalogOffersEveryKindOnceWithItsDefault) {
    std::vector<std::string> names;
    for (const Strategy& s : strategyCatalog()) names.push_back(s.name());
    EXPECT_EQ(names, (std::vector<std::string>{"none", "full", "every:2", "segments:4", "from:10",
                                               "upto:10", "sqrt", "attn", "ffn", "revolve:3",
                                               "seed-bug:4", "optimal:48"}));
    EXPECT_EQ(kindName(StrategyKind::SeedBug), "seed-bug");
    EXPECT_TRUE(takesParam(StrategyKind::Optimal));
    EXPECT_FALSE(takesParam(StrategyKind::Sqrt));
    EXPECT_EQ(makeStrategy(StrategyKind::Optimal, 12.5).name(), "optimal:12.5");
    EXPECT_EQ(paramOf(makeStrategy(StrategyKind::Every, 3)), 3);
    EXPECT_EQ(makeStrategy(StrategyKind::Sqrt, 7).name(), "sqrt");
}

TEST(StrategyForm, EveryKindHasItsHelpLine) {
    const std::string help = strategySyntaxHelp();
    EXPECT_EQ(help.rfind("none          keep every activation (the baseline)\n", 0), 0u);
    EXPECT_NE(help.find("\nevery:N       checkpoint blocks 0, N, 2N, ... (seed experiment 1)\n"),
              std::string::npos);
    // One line per kind of the table, in its order: a new kind cannot drop out of the help.
    std::istringstream lines(help);
    std::string line;
    std::size_t row = 0;
    for (; std::getline(lines, line); ++row) {
        ASSERT_LT(row, strategyKinds().size()) << line;
        const StrategyKindInfo& kind = strategyKinds()[row];
        EXPECT_EQ(line.rfind(kind.syntax + " ", 0), 0u) << line;
        EXPECT_NE(line.find(kind.description), std::string::npos) << line;
    }
    EXPECT_EQ(row, strategyKinds().size());
    EXPECT_EQ(strategyCatalog().size(), strategyKinds().size());
}
