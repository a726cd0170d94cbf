// A run's config in the results file (config_json.h).
#include "formats/config_json.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "ckptlab/model/config_fields.h"

namespace ckptlab::detail {
namespace {

using OrderedJson = nlohmann::ordered_json;

// Non-finite doubles have no JSON number: "nan", "inf", "-inf", as everywhere in the file.
OrderedJson number(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    return value;
}

bool isWritten(const ConfigField& field, const ExperimentConfig& config) {
    switch (field.json_presence) {
    case JsonPresence::Always: return true;
    case JsonPresence::UnlessDefault:
        return valueOf(field, config) != valueOf(field, ExperimentConfig{});
    case JsonPresence::WithJsonAlong: {
        const ConfigField* along = findConfigField(field.json_along);
        return along && isWritten(*along, config);
    }
    case JsonPresence::UnlessAbsentValue: return valueText(field, config) != field.json_absent;
    }
    return true;
}

// What an absent optional key reads as: the default, except for a field whose older files'
// runs had another value. The allocator: a run in a file without "allocator" was measured with
// the C library's malloc (there was no other), so it reads as "system", not as today's default
// "caching"; a file written today holds the key whenever its runs used the caching allocator.
void readAbsent(const ConfigField& field, ExperimentConfig& config) {
    if (field.json_presence != JsonPresence::UnlessAbsentValue) return;
    const auto value = parseValueText(field, field.json_absent);
    if (!value || !setValue(field, config, *value))
        throw std::logic_error(std::string("config field ") + field.key + ": json_absent \"" +
                               field.json_absent + "\" is not one of its values");
}

OrderedJson jsonValue(const ConfigField& field, const ExperimentConfig& config) {
    const FieldValue value = valueOf(field, config);
    if (const auto* real = std::get_if<double>(&value)) return number(*real);
    return std::visit([](const auto& v) { return OrderedJson(v); }, value);
}

FieldValue readValue(const ConfigField& field, const Fields& f) {
    const char* key = field.json;
    switch (typeOf(field)) {
    case FieldType::Int: return static_cast<long long>(f.integer(key, 0, kIntMax));
    case FieldType::Seed: {
        const Json& seed = f.get(key);
        if (!seed.is_number_unsigned())
            fail(f.at().member(key), "expected a non-negative integer, got " +
                                         (seed.is_number() ? seed.dump() : describe(seed)));
        return seed.get<std::uint64_t>();
    }
    case FieldType::Real: return f.number(key);
    case FieldType::Bool: return f.boolean(key);
    case FieldType::Choice:
    case FieldType::Text: return f.string(key);
    }
    return f.string(key);
}

}  // namespace

OrderedJson configToJson(const ExperimentConfig& config) {
    OrderedJson object = OrderedJson::object();
    for (const ConfigField& field : configFields())
        if (isWritten(field, config)) object[field.json] = jsonValue(field, config);
    return object;
}

ExperimentConfig configFromJson(const Json& j, const Path& at) {
    const Fields f(j, at);
    ExperimentConfig config;
    for (const ConfigField& field : configFields()) {
        if (field.json_presence != JsonPresence::Always && !f.find(field.json)) {
            readAbsent(field, config);
            continue;
        }
        const FieldValue value = readValue(field, f);
        if (!setValue(field, config, value))  // only a Choice's text can be unknown
            fail(at.member(field.json), "unknown value \"" +
                                            clip(std::get<std::string>(value), 40) +
                                            "\" (expected " + choiceListText(field) + ")");
    }
    const auto errors = validate(config);
    if (!errors.empty()) {
        const ConfigField* field = findConfigField(errors.front().field);
        fail(at.member(field ? field->json : errors.front().field.c_str()),
             clip(errors.front().message.english, 300));
    }
    return config;
}

}  // namespace ckptlab::detail
