#pragma once
// What ckptlab-cli plan --capacity prints on stdout once the plan is made: the method, the
// model, the capacity, the state held, the strategies' table, the answer and the notes.

#include <cstdint>
#include <optional>
#include <string>

#include "ckptlab/planning/full_size.h"
#include "cli_common.h"
#include "cli_costs_from.h"

namespace ckptlab::cli {

// The model as the report and the plan's JSON name it: the preset or file, else the block.
std::string modelName(const ExperimentOptions& o);

// `timesLabel` says where the times come from; `scale`, when given, that they were scaled to
// another machine's measured step (--costs-from).
void printFullSizeReport(const ExperimentOptions& o, const CostFit& fit, const FullSizePlan& plan,
                         std::int64_t capacity, const std::string& timesLabel,
                         const std::optional<MachineTimeScale>& scale);

}  // namespace ckptlab::cli
