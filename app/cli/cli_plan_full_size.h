#pragma once
// plan --capacity's pieces shared between its files (cli_plan_full_size*.cpp).

#include <optional>
#include <string>

#include "ckptlab/planning/full_size.h"
#include "cli_costs_from.h"

namespace ckptlab::cli {

// The plan as JSON, every size in bytes (the printed table rounds to GB): what --json writes,
// for scripts and the benchmarks that compare it with measured runs.
std::string fullSizePlanJson(const FullSizePlan& plan, const CostFit& fit,
                             const std::string& modelName, std::int64_t parameters,
                             const std::string& timesLabel,
                             const std::optional<MachineTimeScale>& scale);

}  // namespace ckptlab::cli
