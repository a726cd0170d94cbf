#pragma once
// The results file's fields about time and noise, written and read in one place:
// a run's step-time spread and rounds, the machine's load in "environment", the set's
// "timing". All optional on reading, so older files load; written only when set.

#include <nlohmann/json.hpp>

#include "ckptlab/model/config.h"
#include "ckptlab/model/result.h"
#include "formats/json_values.h"

namespace ckptlab::detail {

using OrderedJson = nlohmann::ordered_json;

void writeStepSpread(const Metrics& m, OrderedJson& metrics);
void writeMachineLoad(const Environment& e, OrderedJson& environment);
void writeTiming(const ResultSet& results, OrderedJson& doc);

// `f` reads the object at `at`; each fails naming the field and its allowed range.
void readStepSpread(const Fields& f, Metrics& m);
void readMachineLoad(const Fields& f, Environment& e);
void readTiming(const Fields& top, ResultSet& results);

}  // namespace ckptlab::detail
