// ckptlab-cli pareto: the measured Pareto curve of optimal schedules from the smallest
// feasible budget to the no-checkpoint peak, beside hand-written strategies and the predicted
// frontier (Runner::pareto does the work; the app's Pareto sweep runs the same).
#include <cstdio>
#include <iostream>

#include "ckptlab/pareto.h"
#include "ckptlab/runner.h"
#include "ckptlab/summary.h"
#include "ckptlab/sweep_policy.h"
#include "cli_commands.h"
#include "cli_common.h"

namespace ckptlab::cli {
namespace {

// Hand-written strategies asked for by name, canonical; an unknown one is bad input.
std::vector<std::string> handWritten(const ExperimentOptions& o) {
    if (o.strategies.empty()) return defaultParetoStrategies(o.config.depth, o.config.block);
    std::vector<std::string> valid;
    for (const auto& text : o.strategies)
        valid.push_back(parseStrategy(text, o.config.depth, o.config.block).name());
    return valid;
}

// Each hand-written run against the optimal schedule at its own predicted peak: one predicted
// faster than the optimum means the planner or the cost model is wrong.
void printComparison(const ResultSet& results) {
    std::cout << "\nHand-written strategies against the optimal schedule at the same "
                 "predicted peak (plus the planner's rounding):\n";
    const std::vector<SummaryRow> rows = summarize(results);
    for (const HandWrittenStanding& s : standingsAgainstOptimal(results, rows)) {
        const SummaryRow& row = rows[s.row];
        const std::string verdict =
            s.standing == CurveStanding::Below
                ? "BELOW the optimal curve: planner or model is wrong"
            : s.standing == CurveStanding::OnCurve
                ? "on the curve"
                : "optimal " + std::to_string(int(s.slower_pct + 0.5)) + "% faster";
        std::printf("  %-12s predicted %8.1f ms at %7.1f MiB; optimal %8.1f ms (%s)\n",
                    row.strategy.c_str(), *row.predicted_step_ms, *row.predicted_peak_mib,
                    *row.optimal_step_ms, verdict.c_str());
    }
}

}  // namespace

int runPareto(ExperimentOptions o, int points) {
    if (std::string error = completeConfig(o); !error.empty()) {
        std::cerr << "ckptlab-cli: " << error << "\n";
        return kBadInput;
    }
    if (const std::string error = paretoPointsError(points); !error.empty()) {
        std::cerr << "ckptlab-cli: --points " << error << "\n";
        return kBadInput;
    }
    // Bad strategies and configs throw std::invalid_argument kin before any work: exit 2
    // (main_cli.cpp); anything later is a failed run.
    Runner runner;
    const ResultSet results = runner.pareto(o.config, handWritten(o), points, makeHooks(o.quiet));
    if (!results.predicted_frontier.empty())
        std::printf("predicted frontier from %.2f MiB (%.1f ms) to %.2f MiB (%.1f ms)\n",
                    results.predicted_frontier.front().peak_bytes / kMiB,
                    results.predicted_frontier.front().step_ms,
                    results.predicted_frontier.back().peak_bytes / kMiB,
                    results.predicted_frontier.back().step_ms);
    const int code = reportAndFinish(results, o);
    printComparison(results);
    return code;
}

}  // namespace ckptlab::cli
