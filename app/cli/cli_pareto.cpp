// ckptlab-cli pareto: the measured Pareto curve of optimal schedules from the smallest
// feasible budget to the no-checkpoint peak, beside hand-written strategies and the predicted
// frontier (Runner::run of a Pareto request does the work; the app's Pareto sweep runs the same).
#include <cstdio>
#include <iostream>

#include "ckptlab/engine/runner.h"
#include "ckptlab/model/number_text.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/model/summary.h"
#include "ckptlab/planning/curve_standing.h"
#include "ckptlab/planning/pareto.h"
#include "ckptlab/planning/sweep_check.h"
#include "ckptlab/planning/sweep_strategies.h"
#include "cli_commands.h"
#include "cli_common.h"

namespace ckptlab::cli {
namespace {

// The hand-written strategies typed (parsed by completeConfig). The default
// (defaultParetoStrategies: seed-tradeoff and sqrt) leaves out what the depth cannot take,
// said in `note`.
std::vector<Strategy> handWritten(const ExperimentOptions& o, std::string* note) {
    if (!o.strategies.empty()) return o.strategies;
    return strategiesForModel(paretoDefaultWanted(),
                              std::string("the default (") + kDefaultPreset + " and sqrt)",
                              o.config, note);
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
        std::printf("  %-12s predicted %8s ms at %7s MiB; optimal %8s ms (%s)\n",
                    row.strategy.name().c_str(), formatFixed(*row.predicted_step_ms, 1).c_str(),
                    formatFixed(*row.predicted_peak_mib, 1).c_str(),
                    formatFixed(*row.optimal_step_ms, 1).c_str(), verdict.c_str());
    }
}

}  // namespace

int runPareto(ExperimentOptions o, int points) {
    if (std::string error = completeConfig(o); !error.empty()) {
        std::cerr << "ckptlab-cli: " << error << "\n";
        return kBadInput;
    }
    // The pre-run check the app asks too (points, the planner's limit, strategies, memory):
    // what it refuses throws std::invalid_argument kin before any work, exit 2 (main_cli.cpp);
    // anything later is a failed run.
    std::string note;
    SweepRequestData request;
    request.kind = SweepKind::Pareto;
    request.config = o.config;
    request.checked = handWritten(o, &note);
    request.paretoPoints = points;
    Runner runner;
    prepareShard(o, runner);
    SweepCheck check;
    ResultSet results = runner.run(request, makeHooks(o, check));
    for (const std::string& said : {leftOutNote(request.checked, check), note})
        if (!said.empty()) results.notes.insert(results.notes.begin(), said);
    if (!results.predicted_frontier.empty())
        std::printf("predicted frontier from %s MiB (%s ms) to %s MiB (%s ms)\n",
                    formatFixed(results.predicted_frontier.front().peak_bytes / kMiB, 2).c_str(),
                    formatFixed(results.predicted_frontier.front().step_ms, 1).c_str(),
                    formatFixed(results.predicted_frontier.back().peak_bytes / kMiB, 2).c_str(),
                    formatFixed(results.predicted_frontier.back().step_ms, 1).c_str());
    const int code = reportAndFinish(results, o);
    printComparison(results);
    return code;
}

}  // namespace ckptlab::cli
