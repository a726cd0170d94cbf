#pragma once
// Reading one run of a results file (private to ckptlab_formats).

#include "ckptlab/model/result.h"
#include "formats/json_values.h"

namespace ckptlab::detail {

// runs[i]: its config, metrics, gradient check, breakdown, lifetimes, timeline and phases, and
// the keys added later (prediction, schedule, forward counts, out of memory) when present.
RunResult readRun(const Json& j, const Path& at);

}  // namespace ckptlab::detail
