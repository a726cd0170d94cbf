// planFullSize: every strategy of a model at its real size against a GPU's capacity, from a
// fitted cost model (full_size.h). A strategy fits when the caching allocator's predicted
// reservation does, since that is what runs out on a GPU.
#include <algorithm>

#include "ckptlab/full_size.h"
#include "ckptlab/sweep_policy.h"

namespace ckptlab {
namespace {

std::int64_t reservedOf(const Prediction& p) {
    return p.reserved_peak_bytes.value_or(p.baseline_bytes + p.peak_bytes);
}

// What a schedule is at another size: a strategy is planned again for the costs there (an
// optimal:MiB budget gives another schedule), a planned schedule stays the same.
struct Schedule {
    std::optional<Strategy> strategy;
    Plan plan;  // when no strategy
    std::optional<Prediction> at(const CostFit& fit, int batch, int seq) const {
        const CostModel costs = costsAt(fit, batch, seq, fit.config.depth);
        try {
            const Plan p = strategy ? resolvePlan(*strategy, costs) : plan;
            return predict(costs, p, ReplayAllocator::Yes);
        } catch (const BudgetError&) {
            return std::nullopt;
        }
    }
    bool fits(const CostFit& fit, int batch, int seq, std::int64_t capacity) const {
        const auto p = at(fit, batch, seq);
        return p && reservedOf(*p) <= capacity;
    }
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

std::int64_t gradientBytes(const CostModel& c) {
    std::int64_t sum = 0;
    if (c.first) sum += c.first->param_grad_bytes;
    for (const UnitCost& u : c.units) sum += u.param_grad_bytes;
    if (c.last) sum += c.last->param_grad_bytes;
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

StrategyAtSize assess(const CostFit& fit, const Schedule& schedule, const Strategy& name,
                      std::int64_t capacity) {
    const ExperimentConfig& t = fit.config;
    StrategyAtSize out;
    out.strategy = name;
    const CostModel costs = costsAt(fit, t.batch, t.seq, t.depth);
    const auto p = schedule.at(fit, t.batch, t.seq);
    if (p) {
        out.prediction = *p;
        out.allocated = p->baseline_bytes + p->peak_bytes;
        out.reserved = reservedOf(*p);
        out.split = splitOf(costs, *p);
        out.fits = out.reserved <= capacity;
        out.margin = capacity - out.reserved;
    }
    auto fitsBatch = [&](int b) { return schedule.fits(fit, b, t.seq, capacity); };
    auto fitsSeq = [&](int s) { return schedule.fits(fit, t.batch, s, capacity); };
    out.largest_batch = largestFitting(t.batch, static_cast<int>(limits::batch.max), fitsBatch);
    out.longest_seq = largestFitting(t.seq, static_cast<int>(limits::seq.max), fitsSeq);
    if (out.largest_batch > 0) {
        const auto atLargest = schedule.at(fit, out.largest_batch, t.seq);
        out.step_ms_at_largest_batch = atLargest->step_ms;
        if (atLargest->step_ms > 0)
            out.tokens_per_s = double(out.largest_batch) * t.seq / (atLargest->step_ms / 1000.0);
    }
    return out;
}

// The planner's fastest schedule whose reservation fits: it plans allocated bytes above the
// baseline, so the budget shrinks by what the reservation overshoots until it fits.
std::optional<PlannedSchedule> fastestFitting(const CostModel& costs, std::int64_t capacity,
                                              std::int64_t* budgetUsed) {
    const OptimalPlanner planner(costs);
    const std::int64_t baseline =
        predict(costs, makePlan(Strategy{}, static_cast<int>(costs.units.size()) /
                                                std::max(1, costs.unitsPerBlock)))
            .baseline_bytes;
    std::int64_t budget = capacity - baseline;
    for (int attempt = 0; attempt < 8 && budget >= planner.minimumPeak(); ++attempt) {
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

const std::vector<std::string>& fullSizeStrategyTexts() {
    static const std::vector<std::string> texts = {"none", "full",    "attn",
                                                   "ffn",  "every:2", "sqrt"};
    return texts;
}

std::vector<Strategy> fullSizeStrategies(const ExperimentConfig& config) {
    std::vector<Strategy> kept;
    for (const std::string& text : fullSizeStrategyTexts())
        if (auto strategy = tryParseStrategy(text, config.depth, config.block))
            kept.push_back(*strategy);
    return kept;
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
    plan.state_bytes = sumOf(costs, &UnitCost::parameter_tensors) + gradientBytes(costs) +
                       sumOf(costs, &UnitCost::optimizer_state_tensors);
    const int total = static_cast<int>(strategies.size()) + 1;
    int done = 0;
    for (const Strategy& strategy : strategies) {
        if (progress.step) progress.step(strategy.name(), done++, total);
        plan.strategies.push_back(assess(fit, Schedule{strategy, {}}, strategy, capacity));
    }
    if (progress.step) progress.step("optimal", done++, total);
    const bool plannable = costs.units.size() <= static_cast<std::size_t>(kPlannerMaxUnits);
    std::int64_t least = -1;
    if (plannable) {
        std::int64_t budget = 0;
        plan.fastest = fastestFitting(costs, capacity, &budget);
        if (plan.fastest) {
            // Named by the budget the planner was given, which gives this schedule back
            // (its own peak, rounded by the planner's quanta, may not).
            const Strategy label = makeStrategy(StrategyKind::Optimal,
                                                static_cast<double>(budget) / (1024.0 * 1024.0));
            plan.fastest_at_size =
                assess(fit, Schedule{std::nullopt, plan.fastest->plan}, label, capacity);
        } else {
            const OptimalPlanner planner(costs);
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
