// A full-size plan's answers are numbers only where they are numbers (full_size.h,
// full_size_record.h): a strategy with no schedule at the asked size (an optimal:MiB budget
// below the least peak) says so with its least peak instead of zeros, and the JSON that says
// it, plan --capacity --json's object and a lesson's recording alike, reads back through the
// results reader as it was written.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ckptlab/engine/runner.h"
#include "ckptlab/formats/full_size_files.h"
#include "ckptlab/formats/results_io.h"
#include "ckptlab/planning/full_size.h"
#include "ckptlab/planning/planner.h"
#include "ckptlab/planning/sweep_check.h"
#include "ckptlab/teaching/lesson_plan.h"
#include "test_configs.h"

using namespace ckptlab;

namespace {

// A small Llama chain with both ends and Adam: measured in seconds.
ExperimentConfig target() {
    ExperimentConfig c = test::quickConfig(BlockKind::Llama, 2, 32, 128, 2, 0.0);
    c.heads = 2;
    c.vocab = 256;
    c.optimizer = Optimizer::Adam;
    c.threads = 1;
    return c;
}

const CostFit& fit() {
    static const CostFit f = measureCostFit(target());
    return f;
}

// none, an optimal budget of about a kilobyte (below any schedule's peak here) and full.
std::vector<Strategy> strategies() { return parseStrategies({"none", "optimal:0.001", "full"}); }

constexpr std::int64_t kCapacity = 24'000'000'000LL;

const FullSizePlan& plan() {
    static const FullSizePlan p = planFullSize(fit(), kCapacity, strategies());
    return p;
}

// The recording a lesson's plan step makes of the same plan.
ResultSet recording() {
    LessonStep step;
    step.id = "infeasible";
    step.experiment.config = target();
    step.experiment.strategies = strategies();
    step.experiment.plan = LessonPlanRequest{"tiny", 24'000'000'000.0 / (1024.0 * 1024 * 1024)};
    Environment environment;
    environment.device = "cpu";
    environment.device_name = "test";
    environment.threads = 1;
    return planStepResults(step, fit(), environment);
}

}  // namespace

TEST(FullSizeAnswers, AStrategyWithNoScheduleSaysItsLeastPeakInsteadOfZeros) {
    const FullSizePlan& p = plan();
    ASSERT_EQ(p.strategies.size(), 3u);
    const StrategyAtSize& infeasible = p.strategies[1];
    const ExperimentConfig& t = fit().config;
    const CostModel costs = costsAt(fit(), t.batch, t.seq, t.depth);
    ASSERT_TRUE(infeasible.least_peak.has_value());
    EXPECT_EQ(*infeasible.least_peak, OptimalPlanner(costs).minimumPeak());
    EXPECT_GT(*infeasible.least_peak, 1024);  // above its budget of about a kilobyte
    EXPECT_FALSE(infeasible.fits);
    for (std::size_t i : {0u, 2u}) {
        const StrategyAtSize& s = p.strategies[i];
        EXPECT_FALSE(s.least_peak.has_value()) << s.strategy.name();
        EXPECT_TRUE(s.fits) << s.strategy.name();
        EXPECT_EQ(s.margin, kCapacity - s.reserved) << s.strategy.name();
        // The numbers a row prints are numbers: positive and finite.
        EXPECT_GT(s.reserved, 0) << s.strategy.name();
        EXPECT_TRUE(std::isfinite(s.prediction.step_ms) && s.prediction.step_ms > 0);
        EXPECT_TRUE(std::isfinite(s.tokens_per_s) && s.tokens_per_s > 0);
    }
}

TEST(FullSizeAnswers, TheCliJsonSaysNullWhereARowHasNoNumber) {
    const FullSizePlanRecord record = recordOf(plan(), fit(), "tiny", 1, "predicted here");
    const nlohmann::json j = nlohmann::json::parse(fullSizePlanJson(record));
    const nlohmann::json& row = j.at("strategies").at(1);
    EXPECT_EQ(row.at("strategy"), "optimal:0.001");
    EXPECT_EQ(row.at("least_peak_bytes"), *plan().strategies[1].least_peak);
    for (const char* key : {"allocated_bytes", "reserved_bytes", "peak_bytes", "baseline_bytes",
                            "split", "margin_bytes", "step_ms"})
        EXPECT_TRUE(row.at(key).is_null()) << key;
    EXPECT_EQ(row.at("fits"), false);
    // A row with a schedule has no least_peak_bytes: files without infeasible rows keep their
    // bytes.
    EXPECT_FALSE(j.at("strategies").at(0).contains("least_peak_bytes"));
}

TEST(FullSizeAnswers, ARecordingWithAnInfeasibleRowReadsBackAsWritten) {
    const ResultSet written = recording();
    ASSERT_TRUE(written.plan);
    const std::string text = resultsToJson(written);
    const ResultSet read = resultsFromJson(text);
    ASSERT_TRUE(read.plan);
    ASSERT_EQ(read.plan->strategies.size(), 3u);
    const FullSizePlanRow& row = read.plan->strategies[1];
    EXPECT_EQ(row.strategy.name(), "optimal:0.001");
    ASSERT_TRUE(row.least_peak_bytes.has_value());
    EXPECT_EQ(*row.least_peak_bytes, *written.plan->strategies[1].least_peak_bytes);
    EXPECT_FALSE(row.fits);
    EXPECT_EQ(row.largest_batch, written.plan->strategies[1].largest_batch);
    EXPECT_EQ(row.longest_seq, written.plan->strategies[1].longest_seq);
    // Written again, the same bytes.
    EXPECT_EQ(resultsToJson(read), text);
    for (std::size_t i : {0u, 2u}) {
        EXPECT_FALSE(read.plan->strategies[i].least_peak_bytes.has_value());
        EXPECT_EQ(read.plan->strategies[i].reserved_bytes,
                  written.plan->strategies[i].reserved_bytes);
    }
}

TEST(FullSizeAnswers, TheReaderRefusesAnInfeasibleRowWithANumberOrThatFits) {
    const std::string text = resultsToJson(recording());
    auto edited = [&](const char* key, const nlohmann::json& value) {
        nlohmann::ordered_json doc = nlohmann::ordered_json::parse(text);
        doc["plan"]["strategies"][1][key] = value;
        return doc.dump(2) + "\n";
    };
    const std::vector<std::pair<const char*, nlohmann::json>> planted = {
        {"allocated_bytes", 0}, {"margin_bytes", 0}, {"split", nlohmann::json::object()},
        {"step_ms", 0.0},       {"fits", true},      {"least_peak_bytes", 0},
    };
    for (const auto& [key, value] : planted) {
        try {
            resultsFromJson(edited(key, value));
            ADD_FAILURE() << key << " = " << value.dump() << " was read";
        } catch (const ResultsFileError& e) {
            EXPECT_NE(std::string(e.what()).find(std::string("plan.strategies[1].") + key),
                      std::string::npos)
                << e.what();
        }
    }
}

TEST(FullSizeAnswers, TheReaderRefusesARepeatedRowWithSweepsMessage) {
    nlohmann::ordered_json doc = nlohmann::ordered_json::parse(resultsToJson(recording()));
    doc["plan"]["strategies"][2]["strategy"] = "none";
    try {
        resultsFromJson(doc.dump(2) + "\n");
        ADD_FAILURE() << "a plan with none twice was read";
    } catch (const ResultsFileError& e) {
        EXPECT_NE(std::string(e.what()).find("plan.strategies[2].strategy: strategies: none is "
                                             "listed twice (items 1 and 3)"),
                  std::string::npos)
            << e.what();
    }
}
