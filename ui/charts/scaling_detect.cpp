// detectScaling: whether a result set is a scaling sweep, and along which axis.
#include <map>
#include <set>

#include "charts/chart_builders.h"

namespace ckptlab::ui {

bool detectScaling(const ResultSet& results, ScalingAxis* axis) {
    std::map<std::string, std::vector<const RunResult*>> byStrategy;
    for (const RunResult* run : plottedRuns(results)) byStrategy[run->strategy].push_back(run);

    // The axes along which some strategy's runs differ; a sweep varies exactly one.
    std::set<int> varying;
    for (const auto& [strategy, runs] : byStrategy) {
        for (ScalingAxis a : {ScalingAxis::Depth, ScalingAxis::Seq, ScalingAxis::Width,
                              ScalingAxis::Batch}) {
            std::set<int> values;
            for (const RunResult* run : runs) values.insert(axisValue(run->config, a));
            if (values.size() > 1) varying.insert(int(a));
        }
    }
    if (varying.size() != 1) return false;
    if (axis) *axis = ScalingAxis(*varying.begin());
    return true;
}

}  // namespace ckptlab::ui
