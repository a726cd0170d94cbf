// ckptlab-cli: the same experiments as the desktop app, headless (e.g. on a GPU server).
#include <CLI/CLI.hpp>

#include <iostream>

#include "ckptlab/strategy.h"
#include "cli_commands.h"
#include "cli_common.h"

using namespace ckptlab;
using namespace ckptlab::cli;

namespace {

std::string rangeText(IntRange r) {
    return "[" + std::to_string(r.min) + ", " + std::to_string(r.max) + "]";
}

void addExperimentOptions(CLI::App* cmd, ExperimentOptions& o) {
    auto& c = o.config;
    cmd->add_option("--block", o.block, "Block kind: ffn (the seed's block) or transformer")
        ->capture_default_str();
    cmd->add_option("--depth", c.depth, "Number of blocks L " + rangeText(limits::depth))
        ->capture_default_str();
    cmd->add_option("--width", c.width, "Model width d " + rangeText(limits::width))
        ->capture_default_str();
    cmd->add_option("--seq", c.seq, "Sequence length S " + rangeText(limits::seq))
        ->capture_default_str();
    cmd->add_option("--batch", c.batch, "Batch size B " + rangeText(limits::batch))
        ->capture_default_str();
    cmd->add_option("--heads", c.heads, "Attention heads (transformer) " + rangeText(limits::heads))
        ->capture_default_str();
    cmd->add_option("--dropout", c.dropout, "Attention dropout (transformer) [0, 0.9]")
        ->capture_default_str();
    cmd->add_option("--dtype", o.dtype, "float32 or bfloat16")->capture_default_str();
    cmd->add_option("--device", c.device, "cpu, or cuda / cuda:N when LibTorch has CUDA")
        ->capture_default_str();
    cmd->add_option("--optimizer", o.optimizer, "none, sgd or adam (adds its state and step)")
        ->capture_default_str();
    cmd->add_option("--seed", c.seed, "Seed of weights, input and dropout")->capture_default_str();
    cmd->add_option("--threads", c.threads, "Intra-op threads, 0 = LibTorch default " +
                                                rangeText(limits::threads))
        ->capture_default_str();
    cmd->add_option("--warmup", c.warmup, "Untimed steps per strategy " + rangeText(limits::warmup))
        ->capture_default_str();
    cmd->add_option("--repeats", c.repeats,
                    "Timed steps per strategy, medians reported " + rangeText(limits::repeats))
        ->capture_default_str();
    cmd->add_option("--memory-limit", c.memory_limit_mib,
                    "Capacity of the modelled device in MiB, 0 = none: a run whose step passes "
                    "it fails with out of memory where it happened, the others go on")
        ->capture_default_str();
    cmd->add_option("--json", o.jsonPath, "Write results JSON (opens in the app)");
    cmd->add_option("--csv", o.csvPath, "Write the summary table as CSV");
    cmd->add_option("--trace", o.tracePath, "Write Chrome trace JSON (Perfetto) of the timelines");
    cmd->add_option("--png", o.pngDir, "Render the charts as PNG into this folder");
    cmd->add_option("--svg", o.svgDir, "Render the charts as SVG into this folder");
    cmd->add_option("--scale", o.scale, "PNG pixel ratio, 1 or 2")->check(CLI::IsMember({1, 2}));
    cmd->add_flag("--quiet,-q", o.quiet, "No progress or environment lines");
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"Checkpoint Lab: measure gradient checkpointing strategies with LibTorch.\n"
                 "Strategies:\n" + strategySyntaxHelp(), "ckptlab-cli"};
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string("ckptlab-cli ") + CKPTLAB_VERSION);

    ExperimentOptions runOptions;
    auto* run = app.add_subcommand("run", "Measure one strategy (and the none reference)");
    addExperimentOptions(run, runOptions);
    run->add_option("--strategy,-s", runOptions.strategy, "Strategy, e.g. full, every:2")
        ->capture_default_str();
    bool verbose = false;
    app.add_flag("--verbose,-v", verbose,
                 "On a LibTorch error, print its whole message with the C++ backtrace");
    app.fallthrough();  // so --verbose also works after the subcommand

    ExperimentOptions sweepOptions;
    auto* sweep = app.add_subcommand("sweep", "Measure several strategies on the same weights");
    addExperimentOptions(sweep, sweepOptions);
    sweep->add_option("--strategies", sweepOptions.strategiesText,
                      "Comma-separated strategies (default: the seed-tradeoff preset)");
    sweep->add_option("--preset", sweepOptions.preset,
                      "seed-tradeoff, experiment-1, experiment-2 or experiment-3");

    ExperimentOptions paretoOptions;
    int paretoPoints = 6;
    auto* pareto = app.add_subcommand(
        "pareto", "Run optimal schedules from the smallest feasible budget to the no-checkpoint "
                  "peak, beside hand-written strategies (the measured Pareto curve)");
    addExperimentOptions(pareto, paretoOptions);
    pareto->add_option("--points", paretoPoints, "Optimal budgets to run [2, 50]")
        ->capture_default_str();
    pareto->add_option("--strategies", paretoOptions.strategiesText,
                       "Hand-written strategies to compare (default: seed-tradeoff + sqrt)");

    ExperimentOptions planOptions;
    std::string planBudgets;
    int planPoints = 5;
    bool planBruteForce = false;
    auto* plan = app.add_subcommand(
        "plan", "Print the optimal schedule for memory budgets from the measured cost model, "
                "without running it");
    addExperimentOptions(plan, planOptions);
    plan->add_option("--budgets", planBudgets,
                     "Comma-separated peak budgets in MiB above the step's start (default: "
                     "--points budgets from the smallest feasible to the no-checkpoint peak)");
    plan->add_option("--points", planPoints, "Budgets when --budgets is not given [1, 50]")
        ->capture_default_str();
    plan->add_flag("--brute-force", planBruteForce,
                   "Check each schedule against every schedule of the planner's class (at most "
                   "8 units)");

    ExperimentOptions scalingOptions;
    std::string scalingAxis;
    std::string scalingValues;
    auto* scaling = app.add_subcommand(
        "scaling", "Vary one dimension and fit how memory and time grow (log-log exponent)");
    addExperimentOptions(scaling, scalingOptions);
    scaling->add_option("--vary", scalingAxis, "depth, seq, width or batch")->required();
    scaling->add_option("--values", scalingValues, "Comma-separated values, e.g. 4,8,16,32")
        ->required();
    scaling->add_option("--strategies", scalingOptions.strategiesText,
                        "Strategies (default: none,sqrt,full)");

    PlotOptions plotOptions;
    auto* plot = app.add_subcommand("plot", "Render the charts of a results JSON file");
    plot->add_option("results", plotOptions.resultsPath, "Results JSON from run/sweep or the app")
        ->required();
    plot->add_option("--png", plotOptions.pngDir, "Folder for PNG charts");
    plot->add_option("--svg", plotOptions.svgDir, "Folder for SVG charts");
    plot->add_option("--scale", plotOptions.scale, "PNG pixel ratio, 1 or 2")
        ->check(CLI::IsMember({1, 2}));

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
        std::cerr << "ckptlab-cli: " << e.what() << " (see ckptlab-cli --help)\n";
        return kBadInput;
    }
    // Whatever escapes a command ends here: exit 2 for bad input, 1 for a failed run, one
    // line on stderr (LibTorch's backtrace only with --verbose), never std::terminate.
    try {
        if (*run) return runExperiment(runOptions, false);
        if (*sweep) return runExperiment(sweepOptions, true);
        if (*pareto) return runPareto(paretoOptions, paretoPoints);
        if (*plan) return runPlan(planOptions, planBudgets, planPoints, planBruteForce);
        if (*scaling) return runScaling(scalingOptions, scalingAxis, scalingValues);
        return plotResults(plotOptions);
    } catch (const std::exception& e) {
        return reportFailure(e, verbose);
    } catch (...) {
        std::cerr << "ckptlab-cli: failed with an unknown error\n";
        return kRunFailed;
    }
}
