// ckptlab-cli plan: the optimal schedules for a few memory budgets, from the measured cost
// model, without running them; with --brute-force each is checked against every schedule of
// the planner's class (small chains only).
#include <atomic>
#include <cstdio>
#include <iostream>

#include "ckptlab/engine/runner.h"
#include "ckptlab/model/block_kinds.h"
#include "ckptlab/model/number_text.h"
#include "ckptlab/model/summary.h"
#include "ckptlab/planning/planner.h"
#include "cli_commands.h"
#include "cli_common.h"

namespace ckptlab::cli {
namespace {

// A size in MiB with its digits: three decimals from 1 MiB, four significant digits below it
// (a tiny model's 0.003815 MiB, not 0.004), %g beyond ten million.
std::string mibText(double mib) {
    if (mib >= 1e7) return formatGeneral(mib);
    if (mib >= 1 || mib == 0) return formatFixed(mib, 3);
    return formatGeneral(mib, 4);
}

// The planner rounds memory up to its quantum, so its answer lies between the exact optimum
// at the budget and the exact optimum at the budget less the rounding slack.
bool checkAgainstBruteForce(const CostModel& costs, const OptimalPlanner& planner,
                            std::int64_t budget, double plannedMs) {
    const BruteForceResult exact = bruteForcePlan(costs, budget);
    double tighterMs = -1;
    try {
        tighterMs =
            bruteForcePlan(costs, budget - planner.roundingSlack(budget)).best.prediction.step_ms;
    } catch (const BudgetError&) {
    }
    const double exactMs = exact.best.prediction.step_ms;
    const bool ok = plannedMs >= exactMs - 1e-9 && (tighterMs < 0 || plannedMs <= tighterMs + 1e-9);
    std::printf("    brute force over %lld schedules: %s ms at the budget%s -> %s\n",
                exact.schedules, formatFixed(exactMs, 2).c_str(),
                tighterMs < 0 ? ""
                              : (", " + formatFixed(tighterMs, 2) +
                                 " ms within the budget less the planner's rounding")
                                    .c_str(),
                plannedMs <= exactMs + 1e-9 ? "identical"
                : ok                        ? "within the planner's rounding"
                                            : "WRONG: the planner missed a faster schedule");
    return ok;
}

// A sub-block's name in the cost table: the MLP is "ffn" in the seed's blocks, "mlp" in Llama's.
const char* unitName(BlockKind block, int unit) { return blockKind(block).units.at(unit); }

// The measured costs of one block, the numbers every prediction and plan is made from.
void printBlockCosts(const CostModel& costs, BlockKind block) {
    std::printf("cost model of one block (MiB, ms; every block of the chain costs the same):\n");
    std::printf("  %-16s %8s %8s %8s %9s %8s %8s %8s %8s %8s\n", "unit", "output", "kept", "fwd pk",
                "nograd pk", "bwd pk", "fwd ms", "nograd", "bwd ms", "kept bwd");
    auto row = [](const char* name, const UnitCost& c) {
        auto f = [](double value, int decimals) { return formatFixed(value, decimals); };
        std::printf("  %-16s %8s %8s %8s %9s %8s %8s %8s %8s %8s\n", name,
                    f(c.output_bytes / kMiB, 3).c_str(), f(c.kept_bytes / kMiB, 3).c_str(),
                    f(c.forward_peak / kMiB, 3).c_str(), f(c.nograd_peak / kMiB, 3).c_str(),
                    f(c.backward_peak / kMiB, 3).c_str(), f(c.forward_ms, 2).c_str(),
                    f(c.nograd_ms, 2).c_str(), f(c.backward_ms, 2).c_str(),
                    f(backwardMsOf(c, false), 2).c_str());
    };
    for (int u = 0; u < costs.unitsPerBlock() && u < static_cast<int>(costs.units.size()); ++u)
        row(unitName(block, u), costs.units[static_cast<std::size_t>(u)]);
    // The chain's ends, measured once each and never checkpointed: the embedding's output is
    // the chain's input, the head's the loss.
    if (costs.first || costs.last) std::printf("the chain's ends (never checkpointed):\n");
    if (costs.first) row("embedding", *costs.first);
    if (costs.last) row("LM head and loss", *costs.last);
}

// The inputs plan refuses before measuring anything (std::invalid_argument or the runner's
// ConfigError); returns the --budgets, empty when not given.
std::vector<double> checkPlanInputs(const ExperimentOptions& o, const std::string& budgetsText,
                                    int points, bool bruteForce, int units) {
    // Accepted and never written would read as written: refuse instead.
    for (const auto& [value, option] : {std::pair{o.jsonPath, "--json"},
                                        {o.csvPath, "--csv"},
                                        {o.tracePath, "--trace"},
                                        {o.pngDir, "--png"},
                                        {o.svgDir, "--svg"}})
        if (!value.empty())
            throw std::invalid_argument(
                std::string("plan without --capacity writes no ") + option +
                ": its answer is the printed schedules (with --capacity, --json writes the "
                "full-size plan)");
    SweepRequestData request;  // the config as a sweep of the baseline would take it
    request.config = o.config;
    request.checked = {Strategy{}};
    Runner::check(request);
    if (const auto error = plannerLimitError(o.config, "plan")) throw ConfigError(*error);
    std::vector<double> budgetsMib = parseNumberList(budgetsText, "--budgets");
    if (points < kPlanPoints.min || points > kPlanPoints.max)
        throw std::invalid_argument("--points must be between " + std::to_string(kPlanPoints.min) +
                                    " and " + std::to_string(kPlanPoints.max) + " (got " +
                                    std::to_string(points) + ")");
    // The value as typed reads back in %g form: 1e+308, not 309 digits.
    for (double b : budgetsMib)
        if (!(b >= 0.001) || b > 1e7)
            throw std::invalid_argument("--budgets must be between 0.001 and 10000000 MiB (got " +
                                        formatGeneral(b) + ")");
    if (bruteForce && units > kBruteForceMaxUnits)
        throw std::invalid_argument(
            "--brute-force needs at most " + std::to_string(kBruteForceMaxUnits) +
            " units: depth x sub-blocks per block (1 ffn, 2 transformer or llama) is " +
            std::to_string(units));
    return budgetsMib;
}

// Prints the planner's schedule for one budget. kOk, kRunFailed when brute force disagrees,
// kBadInput when nothing fits the budget.
int planOneBudget(const CostModel& costs, const OptimalPlanner& planner, double mib,
                  bool bruteForce) {
    const auto budget = static_cast<std::int64_t>(mib * kMiB);
    try {
        const PlannedSchedule best = planner.plan(budget);
        std::printf(
            "budget %s MiB: peak %s MiB, step %s ms, %d stored, %d no-grad "
            "forwards\n  %s\n",
            mibText(mib).c_str(), mibText(best.prediction.peak_bytes / kMiB).c_str(),
            formatFixed(best.prediction.step_ms, 2).c_str(),
            static_cast<int>(checkpointSpans(best.plan).size()), noGradForwardCount(best.plan),
            describeSchedule(best.plan).c_str());
        if (bruteForce && !checkAgainstBruteForce(costs, planner, budget, best.prediction.step_ms))
            return kRunFailed;
    } catch (const BudgetError& e) {
        std::fflush(stdout);
        std::cerr << "ckptlab-cli: " << e.what() << "\n";
        if (bruteForce) {
            try {
                bruteForcePlan(costs, budget);
                std::printf("    brute force found a schedule: WRONG minimum\n");
                return kRunFailed;
            } catch (const BudgetError&) {
                std::printf("    brute force: no schedule fits either\n");
            }
        }
        return kBadInput;
    }
    return kOk;
}

}  // namespace

int runPlan(ExperimentOptions o, const std::string& budgetsText, int points, bool bruteForce) {
    if (std::string error = completeConfig(o); !error.empty()) {
        std::cerr << "ckptlab-cli: " << error << "\n";
        return kBadInput;
    }
    const int units = plannerUnits(o.config);
    std::vector<double> budgetsMib;
    try {
        budgetsMib = checkPlanInputs(o, budgetsText, points, bruteForce, units);
        printModelNotes(o);
    } catch (const std::exception& e) {
        std::cerr << "ckptlab-cli: " << e.what() << "\n";
        return kBadInput;
    }

    // Ctrl+C stops the measurement (the engine throws) or the plans between two budgets.
    const std::atomic<bool>* interrupted = catchInterrupts();
    auto stopped = [](const char* what) {
        std::fflush(stdout);
        std::cerr << "ckptlab-cli: interrupted while " << what << "\n";
        return kInterrupted;
    };
    if (!o.quiet) std::cerr << "measuring the cost model on one block\n";
    CostModel costs;
    try {
        costs = measureCostModel(o.config, interrupted);
    } catch (const std::exception&) {
        if (!interrupted->load()) throw;
        return stopped("measuring; nothing planned");
    }
    printBlockCosts(costs, o.config.block);
    const OptimalPlanner planner(costs);
    if (interrupted->load()) return stopped("planning");
    const std::int64_t low = planner.minimumPeak();
    const Prediction none = predict(costs, makePlan(Strategy{}, o.config.depth));
    std::printf(
        "%d units; smallest feasible peak %s MiB, no-checkpoint peak %s MiB (%s ms)"
        " predicted\n",
        units, mibText(low / kMiB).c_str(), mibText(none.peak_bytes / kMiB).c_str(),
        formatFixed(none.step_ms, 1).c_str());
    if (budgetsMib.empty())
        for (int i = 0; i < points; ++i)
            budgetsMib.push_back(
                (low + (none.peak_bytes - low) * (points > 1 ? double(i) / (points - 1) : 0)) /
                kMiB);

    // A wrong plan outweighs a budget nothing fits.
    int code = kOk;
    for (double mib : budgetsMib) {
        if (interrupted->load()) return stopped("planning; the budgets above were planned");
        const int result = planOneBudget(costs, planner, mib, bruteForce);
        if (result == kRunFailed || code == kOk) code = result;
    }
    return code;
}

}  // namespace ckptlab::cli
