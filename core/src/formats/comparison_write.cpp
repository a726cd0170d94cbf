// A comparison of results files written out: JSON (schema "ckptlab.comparison/1") and a CSV
// with one line per row and source (comparison.h). Not read back: the results files are the
// data, this is a report of them.
#include <cmath>
#include <locale>
#include <sstream>

#include <nlohmann/json.hpp>

#include "ckptlab/formats/comparison.h"
#include "formats/csv_cells.h"
#include "formats/file_io.h"

namespace ckptlab {

namespace {

using OrderedJson = nlohmann::ordered_json;

// JSON has no NaN or infinity: such a value (a corrupt step time) is written as null.
OrderedJson number(double value) {
    if (!std::isfinite(value)) return nullptr;
    return value;
}

OrderedJson optionalNumber(const std::optional<double>& value) {
    return value ? number(*value) : OrderedJson(nullptr);
}

std::string noteKindName(NoteKind kind) {
    switch (kind) {
    case NoteKind::NoRuns: return "no_runs";
    case NoteKind::Cancelled: return "cancelled";
    case NoteKind::MissingRun: return "missing_run";
    case NoteKind::WorkDiffers: return "work_differs";
    case NoteKind::OtherDevice: return "other_device";
    case NoteKind::ThreadsDiffer: return "threads_differ";
    case NoteKind::Failed: return "failed";
    case NoteKind::Infeasible: return "infeasible";
    case NoteKind::OutOfMemory: return "out_of_memory";
    case NoteKind::GradCheck: return "grad_check";
    case NoteKind::DuplicateRun: return "duplicate_run";
    }
    return "missing_run";
}

OrderedJson sourceJson(const ComparisonSource& s) {
    OrderedJson axes = OrderedJson::array();
    for (ScalingAxis axis : s.axes) axes.push_back(toString(axis));
    const Environment& e = s.environment;
    OrderedJson j = {{"letter", s.letter},
                     {"path", s.path},
                     {"label", s.label},
                     {"machine", s.machine},
                     {"device", e.device},
                     {"device_name", e.device_name},
                     {"libtorch_version", e.libtorch_version},
                     {"ckptlab_version", e.ckptlab_version},
                     {"threads", e.threads},
                     {"blas", e.blas},
                     {"created_utc", e.created_utc},
                     {"runs", s.runs},
                     {"axes", axes}};
    if (!s.plan.empty()) j["plan"] = s.plan;  // only for a plan's file: others keep their bytes
    return j;
}

OrderedJson cellJson(const ComparisonCell& cell, const ComparisonSource& source) {
    OrderedJson j = {{"source", source.letter}, {"state", toString(cell.state)}};
    if (cell.state == CellState::Missing) return j;
    j["run"] = cell.run;
    if (hasNumbers(cell.state)) {
        j["peak_mib"] = number(cell.peak_mib);
        j["step_ms"] = number(cell.step_ms);
        if (cell.state == CellState::Measured) j["grad_ok"] = cell.grad_ok;
        if (cell.reserved_peak_mib) j["reserved_peak_mib"] = number(*cell.reserved_peak_mib);
    } else {
        j["error"] = cell.error;
    }
    j["same_work"] = cell.same_work;
    j["peak_ratio"] = optionalNumber(cell.peak_ratio);
    j["step_ratio"] = optionalNumber(cell.step_ratio);
    if (cell.step_within_noise) j["step_within_noise"] = *cell.step_within_noise;
    if (cell.reserved_ratio) j["reserved_ratio"] = number(*cell.reserved_ratio);
    return j;
}

std::string ratioCell(const std::optional<double>& value) {
    return value && std::isfinite(*value) ? detail::csvFixed(*value, 4) : std::string();
}

}  // namespace

std::string comparisonToJson(const Comparison& c) {
    OrderedJson root;
    root["schema"] = kComparisonSchema;
    root["reference"] = c.sources.at(c.reference).letter;
    OrderedJson axes = OrderedJson::array();
    for (ScalingAxis axis : c.axes) axes.push_back(toString(axis));
    root["axes"] = axes;
    OrderedJson sources = OrderedJson::array();
    for (const auto& s : c.sources) sources.push_back(sourceJson(s));
    root["sources"] = sources;
    OrderedJson differences = OrderedJson::array();
    for (const auto& d : c.differences) {
        OrderedJson values = OrderedJson::object();
        for (std::size_t i = 0; i < d.values.size() && i < c.sources.size(); ++i)
            values[c.sources[i].letter] = d.values[i];
        differences.push_back(
            {{"field", d.field}, {"changes_work", d.changes_work}, {"values", values}});
    }
    root["differences"] = differences;
    OrderedJson rows = OrderedJson::array();
    for (const auto& row : c.rows) {
        OrderedJson at = OrderedJson::object();
        for (const auto& [axis, value] : row.at) at[toString(axis)] = value;
        OrderedJson cells = OrderedJson::array();
        for (std::size_t i = 0; i < row.cells.size() && i < c.sources.size(); ++i)
            cells.push_back(cellJson(row.cells[i], c.sources[i]));
        rows.push_back(
            {{"strategy", row.strategy}, {"label", row.label()}, {"at", at}, {"cells", cells}});
    }
    root["rows"] = rows;
    OrderedJson notes = OrderedJson::array();
    for (const auto& note : c.notes) {
        OrderedJson about = OrderedJson::array();
        for (int s : note.sources) about.push_back(c.sources.at(s).letter);
        notes.push_back({{"kind", noteKindName(note.kind)},
                         {"sources", about},
                         {"row", note.row},
                         {"text", note.text}});
    }
    root["notes"] = notes;
    return root.dump(2) + "\n";
}

std::string comparisonCsv(const Comparison& c) {
    std::string csv =
        "strategy,at,source,label,state,peak_mib,step_ms,peak_ratio,step_ratio,same_work,"
        "grad_check,error,step_within_noise,reserved_peak_mib,reserved_ratio\n";
    for (const auto& row : c.rows) {
        std::string at;
        for (const auto& [axis, value] : row.at)
            at += (at.empty() ? "" : ";") + toString(axis) + "=" + std::to_string(value);
        for (std::size_t i = 0; i < row.cells.size() && i < c.sources.size(); ++i) {
            const ComparisonCell& cell = row.cells[i];
            const bool measured = hasNumbers(cell.state);
            const std::vector<std::string> cells = {
                row.strategy,
                at,
                c.sources[i].letter,
                c.sources[i].label,
                toString(cell.state),
                measured ? detail::csvFixed(cell.peak_mib, 3) : std::string(),
                measured && std::isfinite(cell.step_ms) ? detail::csvFixed(cell.step_ms, 3)
                                                        : std::string(),
                ratioCell(cell.peak_ratio),
                ratioCell(cell.step_ratio),
                cell.state == CellState::Missing ? std::string()
                                                 : std::string(cell.same_work ? "yes" : "no"),
                cell.state == CellState::Measured ? std::string(cell.grad_ok ? "pass" : "fail")
                                                  : std::string(),
                cell.error,
                cell.step_within_noise ? (*cell.step_within_noise ? "yes" : "no") : "",
                measured && cell.reserved_peak_mib ? detail::csvFixed(*cell.reserved_peak_mib, 3)
                                                   : std::string(),
                ratioCell(cell.reserved_ratio),
            };
            csv += detail::csvLine(cells);
        }
    }
    return csv;
}

void saveComparisonJson(const Comparison& comparison, const std::string& path) {
    detail::writeFileAtomically(path, comparisonToJson(comparison));
}

void saveComparisonCsv(const Comparison& comparison, const std::string& path) {
    detail::writeFileAtomically(path, comparisonCsv(comparison));
}

}  // namespace ckptlab
