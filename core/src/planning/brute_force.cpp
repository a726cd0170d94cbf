// Enumerating every schedule of the planner's class, to check the dynamic program against.
#include <functional>
#include <limits>

#include "ckptlab/planning/planner.h"

namespace ckptlab {

namespace {

using Visit = std::function<void(std::vector<Segment>&)>;

// Continuation-passing, so millions of schedules never sit in memory at once.
void enumerate(int begin, int end, bool isBody, std::vector<Segment>& acc, const Visit& done) {
    if (begin == end) {
        done(acc);
        return;
    }
    acc.push_back({begin, begin + 1, false, {}});
    enumerate(begin + 1, end, false, acc, done);
    acc.pop_back();
    for (int k = begin + 1; k <= end; ++k) {
        if (isBody && k == end) continue;  // a body is never one checkpoint of itself
        std::vector<Segment> body;
        enumerate(begin, k, true, body, [&](std::vector<Segment>& b) {
            acc.push_back({begin, k, true, b});
            enumerate(k, end, false, acc, done);
            acc.pop_back();
        });
    }
}

}  // namespace

void forEachSchedule(int units, const std::function<void(const Plan&)>& visit) {
    Plan plan;
    plan.unitLevel = true;
    std::vector<Segment> acc;
    enumerate(0, units, false, acc, [&](std::vector<Segment>& segments) {
        plan.segments = segments;
        visit(plan);
    });
}

BruteForceResult bruteForcePlan(const CostModel& model, std::int64_t budget) {
    const int units = static_cast<int>(model.units.size());
    if (units > kBruteForceMaxUnits)
        throw std::invalid_argument("brute force needs at most " +
                                    std::to_string(kBruteForceMaxUnits) +
                                    " units (blocks x sub-blocks), got " + std::to_string(units));
    BruteForceResult result;
    double bestTime = std::numeric_limits<double>::infinity();
    std::int64_t smallestPeak = std::numeric_limits<std::int64_t>::max();
    forEachSchedule(units, [&](const Plan& plan) {
        ++result.schedules;
        const Prediction p = predict(model, plan);
        smallestPeak = std::min(smallestPeak, p.peak_bytes);
        if (p.peak_bytes <= budget && p.step_ms < bestTime) {
            bestTime = p.step_ms;
            result.best = {plan, p};
        }
    });
    if (!(bestTime < std::numeric_limits<double>::infinity()))
        throw BudgetError({MessageCode::NoScheduleFits, {std::to_string(budget)}}, smallestPeak);
    return result;
}

}  // namespace ckptlab
