#pragma once
// The comparison's notes on what is not comparable (comparison.cpp's helpers): runs missing from
// a file, runs that failed or ran out of memory, and files from other machines or thread counts.

#include <string>
#include <vector>

#include "ckptlab/formats/comparison.h"

namespace ckptlab::detail {

std::string join(const std::vector<std::string>& items, const std::string& separator);
void addNote(Comparison& c, NoteKind kind, std::vector<int> sources, std::string row,
             std::string text);
std::string named(const ComparisonSource& s);  // "B (runs/server.json)"

// Per file and strategy, the rows it lacks.
void noteMissing(const std::vector<ComparisonInput>& inputs, Comparison& c);
// The cells that are not compared (out of memory, failed, infeasible) or failed their check.
void noteRuns(Comparison& c);
// Files measured on another machine than the reference, or with other thread counts.
void noteMachines(const std::vector<ComparisonInput>& inputs, Comparison& c);

}  // namespace ckptlab::detail
