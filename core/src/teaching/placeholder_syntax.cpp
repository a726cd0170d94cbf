#include "teaching/placeholder_syntax.h"

#include <algorithm>
#include <cctype>

#include "ckptlab/model/number_text.h"

namespace ckptlab::teaching {
namespace {

const std::vector<std::string> kRunMetrics = {"peak_mib",
                                              "total_peak_mib",
                                              "activations_mib",
                                              "step_ms",
                                              "forward_ms",
                                              "backward_ms",
                                              "recompute_ms",
                                              "saving_pct",
                                              "time_added_pct",
                                              "time_change",
                                              "ratio",
                                              "recompute_vs_forward_pct",
                                              "recomputed_blocks",
                                              "grad_check",
                                              "max_abs_diff",
                                              "grads_at_peak_mib",
                                              "activations_at_peak_mib",
                                              "other_at_peak_mib",
                                              "baseline_mib",
                                              "peak_no_grads_mib",
                                              "total_saving_pct"};
const std::vector<std::string> kScalingMetrics = {"peak_exponent", "activations_exponent",
                                                  "time_exponent", "peak_no_grads_exponent",
                                                  "largest_fit",   "first_oom"};
const std::vector<std::string> kConfigFields = {"depth", "width", "seq",
                                                "batch", "heads", "memory_limit_mib"};
const std::vector<std::string> kTerms = {"memory"};
// A plan step's (lesson_plan_step.h): a row's, then the plan's own in plan(name).
const std::vector<std::string> kPlanRowMetrics = {
    "plan_fits",         "plan_peak_gib", "plan_reserved_gib", "plan_step_s",
    "plan_tokens_per_s", "plan_max_seq",  "plan_max_batch"};
const std::vector<std::string> kPlanFields = {
    "state_gib", "capacity_gib",         "parameters_billion",  "fits_count",
    "fastest",   "fastest_tokens_per_s", "optimal_tokens_per_s"};

bool contains(const std::vector<std::string>& names, const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

std::string join(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

bool isNameChar(char c) {
    return std::islower(static_cast<unsigned char>(c)) ||
           std::isdigit(static_cast<unsigned char>(c)) || c == '_' || c == '-';
}

std::optional<Placeholder> refuse(std::string* error, const std::string& why) {
    if (error) *error = why;
    return std::nullopt;
}

}  // namespace

std::string runMetricList() { return join(kRunMetrics); }
std::string scalingMetricList() { return join(kScalingMetrics); }
std::string configFieldList() { return join(kConfigFields); }
std::string termList() { return join(kTerms); }
std::string planMetricList() {
    return join(kPlanRowMetrics) + " (of a strategy); plan(" + join(kPlanFields) + ")";
}

MetricScope scopeOf(const std::string& metric) {
    if (metric == "config") return MetricScope::Config;
    if (metric == "term") return MetricScope::Term;
    if (metric == "plan" || contains(kPlanRowMetrics, metric)) return MetricScope::Plan;
    return contains(kScalingMetrics, metric) ? MetricScope::Scaling : MetricScope::Run;
}

bool comparesWithNone(const std::string& metric) {
    return metric == "saving_pct" || metric == "total_saving_pct" || metric == "time_added_pct" ||
           metric == "time_change" || metric == "ratio" || metric == "recompute_vs_forward_pct";
}

std::optional<Placeholder> parsePlaceholder(const std::string& text, std::string* error) {
    Placeholder p;
    std::string rest = text;
    // "@value" last: the strategy itself may hold ':' and '.', never '@'.
    if (const auto at = rest.rfind('@'); at != std::string::npos) {
        const std::string digits = rest.substr(at + 1);
        if (digits.empty() || digits.size() > 9 ||
            !std::all_of(digits.begin(), digits.end(),
                         [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
            return refuse(error, "\"@" + digits + "\" is not a whole axis value");
        p.at = static_cast<int>(*parseInteger(digits));  // at most 9 digits: an int
        rest.resize(at);
    }
    const auto open = rest.find('(');
    if (open == std::string::npos || rest.back() != ')')
        return refuse(error, "expected metric(strategy), config(field) or term(name)");
    std::string head = rest.substr(0, open);
    p.argument = rest.substr(open + 1, rest.size() - open - 2);
    if (const auto slash = head.find('/'); slash != std::string::npos) {
        p.step = head.substr(0, slash);
        head = head.substr(slash + 1);
        if (p.step.empty() || !std::all_of(p.step.begin(), p.step.end(), isNameChar))
            return refuse(error, "step \"" + p.step + "\" is not a step id ([a-z0-9_-]+)");
    }
    p.metric = head;
    if (p.argument.empty()) return refuse(error, "empty argument in " + head + "()");
    if (p.metric == "config") {
        if (!contains(kConfigFields, p.argument))
            return refuse(error, "unknown config field \"" + p.argument +
                                     "\" (allowed: " + configFieldList() + ")");
        if (p.at) return refuse(error, "config(...) takes no @value");
        return p;
    }
    if (p.metric == "term") {
        if (!contains(kTerms, p.argument))
            return refuse(error,
                          "unknown term \"" + p.argument + "\" (allowed: " + termList() + ")");
        if (p.at) return refuse(error, "term(...) takes no @value");
        return p;
    }
    if (p.metric == "plan") {
        if (!contains(kPlanFields, p.argument))
            return refuse(error, "unknown plan value \"" + p.argument +
                                     "\" (allowed: " + join(kPlanFields) + ")");
        if (p.at) return refuse(error, "plan(...) takes no @value");
        return p;
    }
    if (contains(kPlanRowMetrics, p.metric)) {
        if (p.at)
            return refuse(error, p.metric + " is of a plan step's one size; it takes no @value");
        return p;
    }
    if (!contains(kRunMetrics, p.metric) && !contains(kScalingMetrics, p.metric))
        return refuse(error, "unknown metric \"" + p.metric + "\" (allowed: " + runMetricList() +
                                 "; in scaling steps: " + scalingMetricList() +
                                 "; in plan steps: " + planMetricList() +
                                 "; and config(field), term(" + termList() + "))");
    if (p.at && scopeOf(p.metric) == MetricScope::Scaling)
        return refuse(error, p.metric + " is fitted over all values; it takes no @value");
    return p;
}

}  // namespace ckptlab::teaching
