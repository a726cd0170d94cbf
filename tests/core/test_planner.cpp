// The optimal planner against brute force, and Revolve against Griewank's formula.
#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <random>

#include "ckptlab/planner.h"

using namespace ckptlab;

namespace {

// A chain with integer costs of varied size, so one byte per quantum is exact.
CostModel randomChain(int units, std::mt19937& rng) {
    std::uniform_int_distribution<int> small(1, 6), big(4, 20), ms(1, 9);
    CostModel model;
    model.checkpoint_bytes = 1;
    for (int u = 0; u < units; ++u) {
        UnitCost c;
        c.output_bytes = 4;
        c.kept_bytes = c.output_bytes + big(rng);
        c.forward_peak = c.kept_bytes + small(rng);
        c.nograd_peak = c.output_bytes + small(rng);
        c.backward_peak = small(rng);
        c.param_grad_bytes = small(rng);
        c.forward_ms = ms(rng);
        c.nograd_ms = c.forward_ms * 0.8;
        c.backward_ms = 2 * ms(rng);
        model.units.push_back(c);
    }
    return model;
}

// Every schedule of the planner's class over [begin, end): sequences of plain units and
// checkpoints whose bodies are schedules again (a body is never one checkpoint of itself).
std::vector<std::vector<Segment>> allSchedules(int begin, int end, bool isBody) {
    if (begin == end) return {{}};
    std::vector<std::vector<Segment>> out;
    for (auto& rest : allSchedules(begin + 1, end, false)) {
        std::vector<Segment> s{{begin, begin + 1, false, {}}};
        s.insert(s.end(), rest.begin(), rest.end());
        out.push_back(s);
    }
    for (int k = begin + 1; k <= end; ++k) {
        if (isBody && k == end) continue;
        for (auto& body : allSchedules(begin, k, true)) {
            for (auto& rest : allSchedules(k, end, false)) {
                std::vector<Segment> s{{begin, k, true, body}};
                s.insert(s.end(), rest.begin(), rest.end());
                out.push_back(s);
            }
        }
    }
    return out;
}

long long binomial(int n, int k) {
    if (k < 0 || k > n) return 0;
    long long r = 1;
    for (int i = 1; i <= k; ++i) r = r * (n - k + i) / i;
    return r;
}

}  // namespace

TEST(OptimalPlanner, MatchesBruteForceOnSmallChains) {
    std::mt19937 rng(42);
    for (int units = 1; units <= 6; ++units) {
        for (int trial = 0; trial < 3; ++trial) {
            const CostModel model = randomChain(units, rng);
            const auto schedules = allSchedules(0, units, false);
            std::vector<Prediction> predicted;
            for (const auto& s : schedules) {
                Plan p;
                p.unitLevel = true;
                p.segments = s;
                predicted.push_back(predict(model, p));
            }
            std::int64_t maxPeak = 0;
            for (const auto& p : predicted) maxPeak = std::max(maxPeak, p.peak_bytes);
            for (std::int64_t budget = 1; budget <= maxPeak + 2; ++budget) {
                double bruteForce = std::numeric_limits<double>::infinity();
                for (const auto& p : predicted)
                    if (p.peak_bytes <= budget) bruteForce = std::min(bruteForce, p.step_ms);
                OptimalPlanner planner(model, /*quanta=*/static_cast<int>(budget));
                try {
                    const PlannedSchedule planned = planner.plan(budget);
                    EXPECT_DOUBLE_EQ(planned.prediction.step_ms, bruteForce)
                        << units << " units, budget " << budget;
                    EXPECT_LE(planned.prediction.peak_bytes, budget)
                        << describeSchedule(planned.plan);
                } catch (const BudgetError& e) {
                    EXPECT_EQ(bruteForce, std::numeric_limits<double>::infinity())
                        << units << " units, budget " << budget << ": " << e.what();
                }
            }
        }
    }
}

TEST(OptimalPlanner, BudgetErrorNamesTheMinimum) {
    std::mt19937 rng(7);
    const CostModel model = randomChain(5, rng);
    OptimalPlanner planner(model, 1000);
    const std::int64_t minimum = planner.minimumPeak();
    EXPECT_NO_THROW(planner.plan(minimum));
    try {
        planner.plan(minimum / 2);
        FAIL() << "expected BudgetError";
    } catch (const BudgetError& e) {
        EXPECT_EQ(e.minimum, minimum);
        EXPECT_NE(std::string(e.what()).find("below the smallest feasible schedule"),
                  std::string::npos);
    }
}

TEST(Revolve, RecomputationsFollowTheBinomialFormula) {
    for (int slots = 1; slots <= 4; ++slots) {
        for (int steps = 1; steps <= 30; ++steps) {
            // t: the smallest repetition number with C(s + t, s) >= l.
            int t = 0;
            while (binomial(slots + t, slots) < steps) ++t;
            const long long expected = steps == 1 ? 0 : t * steps - binomial(slots + t, slots + 1);
            EXPECT_EQ(noGradForwardCount(revolvePlan(steps, slots)), expected)
                << steps << " steps, " << slots << " slots";
        }
    }
}

TEST(Schedule, DescribesAndCountsForwards) {
    Plan plan;
    plan.segments = {{0, 3, true, {{0, 1, true, {}}, {1, 3, false, {}}}}, {3, 5, false, {}}};
    EXPECT_EQ(describeSchedule(plan), "ckpt[0,3){ckpt[0,1){0} 1 2} 3 4");
    EXPECT_EQ(forwardCounts(plan, 5), (std::vector<int>{3, 2, 2, 1, 1}));
    EXPECT_EQ(noGradForwardCount(plan), 4);
}
