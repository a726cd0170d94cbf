// The rules both front ends share (sweep_policy.h, pareto.h, scaling.h, strategy.h): typed
// strategy predicates, plan resolution, the fit forecast, the strategies a sweep runs, the
// scaling pre-check, the Pareto verdict and the chart helpers that moved out of ui/charts.
#include <gtest/gtest.h>

#include "ckptlab/pareto.h"
#include "ckptlab/scaling.h"
#include "ckptlab/sweep_policy.h"

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
    run.strategy = strategy;
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

TEST(StrategyPredicates, ParseARunsStrategyOrSayNothing) {
    const ExperimentConfig c = smallConfig();
    ASSERT_TRUE(strategyOf(runOf("optimal:3", c)));
    EXPECT_EQ(strategyOf(runOf("optimal:3", c))->kind, StrategyKind::Optimal);
    EXPECT_FALSE(strategyOf(runOf("optimalish:3", c)));
    EXPECT_FALSE(strategyOf(runOf("every:99", c)));  // beyond this run's depth
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
    EXPECT_EQ(checkpointedBlockCount(recordedPlan(runOf("full", c)), 8), 8);
    EXPECT_THROW(recordedPlan(runOf("bogus", c)), std::invalid_argument);
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

TEST(MemoryForecast, OneCallSaysWhatFitsAndWhy) {
    const ExperimentConfig c = smallConfig();
    const FitForecast roomy = forecastFit(c, {"none", "full", "bogus"}, std::int64_t(1) << 40);
    ASSERT_TRUE(roomy.valid);
    EXPECT_FALSE(roomy.refused);
    EXPECT_EQ(roomy.largestStrategy, "none");
    ASSERT_EQ(roomy.invalid.size(), 1u);
    EXPECT_EQ(roomy.invalid[0].rfind("bogus: ", 0), 0u);
    EXPECT_FALSE(roomy.nearLimit());

    const FitForecast tight = forecastFit(c, {"optimal:1000"}, 1024);
    EXPECT_TRUE(tight.refused);
    EXPECT_TRUE(tight.largestIsBound);
    EXPECT_NE(tight.refusal.find("upper bound"), std::string::npos);
    EXPECT_NE(tight.refusal.find("is predicted to need"), std::string::npos);
    EXPECT_GT(tight.runnerPredicted, 1024);

    ExperimentConfig bad = c;
    bad.depth = 0;
    EXPECT_FALSE(forecastFit(bad, {"none"}, 0).valid);
}

TEST(SweepStrategies, CurveSweepsDropBudgetsAndFallBackToTheirSets) {
    const std::vector<std::string> checked{"none", "optimal:3", "full"};
    EXPECT_EQ(sweepStrategies(SweepKind::Sweep, checked, 8, BlockKind::Ffn), checked);
    EXPECT_EQ(sweepStrategies(SweepKind::Scaling, checked, 8, BlockKind::Ffn),
              (std::vector<std::string>{"none", "full"}));
    EXPECT_EQ(sweepStrategies(SweepKind::Scaling, {"optimal:3"}, 8, BlockKind::Ffn),
              defaultScalingStrategies());
    EXPECT_EQ(sweepStrategies(SweepKind::Pareto, {}, 8, BlockKind::Ffn),
              defaultParetoStrategies(8, BlockKind::Ffn));
    EXPECT_EQ(defaultScalingStrategies(), (std::vector<std::string>{"none", "sqrt", "full"}));
}

TEST(SweepCheck, RefusesInTheRunnersOrder) {
    SweepRequestData r;
    r.config = smallConfig();
    r.checked = {};
    EXPECT_EQ(checkSweep(r, 0).verdict, SweepCheck::Verdict::NoStrategy);
    r.checked = {"none", "attn"};  // attn needs the transformer block
    EXPECT_EQ(checkSweep(r, 0).verdict, SweepCheck::Verdict::InvalidStrategy);
    r.checked = {"none", "full"};
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
    EXPECT_TRUE(paretoPointsError(kParetoMinPoints).empty());
    EXPECT_TRUE(paretoPointsError(kParetoMaxPoints).empty());
    EXPECT_EQ(paretoPointsError(1), "must be between 2 and 50 (got 1)");
    EXPECT_FALSE(paretoPointsError(51).empty());
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
    const CostForecast f = forecastFromCosts(costs, c, {"none", "full", "optimal:12", "bogus"});
    ASSERT_EQ(f.strategies.size(), 4u);
    EXPECT_TRUE(f.strategies[0].ok);
    EXPECT_EQ(f.strategies[0].peak_bytes, f.none_peak);
    EXPECT_LT(f.strategies[1].peak_bytes, f.none_peak);
    EXPECT_TRUE(f.strategies[2].ok);
    EXPECT_LE(f.strategies[2].peak_bytes, 12 * 1024 * 1024);
    EXPECT_FALSE(f.strategies[3].ok);
    EXPECT_FALSE(f.strategies[3].error.empty());
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
    EXPECT_EQ(strategyHelp(StrategyKind::Every),
              "every:N checkpoint blocks 0, N, 2N, ... (seed experiment 1)");
    EXPECT_EQ(strategyHelp(StrategyKind::None), "none keep every activation (the baseline)");
    for (const Strategy& s : strategyCatalog()) EXPECT_FALSE(strategyHelp(s.kind).empty());
}
