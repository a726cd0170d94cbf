// ckptlab-cli scaling: vary depth, sequence length, width or batch for some strategies and fit
// how activation memory, peak and step time grow (the exponent of a power law).
#include <cstdio>
#include <iostream>

#include "ckptlab/engine/runner.h"
#include "ckptlab/model/number_text.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/model/summary.h"
#include "ckptlab/planning/scaling.h"
#include "ckptlab/planning/sweep_check.h"
#include "ckptlab/planning/sweep_strategies.h"
#include "cli_commands.h"
#include "cli_common.h"

namespace ckptlab::cli {

int runScaling(ExperimentOptions o, const std::string& axisName, const std::string& valuesText) {
    if (std::string error = completeConfig(o); !error.empty()) {
        std::cerr << "ckptlab-cli: " << error << "\n";
        return kBadInput;
    }
    ScalingAxis axis;
    if (!parseScalingAxis(axisName, axis)) {
        std::cerr << "ckptlab-cli: --vary must be depth, seq, width or batch (got \"" << axisName
                  << "\")\n";
        return kBadInput;
    }
    // The pre-run check the app asks too (the values, every size's config, strategies and
    // memory): what it refuses throws before any run, exit 2 (main_cli.cpp).
    SweepRequestData request;
    request.kind = SweepKind::Scaling;
    request.config = o.config;
    request.checked = o.strategies;  // none typed: the usual set (sweepStrategies)
    request.axis = axis;
    request.values = parseIntList(valuesText, "--values", axisRange(axis));
    Runner runner;
    prepareShard(o, runner);
    SweepCheck check;
    ResultSet all = runner.run(request, makeHooks(o, check));
    const std::vector<Strategy>& strategies = check.strategies;
    if (const std::string note = leftOutNote(o.strategies, check); !note.empty())
        all.notes.insert(all.notes.begin(), note);
    const int code = reportAndFinish(all, o);
    if (all.shard) {  // a share of the sizes: the fit belongs to the whole sweep
        std::printf(
            "\nNo fitted exponents from one shard's runs: merge the shards (ckptlab-cli merge) "
            "and open the file in the app for the whole sweep's fit\n");
        return code;
    }
    std::printf("\nFitted exponents (y ~ %s^k; r2 of the log-log fit):\n", axisName.c_str());
    std::printf("  %-12s %18s %18s %18s\n", "strategy", "activation bytes", "peak bytes",
                "step ms");
    for (const Strategy& strategy : strategies) {
        std::printf("  %-12s", strategy.name().c_str());
        for (auto metric :
             {ScalingMetric::ActivationBytes, ScalingMetric::PeakBytes, ScalingMetric::StepMs}) {
            const PowerFit fit = fitRuns(all, strategy, axis, metric);
            std::printf("   k=%5s (r2 %s)", formatFixed(fit.exponent, 2).c_str(),
                        formatFixed(fit.r2, 2).c_str());
        }
        std::printf("\n");
    }
    return code;
}

}  // namespace ckptlab::cli
