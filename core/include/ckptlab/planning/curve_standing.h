#pragma once
// The Pareto verdict: a hand-written run below, on or above the optimal curve. Planning room
// (docs/ARCHITECTURE.md): no LibTorch, no Qt.

#include <cstddef>
#include <vector>

#include "ckptlab/model/result.h"
#include "ckptlab/model/summary.h"

namespace ckptlab {

enum class CurveStanding { Below, OnCurve, Above };
// Within this many percent of the optimal step time at the same peak counts as on the curve;
// faster than the optimum (beyond rounding) means the planner or the cost model is wrong.
inline constexpr double kOnCurvePct = 0.05;
inline constexpr double kBelowCurvePct = -1e-6;
CurveStanding standingFor(double slowerThanOptimalPct);

struct HandWrittenStanding {
    std::size_t row = 0;  // index into summarize(results) and results.runs
    double slower_pct = 0;
    CurveStanding standing = CurveStanding::OnCurve;
};
// Every hand-written run (not a budget) that has a "vs optimal" comparison, in order.
std::vector<HandWrittenStanding> standingsAgainstOptimal(const ResultSet& results,
                                                         const std::vector<SummaryRow>& rows);

}  // namespace ckptlab
