// A config described from the field registry (config_fields.h): its effective values and the
// fields each description shows, so no front end keeps a list of fields of its own.
#include "ckptlab/model/config_fields.h"

namespace ckptlab {

ExperimentConfig effectiveConfig(ExperimentConfig config) {
    const ExperimentConfig asGiven = config;  // each rule reads the values as they were given
    for (const ConfigField& field : configFields())
        if (field.effective) setValue(field, config, FieldValue(field.effective(asGiven)));
    return config;
}

std::vector<DescribedField> describeConfig(const ExperimentConfig& config, unsigned shown,
                                           bool changedOnly) {
    const ExperimentConfig effective = effectiveConfig(config);
    // Resolved only where compared: describing a config is the common case.
    const ExperimentConfig defaults = changedOnly ? effectiveConfig(ExperimentConfig{}) : effective;
    std::vector<DescribedField> fields;
    for (const ConfigField& field : configFields()) {
        if (!(field.shown & shown) || !fieldApplies(field, config)) continue;
        const FieldValue value = valueOf(field, effective);
        if (changedOnly && value == valueOf(field, defaults)) continue;
        // A 0 that means something else (zero_means: no limit, the default threads, no
        // vocabulary) is a feature left off; derived values are resolved above.
        if (*field.zero_means && (value == FieldValue(0LL) || value == FieldValue(0.0))) continue;
        fields.push_back({&field, valueText(field, effective)});
    }
    return fields;
}

std::string configLine(const ExperimentConfig& config, unsigned shown, bool changedOnly) {
    std::string line;
    for (const DescribedField& described : describeConfig(config, shown, changedOnly)) {
        const bool isFlag = typeOf(*described.field) == FieldType::Bool;
        if (isFlag && described.value != "true") continue;  // a flag that is off: no word
        if (!line.empty()) line += ' ';
        line += described.field->key;
        if (!isFlag) line += "=" + described.value;
    }
    return line;
}

}  // namespace ckptlab
