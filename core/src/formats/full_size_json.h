#pragma once
// The full-size plan's JSON (ckptlab/model/full_size_record.h), written and read in one place: the
// object `plan --capacity --json` writes, and the results file's optional "plan" key (a lesson's
// plan step): that object with "run_config" beside its summary "config", the whole config by
// the registry of its fields as a run's "config" (config_json.h). Written only when set, so
// other files keep their bytes; read strictly, each value named by its path ("plan.strategies[2]
// .reserved_bytes: expected an integer, got a string").

#include <nlohmann/json.hpp>

#include "ckptlab/formats/full_size_files.h"
#include "ckptlab/model/result.h"
#include "formats/json_values.h"

namespace ckptlab::detail {

using OrderedJson = nlohmann::ordered_json;

OrderedJson fullSizePlanObject(const FullSizePlanRecord& record);

void writeFullSizePlan(const ResultSet& results, OrderedJson& doc);
// `top` reads the document; its "plan", when there is one, fills results.plan.
void readFullSizePlan(const Fields& top, ResultSet& results);

}  // namespace ckptlab::detail
