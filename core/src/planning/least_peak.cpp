// The schedule of the planner's class with the least peak, in bytes. P(i, j) is the least peak
// above the level where [i, j) starts; each choice (unit i with grad, or a checkpoint [i, k))
// peaks at the highest of its moments, each a level plus a sub-schedule's P, with the memory
// terms of the planner's DP unrounded (schedule_dp.h). Among equal peaks the faster choice is
// kept. O(units^3) and exact, so the planner's floor is an exact replayed peak rather than the
// lowest budget its quantised DP happens to accept.
#include <limits>

#include "planning/planner_candidates.h"
#include "planning/schedule_dp.h"

namespace ckptlab {
namespace {

struct PeakChoice {
    std::int64_t peak = std::numeric_limits<std::int64_t>::max();
    double time = 0;
    int split = -1;  // -1: unit i plain; otherwise the checkpoint's end k
    bool better(std::int64_t p, double t) const { return p < peak || (p == peak && t < time); }
};

class LeastPeak {
public:
    explicit LeastPeak(const CostModel& model)
        : memory_(model),
          n_(static_cast<int>(model.units.size())),
          memo_(2 * static_cast<std::size_t>(n_) * (n_ + 1)),
          done_(memo_.size(), false) {}

    // `body`: [i, j) is (part of) a checkpoint's body, run again just before its backward.
    const PeakChoice& best(int i, int j, bool body) {
        const std::size_t key = (static_cast<std::size_t>(body) * n_ + i) * (n_ + 1) + j;
        if (!done_[key]) {
            memo_[key] = solve(i, j, body);
            done_[key] = true;
        }
        return memo_[key];
    }

    std::vector<Segment> build(int i, int j, bool body) {
        std::vector<Segment> items;
        while (i < j) {
            const int k = best(i, j, body).split;
            if (k < 0) {
                appendPlainUnit(items, i);
                i += 1;
            } else {
                items.push_back(checkpointOf(i, k, build(i, k, true)));
                i = k;
            }
        }
        return items;
    }

private:
    PeakChoice solve(int i, int j, bool body) {
        PeakChoice result;
        const UnitCost& c = memory_.unit(i);
        const std::int64_t extra = memory_.recomputeForwardExtra(body);
        {  // Unit i with grad, then the rest, then unit i's backward.
            std::int64_t peak = forwardPeakOf(c) + extra;
            double time = c.forward_ms + backwardMsOf(c, body);
            if (i + 1 < j) {
                const PeakChoice& rest = best(i + 1, j, body);
                peak = std::max(peak, c.kept_bytes + rest.peak);
                time += rest.time;
            } else {
                peak = std::max(peak, c.kept_bytes + memory_.tailPeak(body));
            }
            peak = std::max(peak, memory_.levelAtPlainBackward(i, j, body) + backwardPeakOf(c));
            result = {peak, time, -1};
        }
        // A checkpoint of [i, k), then the rest, then the checkpoint's recompute and backward.
        // A body that is one checkpoint of itself only adds a level and a forward: skipped.
        std::int64_t nogradPeak = 0;
        double nogradMs = 0;
        for (int k = i + 1; k <= j && !(body && k == j); ++k) {
            nogradPeak = std::max(nogradPeak, memory_.nogradPeakIn(i, k - 1) + extra);
            nogradMs += memory_.unit(k - 1).nograd_ms;
            std::int64_t peak = nogradPeak;
            double time = nogradMs;
            if (k < j) {
                const PeakChoice& rest = best(k, j, body);
                peak = std::max(peak, memory_.keptByCheckpoint(k) + rest.peak);
                time += rest.time;
            } else {
                peak = std::max(peak, memory_.keptByCheckpoint(k) + memory_.tailPeak(body));
            }
            const PeakChoice& recompute = best(i, k, true);
            peak = std::max(peak, memory_.levelAtCheckpointBackward(k, j, body) + recompute.peak);
            time += recompute.time;
            if (result.better(peak, time)) result = {peak, time, k};
        }
        return result;
    }

    ChainMemory memory_;
    int n_;
    std::vector<PeakChoice> memo_;
    std::vector<bool> done_;
};

}  // namespace

Plan leastPeakPlan(const CostModel& model) {
    Plan plan;
    plan.unitLevel = true;
    if (model.units.empty()) return plan;
    LeastPeak search(model);
    const int n = static_cast<int>(model.units.size());
    plan.segments = search.build(0, n, false);
    return plan;
}

}  // namespace ckptlab
