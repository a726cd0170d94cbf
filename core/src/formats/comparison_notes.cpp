// The comparison's notes (comparison_notes.h).
#include "formats/comparison_notes.h"

#include <map>
#include <utility>

#include "formats/comparison_config.h"

namespace ckptlab::detail {

std::string join(const std::vector<std::string>& items, const std::string& separator) {
    std::string out;
    for (const auto& item : items) out += (out.empty() ? "" : separator) + item;
    return out;
}

void addNote(Comparison& c, NoteKind kind, std::vector<int> sources, std::string row,
             std::string text) {
    c.notes.push_back({kind, std::move(sources), std::move(row), std::move(text)});
}

std::string named(const ComparisonSource& s) { return s.letter + " (" + s.path + ")"; }

void noteMissing(const std::vector<ComparisonInput>& inputs, Comparison& c) {
    for (std::size_t s = 0; s < inputs.size(); ++s) {
        if (configsOf(inputs[s]).empty()) continue;  // said once as NoRuns
        // Per strategy: the rows it lacks here, and how many rows the strategy has.
        std::vector<std::string> order;
        std::map<std::string, std::pair<std::vector<std::string>, int>> lacking;
        for (const auto& row : c.rows) {
            auto& entry = lacking[row.strategy];
            if (entry.second++ == 0) order.push_back(row.strategy);
            if (row.cells[s].state == CellState::Missing) {
                std::string at;
                for (const auto& [axis, value] : row.at)
                    at += (at.empty() ? "" : ", ") + toString(axis) + "=" + std::to_string(value);
                entry.first.push_back(at);
            }
        }
        for (const auto& strategy : order) {
            const auto& [missing, total] = lacking[strategy];
            if (missing.empty()) continue;
            std::string text =
                static_cast<int>(missing.size()) == total
                    ? strategy + " is not in " + named(c.sources[s])
                    : strategy + " at " + join(missing, "; ") + " is not in " + named(c.sources[s]);
            text += static_cast<int>(s) == c.reference ? ": no ratios for it"
                                                       : ": nothing to compare there";
            addNote(c, NoteKind::MissingRun, {static_cast<int>(s)}, strategy, text);
        }
    }
}

void noteRuns(Comparison& c) {
    for (const auto& row : c.rows) {
        for (std::size_t s = 0; s < row.cells.size(); ++s) {
            const ComparisonCell& cell = row.cells[s];
            const std::string where = row.label() + " in " + c.sources[s].letter;
            // Run errors start with the strategy ("none: out of memory at ..."), said already.
            std::string error = cell.error;
            if (error.rfind(row.strategy + ": ", 0) == 0) error.erase(0, row.strategy.size() + 2);
            if (cell.state == CellState::OutOfMemory)
                addNote(c, NoteKind::OutOfMemory, {static_cast<int>(s)}, row.label(),
                        where + " ran out of memory, not compared: " + error);
            else if (cell.state == CellState::Failed)
                addNote(c, NoteKind::Failed, {static_cast<int>(s)}, row.label(),
                        where + " failed, not compared: " + error);
            else if (cell.state == CellState::Infeasible)
                addNote(c, NoteKind::Infeasible, {static_cast<int>(s)}, row.label(),
                        where + " is infeasible, not compared: " + error);
            else if (cell.state == CellState::Measured && !cell.grad_ok)
                addNote(c, NoteKind::GradCheck, {static_cast<int>(s)}, row.label(),
                        where +
                            " did not pass its gradient check: its numbers are compared, "
                            "but the run did not compute the right gradients");
        }
    }
}

void noteMachines(const std::vector<ComparisonInput>& inputs, Comparison& c) {
    const ComparisonSource& ref = c.sources[c.reference];
    for (std::size_t s = 0; s < c.sources.size(); ++s) {
        const ComparisonSource& src = c.sources[s];
        if (static_cast<int>(s) == c.reference) continue;
        if (src.machine != ref.machine) {
            addNote(c, NoteKind::OtherDevice, {c.reference, static_cast<int>(s)}, "",
                    src.letter + " ran on " + src.machine + ", " + ref.letter + " on " +
                        ref.machine +
                        ": step times on different devices are comparable only as a ratio of "
                        "the same work; " +
                        src.letter + "/" + ref.letter + " step says how many times as long " +
                        src.letter + "'s machine takes for it");
        } else if (!configsOf(inputs[s]).empty() && !configsOf(inputs[c.reference]).empty() &&
                   threadsOf(inputs[s]) != threadsOf(inputs[c.reference])) {
            addNote(c, NoteKind::ThreadsDiffer, {c.reference, static_cast<int>(s)}, "",
                    src.letter + " ran with " + threadsOf(inputs[s]) + " threads, " + ref.letter +
                        " with " + threadsOf(inputs[c.reference]) +
                        " on the same machine: the step-time ratios include the thread count");
        }
    }
}

}  // namespace ckptlab::detail
