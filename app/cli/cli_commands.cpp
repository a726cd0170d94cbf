#include "cli_commands.h"

#include <iostream>

#include "ckptlab/engine/runner.h"
#include "ckptlab/formats/output_paths.h"
#include "ckptlab/formats/results_io.h"
#include "ckptlab/model/strategy.h"
#include "cli_common.h"

namespace ckptlab::cli {

int runExperiment(ExperimentOptions o, bool sweep) {
    if (std::string error = completeConfig(o); !error.empty()) {
        std::cerr << "ckptlab-cli: " << error << "\n";
        return kBadInput;
    }
    // Bad strategies and configs throw std::invalid_argument kin before any work: exit 2
    // (main_cli.cpp); anything later is a failed run.
    std::vector<Strategy> strategies;
    std::string presetNote;  // what a preset left out at this depth
    if (!sweep) {
        strategies = parseStrategies({o.strategy});  // the one it measures, parsed here
    } else {
        if (!o.preset.empty() && !o.strategies.empty()) {
            std::cerr << "ckptlab-cli: give --preset or --strategies, not both\n";
            return kBadInput;
        }
        strategies = o.preset.empty() ? o.strategies : presetStrategies(o.preset);
        if (!o.preset.empty() && strategies.empty()) {
            std::string names;
            for (const std::string& name : presetNames())
                names += (names.empty() ? "" : ", ") + name;
            std::cerr << "ckptlab-cli: --preset must be one of " << names << " (got \"" << o.preset
                      << "\")\n";
            return kBadInput;
        }
        // A preset's items were not typed: those the depth cannot take are left out and said.
        if (o.strategies.empty()) {
            const std::string name = o.preset.empty() ? kDefaultPreset : o.preset;
            strategies = strategiesForModel(presetStrategies(name), "the " + name + " preset",
                                            o.config, &presetNote);
        }
    }
    // The runner's check refuses before any work; runs fail one by one inside it; what escapes
    // is classified in main_cli.cpp.
    SweepRequestData request;
    request.config = o.config;
    request.checked = strategies;
    Runner runner;
    if (sweep) prepareShard(o, runner);
    SweepCheck checked;
    ResultSet results = runner.run(request, makeHooks(o, checked));
    if (!presetNote.empty()) results.notes.insert(results.notes.begin(), presetNote);
    return reportAndFinish(results, o);
}

int plotResults(const PlotOptions& o) {
    // Outputs first: checking them costs nothing, loading a large file does not.
    if (o.pngDir.empty() && o.svgDir.empty()) {
        std::cerr << "ckptlab-cli: plot needs --png DIR and/or --svg DIR\n";
        return kBadInput;
    }
    for (const auto& [dir, field] : {std::pair{o.pngDir, "--png"}, {o.svgDir, "--svg"}}) {
        if (dir.empty()) continue;
        if (std::string error = checkOutputDir(dir, field); !error.empty()) {
            std::cerr << "ckptlab-cli: " << error << "\n";
            return kBadInput;
        }
    }
    ResultSet results;
    try {
        results = loadResults(o.resultsPath);
    } catch (const std::exception& e) {
        std::cerr << "ckptlab-cli: " << e.what() << "\n";
        return kBadInput;
    }
    // Every chart draws runs: a plan's file would give empty charts and look done. (A results
    // file with no runs plots, each chart saying it has none.)
    if (results.plan) {
        std::cerr << "ckptlab-cli: plot: " << o.resultsPath << " holds a full-size plan of "
                  << results.plan->model
                  << ", not runs; plot draws the charts of runs (run, sweep, pareto or scaling "
                     "--json); a plan's chart is the app's \"Will it fit?\"\n";
        return kBadInput;
    }
    std::string error;
    if (!exportCharts(results, o.pngDir, o.svgDir, o.scale, &error)) {
        std::cerr << "ckptlab-cli: " << error << "\n";
        return kRunFailed;
    }
    return kOk;
}

}  // namespace ckptlab::cli

#ifndef CKPTLAB_WITH_CHARTS
namespace ckptlab::cli {
bool exportCharts(const ResultSet&, const std::string&, const std::string&, int,
                  std::string* error) {
    *error = "chart export needs the GUI build (configure with -DCKPTLAB_BUILD_GUI=ON)";
    return false;
}
}  // namespace ckptlab::cli
#endif
