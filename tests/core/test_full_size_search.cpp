// planFullSize's largest batch and longest sequence (full_size.h) are the answers of planning
// the strategy again at every size its searches probe, though it plans at a few sizes only; and
// it stops when cancelled.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include "ckptlab/engine/runner.h"
#include "ckptlab/planning/full_size.h"
#include "ckptlab/planning/plan_of_strategy.h"
#include "ckptlab/planning/planner.h"
#include "test_configs.h"

using namespace ckptlab;

namespace {

// A Llama chain with both ends and Adam, measured once; planned at depth 12 (24 units), where
// an optimal:MiB strategy gives other schedules at other sizes.
const CostFit& fit() {
    static const CostFit measured = [] {
        ExperimentConfig c = test::quickConfig(BlockKind::Llama, 2, 64, 128, 2, 0.0);
        c.heads = 4;
        c.kv_heads = 2;
        c.vocab = 500;
        c.optimizer = Optimizer::Adam;
        c.threads = 1;
        CostFit f = measureCostFit(c);
        f.config.depth = 12;
        return f;
    }();
    return measured;
}

std::int64_t reservedOf(const Prediction& p) {
    return p.reserved_peak_bytes.value_or(p.baseline_bytes + p.peak_bytes);
}

// The search as planFullSize made it before it shared its planners: doubling from `start`,
// then halving the gap, every probe planned in full.
template <class Fits>
int slowLargestFitting(int start, int max, Fits fits) {
    int good = 0, bad = max + 1;
    int probe = std::clamp(start, 1, max);
    if (fits(probe)) {
        good = probe;
        while (good < max) {
            probe = good > max / 2 ? max : good * 2;
            if (!fits(probe)) {
                bad = probe;
                break;
            }
            good = probe;
        }
    } else {
        bad = probe;
    }
    while (bad - good > 1) {
        const int mid = good + (bad - good) / 2;
        (fits(mid) ? good : bad) = mid;
    }
    return good;
}

struct SlowAnswer {
    std::optional<Prediction> atTarget;
    int largestBatch = 0;
    int longestSeq = 0;
    double stepMsAtLargestBatch = 0;
};

// One strategy the slow way: at each size its plan from resolvePlan (the optimal planner made
// for that size's costs, BudgetError when nothing fits the budget) and its replayed prediction.
SlowAnswer slowAnswer(const Strategy& strategy, std::int64_t capacity) {
    const ExperimentConfig& t = fit().config;
    auto at = [&](int batch, int seq) -> std::optional<Prediction> {
        const CostModel costs = costsAt(fit(), batch, seq, t.depth);
        try {
            return predict(costs, resolvePlan(strategy, costs), ReplayAllocator::Yes);
        } catch (const BudgetError&) {
            return std::nullopt;
        }
    };
    auto fits = [&](int batch, int seq) {
        const auto p = at(batch, seq);
        return p && reservedOf(*p) <= capacity;
    };
    SlowAnswer out;
    out.atTarget = at(t.batch, t.seq);
    out.largestBatch = slowLargestFitting(t.batch, static_cast<int>(limits::batch.max),
                                          [&](int b) { return fits(b, t.seq); });
    out.longestSeq = slowLargestFitting(t.seq, static_cast<int>(limits::seq.max),
                                        [&](int s) { return fits(t.batch, s); });
    if (out.largestBatch > 0) out.stepMsAtLargestBatch = at(out.largestBatch, t.seq)->step_ms;
    return out;
}

}  // namespace

TEST(FullSizeSearch, AnswersAreThoseOfPlanningEveryProbe) {
    const ExperimentConfig& t = fit().config;
    const CostModel target = costsAt(fit(), t.batch, t.seq, t.depth);
    const std::int64_t floor = OptimalPlanner(target).minimumPeak();
    const std::int64_t full = reservedOf(predict(
        target, resolvePlan(parseStrategies({"full"}).front(), target), ReplayAllocator::Yes));
    // A budget that runs out before the capacity does (larger batches have no schedule within
    // it), and one so large that the capacity decides; the capacity is a few of full's.
    const double mib = 1024.0 * 1024.0;
    const Strategy tight = makeStrategy(StrategyKind::Optimal, 3.0 * double(floor) / mib);
    const Strategy loose = makeStrategy(StrategyKind::Optimal, 1e6);
    std::vector<Strategy> strategies = parseStrategies({"none", "full", "sqrt"});
    strategies.push_back(tight);
    strategies.push_back(loose);
    int capacityDecided = 0, budgetDecided = 0;
    for (const std::int64_t capacity : {4 * full, 40 * full}) {
        const FullSizePlan plan = planFullSize(fit(), capacity, strategies);
        ASSERT_EQ(plan.strategies.size(), strategies.size());
        for (std::size_t i = 0; i < strategies.size(); ++i) {
            const std::string what = strategies[i].name() + " at " + std::to_string(capacity);
            const SlowAnswer slow = slowAnswer(strategies[i], capacity);
            const StrategyAtSize& fast = plan.strategies[i];
            ASSERT_TRUE(slow.atTarget) << what;
            EXPECT_EQ(fast.reserved, reservedOf(*slow.atTarget)) << what;
            EXPECT_EQ(fast.prediction.step_ms, slow.atTarget->step_ms) << what;
            EXPECT_EQ(fast.largest_batch, slow.largestBatch) << what;
            EXPECT_EQ(fast.longest_seq, slow.longestSeq) << what;
            EXPECT_EQ(fast.step_ms_at_largest_batch, slow.stepMsAtLargestBatch) << what;
            EXPECT_GT(fast.largest_batch, 0) << what;
            if (strategies[i] == tight) {
                // Its largest batch is where its budget runs out, below what the capacity holds.
                const CostModel next = costsAt(fit(), fast.largest_batch + 1, t.seq, t.depth);
                if (OptimalPlanner(next).minimumPeak() > budgetBytes(tight)) ++budgetDecided;
            }
            if (strategies[i] == loose && fast.largest_batch < limits::batch.max) {
                const CostModel next = costsAt(fit(), fast.largest_batch + 1, t.seq, t.depth);
                if (OptimalPlanner(next).minimumPeak() <= budgetBytes(loose)) ++capacityDecided;
            }
        }
    }
    // Both ways a planned strategy's search ends were taken.
    EXPECT_GT(budgetDecided, 0);
    EXPECT_GT(capacityDecided, 0);
}

TEST(FullSizeSearch, StopsWhenCancelled) {
    std::vector<Strategy> strategies = parseStrategies({"none"});
    strategies.push_back(makeStrategy(StrategyKind::Optimal, 1e6));
    std::atomic<bool> cancel{true};
    FullSizeProgress progress;
    progress.cancel = &cancel;
    EXPECT_THROW(planFullSize(fit(), 1LL << 40, strategies, progress), PlanningCancelled);
    // Set while it plans (here as the second strategy starts): it stops there.
    cancel = false;
    int started = 0;
    progress.step = [&](const std::string&, int done, int) {
        started = done + 1;
        if (done == 1) cancel = true;
    };
    EXPECT_THROW(planFullSize(fit(), 1LL << 40, strategies, progress), PlanningCancelled);
    EXPECT_EQ(started, 2);
    // Not set: it plans to the end.
    cancel = false;
    progress.step = nullptr;
    EXPECT_EQ(planFullSize(fit(), 1LL << 40, strategies, progress).strategies.size(), 2u);
}
