// ckptlab-cli plan --capacity's report (cli_full_size_report.h).
#include "cli_full_size_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "ckptlab/model/block_kinds.h"
#include "ckptlab/model/number_text.h"
#include "ckptlab/planning/planner.h"
#include "ckptlab/planning/sweep_check.h"

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
                        plan.fastest->plan.unitLevel && blockKind(c.block).attention
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

std::string modelName(const ExperimentOptions& o) {
    if (!o.model.empty()) return o.model;
    return toString(o.config.block) + " d=" + std::to_string(o.config.width);
}

void printFullSizeReport(const ExperimentOptions& o, const CostFit& fit, const FullSizePlan& plan,
                         std::int64_t capacity, const std::string& timesLabel,
                         const std::optional<MachineTimeScale>& scale) {
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
}

}  // namespace ckptlab::cli
