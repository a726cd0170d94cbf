#include "cli_table.h"

#include "ckptlab/model/strategy.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "ckptlab/model/noise.h"
#include "ckptlab/model/number_text.h"
#include "ckptlab/model/summary.h"
#include "ckptlab/planning/scaling.h"

namespace ckptlab::cli {
namespace {

std::string fixed(double value, int decimals) { return formatFixed(value, decimals); }

std::string optionalNumber(const std::optional<double>& value, int decimals = 1) {
    return value ? fixed(*value, decimals) : "-";
}

// A gradient difference: "0" when exact, three significant digits otherwise (a fixed format
// would print 1e-9 as 0.000000), and "nan"/"inf" spelled the same on every libc.
std::string gradDiff(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    if (value == 0) return "0";
    return formatGeneral(value, 3);
}

// Columns count characters, not bytes: "≈" and "−" are one column each.
std::size_t columnsOf(const std::string& text) {
    std::size_t n = 0;
    for (unsigned char c : text) n += (c & 0xC0) != 0x80;
    return n;
}

std::string pad(const std::string& text, std::size_t width, bool left = false) {
    if (columnsOf(text) >= width) return text;
    const std::string fill(width - columnsOf(text), ' ');
    return left ? text + fill : fill + text;
}

// A signed percentage with a real minus sign: "+6.3", "−4.1".
std::string signedPct(double value) {
    const std::string digits = fixed(std::abs(value), 1);
    if (digits == "0.0") return digits;
    return (value < 0 ? "\u2212" : "+") + digits;
}

// The median with its interval (step_stats.h): "312.4 [305.1, 330.9]", a '*' when it is the
// min-max range of fewer than 6 samples rather than a 95% interval; the median alone when all
// samples are equal (one sample).
std::string stepCell(const SummaryRow& s) {
    if (!s.step_ci_low_ms || !s.step_ci_high_ms || *s.step_ci_low_ms == *s.step_ci_high_ms)
        return fixed(s.step_ms, 1);
    return fixed(s.step_ms, 1) + " [" + fixed(*s.step_ci_low_ms, 1) + ", " +
           fixed(*s.step_ci_high_ms, 1) + "]" + (s.step_ci_95 ? "" : "*");
}

// "≈0 [−4.1, +6.3]" within noise (the intervals overlap, summary.h), "+12.3 [+8.1, +15.0]"
// outside it; the bare percentage when the runs have no intervals.
std::string timeAddedCell(const SummaryRow& s) {
    if (!s.time_added_pct) return "-";
    if (!s.time_within_noise) return fixed(*s.time_added_pct, 1);
    const std::string range =
        " [" + signedPct(*s.time_added_low_pct) + ", " + signedPct(*s.time_added_high_pct) + "]";
    return (*s.time_within_noise ? std::string("\u22480") : signedPct(*s.time_added_pct)) + range;
}

// "err %" is each prediction's error in % of the measurement (positive: predicted too high).
constexpr int kColumns = 14;
const char* kHeader[kColumns] = {
    "strategy",    "peak MiB",  "pred. MiB", "err %",   "activ. MiB",  "step ms [95% CI]",
    "CV %",        "pred. ms",  "err %",     "GFLOP/s", "mem saved %", "time added % [range]",
    "saved/added", "grad check"};
const std::size_t kWidths[kColumns] = {16, 9, 9, 6, 10, 22, 5, 9, 6, 8, 11, 20, 11, 20};

// The caching allocator's reserved peak and the forecast's, whole, after the peak and its
// forecast: only when a run has them (not with --allocator system, nor in older files).
constexpr int kReservedColumns = 2;
const char* kReservedHeader[kReservedColumns] = {"resv. MiB", "pred. resv."};
const std::size_t kReservedWidths[kReservedColumns] = {9, 11};
constexpr int kReservedAfter = 3;  // the peak's error

bool showsReserved(const std::vector<SummaryRow>& rows) {
    for (const SummaryRow& s : rows)
        if (s.reserved_peak_mib || s.predicted_reserved_peak_mib) return true;
    return false;
}

// One line of the table: `cells` in the columns of kHeader, the reserved ones inserted after
// the peak's error when `reserved` (null otherwise); the strategy and the grad check left-aligned.
std::string tableLine(const std::string* cells, const std::string* reserved,
                      const std::string& size) {
    std::string line;
    for (int c = 0; c < kColumns; ++c) {
        line += pad(cells[c], kWidths[c], c == 0 || c == kColumns - 1);
        line += c == 0 ? " " + size : c + 1 < kColumns ? " " : "\n";
        if (c == kReservedAfter && reserved)
            for (int r = 0; r < kReservedColumns; ++r)
                line += pad(reserved[r], kReservedWidths[r]) + " ";
    }
    return line;
}

// The lines under the table: gradient-check notes, bitwise equality, computed schedules, the
// sweep's notes, how to read the marks the table shows, and the noisy-machine warnings.
template <typename LabelOf>
std::string tableFootnotes(const ResultSet& results, const std::vector<SummaryRow>& rows,
                           bool reserved, const LabelOf& labelOf) {
    std::ostringstream out;
    // Where a gradient held NaN or Inf, and in which run: too long for the column.
    for (const auto& run : results.runs) {
        if (run.error || !run.grad_check.checked || run.grad_check.note.empty()) continue;
        out << "  grad check " << labelOf(run) << ": " << run.grad_check.note << "\n";
    }
    // Which runs' gradients have the reference's bits exactly: more than "within tolerance".
    std::string bitwise;
    for (const auto& run : results.runs)
        if (!run.error && run.grad_check.checked && run.grad_check.bitwise_equal)
            bitwise += (bitwise.empty() ? "" : ", ") + labelOf(run);
    if (!bitwise.empty())
        out << "  grad check bitwise equal to the no-checkpoint reference: " << bitwise << "\n";
    // Computed schedules are data worth seeing: which inputs are kept, what is recomputed.
    for (const auto& run : results.runs) {
        if (run.error || run.schedule.empty()) continue;
        if (isComputedSchedule(run.strategy))
            out << "  schedule " << labelOf(run) << ": " << run.schedule << "\n";
    }
    // What the sweep left out or did differently, and why.
    for (const auto& note : results.notes) out << "  note: " << note << "\n";
    // How to read the marks, only when the table shows one.
    bool minMax = false, noise = false;
    for (const SummaryRow& s : rows) {
        minMax = minMax ||
                 (s.step_ci_low_ms && !s.step_ci_95 && *s.step_ci_low_ms != *s.step_ci_high_ms);
        noise = noise || (s.time_within_noise.value_or(false) && s.time_added_low_pct);
    }
    if (reserved)
        out << "  resv. MiB: what the caching allocator held from the device at its peak "
               "(cached blocks included), whole: parameters, input and state too, where peak "
               "MiB counts only what the step added; pred. resv. is the forecast's\n";
    if (minMax)
        out << "  *: the min-max range of fewer than 6 samples, not a 95% interval of the median\n";
    if (noise)
        out << "  \u22480: the step-time interval overlaps none's, so the time added is within "
               "noise and saved/added is not computed from it\n";
    // A noisy machine said so (noise.h): the same check as the app's status bar.
    for (const NoiseWarning& w : noiseWarnings(results)) out << "warning: " << w.message << "\n";
    return out.str();
}

}  // namespace

std::string formatSummaryTable(const ResultSet& results) {
    std::ostringstream out;
    // A scaling sweep's rows differ in one dimension: a column after the strategy says which
    // size each row is (each compared with the `none` of its own size, summary.h).
    const std::optional<ScalingAxis> axis = detectScalingAxis(results);
    const auto sizeOf = [&](std::size_t i) {
        return axis ? pad(std::to_string(axisValue(results.runs[i].config, *axis)), 6) + " "
                    : std::string();
    };
    const auto labelOf = [&](const RunResult& run) {
        return axis ? run.strategy.name() + " (" + toString(*axis) + " " +
                          std::to_string(axisValue(run.config, *axis)) + ")"
                    : run.strategy.name();
    };
    const std::vector<SummaryRow> rows = summarize(results);
    const bool reserved = showsReserved(rows);
    std::string header[kColumns];
    for (int c = 0; c < kColumns; ++c) header[c] = kHeader[c];
    std::string reservedHeader[kReservedColumns];
    for (int c = 0; c < kReservedColumns; ++c) reservedHeader[c] = kReservedHeader[c];
    out << tableLine(header, reserved ? reservedHeader : nullptr,
                     axis ? pad(toString(*axis), 6) + " " : std::string());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const SummaryRow& s = rows[i];
        // Matmul GFLOP over the median step (flops.h); "-" in files from before it.
        const std::optional<double> rate = results.runs[i].metrics.gflop_per_s;
        if (s.error) {
            out << pad(s.strategy.name(), kWidths[0], true) << " " << sizeOf(i)
                << "error: " << *s.error << "\n";
            continue;
        }
        const std::string check =
            (s.grad_ok ? "ok " : "FAIL ") + std::string("|diff| ") + gradDiff(s.max_abs_diff);
        const std::string cells[kColumns] = {s.strategy.name(),
                                             fixed(s.peak_mib, 2),
                                             optionalNumber(s.predicted_peak_mib, 2),
                                             optionalNumber(s.peak_error_pct),
                                             fixed(s.activations_mib, 2),
                                             stepCell(s),
                                             optionalNumber(s.step_cv_pct),
                                             optionalNumber(s.predicted_step_ms),
                                             optionalNumber(s.step_error_pct),
                                             optionalNumber(rate, rate && *rate < 100 ? 2 : 1),
                                             optionalNumber(s.memory_saved_pct),
                                             timeAddedCell(s),
                                             optionalNumber(s.saved_per_added, 2),
                                             check};
        const std::string reservedCells[kReservedColumns] = {
            optionalNumber(s.reserved_peak_mib, 2),
            optionalNumber(s.predicted_reserved_peak_mib, 2)};
        out << tableLine(cells, reserved ? reservedCells : nullptr, sizeOf(i));
    }
    out << tableFootnotes(results, rows, reserved, labelOf);
    return out.str();
}

}  // namespace ckptlab::cli
