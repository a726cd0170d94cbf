#pragma once
// A run's "config" object in the results file, written and read by one loop over the config
// fields (config_fields.h): each field under its JSON key, in the table's order; a field whose
// key is optional is written only when set, so files of runs without it read as before.

#include <nlohmann/json.hpp>

#include "ckptlab/model/config.h"
#include "formats/json_values.h"

namespace ckptlab::detail {

nlohmann::ordered_json configToJson(const ExperimentConfig& config);

// Every field of the object at `at` by its type; an optional key that is absent keeps
// ExperimentConfig{}'s value, or the value older files' runs had where the field says so
// (JsonPresence::UnlessAbsentValue: a run without "allocator" reads as "system"). Then validate():
// a config the runner would refuse cannot have been measured, so the file is refused naming the
// field's key and its range.
ExperimentConfig configFromJson(const Json& j, const Path& at);

}  // namespace ckptlab::detail
