// The dynamic program behind OptimalPlanner. A schedule for units [i, j) is a sequence of
// items; the first is either unit i run with grad (its activations kept) or a checkpoint of
// [i, k) whose body is itself a schedule of [i, k) run again in backward. T(i, j, m) is the
// least time for [i, j) whose peak stays within m above the level where it starts. The
// memory terms mirror predict()'s replay exactly (see predict.cpp), so with one byte per
// quantum the DP and the replay agree; with coarser quanta every cost is rounded up.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <unordered_map>

#include "ckptlab/planner.h"

namespace ckptlab {
namespace {

constexpr double kInfinite = std::numeric_limits<double>::infinity();

struct Choice {
    double time = kInfinite;
    int split = -1;  // -1: unit i plain; otherwise the checkpoint's end k
};

class Dp {
public:
    Dp(const CostModel& model, std::int64_t quantum) : m_(model), q_(quantum) {
        const int n = static_cast<int>(model.units.size());
        gradPrefix_.assign(n + 1, 0);
        for (int u = 0; u < n; ++u)
            gradPrefix_[u + 1] = gradPrefix_[u] + model.units[u].param_grad_bytes;
    }

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
                if (!items.empty() && !items.back().checkpointed && items.back().inner.empty() &&
                    items.back().end == i)
                    items.back().end = i + 1;
                else
                    items.push_back({i, i + 1, false, {}});
                m -= up(unit(i).kept_bytes);
                i += 1;
            } else {
                const int k = c.split;
                Segment s{i, k, true, build(i, k, m - levelAfterRest(i, k, j, body), true)};
                if (s.inner.size() == 1 && !s.inner[0].checkpointed && s.inner[0].inner.empty())
                    s.inner.clear();  // a body of plain units needs no inner plan
                items.push_back(s);
                m -= up(unit(k - 1).output_bytes + m_.checkpoint_bytes);
                i = k;
            }
        }
        return items;
    }

    std::int64_t up(std::int64_t bytes) const { return (bytes + q_ - 1) / q_; }

private:
    const UnitCost& unit(int u) const { return m_.units[u]; }
    std::int64_t grads(int a, int b) const { return gradPrefix_[b] - gradPrefix_[a]; }

    // The output of [.., j) still held when its backward begins: the step holds the chain's;
    // a checkpoint drops its recomputed body's output before the body's backward.
    std::int64_t heldOutput(int j, bool body) const { return body ? 0 : unit(j - 1).output_bytes; }

    // Level (bytes above the suffix's start) when the checkpoint [i, k)'s backward begins.
    std::int64_t levelAfterRest(int i, int k, int j, bool body) const {
        (void)i;
        if (k == j) return up(heldOutput(k, body) + m_.checkpoint_bytes);
        return up(m_.checkpoint_bytes + unit(k - 1).output_bytes + heldOutput(j, body) +
                  grads(k, j));
    }

    Choice solve(int i, int j, std::int64_t m, bool body) {
        Choice best;
        const UnitCost& c = unit(i);
        // Unit i with grad, then the rest, then unit i's backward.
        if (up(forwardPeakOf(c)) <= m) {
            double rest = 0;
            std::int64_t level = up(c.kept_bytes - c.output_bytes + heldOutput(j, body));
            if (i + 1 < j) {
                rest = this->best(i + 1, j, m - up(c.kept_bytes), body).time;
                level = up(c.kept_bytes + heldOutput(j, body) + grads(i + 1, j));
            }
            if (rest < kInfinite && level + up(backwardPeakOf(c)) <= m)
                best = {c.forward_ms + rest + backwardMsOf(c, body), -1};
        }
        // A checkpoint of [i, k), then the rest, then the checkpoint's recompute and backward.
        std::int64_t nogradPeak = 0;
        double nogradMs = 0;
        for (int k = i + 1; k <= j; ++k) {
            const UnitCost& last = unit(k - 1);
            const std::int64_t previousOutput = k - 1 > i ? unit(k - 2).output_bytes : 0;
            nogradPeak = std::max(nogradPeak, up(previousOutput + nogradPeakOf(last)));
            nogradMs += last.nograd_ms;
            if (nogradPeak > m) break;  // longer segments only run more without grad
            double rest = 0;
            if (k < j) {
                rest = this->best(k, j, m - up(last.output_bytes + m_.checkpoint_bytes), body).time;
                if (rest == kInfinite) continue;
            }
            const double recompute =
                this->best(i, k, m - levelAfterRest(i, k, j, body), true).time;
            const double total = nogradMs + rest + recompute;
            if (total < best.time) best = {total, k};
        }
        return best;
    }

    const CostModel& m_;
    std::int64_t q_;
    std::vector<std::int64_t> gradPrefix_;
    std::unordered_map<std::uint64_t, Choice> memo_;
};

// After the whole backward: every gradient, the input's gradient and the held output; then
// the optimizer's temporaries. The same for every plan.
std::int64_t endOfStepPeak(const CostModel& model) {
    std::int64_t grads = 0, optimizer = 0;
    for (const auto& u : model.units) {
        grads += u.param_grad_bytes;
        optimizer = std::max(optimizer, u.optimizer_peak);
    }
    return grads + 2 * model.units.front().output_bytes + optimizer;
}

std::string mib(std::int64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", bytes / (1024.0 * 1024.0));
    return text;
}

}  // namespace

OptimalPlanner::OptimalPlanner(const CostModel& model, int quanta)
    : model_(model), quanta_(std::max(1, quanta)) {
    if (model_.units.empty()) throw std::invalid_argument("optimal planner: empty cost model");
    if (model_.units.size() > static_cast<std::size_t>(kPlannerMaxUnits))
        throw std::invalid_argument("optimal planner: at most " + std::to_string(kPlannerMaxUnits) +
                                    " units (got " + std::to_string(model_.units.size()) + ")");
}

int plannerUnits(const ExperimentConfig& config) {
    return config.depth * (config.block == BlockKind::Transformer ? 2 : 1);
}

std::string plannerLimitError(const ExperimentConfig& config, const std::string& what) {
    const int units = plannerUnits(config);
    if (units <= kPlannerMaxUnits) return {};
    return what + " plans at most " + std::to_string(kPlannerMaxUnits) +
           " units (depth x sub-blocks per block: 1 for ffn, 2 for transformer); this model "
           "has " +
           std::to_string(units) + ", so use depth at most " +
           std::to_string(kPlannerMaxUnits / (units / config.depth));
}

bool OptimalPlanner::tryPlan(std::int64_t budget, PlannedSchedule* out) const {
    // Keeping everything is judged by its exact peak, so the DP's rounding cannot make it miss
    // a budget it fits. It is usually the fastest plan, but not always: a recomputed unit's
    // backward is measured faster than a kept one's (backward_ms < backward_kept_ms), so the
    // DP may beat it.
    Plan none;
    none.unitLevel = true;
    none.segments.push_back({0, static_cast<int>(model_.units.size()), false, {}});
    const Prediction keepAll = predict(model_, none);
    const bool keepAllFits = keepAll.peak_bytes <= budget;

    const std::int64_t quantum = std::max<std::int64_t>(1, budget / quanta_);
    Dp dp(model_, quantum);
    const int n = static_cast<int>(model_.units.size());
    const std::int64_t m = budget / quantum;
    const bool dpFits = endOfStepPeak(model_) <= budget && dp.best(0, n, m, false).time < kInfinite;
    if (!dpFits && !keepAllFits) return false;
    if (out) {
        PlannedSchedule planned{none, keepAll};
        if (dpFits) {
            Plan plan;
            plan.unitLevel = true;
            plan.segments = dp.build(0, n, m, false);
            const Prediction p = predict(model_, plan);
            if (!keepAllFits || p.step_ms < keepAll.step_ms) planned = {plan, p};
        }
        *out = planned;
    }
    return true;
}

PlannedSchedule OptimalPlanner::plan(std::int64_t budget) const {
    PlannedSchedule result;
    if (!tryPlan(budget, &result)) {
        const std::int64_t minimum = minimumPeak();
        throw BudgetError("optimal:" + mib(budget) +
                              " MiB is below the smallest feasible "
                              "schedule, which needs " +
                              mib(minimum) + " MiB above the step's start",
                          minimum);
    }
    return result;
}

std::int64_t OptimalPlanner::roundingSlack(std::int64_t budget) const {
    const std::int64_t quantum = std::max<std::int64_t>(1, budget / quanta_);
    return (static_cast<std::int64_t>(model_.units.size()) + 4) * quantum;
}

std::int64_t OptimalPlanner::minimumPeak() const {
    // Feasibility is monotone in the budget: bisect between nothing and no checkpointing at
    // all, which always fits its own peak.
    Plan none;
    none.unitLevel = true;
    none.segments.push_back({0, static_cast<int>(model_.units.size()), false, {}});
    std::int64_t high = predict(model_, none).peak_bytes;
    std::int64_t low = 0;
    const std::int64_t precision = std::max<std::int64_t>(1, high / 1000);
    while (high - low > precision) {
        const std::int64_t mid = low + (high - low) / 2;
        (tryPlan(mid, nullptr) ? high : low) = mid;
    }
    return high;
}

}  // namespace ckptlab
