#pragma once
// A full-size plan (planning/full_size.h) made into its record (model/full_size_record.h), its
// JSON and its CSV: one writer for the CLI's --json and a lesson's recording, so both hold the
// same fields.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ckptlab/model/full_size_record.h"

namespace ckptlab {

struct CostFit;         // full_size.h
struct FullSizePlan;    // full_size.h
struct StrategyAtSize;  // full_size.h

// The rows a plan is shown as, in the app's table and chart and in its CSV: each strategy in
// the plan's order, then the fastest schedule that fits, when there is one.
std::vector<const StrategyAtSize*> fullSizeRows(const FullSizePlan& plan);

// Those rows as CSV, one a line under a header, sizes in bytes: what the app's "Will it fit?"
// exports.
std::string fullSizePlanCsv(const FullSizePlan& plan);

// The plan as values; `fit` gives the method and its check, `parameters` the model's count.
FullSizePlanRecord recordOf(const FullSizePlan& plan, const CostFit& fit, const std::string& model,
                            std::int64_t parameters, const std::string& timesLabel,
                            const std::optional<FullSizeTimeScale>& scaled = std::nullopt);

// The plan as JSON, every size in bytes (what `plan --capacity --json` writes; ends with a line
// break). A recording keeps the same object under "plan", with the whole config beside it.
std::string fullSizePlanJson(const FullSizePlanRecord& record);

}  // namespace ckptlab
