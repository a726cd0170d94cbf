// The summary table as CSV (RFC 4180 quoting), one row per run with its config beside it.
#include <cmath>

#include "ckptlab/formats/results_io.h"
#include "ckptlab/model/number_text.h"
#include "ckptlab/model/summary.h"
#include "formats/csv_cells.h"
#include "formats/file_io.h"

namespace ckptlab {

namespace {

// A gradient difference; NaN and Inf spelled "nan" and "inf" whatever the sign bit.
std::string gradDiffCell(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    return formatGeneral(value);
}

std::string optionalCell(const std::optional<double>& value, int decimals) {
    return value ? detail::csvFixed(*value, decimals) : std::string();
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
        "time_added_low_pct,time_added_high_pct,time_within_noise,"
        // The caching allocator's whole counts in bytes (summary.h), the forecast's reserved
        // peak, and the page faults of a timed step: appended, so older readers keep theirs.
        "reserved_start_bytes,reserved_peak_bytes,predicted_reserved_peak_bytes,"
        "minor_faults_per_step\n";
    const std::vector<SummaryRow> rows = summarize(results);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const SummaryRow& row = rows[i];
        const RunResult& run = results.runs[i];
        const bool checked = run.grad_check.checked;
        const ExperimentConfig& c = run.config;
        // As the summary's forecast: none for a failed run.
        const std::optional<std::int64_t> predictedReserved =
            run.prediction && !run.error ? run.prediction->reserved_peak_bytes : std::nullopt;
        const std::vector<std::string> cells = {
            row.strategy.name(),
            detail::csvFixed(row.peak_mib, 3),
            detail::csvFixed(row.activations_mib, 3),
            detail::csvFixed(row.step_ms, 3),
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
            row.error ? std::string() : detail::csvFixed(row.step_fastest_ms, 3),
            optionalCell(run.metrics.step_cpu_ms, 3),
            optionalCell(row.time_added_low_pct, 2),
            optionalCell(row.time_added_high_pct, 2),
            row.time_within_noise ? (*row.time_within_noise ? "yes" : "no") : "",
            run.allocator ? std::to_string(run.allocator->reserved_start) : std::string(),
            run.allocator ? std::to_string(run.allocator->reserved_peak) : std::string(),
            predictedReserved ? std::to_string(*predictedReserved) : std::string(),
            optionalCell(run.metrics.minor_faults_per_step, 1),
        };
        csv += detail::csvLine(cells);
    }
    return csv;
}

void saveSummaryCsv(const ResultSet& results, const std::string& path) {
    detail::writeFileAtomically(path, summaryCsv(results));
}

}  // namespace ckptlab
