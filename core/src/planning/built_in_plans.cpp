// Every built-in strategy's plan for a cost model's chain: the schedules a user can name, which
// the optimal planner must never do worse than (planner_candidates.h).
#include <algorithm>

#include "ckptlab/planning/planner.h"
#include "planning/planner_candidates.h"

namespace ckptlab {

std::vector<Plan> builtInPlans(const CostModel& model) {
    std::vector<Plan> plans;
    const int unitsPerBlock = model.unitsPerBlock();
    const int depth = static_cast<int>(model.units.size()) / unitsPerBlock;
    if (depth < 1) return plans;
    for (const Strategy& kind : strategyCatalog()) {
        if (needsCostModel(kind)) continue;
        // Every parameter value; checkStrategy says which ones this chain takes.
        const int lastParam = takesParam(kind.kind) ? depth : 0;
        for (int param = 0; param <= lastParam; ++param) {
            const Strategy s = makeStrategy(kind.kind, param);
            try {
                checkStrategy(s, depth, model.block);
            } catch (const StrategyError&) {
                continue;
            }
            Plan plan = makePlan(s, depth);
            if (plan.recomputeLastSegment) break;  // seed-bug: recomputes the wrong blocks
            plans.push_back(toUnitLevel(plan, unitsPerBlock));
        }
    }
    return plans;
}

}  // namespace ckptlab
