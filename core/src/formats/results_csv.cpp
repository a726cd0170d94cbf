// The summary table as CSV (RFC 4180 quoting), one row per run with its config beside it.
#include <cmath>
#include <locale>
#include <sstream>

#include "ckptlab/results_io.h"
#include "ckptlab/summary.h"
#include "formats/file_io.h"

namespace ckptlab {

namespace {

// Quotes cells with separators, quotes or line breaks, and those with edge spaces that some
// readers would trim.
std::string quoted(const std::string& cell) {
    const bool edgeSpace = !cell.empty() && (cell.front() == ' ' || cell.back() == ' ');
    if (!edgeSpace && cell.find_first_of(",\"\r\n") == std::string::npos) return cell;
    std::string out = "\"";
    for (char c : cell) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + '"';
}

// Always a dot for the decimal point: Qt applications set the C locale from the environment.
std::string fixed(double value, int decimals) {
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out.setf(std::ios::fixed);
    out.precision(decimals);
    out << value;
    return out.str();
}

std::string significant(double value) {
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out.precision(6);
    out << value;
    return out.str();
}

// A gradient difference; NaN and Inf spelled "nan" and "inf" whatever the sign bit.
std::string gradDiffCell(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    return significant(value);
}

std::string optionalCell(const std::optional<double>& value, int decimals) {
    return value ? fixed(*value, decimals) : std::string();
}

}  // namespace

std::string summaryCsv(const ResultSet& results) {
    std::string csv =
        "strategy,peak_mib,activations_mib,step_ms,memory_saved_pct,time_added_pct,"
        "saved_per_added,predicted_peak_mib,peak_error_pct,predicted_step_ms,step_error_pct,"
        "optimal_step_ms,slower_than_optimal_pct,grad_check,max_abs_diff,error,block,depth,width,"
        "seq,batch,dtype,device,gflop_per_s,"
        // The step time's spread (step_stats.h) and the time added as a range (summary.h).
        "step_ci_low_ms,step_ci_high_ms,step_ci_95,step_cv_pct,step_fastest_ms,step_cpu_ms,"
        "time_added_low_pct,time_added_high_pct,time_within_noise\n";
    const std::vector<SummaryRow> rows = summarize(results);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const SummaryRow& row = rows[i];
        const RunResult& run = results.runs[i];
        const bool checked = run.grad_check.checked;
        const ExperimentConfig& c = run.config;
        const std::string cells[] = {
            row.strategy,
            fixed(row.peak_mib, 3),
            fixed(row.activations_mib, 3),
            fixed(row.step_ms, 3),
            optionalCell(row.memory_saved_pct, 2),
            optionalCell(row.time_added_pct, 2),
            optionalCell(row.saved_per_added, 3),
            optionalCell(row.predicted_peak_mib, 3),
            optionalCell(row.peak_error_pct, 2),
            optionalCell(row.predicted_step_ms, 3),
            optionalCell(row.step_error_pct, 2),
            optionalCell(row.optimal_step_ms, 3),
            optionalCell(row.slower_than_optimal_pct, 2),
            checked ? (row.grad_ok ? "pass" : "fail") : "not checked",
            checked ? gradDiffCell(row.max_abs_diff) : std::string(),
            row.error.value_or(std::string()),
            toString(c.block),
            std::to_string(c.depth),
            std::to_string(c.width),
            std::to_string(c.seq),
            std::to_string(c.batch),
            toString(c.dtype),
            c.device,
            optionalCell(run.metrics.gflop_per_s, 2),
            optionalCell(row.step_ci_low_ms, 3),
            optionalCell(row.step_ci_high_ms, 3),
            row.step_ci_low_ms ? (row.step_ci_95 ? "95%" : "min-max") : "",
            optionalCell(row.step_cv_pct, 2),
            row.error ? std::string() : fixed(row.step_fastest_ms, 3),
            optionalCell(run.metrics.step_cpu_ms, 3),
            optionalCell(row.time_added_low_pct, 2),
            optionalCell(row.time_added_high_pct, 2),
            row.time_within_noise ? (*row.time_within_noise ? "yes" : "no") : "",
        };
        bool first = true;
        for (const std::string& cell : cells) {
            if (!first) csv += ',';
            first = false;
            csv += quoted(cell);
        }
        csv += '\n';
    }
    return csv;
}

void saveSummaryCsv(const ResultSet& results, const std::string& path) {
    detail::writeFileAtomically(path, summaryCsv(results));
}

}  // namespace ckptlab
