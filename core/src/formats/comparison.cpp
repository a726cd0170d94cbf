// Several results files side by side: sources, config differences, rows matched by strategy
// (and axis value for scaling sweeps), ratios to the reference file, and the notes on what is
// not comparable (comparison.h).
#include "ckptlab/formats/comparison.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <system_error>

#include "ckptlab/formats/full_size_files.h"
#include "ckptlab/model/step_stats.h"
#include "ckptlab/model/summary.h"
#include "ckptlab/planning/full_size.h"
#include "formats/comparison_config.h"
#include "formats/comparison_notes.h"

namespace ckptlab {

using detail::addNote;
using detail::configsOf;
using detail::findDifferences;
using detail::join;
using detail::named;
using detail::noteMachines;
using detail::noteMissing;
using detail::noteRuns;
using detail::threadsOf;
using detail::workDifferences;

namespace {

const ScalingAxis kAllAxes[] = {ScalingAxis::Depth, ScalingAxis::Seq, ScalingAxis::Width,
                                ScalingAxis::Batch};

std::string letterOf(int index) { return std::string(1, static_cast<char>('A' + index)); }

std::string machineOf(const Environment& env) {
    if (env.device_name.empty() && env.device.empty()) return "unknown machine";
    if (env.device_name.empty()) return env.device;
    if (env.device.empty()) return env.device_name;
    return env.device_name + " (" + env.device + ")";
}

// A merged file's shards may have run on machines of several names: each once, in shard order.
std::string machinesOf(const ResultSet& results) {
    std::vector<std::string> names;
    for (const Environment& e : results.machines)
        if (std::find(names.begin(), names.end(), machineOf(e)) == names.end())
            names.push_back(machineOf(e));
    if (names.size() <= 1) return machineOf(results.environment);
    std::string out;
    for (const std::string& name : names) out += (out.empty() ? "" : " + ") + name;
    return out;
}

// The axes along which some strategy's runs in `results` take several values.
std::vector<ScalingAxis> axesOf(const ResultSet& results) {
    std::map<std::string, std::vector<const RunResult*>> byStrategy;
    for (const auto& run : results.runs) byStrategy[run.strategy.name()].push_back(&run);
    std::vector<ScalingAxis> axes;
    for (ScalingAxis axis : kAllAxes) {
        for (const auto& [strategy, runs] : byStrategy) {
            std::set<int> values;
            for (const RunResult* run : runs) values.insert(axisValue(run->config, axis));
            if (values.size() > 1) {
                axes.push_back(axis);
                break;
            }
        }
    }
    return axes;
}

// The file stem ("server" for runs/server.json); the path when it has none.
std::string stemOf(const std::string& path) {
    const std::string stem = std::filesystem::path(path).stem().string();
    return stem.empty() ? path : stem;
}

std::vector<ComparisonSource> makeSources(const std::vector<ComparisonInput>& inputs) {
    std::vector<ComparisonSource> sources;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        ComparisonSource s;
        s.path = inputs[i].path;
        s.letter = letterOf(static_cast<int>(i));
        s.environment = inputs[i].results.environment;
        s.machine = machinesOf(inputs[i].results);
        s.runs = static_cast<int>(inputs[i].results.runs.size());
        s.axes = axesOf(inputs[i].results);
        if (const auto& plan = inputs[i].results.plan)
            s.plan = "a full-size plan of " + plan->model + " for " +
                     readableSize(plan->capacity_bytes) +
                     " at B=" + std::to_string(plan->config.batch) +
                     " S=" + std::to_string(plan->config.seq) + " (predicted, not measured)";
        sources.push_back(std::move(s));
    }
    for (auto& s : sources) {
        s.label = s.machine;
        bool shared = false, sameStem = false;
        for (const auto& other : sources) {
            if (&other == &s || other.machine != s.machine) continue;
            shared = true;
            sameStem = sameStem || stemOf(other.path) == stemOf(s.path);
        }
        if (shared) s.label += " · " + (sameStem ? s.path : stemOf(s.path));
    }
    return sources;
}

ComparisonCell makeCell(const RunResult& run, int index) {
    ComparisonCell cell;
    cell.run = index;
    if (run.error) {
        cell.state = run.out_of_memory ? CellState::OutOfMemory : CellState::Failed;
        cell.error = *run.error;
        return cell;
    }
    cell.state = CellState::Measured;
    cell.peak_mib = static_cast<double>(run.metrics.peak_bytes) / kMiB;
    cell.step_ms = run.metrics.step_ms;
    cell.grad_ok = run.grad_check.passed();
    if (run.allocator)
        cell.reserved_peak_mib = static_cast<double>(run.allocator->reserved_peak) / kMiB;
    return cell;
}

// A full-size plan's row: its predicted peak above the step's start, reservation and step, or
// why it has none.
ComparisonCell planCell(const FullSizePlanRow& row, int index) {
    ComparisonCell cell;
    cell.run = index;
    if (row.least_peak_bytes) {
        cell.state = CellState::Infeasible;
        cell.error = "no schedule at the plan's size: its least peak is " +
                     readableSize(*row.least_peak_bytes) + " above the step's start";
        return cell;
    }
    cell.state = CellState::Planned;
    cell.peak_mib = static_cast<double>(row.peak_bytes) / kMiB;
    cell.step_ms = row.step_ms;
    cell.grad_ok = true;  // nothing ran: no check to fail
    cell.reserved_peak_mib = static_cast<double>(row.reserved_bytes) / kMiB;
    return cell;
}

// The config of a cell's run, or of its file's plan.
const ExperimentConfig& configOf(const ComparisonInput& input, const ComparisonCell& cell) {
    if (input.results.plan) return input.results.plan->config;
    return input.results.runs[static_cast<std::size_t>(cell.run)].config;
}

std::optional<double> ratio(double value, double reference) {
    if (!(reference > 0) || !std::isfinite(reference) || !std::isfinite(value) || value < 0)
        return std::nullopt;
    return value / reference;
}

// Rows: one per strategy and axis values, cells filled from every file.
void buildRows(const std::vector<ComparisonInput>& inputs, Comparison& c) {
    using Key = std::pair<std::string, std::vector<int>>;
    std::map<Key, std::size_t> rowOf;
    std::vector<std::string> strategyOrder;
    // The row of a strategy at a config's axis values, made on first sight.
    auto rowFor = [&](const std::string& name, const ExperimentConfig& config) -> ComparisonRow& {
        Key key{name, {}};
        ComparisonRow fresh;
        fresh.strategy = name;
        for (ScalingAxis axis : c.axes) {
            key.second.push_back(axisValue(config, axis));
            fresh.at.emplace_back(axis, key.second.back());
        }
        auto found = rowOf.find(key);
        if (found == rowOf.end()) {
            if (std::find(strategyOrder.begin(), strategyOrder.end(), name) == strategyOrder.end())
                strategyOrder.push_back(name);
            fresh.cells.resize(inputs.size());
            found = rowOf.emplace(key, c.rows.size()).first;
            c.rows.push_back(std::move(fresh));
        }
        return c.rows[found->second];
    };
    for (std::size_t s = 0; s < inputs.size(); ++s) {
        const auto& runs = inputs[s].results.runs;
        std::set<std::string> duplicatesSaid;
        for (std::size_t r = 0; r < runs.size(); ++r) {
            const RunResult& run = runs[r];
            // one text per strategy
            ComparisonRow& row = rowFor(run.strategy.name(), run.config);
            if (row.cells[s].state != CellState::Missing) {
                if (duplicatesSaid.insert(row.label()).second)
                    addNote(c, NoteKind::DuplicateRun, {static_cast<int>(s)}, row.label(),
                            row.label() + " appears more than once in " + named(c.sources[s]) +
                                ": the first run is compared");
                continue;
            }
            row.cells[s] = makeCell(run, static_cast<int>(r));
        }
        if (!inputs[s].results.plan) continue;
        // A plan's rows, each strategy once (its reader refuses a repeat); no axis values.
        const FullSizePlanRecord& plan = *inputs[s].results.plan;
        for (std::size_t r = 0; r < plan.strategies.size(); ++r)
            rowFor(plan.strategies[r].strategy.name(), plan.config).cells[s] =
                planCell(plan.strategies[r], static_cast<int>(r));
    }
    // Strategy in order of first appearance, then axis values ascending.
    std::stable_sort(
        c.rows.begin(), c.rows.end(), [&](const ComparisonRow& a, const ComparisonRow& b) {
            const auto pa = std::find(strategyOrder.begin(), strategyOrder.end(), a.strategy);
            const auto pb = std::find(strategyOrder.begin(), strategyOrder.end(), b.strategy);
            if (pa != pb) return pa < pb;
            for (std::size_t i = 0; i < a.at.size() && i < b.at.size(); ++i)
                if (a.at[i].second != b.at[i].second) return a.at[i].second < b.at[i].second;
            return false;
        });
}

// Ratios against the reference cell, and which sources' work differs in which fields.
void computeRatios(const std::vector<ComparisonInput>& inputs, Comparison& c) {
    std::vector<std::set<std::string>> differs(inputs.size());
    for (auto& row : c.rows) {
        const ComparisonCell& ref = row.cells[c.reference];
        for (std::size_t s = 0; s < row.cells.size(); ++s) {
            ComparisonCell& cell = row.cells[s];
            if (static_cast<int>(s) == c.reference || cell.state == CellState::Missing ||
                ref.state == CellState::Missing)
                continue;
            const auto fieldsDiffering =
                workDifferences(configOf(inputs[s], cell), configOf(inputs[c.reference], ref));
            cell.same_work = fieldsDiffering.empty();
            for (const auto& f : fieldsDiffering) differs[s].insert(f);
            if (!cell.same_work || !hasNumbers(cell.state) || !hasNumbers(ref.state)) continue;
            cell.peak_ratio = ratio(cell.peak_mib, ref.peak_mib);
            cell.step_ratio = ratio(cell.step_ms, ref.step_ms);
            if (cell.reserved_peak_mib && ref.reserved_peak_mib)
                cell.reserved_ratio = ratio(*cell.reserved_peak_mib, *ref.reserved_peak_mib);
            if (cell.step_ratio && cell.state == CellState::Measured &&
                ref.state == CellState::Measured) {
                cell.step_within_noise =
                    withinNoise(inputs[s].results.runs[cell.run].metrics,
                                inputs[c.reference].results.runs[ref.run].metrics);
            }
        }
    }
    const ComparisonSource& refSource = c.sources[c.reference];
    for (std::size_t s = 0; s < differs.size(); ++s) {
        if (differs[s].empty()) continue;
        const std::vector<std::string> list(differs[s].begin(), differs[s].end());
        addNote(
            c, NoteKind::WorkDiffers, {c.reference, static_cast<int>(s)}, "",
            "memory and time not comparable between " + c.sources[s].letter + " and " +
                refSource.letter + ": their " +
                (inputs[s].results.plan || inputs[c.reference].results.plan ? "configs" : "runs") +
                " differ in " + join(list, ", ") + ", so each is shown and the ratios are n/c");
    }
}

}  // namespace

std::string machineName(const Environment& environment) { return machineOf(environment); }

std::string toString(CellState state) {
    switch (state) {
    case CellState::Measured: return "measured";
    case CellState::Failed: return "failed";
    case CellState::OutOfMemory: return "out of memory";
    case CellState::Missing: return "missing";
    case CellState::Planned: return "planned";
    case CellState::Infeasible: return "infeasible";
    }
    return "missing";
}

bool hasNumbers(CellState state) {
    return state == CellState::Measured || state == CellState::Planned;
}

std::string ComparisonRow::label() const {
    std::string out = strategy;
    for (std::size_t i = 0; i < at.size(); ++i)
        out += (i == 0 ? " @ " : ", ") + toString(at[i].first) + "=" + std::to_string(at[i].second);
    return out;
}

Comparison compareResults(const std::vector<ComparisonInput>& inputs, int reference) {
    if (inputs.size() < 2)
        throw ComparisonError("a comparison needs at least two results files (got " +
                              std::to_string(inputs.size()) + ")");
    if (inputs.size() > static_cast<std::size_t>(kMaxComparedFiles))
        throw ComparisonError("a comparison takes at most " + std::to_string(kMaxComparedFiles) +
                              " results files (got " + std::to_string(inputs.size()) + ")");
    if (reference < 0 || reference >= static_cast<int>(inputs.size()))
        throw ComparisonError("the reference file must be one of the " +
                              std::to_string(inputs.size()) + " files (got index " +
                              std::to_string(reference) + ")");
    for (std::size_t i = 0; i < inputs.size(); ++i)
        for (std::size_t j = i + 1; j < inputs.size(); ++j)
            if (inputs[i].path == inputs[j].path)
                throw ComparisonError(inputs[i].path + " is given twice (files " +
                                      std::to_string(i + 1) + " and " + std::to_string(j + 1) +
                                      ")");
    Comparison c;
    c.reference = reference;
    c.sources = makeSources(inputs);
    for (ScalingAxis axis : kAllAxes)
        for (const auto& s : c.sources)
            if (std::find(s.axes.begin(), s.axes.end(), axis) != s.axes.end()) {
                c.axes.push_back(axis);
                break;
            }
    c.differences = findDifferences(inputs);
    for (std::size_t s = 0; s < inputs.size(); ++s) {
        if (configsOf(inputs[s]).empty())
            addNote(c, NoteKind::NoRuns, {static_cast<int>(s)}, "",
                    named(c.sources[s]) + " holds no runs");
        else if (inputs[s].results.cancelled)
            addNote(c, NoteKind::Cancelled, {static_cast<int>(s)}, "",
                    named(c.sources[s]) + " is from a cancelled sweep: runs may be missing");
    }
    buildRows(inputs, c);
    computeRatios(inputs, c);
    noteMachines(inputs, c);
    noteMissing(inputs, c);
    noteRuns(c);
    return c;
}

std::string checkComparisonFiles(const std::vector<std::string>& paths) {
    if (paths.size() < 2)
        return "compare needs at least two results files (got " + std::to_string(paths.size()) +
               ")";
    if (paths.size() > static_cast<std::size_t>(kMaxComparedFiles))
        return "compare takes at most " + std::to_string(kMaxComparedFiles) +
               " results files (got " + std::to_string(paths.size()) + ")";
    for (std::size_t i = 0; i < paths.size(); ++i) {
        for (std::size_t j = i + 1; j < paths.size(); ++j) {
            std::error_code ec;
            const bool same =
                paths[i] == paths[j] || std::filesystem::equivalent(paths[i], paths[j], ec);
            if (!same) continue;
            if (paths[i] == paths[j])
                return paths[i] + " is given twice (files " + std::to_string(i + 1) + " and " +
                       std::to_string(j + 1) + "): compare each file once";
            return paths[i] + " and " + paths[j] + " are the same file: compare each file once";
        }
    }
    return {};
}

}  // namespace ckptlab
