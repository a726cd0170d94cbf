// ckptlab-cli pareto: the measured Pareto curve of optimal schedules from the smallest
// feasible budget to the no-checkpoint peak, beside hand-written strategies and the predicted
// frontier.
#include <cmath>
#include <cstdio>
#include <iostream>
#include <set>

#include "ckptlab/cost_model.h"
#include "ckptlab/planner.h"
#include "ckptlab/runner.h"
#include "ckptlab/summary.h"
#include "cli_commands.h"
#include "cli_common.h"

namespace ckptlab::cli {
namespace {

// A budget as a readable strategy name: 0.01, 0.1 or 1 MiB steps by size, rounded up for the
// ends of the range (the smallest must stay feasible) and to the nearest in between.
std::string optimalName(std::int64_t bytes, std::int64_t high, bool up) {
    const double step = high < 10 * kMiB ? 0.01 : high < 100 * kMiB ? 0.1 : 1.0;
    const double steps = bytes / kMiB / step;
    Strategy s{StrategyKind::Optimal, 0};
    s.budget_mib = (up ? std::ceil(steps - 1e-9) : std::round(steps)) * step;
    return s.name();
}

// Hand-written strategies that exist for this depth and block.
std::vector<std::string> handWritten(const ExperimentOptions& o) {
    std::vector<std::string> wanted = o.strategies;
    if (wanted.empty()) {
        wanted = presetStrategies("seed-tradeoff");
        wanted.push_back("sqrt");
    }
    std::vector<std::string> valid;
    for (const auto& text : wanted) {
        try {
            valid.push_back(parseStrategy(text, o.config.depth, o.config.block).name());
        } catch (const StrategyError&) {
            if (!o.strategies.empty()) throw;  // asked for by name: report it
        }
    }
    return valid;
}

// The planner rounds memory up to its quantum; allow a few quanta so a strategy's own
// schedule fits the budget it reached.
void printComparison(const ResultSet& results, const CostModel& costs) {
    const OptimalPlanner planner(costs, 1000);
    std::cout << "\nHand-written strategies against the optimal schedule at the same "
                 "predicted peak (plus the planner's rounding):\n";
    for (const auto& run : results.runs) {
        if (run.error || !run.prediction || run.strategy.rfind("optimal:", 0) == 0) continue;
        try {
            const std::int64_t peak = run.prediction->peak_bytes;
            const PlannedSchedule best = planner.plan(peak + planner.roundingSlack(peak));
            const double gain = 100.0 * (run.prediction->step_ms - best.prediction.step_ms) /
                                run.prediction->step_ms;
            std::printf("  %-12s predicted %8.1f ms at %7.1f MiB; optimal %8.1f ms (%s)\n",
                        run.strategy.c_str(), run.prediction->step_ms,
                        run.prediction->peak_bytes / kMiB, best.prediction.step_ms,
                        gain < -1e-6 ? "BELOW the optimal curve: planner or model is wrong"
                        : gain < 0.05 ? "on the curve"
                                      : ("optimal " + std::to_string(int(gain + 0.5)) +
                                         "% faster").c_str());
        } catch (const BudgetError&) {
        }
    }
}

}  // namespace

int runPareto(ExperimentOptions o, int points) {
    if (std::string error = completeConfig(o); !error.empty()) {
        std::cerr << "ckptlab-cli: " << error << "\n";
        return kBadInput;
    }
    if (points < 2 || points > 50) {
        std::cerr << "ckptlab-cli: --points must be between 2 and 50 (got " << points << ")\n";
        return kBadInput;
    }
    std::vector<std::string> strategies;
    try {
        strategies = handWritten(o);
        Runner::check(o.config, strategies.empty() ? std::vector<std::string>{"none"} : strategies);
    } catch (const std::exception& e) {
        std::cerr << "ckptlab-cli: " << e.what() << "\n";
        return kBadInput;
    }

    if (!o.quiet) std::cerr << "measuring the cost model\n";
    const CostModel costs = measureCostModel(o.config);
    const OptimalPlanner planner(costs);
    const std::int64_t low = planner.minimumPeak();
    Plan none;
    none.segments.push_back({0, o.config.depth, false, {}});
    const std::int64_t high = predict(costs, none).peak_bytes;

    std::set<std::string> seen(strategies.begin(), strategies.end());
    for (int i = 0; i < points; ++i) {
        const std::int64_t budget = low + (high - low) * i / (points - 1);
        const std::string name = optimalName(budget, high, i == 0 || i == points - 1);
        if (seen.insert(name).second) strategies.push_back(name);
    }
    std::vector<FrontierPoint> frontier;
    for (int i = 0; i <= 40; ++i) {
        try {
            const auto p = planner.plan(low + (high - low) * i / 40).prediction;
            if (frontier.empty() || p.step_ms < frontier.back().step_ms - 1e-9)
                frontier.push_back({p.peak_bytes, p.step_ms});
        } catch (const BudgetError&) {
        }
    }

    ResultSet results;
    try {
        Runner runner;
        runner.useCostModel(costs);
        results = runner.sweep(o.config, strategies, makeHooks(o.quiet));
    } catch (const std::exception& e) {
        std::cerr << "ckptlab-cli: " << e.what() << "\n";
        return kBadInput;
    }
    results.predicted_frontier = frontier;
    std::printf("smallest feasible peak %.2f MiB, no-checkpoint peak %.2f MiB (predicted)\n",
                low / kMiB, high / kMiB);
    const int code = reportAndFinish(results, o);
    printComparison(results, costs);
    return code;
}

}  // namespace ckptlab::cli
