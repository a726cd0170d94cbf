#include "cli_table.h"

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

std::string optionalPct(const std::optional<double>& value) {
    return value ? fixed(*value, 1) : "-";
}

std::string pad(const std::string& text, std::size_t width, bool left = false) {
    if (text.size() >= width) return text;
    const std::string fill(width - text.size(), ' ');
    return left ? text + fill : fill + text;
}

}  // namespace

std::string formatSummaryTable(const ResultSet& results) {
    const char* header[] = {"strategy",   "peak MiB",   "activ. MiB", "step ms",
                            "mem saved %", "time added %", "saved/added", "grad check"};
    const std::size_t widths[] = {14, 10, 11, 10, 12, 13, 12, 22};
    std::ostringstream out;
    for (int c = 0; c < 8; ++c) out << pad(header[c], widths[c], c == 0) << (c < 7 ? " " : "\n");
    for (const SummaryRow& row : summarize(results)) {
        if (row.error) {
            out << pad(row.strategy, widths[0], true) << " error: " << *row.error << "\n";
            continue;
        }
        const std::string check =
            (row.grad_ok ? "ok " : "FAIL ") + std::string("max|diff| ") +
            (row.max_abs_diff == 0 ? std::string("0") : fixed(row.max_abs_diff, 6));
        const std::string ratio = row.saved_per_added ? fixed(*row.saved_per_added, 2) : "-";
        const std::string cells[] = {row.strategy,
                                     fixed(row.peak_mib, 1),
                                     fixed(row.activations_mib, 1),
                                     fixed(row.step_ms, 1),
                                     optionalPct(row.memory_saved_pct),
                                     optionalPct(row.time_added_pct),
                                     ratio,
                                     check};
        for (int c = 0; c < 8; ++c)
            out << pad(cells[c], widths[c], c == 0 || c == 7) << (c < 7 ? " " : "\n");
    }
    return out.str();
}

}  // namespace ckptlab::cli
