// The dynamic program behind OptimalPlanner. A schedule for units [i, j) is a sequence of
// items; the first is either unit i run with grad (its activations kept) or a checkpoint of
// [i, k) whose body is itself a schedule of [i, k) run again in backward. T(i, j, m) is the
// least time for [i, j) whose peak stays within m above the level where it starts. The
// memory terms mirror predict()'s replay exactly (schedule_dp.h), so with one byte per
// quantum the DP and the replay agree; with coarser quanta every cost is rounded up, which is
// why the planner also weighs candidates by their exact peaks (planner_candidates.h): near the
// floor the rounding alone would refuse budgets that schedules fit.
#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "ckptlab/model/number_text.h"
#include "ckptlab/model/size_text.h"
#include "ckptlab/planning/planner.h"
#include "planning/planner_candidates.h"
#include "planning/schedule_dp.h"

namespace ckptlab {
namespace {

constexpr double kInfinite = std::numeric_limits<double>::infinity();

struct Choice {
    double time = kInfinite;
    int split = -1;  // -1: unit i plain; otherwise the checkpoint's end k
};

class Dp {
public:
    Dp(const CostModel& model, std::int64_t quantum) : memory_(model), q_(quantum) {}

    // `body`: [i, j) is (part of) a checkpoint's body, run again just before its backward.
    Choice best(int i, int j, std::int64_t m, bool body) {
        if (m < 0) return {};
        const std::uint64_t key = (std::uint64_t(body) << 63) | (std::uint64_t(i) << 48) |
                                  (std::uint64_t(j) << 32) | std::uint64_t(m);
        if (auto it = memo_.find(key); it != memo_.end()) return it->second;
        Choice result = solve(i, j, m, body);
        memo_.emplace(key, result);
        return result;
    }

    std::vector<Segment> build(int i, int j, std::int64_t m, bool body) {
        std::vector<Segment> items;
        while (i < j) {
            const Choice c = best(i, j, m, body);
            if (c.split < 0) {
                appendPlainUnit(items, i);
                m -= up(memory_.unit(i).kept_bytes);
                i += 1;
            } else {
                const int k = c.split;
                items.push_back(checkpointOf(
                    i, k,
                    build(i, k, m - up(memory_.levelAtCheckpointBackward(k, j, body)), true)));
                m -= up(memory_.keptByCheckpoint(k));
                i = k;
            }
        }
        return items;
    }

    std::int64_t up(std::int64_t bytes) const { return (bytes + q_ - 1) / q_; }

private:
    Choice solve(int i, int j, std::int64_t m, bool body) {
        Choice best;
        const UnitCost& c = memory_.unit(i);
        // Unit i with grad, then the rest, then unit i's backward.
        const std::int64_t extra = memory_.recomputeForwardExtra(body);
        if (up(forwardPeakOf(c) + extra) <= m) {
            double rest = 0;
            if (i + 1 < j)
                rest = this->best(i + 1, j, m - up(c.kept_bytes), body).time;
            else if (up(c.kept_bytes) + up(memory_.tailPeak(body)) > m)
                rest = kInfinite;  // the head's forward and backward do not fit above it
            const std::int64_t level = up(memory_.levelAtPlainBackward(i, j, body));
            if (rest < kInfinite && level + up(backwardPeakOf(c)) <= m)
                best = {c.forward_ms + rest + backwardMsOf(c, body), -1};
        }
        // A checkpoint of [i, k), then the rest, then the checkpoint's recompute and backward.
        // A body that is one checkpoint of itself is never faster (one more forward, less
        // memory for the same body): skipped, as the class leaves it out.
        std::int64_t nogradPeak = 0;
        double nogradMs = 0;
        for (int k = i + 1; k <= j && !(body && k == j); ++k) {
            nogradPeak = std::max(nogradPeak, up(memory_.nogradPeakIn(i, k - 1) + extra));
            nogradMs += memory_.unit(k - 1).nograd_ms;
            if (nogradPeak > m) break;  // longer segments only run more without grad
            double rest = 0;
            if (k < j) {
                rest = this->best(k, j, m - up(memory_.keptByCheckpoint(k)), body).time;
                if (rest == kInfinite) continue;
            } else if (up(memory_.keptByCheckpoint(k)) + up(memory_.tailPeak(body)) > m) {
                continue;  // the head's forward and backward do not fit above it
            }
            const double recompute =
                this->best(i, k, m - up(memory_.levelAtCheckpointBackward(k, j, body)), true).time;
            const double total = nogradMs + rest + recompute;
            if (total < best.time) best = {total, k};
        }
        return best;
    }

    ChainMemory memory_;
    std::int64_t q_;
    std::unordered_map<std::uint64_t, Choice> memo_;
};

}  // namespace

OptimalPlanner::OptimalPlanner(const CostModel& model, int quanta)
    : model_(model), quanta_(std::max(1, quanta)) {
    if (model_.units.empty()) throw std::invalid_argument("optimal planner: empty cost model");
    if (model_.units.size() > static_cast<std::size_t>(kPlannerMaxUnits))
        throw std::invalid_argument("optimal planner: at most " + std::to_string(kPlannerMaxUnits) +
                                    " units (got " + std::to_string(model_.units.size()) + ")");
    // Judged by their exact replayed peaks: keeping everything (the first built-in) and every
    // other built-in strategy, which the planner must never do worse than, and the least-peak
    // schedule, whose peak is the floor.
    for (const Plan& plan : builtInPlans(model_))
        candidates_.push_back({plan, predict(model_, plan)});
    const Plan leastPeak = leastPeakPlan(model_);
    candidates_.push_back({leastPeak, predict(model_, leastPeak)});
    floor_ = candidates_.back().prediction.peak_bytes;
    for (const auto& c : candidates_) floor_ = std::min(floor_, c.prediction.peak_bytes);
}

int plannerUnits(const ExperimentConfig& config) {
    return config.depth * unitsPerBlockOf(config.block);
}

namespace {

// The arguments of a planner-limit message after its subject: the limit, the depth, the block,
// its units and the deepest chain the planner takes. Empty when the planner takes `config`.
std::vector<std::string> plannerLimitArgs(const ExperimentConfig& config) {
    const int units = plannerUnits(config);
    if (units <= kPlannerMaxUnits) return {};
    return {std::to_string(kPlannerMaxUnits), std::to_string(config.depth), toString(config.block),
            std::to_string(units),
            std::to_string(kPlannerMaxUnits / unitsPerBlockOf(config.block))};
}

}  // namespace

std::optional<CoreMessage> plannerLimitError(const ExperimentConfig& config,
                                             const std::string& what) {
    std::vector<std::string> args = plannerLimitArgs(config);
    if (args.empty()) return std::nullopt;
    args.insert(args.begin(), what);
    return CoreMessage(MessageCode::PlannerTooManyUnits, std::move(args));
}

std::optional<CoreMessage> paretoPlannerLimitError(const ExperimentConfig& config) {
    std::vector<std::string> args = plannerLimitArgs(config);
    if (args.empty()) return std::nullopt;
    return CoreMessage(MessageCode::ParetoTooManyUnits, std::move(args));
}

bool OptimalPlanner::tryPlan(std::int64_t budget, PlannedSchedule* out) const {
    // The candidates are judged by their exact peaks, so the DP's rounding cannot make the
    // planner miss a budget one of them fits; the DP's plan wins where it is faster. Keeping
    // everything is usually the fastest plan, but not always: a recomputed unit's backward is
    // measured faster than a kept one's (backward_ms < backward_kept_ms), so the DP may beat it.
    const PlannedSchedule* candidate = nullptr;
    for (const auto& c : candidates_)
        if (c.prediction.peak_bytes <= budget &&
            (!candidate || c.prediction.step_ms < candidate->prediction.step_ms))
            candidate = &c;
    if (candidate && !out) return true;

    const std::int64_t quantum = std::max<std::int64_t>(1, budget / quanta_);
    Dp dp(model_, quantum);
    const int n = static_cast<int>(model_.units.size());
    // Above where the chain starts (after the embedding's forward, with ends).
    const std::int64_t chainBudget = budget / quantum - dp.up(ChainMemory(model_).chainStart());
    const bool dpFits = ChainMemory(model_).fixedPeak() <= budget &&
                        dp.best(0, n, chainBudget, false).time < kInfinite;
    if (!dpFits && !candidate) return false;
    if (out) {
        PlannedSchedule planned = candidate ? *candidate : PlannedSchedule{};
        if (dpFits) {
            Plan plan;
            plan.unitLevel = true;
            plan.segments = dp.build(0, n, chainBudget, false);
            const Prediction p = predict(model_, plan);
            if (!candidate || p.step_ms < candidate->prediction.step_ms) planned = {plan, p};
        }
        *out = planned;
    }
    return true;
}

PlannedSchedule OptimalPlanner::plan(std::int64_t budget) const {
    PlannedSchedule result;
    if (!tryPlan(budget, &result)) {
        const std::int64_t minimum = minimumPeak();
        // Digits enough to show both and their difference: never "0.0 ... needs 0.0 MiB".
        const std::vector<std::string> mib = mibTexts({budget, minimum});
        throw BudgetError({MessageCode::BudgetBelowMinimum, {mib[0], mib[1]}}, minimum);
    }
    return result;
}

std::int64_t OptimalPlanner::roundingSlack(std::int64_t budget) const {
    const std::int64_t quantum = std::max<std::int64_t>(1, budget / quanta_);
    // The chain's ends add two rounded terms: where the chain starts and the head's peak.
    const std::int64_t ends = (model_.first ? 1 : 0) + (model_.last ? 1 : 0);
    return (static_cast<std::int64_t>(model_.units.size()) + 4 + ends) * quantum;
}

std::int64_t OptimalPlanner::minimumPeak() const { return floor_; }

}  // namespace ckptlab
