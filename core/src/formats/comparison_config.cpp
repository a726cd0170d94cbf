// Config differences between results files (comparison_config.h), by a loop over the config
// fields (config_fields.h): displayText says each value as the comparison shows it.
#include "formats/comparison_config.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>

#include "ckptlab/model/config_fields.h"
#include "ckptlab/model/number_text.h"

namespace ckptlab::detail {
namespace {

// The number a value starts with ("2.5 MiB", "16,32,64"), in the classic locale, as strtod
// would read it in "C".
std::optional<double> leadingNumber(const std::string& text) {
    std::size_t end = text.find_first_not_of("0123456789.eE+-");
    if (end == std::string::npos) end = text.size();
    for (; end > 0; --end)
        if (const auto number = parseDecimal(std::string_view(text).substr(0, end))) return number;
    return std::nullopt;
}

// Numbers in numeric order, other text alphabetically.
bool lessValue(const std::string& a, const std::string& b) {
    const auto x = leadingNumber(a), y = leadingNumber(b);
    const bool numA = x.has_value(), numB = y.has_value();
    if (numA && numB && *x != *y) return *x < *y;
    if (numA != numB) return numA;
    return a < b;
}

std::string joinValues(std::vector<std::string> values) {
    std::sort(values.begin(), values.end(), lessValue);
    values.erase(std::unique(values.begin(), values.end()), values.end());
    std::string out;
    for (const auto& v : values) out += (out.empty() ? "" : ",") + v;
    return out;
}

bool changesWork(const ConfigField& field) { return field.changes & kChangesWork; }

// The fields in the order the differences list them: the work's first, each group in the
// table's order.
std::vector<const ConfigField*> comparedFields() {
    std::vector<const ConfigField*> fields;
    for (const ConfigField& field : configFields()) fields.push_back(&field);
    std::stable_partition(fields.begin(), fields.end(),
                          [](const ConfigField* f) { return changesWork(*f); });
    return fields;
}

}  // namespace

std::vector<const ExperimentConfig*> configsOf(const ComparisonInput& input) {
    std::vector<const ExperimentConfig*> configs;
    for (const auto& run : input.results.runs) configs.push_back(&run.config);
    if (input.results.plan) configs.push_back(&input.results.plan->config);
    return configs;
}

std::string threadsOf(const ComparisonInput& input) {
    if (input.results.environment.threads > 0)
        return std::to_string(input.results.environment.threads);
    const ConfigField& threads = *findConfigField("threads");
    std::vector<std::string> values;
    for (const ExperimentConfig* config : configsOf(input))
        values.push_back(displayText(threads, *config));
    return joinValues(values);
}

std::vector<ConfigDifference> findDifferences(const std::vector<ComparisonInput>& inputs) {
    std::vector<ConfigDifference> differences;
    for (const ConfigField* field : comparedFields()) {
        ConfigDifference d;
        d.field = field->key;
        d.changes_work = changesWork(*field);
        for (const auto& input : inputs) {
            const std::vector<const ExperimentConfig*> configs = configsOf(input);
            if (configs.empty()) {
                d.values.emplace_back();
                continue;
            }
            if (d.field == "threads") {  // the count LibTorch used says more than the request
                d.values.push_back(threadsOf(input));
                continue;
            }
            std::vector<std::string> values;
            for (const ExperimentConfig* config : configs)
                values.push_back(displayText(*field, *config));
            d.values.push_back(joinValues(values));
        }
        std::set<std::string> distinct;
        for (const auto& v : d.values)
            if (!v.empty()) distinct.insert(v);
        if (distinct.size() > 1) differences.push_back(std::move(d));
    }
    return differences;
}

std::vector<std::string> workDifferences(const ExperimentConfig& run, const ExperimentConfig& ref) {
    std::vector<std::string> out;
    for (const ConfigField& field : configFields()) {
        if (!changesWork(field)) continue;
        const std::string a = displayText(field, run), b = displayText(field, ref);
        if (a != b) out.push_back(std::string(field.key) + " (" + a + " vs " + b + ")");
    }
    return out;
}

}  // namespace ckptlab::detail
