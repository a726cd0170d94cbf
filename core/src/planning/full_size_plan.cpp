// planFullSize: every strategy of a model at its real size against a GPU's capacity, from a
// fitted cost model (full_size.h). A strategy fits when the caching allocator's predicted
// reservation does, since that is what runs out on a GPU.
#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <utility>

#include "ckptlab/planning/full_size.h"
#include "ckptlab/planning/plan_of_strategy.h"
#include "planning/planner_candidates.h"

namespace ckptlab {
namespace {

std::int64_t reservedOf(const Prediction& p) {
    return p.reserved_peak_bytes.value_or(p.baseline_bytes + p.peak_bytes);
}

void throwIfCancelled(const std::atomic<bool>* cancel) {
    if (cancel && cancel->load()) throw PlanningCancelled();
}

// The optimal planner at each size asked: making one weighs every built-in strategy's plan
// (hundreds on a deep chain, more work than its plan), so each size's is made once and shared
// by the strategies, the fastest schedule and the searches.
class Planners {
public:
    Planners(const CostFit& fit, const std::atomic<bool>* cancel) : fit_(fit), cancel_(cancel) {}

    const OptimalPlanner& at(int batch, int seq) {
        auto found = planners_.find({batch, seq});
        if (found == planners_.end()) {
            throwIfCancelled(cancel_);
            found =
                planners_
                    .emplace(std::pair{batch, seq},
                             std::make_unique<OptimalPlanner>(costsAt(fit_, batch, seq, depth())))
                    .first;
        }
        return *found->second;
    }

    // The least-peak schedule's peak at (batch, seq), without the built-in plans: never below
    // the planner's minimumPeak (which is the least of it and theirs), so a budget at or above
    // it surely has a schedule.
    std::int64_t leastPeak(int batch, int seq) {
        auto found = leastPeaks_.find({batch, seq});
        if (found == leastPeaks_.end()) {
            throwIfCancelled(cancel_);
            const CostModel costs = costsAt(fit_, batch, seq, depth());
            found =
                leastPeaks_
                    .emplace(std::pair{batch, seq}, predict(costs, leastPeakPlan(costs)).peak_bytes)
                    .first;
        }
        return found->second;
    }

    const std::atomic<bool>* cancel() const { return cancel_; }

private:
    int depth() const { return fit_.config.depth; }
    const CostFit& fit_;
    const std::atomic<bool>* cancel_;
    std::map<std::pair<int, int>, std::unique_ptr<OptimalPlanner>> planners_;
    std::map<std::pair<int, int>, std::int64_t> leastPeaks_;
};

// What a schedule is at another size: a strategy is planned again for the costs there (an
// optimal:MiB budget gives another schedule), a planned schedule stays the same. Each size is
// predicted once (the searches probe some twice).
class Schedule {
public:
    Schedule(const CostFit& fit, Planners& planners, std::optional<Strategy> strategy, Plan plan)
        : fit_(fit), planners_(planners), strategy_(std::move(strategy)), plan_(std::move(plan)) {}

    // Whether the planner plans this strategy again at each size.
    bool planned() const { return strategy_ && needsCostModel(*strategy_); }

    // The prediction at (batch, seq); nothing when the budget is below every schedule's peak.
    const std::optional<Prediction>& at(int batch, int seq) {
        const auto key = std::pair{batch, seq};
        if (const auto found = predictions_.find(key); found != predictions_.end())
            return found->second;
        throwIfCancelled(planners_.cancel());
        const CostModel costs = costsAt(fit_, batch, seq, fit_.config.depth);
        std::optional<Prediction> out;
        if (!planned()) {
            out = predict(costs, strategy_ ? resolvePlan(*strategy_, costs) : plan_,
                          ReplayAllocator::Yes);
        } else if (const OptimalPlanner& planner = planners_.at(batch, seq);
                   budgetBytes(*strategy_) >= planner.minimumPeak()) {
            // Below its least peak the planner refuses (BudgetError) whatever it tries.
            out = predict(costs, resolvePlan(*strategy_, costs, &planner), ReplayAllocator::Yes);
        }
        return predictions_.emplace(key, std::move(out)).first->second;
    }

    bool fits(int batch, int seq, std::int64_t capacity) {
        const auto& p = at(batch, seq);
        return p && reservedOf(*p) <= capacity;
    }

    // A planned strategy: whether its budget surely has a schedule at (batch, seq), from the
    // least-peak schedule alone; and whether it has one, from the planner's least peak.
    bool surelyExists(int batch, int seq) {
        return budgetBytes(*strategy_) >= planners_.leastPeak(batch, seq);
    }
    bool exists(int batch, int seq) {
        return budgetBytes(*strategy_) >= planners_.at(batch, seq).minimumPeak();
    }

private:
    const CostFit& fit_;
    Planners& planners_;
    std::optional<Strategy> strategy_;
    Plan plan_;  // when no strategy
    std::map<std::pair<int, int>, std::optional<Prediction>> predictions_;
};

// The largest value in [1, max] for which `fits` holds, assuming it holds up to some value and
// not beyond; 0 when not even 1 fits. Doubling from `start`, then halving the gap.
template <class Fits>
int largestFitting(int start, int max, Fits fits) {
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

// largestFitting's answer for a schedule planned again at each size, with the planner's
// dynamic program run at a few sizes instead of at every probe: a schedule fits only where one
// exists, so the largest size where one surely exists is found first (least-peak schedules
// only), confirmed by the planner just above it (else found with the planner), and planned;
// the search goes below it only when that schedule does not fit the capacity.
template <class Surely, class Exists, class Fits>
int largestPlannedFitting(int start, int max, Surely surely, Exists exists, Fits fits) {
    int existing = largestFitting(start, max, surely);
    if (existing < max && exists(existing + 1)) existing = largestFitting(start, max, exists);
    if (existing == 0 || fits(existing)) return existing;
    if (existing == 1) return 0;
    return largestFitting(std::min(start, existing - 1), existing - 1, fits);
}

std::int64_t sumOf(const CostModel& c, std::vector<std::int64_t> UnitCost::*member) {
    std::int64_t sum = 0;
    auto add = [&](const UnitCost& u) {
        for (std::int64_t t : u.*member) sum += t;
    };
    if (c.first) add(*c.first);
    for (const UnitCost& u : c.units) add(u);
    if (c.last) add(*c.last);
    return sum;
}

PeakSplit splitOf(const CostModel& costs, const Prediction& p) {
    PeakSplit s;
    s.weights = sumOf(costs, &UnitCost::parameter_tensors);
    s.optimizer_state = sumOf(costs, &UnitCost::optimizer_state_tensors);
    s.weight_copies = p.split.weight_copies;
    s.gradients = p.split.gradients;
    s.activations = p.split.activations;
    s.logits = p.split.logits;
    // The input (token ids and targets) and the step's temporaries.
    s.other = p.split.other + (p.baseline_bytes - s.weights - s.optimizer_state);
    return s;
}

StrategyAtSize assess(const CostFit& fit, Schedule& schedule, const Strategy& name,
                      std::int64_t capacity) {
    const ExperimentConfig& t = fit.config;
    StrategyAtSize out;
    out.strategy = name;
    const CostModel costs = costsAt(fit, t.batch, t.seq, t.depth);
    const auto p = schedule.at(t.batch, t.seq);
    if (p) {
        out.prediction = *p;
        out.allocated = p->baseline_bytes + p->peak_bytes;
        out.reserved = reservedOf(*p);
        out.split = splitOf(costs, *p);
        out.fits = out.reserved <= capacity;
        out.margin = capacity - out.reserved;
    } else {
        // No schedule within its budget at this size: the least peak says why, not zeros.
        out.least_peak = OptimalPlanner(costs).minimumPeak();
    }
    auto fitsBatch = [&](int b) { return schedule.fits(b, t.seq, capacity); };
    auto fitsSeq = [&](int s) { return schedule.fits(t.batch, s, capacity); };
    const int maxBatch = static_cast<int>(limits::batch.max);
    const int maxSeq = static_cast<int>(limits::seq.max);
    if (schedule.planned()) {
        out.largest_batch = largestPlannedFitting(
            t.batch, maxBatch, [&](int b) { return schedule.surelyExists(b, t.seq); },
            [&](int b) { return schedule.exists(b, t.seq); }, fitsBatch);
        out.longest_seq = largestPlannedFitting(
            t.seq, maxSeq, [&](int s) { return schedule.surelyExists(t.batch, s); },
            [&](int s) { return schedule.exists(t.batch, s); }, fitsSeq);
    } else {
        out.largest_batch = largestFitting(t.batch, maxBatch, fitsBatch);
        out.longest_seq = largestFitting(t.seq, maxSeq, fitsSeq);
    }
    if (out.largest_batch > 0) {
        const auto& atLargest = schedule.at(out.largest_batch, t.seq);
        out.step_ms_at_largest_batch = atLargest->step_ms;
        if (atLargest->step_ms > 0)
            out.tokens_per_s = double(out.largest_batch) * t.seq / (atLargest->step_ms / 1000.0);
    }
    return out;
}

// The planner's fastest schedule whose reservation fits: it plans allocated bytes above the
// baseline, so the budget shrinks by what the reservation overshoots until it fits.
std::optional<PlannedSchedule> fastestFitting(const CostModel& costs, const OptimalPlanner& planner,
                                              std::int64_t capacity, std::int64_t* budgetUsed,
                                              const std::atomic<bool>* cancel) {
    const std::int64_t baseline =
        predict(costs,
                makePlan(Strategy{}, static_cast<int>(costs.units.size()) / costs.unitsPerBlock()))
            .baseline_bytes;
    std::int64_t budget = capacity - baseline;
    for (int attempt = 0; attempt < 8 && budget >= planner.minimumPeak(); ++attempt) {
        throwIfCancelled(cancel);
        PlannedSchedule s;
        try {
            s = planner.plan(budget);
        } catch (const BudgetError&) {
            return std::nullopt;
        }
        s.prediction = predict(costs, s.plan, ReplayAllocator::Yes);
        const std::int64_t over = reservedOf(s.prediction) - capacity;
        if (over <= 0) {
            *budgetUsed = budget;
            return s;
        }
        budget -= over + planner.roundingSlack(budget);
    }
    return std::nullopt;
}

}  // namespace

const std::vector<Strategy>& fullSizeDefaultStrategies() {
    static const std::vector<Strategy> strategies = {
        Strategy{StrategyKind::None},     Strategy{StrategyKind::Full},
        Strategy{StrategyKind::Attn},     Strategy{StrategyKind::FfnOnly},
        Strategy{StrategyKind::Every, 2}, Strategy{StrategyKind::Sqrt}};
    return strategies;
}

std::vector<Strategy> fullSizeStrategies(const ExperimentConfig& config) {
    std::vector<Strategy> kept;
    for (const Strategy& strategy : fullSizeDefaultStrategies()) {
        try {
            checkStrategy(strategy, config.depth, config.block);
            kept.push_back(strategy);
        } catch (const StrategyError&) {
            // attn and ffn on a block without those parts: not this model's
        }
    }
    return kept;
}

HeldState heldState(const CostModel& costs, DType dtype) {
    HeldState state;
    auto add = [&](const UnitCost& unit) {
        std::int64_t weights = 0;
        for (std::int64_t bytes : unit.parameter_tensors) weights += bytes;
        // A cost model without its tensors: its gradients are as large as its weights.
        if (unit.parameter_tensors.empty()) weights = unit.param_grad_bytes;
        state.weights += weights;
        state.gradients += unit.param_grad_bytes;
        for (std::int64_t bytes : unit.optimizer_state_tensors) state.optimizer += bytes;
    };
    for (const UnitCost& unit : costs.units) add(unit);
    if (costs.first) add(*costs.first);
    if (costs.last) add(*costs.last);
    state.parameters = state.weights / parameterBytesPerElement(dtype);
    return state;
}

FullSizePlan planFullSize(const CostFit& fit, std::int64_t capacity,
                          const std::vector<Strategy>& strategies,
                          const FullSizeProgress& progress) {
    const ExperimentConfig& t = fit.config;
    FullSizePlan plan;
    plan.config = t;
    plan.capacity = capacity;
    plan.machine = "this machine";
    const CostModel costs = costsAt(fit, t.batch, t.seq, t.depth);
    plan.held = heldState(costs, t.dtype);
    plan.state_bytes = plan.held.total();
    const int total = static_cast<int>(strategies.size()) + 1;
    Planners planners(fit, progress.cancel);
    int done = 0;
    for (const Strategy& strategy : strategies) {
        throwIfCancelled(progress.cancel);
        if (progress.step) progress.step(strategy.name(), done++, total);
        Schedule schedule(fit, planners, strategy, {});
        plan.strategies.push_back(assess(fit, schedule, strategy, capacity));
    }
    if (progress.step) progress.step("optimal", done++, total);
    const bool plannable = costs.units.size() <= static_cast<std::size_t>(kPlannerMaxUnits);
    std::int64_t least = -1;
    if (plannable) {
        std::int64_t budget = 0;
        plan.fastest =
            fastestFitting(costs, planners.at(t.batch, t.seq), capacity, &budget, progress.cancel);
        if (plan.fastest) {
            // Named by the budget the planner was given, which gives this schedule back
            // (its own peak, rounded by the planner's quanta, may not).
            const Strategy label = makeStrategy(StrategyKind::Optimal,
                                                static_cast<double>(budget) / (1024.0 * 1024.0));
            Schedule schedule(fit, planners, std::nullopt, plan.fastest->plan);
            plan.fastest_at_size = assess(fit, schedule, label, capacity);
        } else {
            const OptimalPlanner& planner = planners.at(t.batch, t.seq);
            const PlannedSchedule lowest = planner.plan(planner.minimumPeak());
            least = reservedOf(predict(costs, lowest.plan, ReplayAllocator::Yes));
        }
    } else {
        plan.notes.push_back("the optimal planner takes at most " +
                             std::to_string(kPlannerMaxUnits) + " units, this chain has " +
                             std::to_string(costs.units.size()) +
                             ": only the strategies listed were planned");
    }
    for (const StrategyAtSize& s : plan.strategies)
        if (s.reserved > 0) least = least < 0 ? s.reserved : std::min(least, s.reserved);
    const bool anyFits =
        plan.fastest || std::any_of(plan.strategies.begin(), plan.strategies.end(),
                                    [](const StrategyAtSize& s) { return s.fits; });
    if (!anyFits && least > 0) {
        plan.least_reserved = least;
        for (const CapacityPreset& preset : capacityPresets())
            if (preset.bytes >= least) {
                plan.would_fit = preset;
                break;
            }
    }
    if (progress.step) progress.step("done", total, total);
    return plan;
}

}  // namespace ckptlab
