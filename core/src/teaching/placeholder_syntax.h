#pragma once
// The grammar of a lesson placeholder (docs/LESSONS.md), private to ckptlab_teaching: the file
// reader checks it when a lesson loads, the filler when it resolves a value.
//   [step/]metric(strategy)[@value]   a metric of a run, or of a scaling step's strategy
//   [step/]config(field)              a config field of the step
//   [step/]term(memory)               a word that depends on the step's recording ("memory":
//                                     内存 on a CPU, 显存 on a GPU in Chinese)
//   [step/]plan_fits(strategy)        a row of a plan step's full-size plan (plan_peak_gib, ...)
//   [step/]plan(name)                 the plan's own values (state_gib, fastest, ...)

#include <optional>
#include <string>
#include <vector>

namespace ckptlab::teaching {

enum class MetricScope { Run, Scaling, Config, Term, Plan };

struct Placeholder {
    std::string step;       // empty: the step the text belongs to
    std::string metric;     // "saving_pct", "peak_exponent", "config", ...
    std::string argument;   // the strategy, the config field or the term
    std::optional<int> at;  // @value: the run of a scaling step at that axis value
};

// Nothing, with the reason in *error, for a malformed placeholder or an unknown metric/field.
std::optional<Placeholder> parsePlaceholder(const std::string& text, std::string* error);

MetricScope scopeOf(const std::string& metric);
// Metrics compared against the step's `none` run, which the step must therefore run.
bool comparesWithNone(const std::string& metric);

// The names the grammar knows, for messages.
std::string runMetricList();
std::string scalingMetricList();
std::string configFieldList();
std::string termList();
std::string planMetricList();

}  // namespace ckptlab::teaching
