#pragma once
// Every ExperimentConfig field once: its names in each front end and file, its range, how to
// read and write it, and what a change of it changes. The CLI options, the app's settings, the
// results JSON's config, lesson files, validate()'s plain ranges, the comparison's config
// differences, the run identity and the cost model's cache key all loop over this table, so a
// new field is one entry in config_field_table.cpp plus the code that gives it meaning
// (docs/ARCHITECTURE.md, "Add a config field").

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/core_message.h"

namespace ckptlab {

// A field's member of ExperimentConfig; its C++ type is the field's type.
using FieldMember =
    std::variant<int ExperimentConfig::*, std::uint64_t ExperimentConfig::*,
                 double ExperimentConfig::*, bool ExperimentConfig::*,
                 std::string ExperimentConfig::*, BlockKind ExperimentConfig::*,
                 DType ExperimentConfig::*, Optimizer ExperimentConfig::*,
                 AllocatorKind ExperimentConfig::*, AttentionKind ExperimentConfig::*>;

enum class FieldType {
    Int,     // int: a whole number
    Seed,    // std::uint64_t: decimal digits only, up to 2^64 - 1
    Real,    // double
    Bool,    // a CLI flag (or a word of another option: --repeats auto)
    Choice,  // an enum, written as one of choicesOf(field)
    Text,    // a string checked by code (device)
};

// A value of any field: Int as long long, Seed as uint64, Real as double, Bool, and Choice and
// Text as their text ("transformer", "cuda:1").
using FieldValue = std::variant<long long, std::uint64_t, double, bool, std::string>;

// What a change of the field changes (bits of ConfigField::changes).
enum FieldChange : unsigned {
    kChangesCost = 1u << 0,      // the measured cost model: the app's forecast measures again
    kChangesWork = 1u << 1,      // the step computed: `compare` does not divide such runs
    kChangesMachine = 1u << 2,   // where and on how many threads the step runs
    kChangesIdentity = 1u << 3,  // which run it is: a traced run waits for its equal
};

// Where a config's description shows the field (bits of ConfigField::shown; describeConfig).
enum FieldShown : unsigned {
    kShownModel = 1u << 0,     // what is trained: block, sizes, heads, attention, vocabulary
    kShownNumerics = 1u << 1,  // how: precision, allocator, optimizer, kept gradients, limit
    kShownProtocol = 1u << 2,  // how it is timed: device, seed, threads, warm-up, repeats
};
constexpr unsigned kShownAll = kShownModel | kShownNumerics | kShownProtocol;

// The plain range validate() checks, for every block kind.
struct FieldRange {
    double min = 0;
    double max = 0;
};

// When the results JSON holds the key.
enum class JsonPresence {
    Always,         // written always; a file without it is refused
    UnlessDefault,  // written when not ExperimentConfig{}'s value; absent reads as the default
    WithJsonAlong,  // written when the field named by json_along is written; absent: default
    // Written unless it is json_absent's value, which an absent key reads as instead of the
    // default: the value of the runs in files from before the field existed (the allocator:
    // those runs used the C library's, "system", while today's default is "caching").
    UnlessAbsentValue,
};

struct ConfigField {
    const char* key;  // FieldError::field and the comparison's name: "memory-limit"
    FieldMember member;
    const char* label;  // English, the source of the app's translation: "memory limit"
    // The CLI option, or "" when none. Two fields may share one: a Bool with a `cli_word` is set
    // by that word given to the other field's option ("--repeats auto").
    const char* cli;
    const char* cli_word;
    const char* help;      // the CLI's help; the range is appended
    const char* settings;  // QSettings key under "config/": "memoryLimitMib"
    const char* json;      // results JSON key: "memory_limit_mib"
    JsonPresence json_presence;
    const char* json_along;   // WithJsonAlong: the key of that field
    const char* json_absent;  // UnlessAbsentValue: what an absent key reads as (valueText)
    std::optional<FieldRange> range;
    // Text for 0 where 0 means something else ("no limit", "default"); with a range that
    // leaves 0 out, 0 is allowed too.
    const char* zero_means;
    const char* unit;  // "MiB", "seconds"; "" when none
    // 0 is the default and means the feature is off (vocab: no embedding or LM head); a value
    // a person types is in `range`, so the CLI refuses a typed 0 with the range's message.
    bool zero_is_unset;
    MessageCode range_message;  // validate()'s message when out of range
    // Whether the field means something for this config (heads: only in attention blocks;
    // loss-chunks: only with an LM head); null = always. The comparison shows "-" elsewhere,
    // the app disables its widget and a recording's match skips it.
    bool (*applies)(const ExperimentConfig&);
    // A lesson's experiment.config takes it under its JSON key (docs/LESSONS.md). Not the
    // device (a lesson runs where it is opened) nor the adaptive repeats (a step is timed as
    // its recording was).
    bool in_lessons;
    unsigned changes;  // FieldChange bits
    // The value the step runs with where the member's 0 means "derived" (kv-heads: as many as
    // heads; head-dim: width / heads; ffn-width: the block's rule); null: the member's value.
    int (*effective)(const ExperimentConfig&);
    unsigned shown;  // FieldShown bits; 0: in no description (the time limit's own word)
};

// In the results JSON's key order (a file written today reads byte for byte as before).
const std::vector<ConfigField>& configFields();
// By key; null when none.
const ConfigField* findConfigField(std::string_view key);

FieldType typeOf(const ConfigField& field);
// Choice: the allowed texts, canonical first ("ffn", "transformer"); empty otherwise.
std::vector<std::string> choicesOf(const ConfigField& field);
// "ffn, transformer or llama", "none, sgd or adam".
std::string choiceListText(const ConfigField& field);

FieldValue valueOf(const ConfigField& field, const ExperimentConfig& config);
// False (and the config untouched) when the value is of another type or not a known choice;
// ranges are validate()'s.
bool setValue(const ConfigField& field, ExperimentConfig& config, const FieldValue& value);

// The value as the CLI takes it and the cost key writes it: "256", "0.1" (shortest text that
// reads back the same), "transformer", "true".
std::string valueText(const ConfigField& field, const ExperimentConfig& config);
// The inverse of valueText for one field; nullopt when the text is not of its type.
std::optional<FieldValue> parseValueText(const ConfigField& field, const std::string& text);

// The value as a person reads it beside others (the comparison): "-" where the block does not
// use it, zero_means for 0, the unit after a number, "yes"/"no".
std::string displayText(const ConfigField& field, const ExperimentConfig& config);
// The range as the CLI's help says it: "[8, 16384]", "0 or [0.001, 16777216]"; "" when none.
std::string rangeText(const ConfigField& field);

// The error of a field outside its plain range; nullopt when in range or it has none.
std::optional<FieldError> rangeError(const ConfigField& field, const ExperimentConfig& config);

bool fieldApplies(const ConfigField& field, const ExperimentConfig& config);

// The config with every derived value resolved into its member (ConfigField::effective): two
// configs that run the same step are equal after it, whichever of them spelled the value out.
ExperimentConfig effectiveConfig(ExperimentConfig config);

// One field of a config's description: its effective value as valueText writes it.
struct DescribedField {
    const ConfigField* field;
    std::string value;  // "8", "memory-efficient", "true"
};
// The fields with any of the `shown` bits that the config reads (fieldApplies), in the
// registry's order, with their effective values; a field at a 0 that means something else
// (zero_means: no memory limit, default threads, no vocabulary) is left out. `changedOnly` also
// leaves out the fields at ExperimentConfig{}'s (effective) value: the short form a lesson prints.
// This is the one list behind the CLI's model line, a lesson's runs, the app's chart description,
// the plan file's model summary and the models table: a field added to the registry with
// `shown` bits appears in all of them.
std::vector<DescribedField> describeConfig(const ExperimentConfig& config, unsigned shown,
                                           bool changedOnly = false);
// The description as one line of key=value words, a true Bool as its key alone and a false one
// left out:
// "block=llama depth=1 width=576 seq=8 batch=1 heads=9 kv-heads=3 ...".
std::string configLine(const ExperimentConfig& config, unsigned shown, bool changedOnly = false);

// Whether a and b are equal in every field with any of the `changes` bits.
bool sameFields(const ExperimentConfig& a, const ExperimentConfig& b, unsigned changes);
// The valueTexts of those fields joined by '|': a cache key.
std::string fieldsKey(const ExperimentConfig& config, unsigned changes);

}  // namespace ckptlab
