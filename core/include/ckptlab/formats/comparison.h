#pragma once
// Several results files side by side (ckptlab-cli compare, the app's multi-file view): which
// machine made each, which config fields differ, and strategy by strategy the peaks, the step
// times and their ratios to a reference file, with what cannot be compared and why. Plain C++
// in the formats room (it reads results files' environments and matches scaling sweeps by
// their axis, scaling.h).

#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ckptlab/model/result.h"
#include "ckptlab/planning/scaling.h"

namespace ckptlab {

// One results file as loaded: a sweep's runs, or a full-size plan (a lesson's plan step's
// recording, ResultSet::plan), whose rows are compared as predicted cells.
struct ComparisonInput {
    std::string path;  // as given; its stem tells apart two files made on the same machine
    ResultSet results;
};

// "Intel Xeon (cpu)": an environment's device_name and device; "unknown machine" without both.
std::string machineName(const Environment& environment);

struct ComparisonSource {
    std::string path;
    std::string letter;  // "A", "B", ... in input order: the columns of the CLI's table
    // "Intel Xeon (cpu)": environment device_name and device (machineName); a file merged from
    // shards that ran on machines of several names lists them: "Xeon (cpu) + EPYC (cpu)".
    std::string machine;
    // The machine, plus " · <file stem>" when another file was made on the same machine (the
    // whole path when the stems are the same too): the legend of a chart, the source column.
    std::string label;
    Environment environment;
    int runs = 0;
    std::vector<ScalingAxis> axes;  // what its runs of one strategy vary along (a scaling sweep)
    // A full-size plan's file: "a full-size plan of llama-3.1-8b for 80.00 GB at B=1 S=8192"
    // (predicted, not measured); empty for a file of runs.
    std::string plan;
};

// A config field whose values are not the same in every file.
struct ConfigDifference {
    // The field's key (config_fields.h, every field is compared): "seq", "dtype", "threads",
    // "memory-limit", ...
    std::string field;
    // Per source, in input order, as displayText says them: "64", or "16,32,64" where a
    // scaling sweep varies it; empty when that file has no runs.
    std::vector<std::string> values;
    // A field of the work itself (kChangesWork: model shape, dtype, optimizer, keep-grads): the
    // peaks and step times of runs that differ in it are shown but not divided.
    bool changes_work = false;
};

enum class CellState {
    Measured,     // finished: peak and step time are numbers (grad_ok says if its check passed)
    Failed,       // the run failed: `error` says why; nothing compared
    OutOfMemory,  // ran out of memory (RunResult::out_of_memory); nothing compared
    Missing,      // that file has no run of this strategy (at this axis value)
    Planned,      // a full-size plan's row: peak, reserved and step time predicted, not measured
    Infeasible,   // a plan's row with no schedule at its size: `error` says its least peak
};
// Whether the cell has a peak and a step time (Measured or Planned).
bool hasNumbers(CellState state);
// "measured", "failed", "out of memory", "missing", "planned", "infeasible"
std::string toString(CellState state);

struct ComparisonCell {
    CellState state = CellState::Missing;
    int run = -1;  // index into the source's ResultSet::runs (a plan's rows); -1 when Missing
    double peak_mib = 0;  // Measured, Planned: peak above the step's start
    double step_ms = 0;   // Measured: median of the timed repeats; Planned: predicted
    bool grad_ok = false;
    std::string error;  // Failed, OutOfMemory: the run's error; Infeasible: why
    // False when its run's model, dtype, optimizer or keep-grads differ from the reference
    // cell's run: then no ratios. True for the reference cell and for Missing cells.
    bool same_work = true;
    // This cell against the reference file's cell of the same row: set only when both are
    // Measured, the work is the same and the reference's value is positive. Never set on the
    // reference's own cell.
    std::optional<double> peak_ratio;
    std::optional<double> step_ratio;
    // Measured with the caching allocator's counts (RunResult::allocator): its reserved peak,
    // whole (parameters, input and state included), and its ratio to the reference's, set as
    // peak_ratio is and when both have the counts.
    std::optional<double> reserved_peak_mib;
    std::optional<double> reserved_ratio;
    // With step_ratio: whether the two step-time intervals overlap (withinNoise in
    // step_stats.h); empty when a run has no samples.
    std::optional<bool> step_within_noise;
};

struct ComparisonRow {
    std::string strategy;
    // The axis values the row is matched at, when a file is a scaling sweep; empty otherwise.
    std::vector<std::pair<ScalingAxis, int>> at;
    std::vector<ComparisonCell> cells;  // one per source, in input order
    std::string label() const;          // "full", or "full @ seq=64"
};

enum class NoteKind {
    NoRuns,         // a file holds no runs (and no plan)
    Cancelled,      // a file's sweep was cancelled: some runs may be missing
    MissingRun,     // a strategy (at some axis values) is not in every file
    WorkDiffers,    // rows whose runs differ in model, dtype, optimizer or keep-grads
    OtherDevice,    // another device than the reference's: time ratios are machine ratios
    ThreadsDiffer,  // same device, other thread count: time ratios include it
    Failed,         // a run failed: shown as such, not compared
    Infeasible,     // a plan's row has no schedule at its size: shown as such, not compared
    OutOfMemory,    // a run ran out of memory: shown as such, not compared
    GradCheck,      // a finished run whose gradient check failed: compared, but said
    DuplicateRun,   // a file has the same strategy twice at the same axis values
};

// What is not comparable and why. `text` is the English sentence the CLI prints; the other
// fields let a front end say it in its own words.
struct ComparisonNote {
    NoteKind kind = NoteKind::MissingRun;
    std::vector<int> sources;  // the sources it is about, in input order
    std::string row;           // ComparisonRow::label() it is about; empty for a whole file
    std::string text;
};

struct Comparison {
    std::vector<ComparisonSource> sources;
    int reference = 0;  // ratios are this source's cell over the reference's
    // The axes rows are matched by (union of every file's axes); empty for plain sweeps.
    std::vector<ScalingAxis> axes;
    std::vector<ConfigDifference> differences;
    // In order of first appearance of the strategy (first file first), then by axis values.
    std::vector<ComparisonRow> rows;
    std::vector<ComparisonNote> notes;
};

// Fewer than two inputs, a reference out of range, more than kMaxComparedFiles, or the same
// path twice throw ComparisonError naming it.
struct ComparisonError : std::invalid_argument {
    using std::invalid_argument::invalid_argument;
};
inline constexpr int kMaxComparedFiles = 26;

Comparison compareResults(const std::vector<ComparisonInput>& inputs, int reference = 0);

// Before loading anything: empty when `paths` are at least two and no file is given twice
// (also under two names, e.g. r.json and ./r.json, or through a link); otherwise the reason,
// naming the file.
std::string checkComparisonFiles(const std::vector<std::string>& paths);

// The comparison as JSON (schema "ckptlab.comparison/1") and as CSV: one line per row and
// source (strategy, axis values, source, state, peak, step, ratios, error). Savers write
// through a temporary file and throw ResultsFileError.
inline constexpr const char* kComparisonSchema = "ckptlab.comparison/1";
std::string comparisonToJson(const Comparison& comparison);
std::string comparisonCsv(const Comparison& comparison);
void saveComparisonJson(const Comparison& comparison, const std::string& path);
void saveComparisonCsv(const Comparison& comparison, const std::string& path);

}  // namespace ckptlab
