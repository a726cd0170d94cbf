#include "cli_config_options.h"

#include <functional>

#include "ckptlab/model/config_fields.h"

namespace ckptlab::cli {
namespace {

// Options renamed since: the older name still works, hidden from the help, so older scripts
// run as they did.
const std::pair<const char*, const char*> kOlderNames[] = {{"--dtype", "--precision"}};

// A field whose 0 means "off" takes only its range on the command line: leaving the option
// out is how to say 0, so a typed 0 is more likely a mistake than a wish.
std::string plainRangeText(const ConfigField& field) {
    return "[" + std::to_string(static_cast<long long>(field.range->min)) + ", " +
           std::to_string(static_cast<long long>(field.range->max)) + "]";
}

// A Bool field set by `text` given to `option` ("--repeats auto"); null when none is.
const ConfigField* wordFor(const std::string& option, const std::string& text) {
    for (const ConfigField& field : configFields())
        if (*field.cli_word && option == field.cli && text == field.cli_word) return &field;
    return nullptr;
}

// Records that `option` was typed: CLI11 runs it on each value given, never on the default.
std::function<void(const std::string&)> markGiven(ConfigOptionText& typed, std::string option) {
    return [&typed, option](const std::string&) { typed.given.insert(option); };
}

// " or auto": the words `option` takes besides its own field's values.
std::string wordsOf(const std::string& option) {
    std::string words;
    for (const ConfigField& field : configFields())
        if (*field.cli_word && option == field.cli) words += std::string(" or ") + field.cli_word;
    return words;
}

// The field's help, its range, and what each word of its option does.
std::string helpOf(const ConfigField& field) {
    std::string help = field.help;
    if (field.range) help += " " + (field.zero_is_unset ? plainRangeText(field) : rangeText(field));
    for (const ConfigField& word : configFields())
        if (*word.cli_word && std::string(word.cli) == field.cli)
            help += std::string(", or ") + word.cli_word + ": " + word.help;
    return help;
}

// What the help shows the option takes: "INT", "FLOAT", "INT|auto", "TEXT".
std::string typeName(const ConfigField& field) {
    std::string words = wordsOf(field.cli);  // " or auto"
    for (std::size_t at; (at = words.find(" or ")) != std::string::npos;) words.replace(at, 4, "|");
    switch (typeOf(field)) {
    case FieldType::Int: return "INT" + words;
    case FieldType::Real: return "FLOAT" + words;
    default: return "TEXT" + words;
    }
}

std::string valueError(const ConfigField& field, const std::string& text) {
    const std::string option = field.cli;
    const std::string got = " (got \"" + text + "\")";
    switch (typeOf(field)) {
    case FieldType::Choice: return option + " must be " + choiceListText(field) + got;
    case FieldType::Seed:
        return option + " must be a whole number from 0 to 18446744073709551615" + got;
    case FieldType::Int: {
        std::string range;
        if (field.range)
            range = " from " + std::to_string(static_cast<long long>(field.range->min)) + " to " +
                    std::to_string(static_cast<long long>(field.range->max));
        return option + " must be a whole number" + range + wordsOf(option) + got;
    }
    default: {
        const std::string range = rangeText(field);  // "[0, 0.9]", "0 (no limit) or [...]"
        const std::string in = range.empty() ? "" : (range[0] == '[' ? " in " : ": ") + range;
        return option + " must be a number" + in + wordsOf(option) + got;
    }
    }
}

}  // namespace

void addConfigOptions(CLI::App* cmd, ConfigOptionText& typed) {
    const ExperimentConfig defaults;
    for (const ConfigField& field : configFields()) {
        if (!*field.cli || *field.cli_word) continue;  // no option, or a word of another's
        if (typeOf(field) == FieldType::Bool) {
            cmd->add_flag(field.cli, typed.flags[field.cli], helpOf(field));
            continue;
        }
        std::string& text = typed.values[field.cli];
        if (field.zero_is_unset) {  // empty = left out; an explicit "" is refused
            text.clear();
            cmd->add_option(field.cli, text, helpOf(field))
                ->type_name(typeName(field))
                ->check(CLI::Validator(
                    [](std::string& value) {
                        return value.empty() ? "must not be empty (leave it out for none)"
                                             : std::string();
                    },
                    ""))
                ->each(markGiven(typed, field.cli));
            continue;
        }
        text = valueText(field, defaults);
        cmd->add_option(field.cli, text, helpOf(field))
            ->capture_default_str()
            ->type_name(typeName(field))
            ->each(markGiven(typed, field.cli));
    }
    for (const auto& [older, option] : kOlderNames)
        if (const auto text = typed.values.find(option); text != typed.values.end())
            cmd->add_option(older, text->second)
                ->group("")  // hidden
                ->each(markGiven(typed, option));
}

std::string applyConfigOptions(const ConfigOptionText& typed, ExperimentConfig& config) {
    for (const ConfigField& field : configFields()) {
        if (!*field.cli || *field.cli_word) continue;
        // A flag can only switch a field on; left out, the field keeps the config's value.
        if (typeOf(field) == FieldType::Bool) {
            if (const auto flag = typed.flags.find(field.cli);
                flag != typed.flags.end() && flag->second)
                setValue(field, config, true);
            continue;
        }
        const auto text = typed.values.find(field.cli);
        if (text == typed.values.end() || typed.given.count(field.cli) == 0) continue;
        if (const ConfigField* word = wordFor(field.cli, text->second)) {
            setValue(*word, config, true);
            continue;
        }
        if (field.zero_is_unset && text->second.empty()) continue;  // left out: 0, off
        const auto value = parseValueText(field, text->second);
        if (!value || !setValue(field, config, *value)) return valueError(field, text->second);
        if (field.zero_is_unset && *value == FieldValue(0LL))
            return valueError(field, text->second) + "; leave " + field.cli + " out for " +
                   field.zero_means;
    }
    return {};
}

}  // namespace ckptlab::cli
