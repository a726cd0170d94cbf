// The text of ckptlab-cli compare: sources, config differences, one table strategy by strategy
// with each file's peak and step time and the ratios to the reference, and the notes.
#include <algorithm>
#include <cmath>
#include <locale>
#include <sstream>

#include "ckptlab/model/number_text.h"
#include "cli_compare.h"

namespace ckptlab::cli {

namespace {

std::string fixed(double value, int decimals) {
    if (!std::isfinite(value)) return std::isnan(value) ? "nan" : "inf";
    return formatFixed(value, decimals);
}

// At least three significant digits: a tiny model's 0.043 MiB, a GPU's 0.125 ms.
std::string measured(double value) {
    const double size = std::abs(value);
    return fixed(value, size >= 100 ? 1 : size >= 1 ? 2 : 3);
}

// Ratios keep three significant digits when small (a GPU's step against a CPU's: 0.0123).
std::string ratioText(double value) {
    if (!std::isfinite(value)) return "-";
    if (value != 0 && std::abs(value) < 0.1) return formatGeneral(value, 3) + "x";
    return formatFixed(value, 2) + "x";
}

std::string pad(const std::string& text, std::size_t width, bool left = false) {
    if (text.size() >= width) return text;
    const std::string fill(width - text.size(), ' ');
    return left ? text + fill : fill + text;
}

// A file's value where it has no number: why not.
std::string stateText(const ComparisonCell& cell) {
    switch (cell.state) {
    case CellState::Missing: return "missing";
    case CellState::Failed: return "failed";
    case CellState::OutOfMemory: return "OOM";
    case CellState::Infeasible: return "infeasible";
    case CellState::Measured:
    case CellState::Planned: break;
    }
    return "";
}

std::string ratioCell(const ComparisonCell& cell, const std::optional<double>& value) {
    if (value) return ratioText(*value);
    // Both ran, the work differs: not comparable. Otherwise a side has no number: "-".
    return cell.same_work ? "-" : "n/c";
}

void printSources(std::ostringstream& out, const Comparison& c) {
    out << "Sources (ratios are against " << c.sources[c.reference].letter << "):\n";
    for (const auto& s : c.sources) {
        const Environment& e = s.environment;
        out << "  " << s.letter << "  " << s.path << ": " << s.label;
        if (!e.libtorch_version.empty()) out << " | LibTorch " << e.libtorch_version;
        if (e.threads > 0) out << " | " << e.threads << (e.threads == 1 ? " thread" : " threads");
        if (!e.created_utc.empty()) out << " | created " << e.created_utc;
        if (!s.plan.empty())
            out << " | " << s.plan;
        else
            out << " | " << s.runs << (s.runs == 1 ? " run" : " runs");
        for (std::size_t i = 0; i < s.axes.size(); ++i)
            out << (i == 0 ? ", scaling " : ", ") << toString(s.axes[i]);
        out << "\n";
    }
    out << "\n";
}

void printDifferences(std::ostringstream& out, const Comparison& c) {
    if (c.differences.empty()) {
        out << "Config: the same in every file\n\n";
        return;
    }
    out << "Config differences:\n";
    for (const auto& d : c.differences) {
        out << "  - " << d.field << ":";
        for (std::size_t i = 0; i < d.values.size() && i < c.sources.size(); ++i)
            out << (i == 0 ? " " : ", ") << c.sources[i].letter << " "
                << (d.values[i].empty() ? "(no runs)" : d.values[i]);
        if (d.changes_work) out << " (changes the work: runs that differ in it are not divided)";
        out << "\n";
    }
    out << "\n";
}

void printTable(std::ostringstream& out, const Comparison& c) {
    if (c.rows.empty()) {
        out << "No runs to compare.\n";
        return;
    }
    std::size_t first = 8;
    for (const auto& row : c.rows) first = std::max(first, row.label().size());
    const std::size_t w = 11;
    const std::string& refLetter = c.sources[c.reference].letter;
    // The caching allocator's reserved peaks (whole) and their ratios, when a file has them.
    bool reserved = false;
    for (const auto& row : c.rows)
        for (const auto& cell : row.cells) reserved = reserved || cell.reserved_peak_mib;
    std::vector<std::string> header{"strategy"};
    for (const auto& s : c.sources) {
        header.push_back(s.letter + " peak MiB");
        if (reserved) header.push_back(s.letter + " resv. MiB");
        header.push_back(s.letter + " step ms");
    }
    for (std::size_t i = 0; i < c.sources.size(); ++i) {
        if (static_cast<int>(i) == c.reference) continue;
        header.push_back(c.sources[i].letter + "/" + refLetter + " peak");
        if (reserved) header.push_back(c.sources[i].letter + "/" + refLetter + " resv.");
        header.push_back(c.sources[i].letter + "/" + refLetter + " step");
    }
    auto line = [&](const std::vector<std::string>& cells) {
        for (std::size_t i = 0; i < cells.size(); ++i)
            out << (i == 0 ? pad(cells[i], first, true) : " " + pad(cells[i], w));
        out << "\n";
    };
    line(header);
    for (const auto& row : c.rows) {
        std::vector<std::string> cells{row.label()};
        for (const auto& cell : row.cells) {
            if (hasNumbers(cell.state)) {
                cells.push_back(measured(cell.peak_mib) + (cell.grad_ok ? "" : "!"));
                if (reserved)
                    cells.push_back(cell.reserved_peak_mib ? measured(*cell.reserved_peak_mib)
                                                           : "-");
                cells.push_back(measured(cell.step_ms));
            } else {
                for (int k = reserved ? 3 : 2; k > 0; --k) cells.push_back(stateText(cell));
            }
        }
        for (std::size_t i = 0; i < row.cells.size(); ++i) {
            if (static_cast<int>(i) == c.reference) continue;
            cells.push_back(ratioCell(row.cells[i], row.cells[i].peak_ratio));
            if (reserved) cells.push_back(ratioCell(row.cells[i], row.cells[i].reserved_ratio));
            // "≈": the two step-time intervals overlap, so the ratio is within noise.
            const bool noise = row.cells[i].step_within_noise.value_or(false);
            cells.push_back((noise ? "≈" : "") + ratioCell(row.cells[i], row.cells[i].step_ratio));
        }
        line(cells);
    }
}

}  // namespace

std::string formatComparison(const Comparison& c, bool quiet) {
    std::ostringstream out;
    out.imbue(std::locale::classic());  // counts of runs and threads without separators
    if (!quiet) printSources(out, c);
    printDifferences(out, c);
    printTable(out, c);
    if (!c.notes.empty()) {
        out << "\nNot comparable, and why:\n";
        for (const auto& note : c.notes) out << "  - " << note.text << "\n";
    }
    bool gradFailed = false;
    for (const auto& row : c.rows)
        for (const auto& cell : row.cells)
            gradFailed = gradFailed || (cell.state == CellState::Measured && !cell.grad_ok);
    if (gradFailed) out << "  (! marks a run whose gradient check failed)\n";
    bool planned = false;
    for (const auto& s : c.sources) planned = planned || !s.plan.empty();
    if (planned)
        out << "  (a plan's peak, reserved and step are predicted by its full-size plan, not "
               "measured)\n";
    bool noise = false;
    for (const auto& row : c.rows)
        for (const auto& cell : row.cells) noise = noise || cell.step_within_noise.value_or(false);
    if (noise)
        out << "  (≈ marks a step-time ratio within noise: the two 95% intervals of the medians "
               "overlap)\n";
    return out.str();
}

}  // namespace ckptlab::cli
