// ckptlab-cli plan --capacity: does the model fit a device at its real size, with which
// checkpointing, how fast. One layer and the chain's ends are measured at small shapes, their
// costs fitted (measureCostFit) and the whole chain replayed at the asked size (planFullSize).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "ckptlab/full_size.h"
#include "ckptlab/number_text.h"
#include "ckptlab/output_paths.h"
#include "ckptlab/planner.h"
#include "ckptlab/results_io.h"
#include "ckptlab/runner.h"
#include "ckptlab/sweep_policy.h"
#include "cli_commands.h"
#include "cli_common.h"
#include "cli_costs_from.h"
#include "cli_plan_full_size.h"

namespace ckptlab::cli {
namespace {

constexpr double kGB = 1e9;  // sizes are GB (or MB, kB) unless they say GiB

// The table's unit: GB, or MB (10^6 bytes) or kB for a model whose every size is below a GB or
// a MB, which two decimals of GB would show as 0.00.
struct SizeUnit {
    double bytes = kGB;
    const char* name = "GB";
    const char* definition = "10^9 bytes";
    std::string operator()(std::int64_t value) const {
        return formatFixed(static_cast<double>(value) / bytes, 2);
    }
    // A margin: as many decimals as it takes for one that is not 0 to read as not 0 (a
    // reservation 1 MB over a GB capacity is -0.001, not "-0.00" beside "no"); at most a byte's.
    std::string signedText(std::int64_t value) const {
        int decimals = 2;
        const double scaled = std::abs(static_cast<double>(value)) / bytes;
        while (value != 0 && decimals < 9 && scaled * std::pow(10.0, decimals) < 0.5) ++decimals;
        return formatFixedSigned(static_cast<double>(value) / bytes, decimals);
    }
};

SizeUnit unitFor(const FullSizePlan& plan) {
    std::int64_t largest = plan.state_bytes;
    for (const StrategyAtSize& s : plan.strategies) largest = std::max(largest, s.reserved);
    if (largest >= kGB) return {};
    if (largest >= 1e6) return {1e6, "MB", "10^6 bytes"};
    return {1e3, "kB", "10^3 bytes"};
}

// Seconds and rates with three significant digits at most, never in exponent form; "-" where
// there is no number (not measured, not finite).
std::string threeDigits(double value) {
    if (!(value >= 0) || std::isinf(value)) return "-";
    if (value >= 100) return formatFixed(value, 0);
    if (value >= 10) return formatFixed(value, 1);
    return formatFixed(value, value >= 1 ? 2 : 3);
}

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

// "8,030,261,248": digits in groups of three, as the models command prints them.
std::string grouped(std::int64_t value) {
    std::string digits = std::to_string(value), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

// "8.03 billion (8,030,261,248)", "213,568".
std::string parametersText(std::int64_t parameters) {
    const double p = static_cast<double>(parameters);
    if (parameters >= 1'000'000'000)
        return formatFixed(p / 1e9, 2) + " billion (" + grouped(parameters) + ")";
    if (parameters >= 1'000'000)
        return formatFixed(p / 1e6, 1) + " million (" + grouped(parameters) + ")";
    return grouped(parameters);
}

// The model's name: the --model as the user gave it (a preset's name or a file), else its block
// and width.
std::string modelName(const ExperimentOptions& o) {
    if (!o.model.empty()) return o.model;
    return toString(o.config.block) + " d=" + std::to_string(o.config.width);
}

void printMethod(const CostFit& fit) {
    std::printf("method: %s\n", fit.method.c_str());
    std::printf("fit checked on %d shape%s it did not use: largest difference %lld B\n",
                fit.check_shapes, fit.check_shapes == 1 ? "" : "s",
                static_cast<long long>(fit.check_residual_bytes));
}

void printModel(const ExperimentOptions& o, const HeldState& state) {
    const ExperimentConfig& c = o.config;
    std::printf("model: %s, %s parameters, %d layers, S=%d, B=%d, %s, optimizer %s, %s attention\n",
                modelName(o).c_str(), parametersText(state.parameters).c_str(), c.depth, c.seq,
                c.batch, toString(c.dtype).c_str(), toString(c.optimizer).c_str(),
                toString(c.attention).c_str());
}

std::string largestPresetText() {
    const CapacityPreset& largest = capacityPresets().back();
    return std::string(largest.name) + ", " + largest.examples;
}

// Weights, gradients and optimizer state, and plainly whether they alone exceed the capacity.
void printState(const FullSizePlan& plan, const HeldState& state, const SizeUnit& unit) {
    std::printf(
        "held by every schedule: weights %s %s + gradients %s %s + optimizer state %s %s = %s "
        "%s\n",
        unit(state.weights).c_str(), unit.name, unit(state.gradients).c_str(), unit.name,
        unit(state.optimizer).c_str(), unit.name, unit(plan.state_bytes).c_str(), unit.name);
    if (plan.state_bytes <= plan.capacity) return;
    std::printf(
        "does not fit: weights, gradients and optimizer state alone are %s, above the %s "
        "capacity; no checkpointing lowers them\n",
        readableSize(plan.state_bytes).c_str(), readableSize(plan.capacity).c_str());
}

void printTable(const FullSizePlan& plan, const std::string& timesLabel, const SizeUnit& unit) {
    const ExperimentConfig& c = plan.config;
    std::printf(
        "\nsizes in %s (%s); allocated and reserved include the weights; max B at S=%d, max S "
        "at B=%d\n"
        "times %s, at each strategy's largest batch\n",
        unit.name, unit.definition, c.seq, c.batch, timesLabel.c_str());
    std::printf("%-16s %9s %9s %8s %7s %8s %9s %8s %7s %7s %4s %9s %6s %6s %8s %9s\n", "strategy",
                "allocated", "reserved", "weights", "copies", "grads", "optimizer", "activ.",
                "logits", "other", "fits", "margin", "max B", "max S", "step s", "tokens/s");
    for (const StrategyAtSize& s : plan.strategies) {
        const bool runs = s.largest_batch > 0 && s.step_ms_at_largest_batch > 0;
        const std::string maxB = s.largest_batch > 0 ? std::to_string(s.largest_batch) : "-";
        const std::string maxS = s.longest_seq > 0 ? std::to_string(s.longest_seq) : "-";
        const std::string step = runs ? threeDigits(s.step_ms_at_largest_batch / 1000) : "-";
        const std::string tokens = runs ? threeDigits(s.tokens_per_s) : "-";
        if (s.least_peak) {
            // No schedule at the asked size: one text over its size columns, never zeros.
            const std::string why = "infeasible: the least peak is " + unit(*s.least_peak) + " " +
                                    unit.name + " above the step's start, over its budget";
            std::printf("%-16s %-95s %6s %6s %8s %9s\n", s.strategy.name().c_str(), why.c_str(),
                        maxB.c_str(), maxS.c_str(), step.c_str(), tokens.c_str());
            continue;
        }
        std::printf("%-16s %9s %9s %8s %7s %8s %9s %8s %7s %7s %4s %9s %6s %6s %8s %9s\n",
                    s.strategy.name().c_str(), unit(s.allocated).c_str(), unit(s.reserved).c_str(),
                    unit(s.split.weights).c_str(), unit(s.split.weight_copies).c_str(),
                    unit(s.split.gradients).c_str(), unit(s.split.optimizer_state).c_str(),
                    unit(s.split.activations).c_str(), unit(s.split.logits).c_str(),
                    unit(s.split.other).c_str(), s.fits ? "yes" : "no",
                    unit.signedText(s.margin).c_str(), maxB.c_str(), maxS.c_str(), step.c_str(),
                    tokens.c_str());
    }
}

// The answer: the fastest schedule that fits, or what would.
void printAnswer(const FullSizePlan& plan, const SizeUnit& unit) {
    const ExperimentConfig& c = plan.config;
    if (plan.fastest && plan.fastest_at_size) {
        const StrategyAtSize& f = *plan.fastest_at_size;
        std::printf(
            "\nfastest schedule that fits %s: %s\n"
            "  allocated %s %s, reserved %s %s, margin %s %s; step %s s at B=%d (%s tokens/s)\n",
            readableSize(plan.capacity).c_str(), f.strategy.name().c_str(),
            unit(f.allocated).c_str(), unit.name, unit(f.reserved).c_str(), unit.name,
            unit.signedText(f.margin).c_str(), unit.name,
            threeDigits(f.prediction.step_ms / 1000).c_str(), c.batch,
            threeDigits(f.prediction.step_ms > 0 ? 1000.0 * c.batch * c.seq / f.prediction.step_ms
                                                 : -1)
                .c_str());
        if (f.largest_batch > 0)
            std::printf(
                "  largest batch %d at S=%d: step %s s, %s tokens/s; longest sequence %d "
                "at B=%d\n",
                f.largest_batch, c.seq, threeDigits(f.step_ms_at_largest_batch / 1000).c_str(),
                threeDigits(f.tokens_per_s).c_str(), f.longest_seq, c.batch);
        if (checkpointSpans(plan.fastest->plan).empty())
            std::printf("  schedule: nothing checkpointed, as none\n");
        else
            std::printf("  schedule (units: %s): %s\n",
                        plan.fastest->plan.unitLevel && c.block != BlockKind::Ffn
                            ? "the attention and the MLP of each layer, from 0"
                            : "layers, from 0",
                        describeSchedule(plan.fastest->plan).c_str());
        return;
    }
    std::printf("\nnothing fits %s (%s) at B=%d S=%d\n", readableSize(plan.capacity).c_str(),
                readableSize(plan.capacity, true).c_str(), c.batch, c.seq);
    if (plan.would_fit) {
        std::printf(
            "would fit: a %s device (%s), where the least-memory schedule reserves %s; try "
            "--capacity %s\n",
            plan.would_fit->name, plan.would_fit->examples,
            readableSize(plan.least_reserved).c_str(), plan.would_fit->name);
        return;
    }
    if (plan.state_bytes > capacityPresets().back().bytes)
        std::printf(
            "no capacity preset holds it: the state alone is above the largest (%s); a device of "
            "more than %s would, or less state: --optimizer sgd or none keeps no Adam "
            "moments, --precision bf16 stores weights, gradients and state in 2 bytes\n",
            largestPresetText().c_str(), readableSize(plan.state_bytes).c_str());
    else if (plan.least_reserved > 0)
        std::printf(
            "no capacity preset holds it (the largest is %s): the least-memory schedule "
            "reserves %s; try --capacity %sGB, or a shorter --seq or smaller --batch\n",
            largestPresetText().c_str(), readableSize(plan.least_reserved).c_str(),
            formatFixed(std::ceil(static_cast<double>(plan.least_reserved) / kGB), 0).c_str());
}

void printNotes(const FullSizePlan& plan) {
    for (const std::string& note : plan.notes) std::printf("note: %s\n", note.c_str());
}

}  // namespace

int runPlanFullSize(ExperimentOptions o, const FullSizeOptions& fullSize) {
    // The full-size plan's defaults, the app's too, under the model and the options typed.
    applyFullSizeDefaults(o.config);
    if (std::string error = completeConfig(o); !error.empty()) {
        std::cerr << "ckptlab-cli: " << error << "\n";
        return kBadInput;
    }
    std::int64_t capacity = 0;
    std::vector<Strategy> strategies = o.strategies;
    std::optional<ResultSet> costsFile;
    std::optional<RunResult> costsNone;
    try {
        capacity = capacityOf(fullSize.capacity);
        checkOutputs(o);
        checkRequest({o.config, capacity, o.strategies});
        printModelNotes(o);
        if (strategies.empty()) {
            std::string note;
            strategies = defaultStrategies(o.config, &note);
            if (!note.empty() && !o.quiet) std::cerr << "ckptlab-cli: note: " << note << "\n";
        }
        if (!fullSize.costsFrom.empty()) {
            try {
                costsFile = loadResults(fullSize.costsFrom);
            } catch (const std::exception& e) {
                throw std::invalid_argument("--costs-from: " + std::string(e.what()));
            }
            costsNone = costsFromRun(*costsFile, o.config, fullSize.costsFrom);
        }
    } catch (const std::exception& e) {
        std::cerr << "ckptlab-cli: " << e.what() << "\n";
        return kBadInput;
    }

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
    if (costsNone) {
        scale = timeScaleFrom(*costsFile, *costsNone, fit);
        applyTimeScale(*scale, plan);
        timesLabel = "predicted for " + scale->machine + " (scaled from its measured none step)";
    }

    const HeldState& state = plan.held;
    printMethod(fit);
    printModel(o, state);
    std::printf("capacity: %s (%s)\n", readableSize(capacity).c_str(),
                readableSize(capacity, true).c_str());
    if (scale)
        std::printf(
            "times scaled to %s: its none step at B=%d S=%d depth %d measured %s ms, predicted "
            "here %s ms: ratio %s\n",
            scale->machine.c_str(), scale->batch, scale->seq, scale->depth,
            formatFixed(scale->measured_none_ms, 1).c_str(),
            formatFixed(scale->predicted_none_ms, 1).c_str(),
            formatGeneral(scale->ratio, 4).c_str());
    const SizeUnit unit = unitFor(plan);
    printState(plan, state, unit);
    printTable(plan, timesLabel, unit);
    printAnswer(plan, unit);
    printNotes(plan);
    if (!o.jsonPath.empty()) {
        writeTextFile(o.jsonPath, fullSizePlanJson(plan, fit, modelName(o), state.parameters,
                                                   timesLabel, scale));
        if (!o.quiet) std::cerr << "ckptlab-cli: wrote " << o.jsonPath << "\n";
    }
    return kOk;
}

}  // namespace ckptlab::cli
