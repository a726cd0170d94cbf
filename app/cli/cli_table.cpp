#include "cli_table.h"

#include "ckptlab/strategy.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include "ckptlab/summary.h"

namespace ckptlab::cli {
namespace {

std::string fixed(double value, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

std::string optionalNumber(const std::optional<double>& value, int decimals = 1) {
    return value ? fixed(*value, decimals) : "-";
}

// A gradient difference: "0" when exact, three significant digits otherwise (a fixed format
// would print 1e-9 as 0.000000), and "nan"/"inf" spelled the same on every libc.
std::string gradDiff(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    if (value == 0) return "0";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.3g", value);
    return buffer;
}

std::string pad(const std::string& text, std::size_t width, bool left = false) {
    if (text.size() >= width) return text;
    const std::string fill(width - text.size(), ' ');
    return left ? text + fill : fill + text;
}

// "err %" is each prediction's error in % of the measurement (positive: predicted too high).
constexpr int kColumns = 12;
const char* kHeader[kColumns] = {"strategy",    "peak MiB",     "pred. MiB",   "err %",
                                 "activ. MiB",  "step ms",      "pred. ms",    "err %",
                                 "mem saved %", "time added %", "saved/added", "grad check"};
const std::size_t kWidths[kColumns] = {16, 9, 9, 6, 10, 9, 9, 6, 11, 12, 11, 20};

}  // namespace

std::string formatSummaryTable(const ResultSet& results) {
    std::ostringstream out;
    auto row = [&](const std::string* cells) {
        for (int c = 0; c < kColumns; ++c)
            out << pad(cells[c], kWidths[c], c == 0 || c == kColumns - 1)
                << (c + 1 < kColumns ? " " : "\n");
    };
    std::string header[kColumns];
    for (int c = 0; c < kColumns; ++c) header[c] = kHeader[c];
    row(header);
    for (const SummaryRow& s : summarize(results)) {
        if (s.error) {
            out << pad(s.strategy, kWidths[0], true) << " error: " << *s.error << "\n";
            continue;
        }
        const std::string check =
            (s.grad_ok ? "ok " : "FAIL ") + std::string("|diff| ") + gradDiff(s.max_abs_diff);
        const std::string cells[kColumns] = {s.strategy,
                                             fixed(s.peak_mib, 2),
                                             optionalNumber(s.predicted_peak_mib, 2),
                                             optionalNumber(s.peak_error_pct),
                                             fixed(s.activations_mib, 2),
                                             fixed(s.step_ms, 1),
                                             optionalNumber(s.predicted_step_ms),
                                             optionalNumber(s.step_error_pct),
                                             optionalNumber(s.memory_saved_pct),
                                             optionalNumber(s.time_added_pct),
                                             optionalNumber(s.saved_per_added, 2),
                                             check};
        row(cells);
    }
    // Where a gradient held NaN or Inf, and in which run: too long for the column.
    for (const auto& run : results.runs) {
        if (run.error || !run.grad_check.checked || run.grad_check.note.empty()) continue;
        out << "  grad check " << run.strategy << ": " << run.grad_check.note << "\n";
    }
    // Computed schedules are data worth seeing: which inputs are kept, what is recomputed.
    for (const auto& run : results.runs) {
        if (run.error || run.schedule.empty()) continue;
        if (const auto strategy = strategyOf(run); strategy && isComputedSchedule(*strategy))
            out << "  schedule " << run.strategy << ": " << run.schedule << "\n";
    }
    // What the sweep left out or did differently, and why.
    for (const auto& note : results.notes) out << "  note: " << note << "\n";
    return out.str();
}

}  // namespace ckptlab::cli
