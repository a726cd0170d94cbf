// ckptlab-cli plan --capacity: does the model fit a device at its real size, with which
// checkpointing, how fast. One layer and the chain's ends are measured at small shapes, their
// costs fitted (measureCostFit) and the whole chain replayed at the asked size (planFullSize).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "ckptlab/engine/runner.h"
#include "ckptlab/formats/full_size_files.h"
#include "ckptlab/formats/output_paths.h"
#include "ckptlab/formats/results_io.h"
#include "ckptlab/model/number_text.h"
#include "ckptlab/planning/full_size.h"
#include "ckptlab/planning/planner.h"
#include "ckptlab/planning/sweep_check.h"
#include "cli_commands.h"
#include "cli_common.h"
#include "cli_costs_from.h"
#include "cli_full_size_report.h"
#include "cli_plan_full_size.h"

namespace ckptlab::cli {
namespace {

// Seconds since the command started, for the progress lines.
class Clock {
public:
    double seconds() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }

private:
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

std::string shapeText(const MeasuredShape& shape) {
    std::string text = "B=" + std::to_string(shape.batch) + " S=" + std::to_string(shape.seq);
    if (shape.vocab > 0) text += " V=" + std::to_string(shape.vocab);
    if (shape.attention_chunk > 0) text += " chunk=" + std::to_string(shape.attention_chunk);
    if (!shape.timed) return text + " (memory only)";
    return text + (shape.bytes ? " (memory and time)" : " (time only)");
}

// The strategies a full-size plan compares by default (fullSizeDefaultStrategies), less those the
// model cannot take, which `note` names.
std::vector<Strategy> defaultStrategies(const ExperimentConfig& config, std::string* note) {
    return strategiesForModel(fullSizeDefaultStrategies(), "the default list", config, note);
}

// The output options plan --capacity does not write; throws std::invalid_argument naming the
// option.
void checkOutputs(const ExperimentOptions& o) {
    for (const auto& [value, option] : {std::pair{o.csvPath, "--csv"},
                                        {o.tracePath, "--trace"},
                                        {o.pngDir, "--png"},
                                        {o.svgDir, "--svg"}})
        if (!value.empty())
            throw std::invalid_argument(std::string("plan --capacity writes no ") + option +
                                        ": its answer is the printed table and --json (leave " +
                                        option + " out, or run the planned schedule with sweep)");
}

// The request's one check (checkFullSize, the app's too), said as the CLI says refusals.
void checkRequest(const FullSizeRequest& request) {
    const FullSizeCheck check = checkFullSize(request);
    if (check.ok()) return;
    const bool twice = check.verdict == FullSizeCheck::Verdict::StrategyListedTwice;
    throw std::invalid_argument((twice ? "--" : "") + check.problem->english);
}

// --capacity as typed; parseCapacity's message names the option and its forms, the presets are
// added.
std::int64_t capacityOf(const std::string& text) {
    try {
        return parseCapacity(text);
    } catch (const std::invalid_argument& e) {
        std::string presets;
        for (const CapacityPreset& p : capacityPresets())
            presets += std::string(presets.empty() ? "" : ", ") + p.name + " (" + p.examples + ")";
        throw std::invalid_argument(std::string(e.what()) + "; presets: " + presets);
    }
}

// What plan --capacity reads before measuring, each checked: the capacity, the strategies (the
// default list when none is typed) and the --costs-from file's none run.
struct PlanInputs {
    std::int64_t capacity = 0;
    std::vector<Strategy> strategies;
    std::optional<ResultSet> costsFile;
    std::optional<RunResult> costsNone;
};

PlanInputs readPlanInputs(const ExperimentOptions& o, const FullSizeOptions& fullSize) {
    PlanInputs in;
    in.capacity = capacityOf(fullSize.capacity);
    checkOutputs(o);
    checkRequest({o.config, in.capacity, o.strategies});
    printModelNotes(o);
    in.strategies = o.strategies;
    if (in.strategies.empty()) {
        std::string note;
        in.strategies = defaultStrategies(o.config, &note);
        if (!note.empty() && !o.quiet) std::cerr << "ckptlab-cli: note: " << note << "\n";
    }
    if (!fullSize.costsFrom.empty()) {
        try {
            in.costsFile = loadResults(fullSize.costsFrom);
        } catch (const std::exception& e) {
            throw std::invalid_argument("--costs-from: " + std::string(e.what()));
        }
        in.costsNone = costsFromRun(*in.costsFile, o.config, fullSize.costsFrom);
    }
    return in;
}

}  // namespace

int runPlanFullSize(ExperimentOptions o, const FullSizeOptions& fullSize) {
    // The full-size plan's defaults, the app's too, under the model and the options typed.
    applyFullSizeDefaults(o.config);
    if (std::string error = completeConfig(o); !error.empty()) {
        std::cerr << "ckptlab-cli: " << error << "\n";
        return kBadInput;
    }
    PlanInputs in;
    try {
        in = readPlanInputs(o, fullSize);
    } catch (const std::exception& e) {
        std::cerr << "ckptlab-cli: " << e.what() << "\n";
        return kBadInput;
    }
    const std::int64_t capacity = in.capacity;
    const std::vector<Strategy>& strategies = in.strategies;

    const Clock clock;
    const std::vector<MeasuredShape> shapes = fitShapes(o.config);
    auto measured = [&](const std::string& stage, int done, int total) {
        if (o.quiet) return;
        if (done >= total) return;  // the fit itself: arithmetic, no time worth a line
        const bool known = total == static_cast<int>(shapes.size()) && done >= 0;
        std::fprintf(
            stderr, "[%6.1f s] measuring shape %d of %d: %s\n", clock.seconds(), done + 1, total,
            known ? shapeText(shapes[static_cast<std::size_t>(done)]).c_str() : stage.c_str());
    };
    // Ctrl+C stops the measurement (the engine throws) and the planning (PlanningCancelled);
    // the flag says it was the user. Either way nothing is written, an earlier --json stays.
    // One layer too large to measure here is refused first (MemoryError, exit 2).
    const std::atomic<bool>* interrupted = catchInterrupts();
    CostFit fit;
    try {
        fit = measureCostFit(o.config, measured, interrupted);
    } catch (const std::exception&) {
        if (!interrupted->load()) throw;
        std::cerr << "ckptlab-cli: interrupted while measuring; nothing planned or written\n";
        return kInterrupted;
    }
    if (!o.quiet)
        std::fprintf(stderr, "[%6.1f s] measured %d shapes; planning at B=%d S=%d\n",
                     clock.seconds(), static_cast<int>(fit.shapes.size()), o.config.batch,
                     o.config.seq);
    FullSizeProgress planning;
    planning.step = [&](const std::string& stage, int done, int total) {
        if (!o.quiet && done < total)
            std::fprintf(stderr, "[%6.1f s] planning %d of %d: %s\n", clock.seconds(), done + 1,
                         total, stage.c_str());
    };
    planning.cancel = interrupted;
    FullSizePlan plan;
    try {
        plan = planFullSize(fit, capacity, strategies, planning);
    } catch (const PlanningCancelled&) {
    }
    if (interrupted->load()) {
        std::cerr << "ckptlab-cli: interrupted while planning; nothing written\n";
        return kInterrupted;
    }
    if (!o.quiet) std::fprintf(stderr, "[%6.1f s] planned\n", clock.seconds());

    // The threads the timed shapes ran at: the config's, or LibTorch's default.
    const int threads = describeEnvironment(o.config).threads;
    std::string timesLabel = "predicted on this machine (" +
                             std::string(o.config.device == "cpu" ? "CPU" : o.config.device) +
                             ", " + std::to_string(threads) + " thread" +
                             (threads == 1 ? "" : "s") + ")";
    std::optional<MachineTimeScale> scale;
    if (in.costsNone) {
        scale = timeScaleFrom(*in.costsFile, *in.costsNone, fit);
        applyTimeScale(*scale, plan);
        timesLabel = "predicted for " + scale->machine + " (scaled from its measured none step)";
    }

    printFullSizeReport(o, fit, plan, capacity, timesLabel, scale);
    if (!o.jsonPath.empty()) {
        writeTextFile(o.jsonPath, fullSizePlanJson(plan, fit, modelName(o), plan.held.parameters,
                                                   timesLabel, scale));
        if (!o.quiet) std::cerr << "ckptlab-cli: wrote " << o.jsonPath << "\n";
    }
    return kOk;
}

}  // namespace ckptlab::cli
