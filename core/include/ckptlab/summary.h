#pragma once
// The summary table (CLI, CSV, GUI): each run against the `none` baseline in its set.

#include <optional>
#include <string>
#include <vector>

#include "ckptlab/result.h"

namespace ckptlab {

struct SummaryRow {
    std::string strategy;
    double peak_mib = 0;
    double activations_mib = 0;
    double step_ms = 0;
    std::optional<double> memory_saved_pct;  // empty without a `none` run to compare with
    std::optional<double> time_added_pct;
    std::optional<double> saved_per_added;   // the seed's "cost-effectiveness"
    bool grad_ok = false;
    double max_abs_diff = 0;
    std::optional<std::string> error;
};

std::vector<SummaryRow> summarize(const ResultSet& results);
SummaryRow summarizeRun(const RunResult& run, const RunResult* baseline);

constexpr double kMiB = 1024.0 * 1024.0;

// Rows of (total bytes above the step's start) sampled at most `maxPoints` times, keeping each
// bucket's highest value so peaks survive; for charts.
std::vector<TimelineEvent> downsampleTimeline(const std::vector<TimelineEvent>& events,
                                              std::size_t maxPoints);

}  // namespace ckptlab
