// The operations every front end and file needs on any config field (config_fields.h): its
// value, its text, its range and what it changes. The table itself is config_field_table.cpp.
#include "ckptlab/model/config_fields.h"

#include <climits>
#include <cmath>

#include "ckptlab/model/block_kinds.h"
#include "ckptlab/model/number_text.h"

namespace ckptlab {
namespace {

using C = ExperimentConfig;

template <class... F>
struct Overloaded : F... {
    using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

FieldValue toValue(int v) { return static_cast<long long>(v); }
FieldValue toValue(std::uint64_t v) { return v; }
FieldValue toValue(double v) { return v; }
FieldValue toValue(bool v) { return v; }
FieldValue toValue(const std::string& v) { return v; }
FieldValue toValue(BlockKind v) { return toString(v); }
FieldValue toValue(DType v) { return toString(v); }
FieldValue toValue(Optimizer v) { return toString(v); }
FieldValue toValue(AllocatorKind v) { return toString(v); }
FieldValue toValue(AttentionKind v) { return toString(v); }

// Sets `out` from `v` when there is one.
template <typename T, typename V>
bool assign(T& out, const V* v) {
    if (!v) return false;
    out = static_cast<T>(*v);
    return true;
}

bool fromValue(const FieldValue& value, int& out) {
    const auto* v = std::get_if<long long>(&value);
    return v && *v >= INT_MIN && *v <= INT_MAX && assign(out, v);
}
bool fromValue(const FieldValue& value, std::uint64_t& out) {
    if (const auto* u = std::get_if<std::uint64_t>(&value)) return assign(out, u);
    const auto* v = std::get_if<long long>(&value);
    return v && *v >= 0 && assign(out, v);
}
bool fromValue(const FieldValue& value, double& out) {
    if (const auto* d = std::get_if<double>(&value)) return assign(out, d);
    return assign(out, std::get_if<long long>(&value));  // a whole number where a real is wanted
}
bool fromValue(const FieldValue& value, bool& out) {
    return assign(out, std::get_if<bool>(&value));
}
bool fromValue(const FieldValue& value, std::string& out) {
    return assign(out, std::get_if<std::string>(&value));
}
template <typename Enum>
bool fromChoice(const FieldValue& value, Enum& out,
                std::optional<Enum> (*parse)(const std::string&)) {
    const auto* text = std::get_if<std::string>(&value);
    const std::optional<Enum> parsed = text ? parse(*text) : std::nullopt;
    return assign(out, parsed ? &*parsed : nullptr);
}
bool fromValue(const FieldValue& value, BlockKind& out) {
    return fromChoice(value, out, parseBlockKind);
}
bool fromValue(const FieldValue& value, DType& out) { return fromChoice(value, out, parseDType); }
bool fromValue(const FieldValue& value, Optimizer& out) {
    return fromChoice(value, out, parseOptimizer);
}
bool fromValue(const FieldValue& value, AllocatorKind& out) {
    return fromChoice(value, out, parseAllocatorKind);
}
bool fromValue(const FieldValue& value, AttentionKind& out) {
    return fromChoice(value, out, parseAttentionKind);
}

// A limit as the help and the messages write it: "16384", "0.9", "0.001", "16777216".
std::string limitText(double value) {
    if (value == std::floor(value) && std::fabs(value) < 1e15)
        return std::to_string(static_cast<long long>(value));
    return formatShortest(value);
}

// An Int or Real field's value as a double; nullopt for the other types.
std::optional<double> numberOf(const ConfigField& field, const ExperimentConfig& config) {
    const FieldValue value = valueOf(field, config);
    if (const auto* i = std::get_if<long long>(&value)) return static_cast<double>(*i);
    if (const auto* d = std::get_if<double>(&value)) return *d;
    return std::nullopt;
}

std::string numberText(const ConfigField& field, const ExperimentConfig& config) {
    const FieldValue value = valueOf(field, config);
    if (const auto* i = std::get_if<long long>(&value)) return std::to_string(*i);
    // The shortest text that reads back the same: the comparison tells configs apart by this
    // text, so 500000.5 and 500000 must not both read "500000".
    return formatShortest(std::get<double>(value));
}

}  // namespace

const ConfigField* findConfigField(std::string_view key) {
    for (const ConfigField& field : configFields())
        if (key == field.key) return &field;
    return nullptr;
}

FieldType typeOf(const ConfigField& field) {
    return std::visit(Overloaded{[](int C::*) { return FieldType::Int; },
                                 [](std::uint64_t C::*) { return FieldType::Seed; },
                                 [](double C::*) { return FieldType::Real; },
                                 [](bool C::*) { return FieldType::Bool; },
                                 [](std::string C::*) { return FieldType::Text; },
                                 [](auto) { return FieldType::Choice; }},
                      field.member);
}

std::vector<std::string> choicesOf(const ConfigField& field) {
    return std::visit(
        Overloaded{
            [](BlockKind C::*) {
                std::vector<std::string> names;
                for (const BlockKindInfo& kind : blockKinds()) names.emplace_back(kind.name);
                return names;
            },
            [](DType C::*) {
                return std::vector<std::string>{toString(DType::Float32), toString(DType::BFloat16),
                                                toString(DType::MixedBFloat16)};
            },
            [](Optimizer C::*) {
                return std::vector<std::string>{toString(Optimizer::None), toString(Optimizer::Sgd),
                                                toString(Optimizer::Adam)};
            },
            [](AttentionKind C::*) {
                return std::vector<std::string>{toString(AttentionKind::Eager),
                                                toString(AttentionKind::MemoryEfficient),
                                                toString(AttentionKind::Sdpa)};
            },
            [](AllocatorKind C::*) {
                return std::vector<std::string>{toString(AllocatorKind::Caching),
                                                toString(AllocatorKind::System)};
            },
            [](auto) { return std::vector<std::string>{}; }},
        field.member);
}

std::string choiceListText(const ConfigField& field) {
    const auto choices = choicesOf(field);
    std::string text;
    for (std::size_t i = 0; i < choices.size(); ++i)
        text += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
    return text;
}

FieldValue valueOf(const ConfigField& field, const ExperimentConfig& config) {
    return std::visit([&](auto member) { return toValue(config.*member); }, field.member);
}

bool setValue(const ConfigField& field, ExperimentConfig& config, const FieldValue& value) {
    return std::visit([&](auto member) { return fromValue(value, config.*member); }, field.member);
}

std::string valueText(const ConfigField& field, const ExperimentConfig& config) {
    return std::visit(Overloaded{[](long long v) { return std::to_string(v); },
                                 [](std::uint64_t v) { return std::to_string(v); },
                                 [](double v) { return formatShortest(v); },
                                 [](bool v) { return std::string(v ? "true" : "false"); },
                                 [](const std::string& v) { return v; }},
                      valueOf(field, config));
}

std::optional<FieldValue> parseValueText(const ConfigField& field, const std::string& text) {
    switch (typeOf(field)) {
    case FieldType::Int:
        if (const auto v = parseInteger(text); v && *v >= INT_MIN && *v <= INT_MAX) return *v;
        return std::nullopt;
    case FieldType::Seed:
        if (const auto v = parseSeed(text)) return *v;
        return std::nullopt;
    case FieldType::Real:
        if (const auto v = parseDecimal(text)) return *v;
        return std::nullopt;
    case FieldType::Bool:
        if (text == "true" || text == "false") return text == "true";
        return std::nullopt;
    case FieldType::Choice: {
        ExperimentConfig probe;
        if (!setValue(field, probe, text)) return std::nullopt;
        return valueOf(field, probe);  // the canonical name of an alias: fp32 -> float32
    }
    case FieldType::Text: return text;
    }
    return std::nullopt;
}

std::string displayText(const ConfigField& field, const ExperimentConfig& config) {
    if (!fieldApplies(field, config)) return "-";
    const FieldType type = typeOf(field);
    if (type == FieldType::Bool) return std::get<bool>(valueOf(field, config)) ? "yes" : "no";
    if (type != FieldType::Int && type != FieldType::Real) return valueText(field, config);
    if (*field.zero_means && numberOf(field, config) == 0.0) return field.zero_means;
    return numberText(field, config) + (*field.unit ? std::string(" ") + field.unit : "");
}

bool fieldApplies(const ConfigField& field, const ExperimentConfig& config) {
    return field.applies == nullptr || field.applies(config);
}

std::string rangeText(const ConfigField& field) {
    if (!field.range) return "";
    const std::string range =
        "[" + limitText(field.range->min) + ", " + limitText(field.range->max) + "]";
    const bool zeroOutside = field.range->min > 0;
    return *field.zero_means && zeroOutside
               ? "0 (" + std::string(field.zero_means) + ") or " + range
               : range;
}

std::optional<FieldError> rangeError(const ConfigField& field, const ExperimentConfig& config) {
    const auto value = numberOf(field, config);
    if (!field.range || !value) return std::nullopt;
    if (*value >= field.range->min && *value <= field.range->max) return std::nullopt;
    if (*field.zero_means && *value == 0) return std::nullopt;
    return FieldError{
        field.key,
        CoreMessage(field.range_message, {field.key, limitText(field.range->min),
                                          limitText(field.range->max), numberText(field, config)})};
}

bool sameFields(const ExperimentConfig& a, const ExperimentConfig& b, unsigned changes) {
    for (const ConfigField& field : configFields())
        if ((field.changes & changes) && valueOf(field, a) != valueOf(field, b)) return false;
    return true;
}

std::string fieldsKey(const ExperimentConfig& config, unsigned changes) {
    std::string key;
    for (const ConfigField& field : configFields())
        if (field.changes & changes) key += (key.empty() ? "" : "|") + valueText(field, config);
    return key;
}

}  // namespace ckptlab
