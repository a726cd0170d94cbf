// The registry of config fields (config_fields.h): it holds every member of ExperimentConfig,
// its names are unique, its defaults are ExperimentConfig{}'s, and a config with every field
// changed survives the results JSON, the CLI's option texts and the accessors; kv_heads's
// rules.

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ckptlab/formats/results_io.h"
#include "ckptlab/model/config_fields.h"
#include "formats/config_json.h"
#include "test_configs.h"

using namespace ckptlab;
using ckptlab::test::everyFieldChanged;

namespace {

// How many members an aggregate has: the most values it can be brace-initialised from.
struct AnyValue {
    template <typename T>
    operator T() const;  // never called: only for the unevaluated braces below
};
template <typename T, typename... A>
constexpr auto braceable(int) -> decltype(T{std::declval<A>()...}, true) {
    return true;
}
template <typename T, typename... A>
constexpr bool braceable(...) {
    return false;
}
template <typename T, typename... A>
constexpr std::size_t memberCount() {
    if constexpr (!braceable<T, A..., AnyValue>(0))
        return sizeof...(A);
    else
        return memberCount<T, A..., AnyValue>();
}

std::vector<std::string> differingKeys(const ExperimentConfig& a, const ExperimentConfig& b) {
    std::vector<std::string> keys;
    for (const ConfigField& field : configFields())
        if (valueOf(field, a) != valueOf(field, b)) keys.push_back(field.key);
    return keys;
}

std::vector<std::string> allKeys() {
    std::vector<std::string> keys;
    for (const ConfigField& field : configFields()) keys.push_back(field.key);
    return keys;
}

// The command line a user would type for `config`, built from the registry as the CLI's help
// lists the options: a flag when set, a word of another option when set, else the value.
std::vector<std::pair<std::string, std::string>> cliArguments(const ExperimentConfig& config) {
    std::vector<std::pair<std::string, std::string>> args;
    for (const ConfigField& field : configFields()) {
        if (!*field.cli) continue;
        const bool isBool = typeOf(field) == FieldType::Bool;
        if (isBool && !std::get<bool>(valueOf(field, config))) continue;
        if (*field.cli_word)
            args.emplace_back(field.cli, field.cli_word);
        else
            args.emplace_back(field.cli, isBool ? "" : valueText(field, config));
    }
    return args;
}

bool isWordOf(const std::string& option, const std::string& text) {
    for (const ConfigField& field : configFields())
        if (*field.cli_word && option == field.cli && text == field.cli_word) return true;
    return false;
}

// Reads those arguments back as applyConfigOptions does: a word sets its field, any other
// text is its option's field's value.
ExperimentConfig fromCliArguments(const std::vector<std::pair<std::string, std::string>>& args) {
    ExperimentConfig config;
    for (const auto& [option, text] : args) {
        for (const ConfigField& field : configFields()) {
            if (option != field.cli) continue;
            if (*field.cli_word) {
                if (text == field.cli_word) EXPECT_TRUE(setValue(field, config, true));
                continue;
            }
            if (typeOf(field) == FieldType::Bool) {
                EXPECT_TRUE(setValue(field, config, true)) << option;
                continue;
            }
            if (isWordOf(option, text)) continue;
            const auto value = parseValueText(field, text);
            EXPECT_TRUE(value && setValue(field, config, *value)) << option << " " << text;
        }
    }
    return config;
}

}  // namespace

TEST(ConfigFields, TheTableHasEveryMemberOfExperimentConfig) {
    static_assert(std::is_aggregate_v<ExperimentConfig>);
    EXPECT_EQ(configFields().size(), memberCount<ExperimentConfig>());
}

TEST(ConfigFields, NamesAreUniqueAndEveryFieldIsStored) {
    std::set<std::string> keys, settings, json, options;
    for (const ConfigField& field : configFields()) {
        EXPECT_TRUE(keys.insert(field.key).second) << field.key;
        ASSERT_TRUE(*field.settings && *field.json && *field.label) << field.key;
        EXPECT_TRUE(settings.insert(field.settings).second) << field.settings;
        EXPECT_TRUE(json.insert(field.json).second) << field.json;
        // Two fields share an option only through a word ("--repeats auto").
        if (*field.cli && !*field.cli_word)
            EXPECT_TRUE(options.insert(field.cli).second) << field.cli;
        if (*field.cli) EXPECT_TRUE(*field.help) << field.key;
        EXPECT_EQ(findConfigField(field.key), &field);
        EXPECT_TRUE(field.changes & kChangesIdentity) << field.key;
    }
    for (const ConfigField& field : configFields()) {
        if (*field.cli_word) {
            EXPECT_EQ(typeOf(field), FieldType::Bool) << field.key;
            EXPECT_EQ(options.count(field.cli), 1u) << field.key;
        }
        if (field.json_presence == JsonPresence::WithJsonAlong)
            EXPECT_NE(findConfigField(field.json_along), nullptr) << field.key;
    }
    EXPECT_EQ(findConfigField("no-such-field"), nullptr);
}

TEST(ConfigFields, DefaultsAreExperimentConfigsAndReadBackFromTheirText) {
    const ExperimentConfig defaults;
    EXPECT_TRUE(validate(defaults).empty());
    for (const ConfigField& field : configFields()) {
        EXPECT_FALSE(rangeError(field, defaults)) << field.key;
        // The CLI shows each default as valueText and reads it back.
        const auto back = parseValueText(field, valueText(field, defaults));
        ASSERT_TRUE(back) << field.key;
        EXPECT_EQ(*back, valueOf(field, defaults)) << field.key;
    }
    EXPECT_EQ(std::get<long long>(valueOf(*findConfigField("kv-heads"), defaults)), 0);
}

TEST(ConfigFields, EveryFieldChangedDiffersInEveryKey) {
    const ExperimentConfig changed = everyFieldChanged();
    ASSERT_TRUE(validate(changed).empty()) << validate(changed).front().message.english;
    EXPECT_EQ(differingKeys(changed, ExperimentConfig{}), allKeys());
    // The accessors: setting each field's value on a default config rebuilds the changed one.
    ExperimentConfig rebuilt;
    for (const ConfigField& field : configFields())
        EXPECT_TRUE(setValue(field, rebuilt, valueOf(field, changed))) << field.key;
    EXPECT_TRUE(differingKeys(rebuilt, changed).empty());
    EXPECT_TRUE(sameFields(rebuilt, changed, kChangesIdentity));
    EXPECT_FALSE(sameFields(changed, ExperimentConfig{}, kChangesIdentity));
}

TEST(ConfigFields, AValueOfAnotherTypeOrAnUnknownChoiceIsRefused) {
    ExperimentConfig c;
    const ConfigField& block = *findConfigField("block");
    EXPECT_FALSE(setValue(block, c, std::string("cnn")));
    EXPECT_FALSE(setValue(block, c, 3LL));
    EXPECT_EQ(c.block, BlockKind::Ffn);
    EXPECT_TRUE(setValue(block, c, std::string("transformer")));
    EXPECT_EQ(c.block, BlockKind::Transformer);
    EXPECT_FALSE(setValue(*findConfigField("depth"), c, std::string("20")));
    EXPECT_FALSE(setValue(*findConfigField("depth"), c, 1LL << 40));  // beyond an int
    EXPECT_FALSE(parseValueText(*findConfigField("seed"), "-1"));
    EXPECT_FALSE(parseValueText(*findConfigField("width"), "64x"));
    EXPECT_FALSE(parseValueText(*findConfigField("dropout"), "nan"));
    EXPECT_EQ(parseValueText(*findConfigField("precision"), "bf16"),
              FieldValue(std::string("bfloat16")));
    EXPECT_EQ(choiceListText(*findConfigField("optimizer")), "none, sgd or adam");
}

TEST(ConfigFields, RoundTripThroughTheResultsJson) {
    for (const ExperimentConfig& c : {everyFieldChanged(), ExperimentConfig{}}) {
        const std::string text = detail::configToJson(c).dump();
        const ExperimentConfig back =
            detail::configFromJson(nlohmann::json::parse(text), detail::Path{});
        EXPECT_TRUE(differingKeys(back, c).empty()) << text;
    }
    // Optional keys only when set, in the table's order: today's files stay byte for byte. A
    // default run says it used the caching allocator; a system one reads as files did before.
    EXPECT_EQ(detail::configToJson(ExperimentConfig{}).dump(),
              R"({"block":"ffn","depth":20,"width":256,"seq":256,"batch":2,"heads":4,)"
              R"("dropout":0.1,"dtype":"float32","device":"cpu","allocator":"caching",)"
              R"("optimizer":"none","seed":0,"threads":0,"warmup":1,"repeats":6})");
    ExperimentConfig system;
    system.allocator = AllocatorKind::System;
    EXPECT_EQ(detail::configToJson(system).dump(),
              R"({"block":"ffn","depth":20,"width":256,"seq":256,"batch":2,"heads":4,)"
              R"("dropout":0.1,"dtype":"float32","device":"cpu","optimizer":"none","seed":0,)"
              R"("threads":0,"warmup":1,"repeats":6})");
    ExperimentConfig kv;
    kv.kv_heads = 2;
    EXPECT_NE(detail::configToJson(kv).dump().find(R"("heads":4,"kv_heads":2,"dropout")"),
              std::string::npos);
}

// Runs in files from before the allocator field were measured with the C library's malloc:
// without the key a run reads as "system", not as today's default, "caching".
TEST(ConfigFields, AnAbsentAllocatorReadsAsTheSystemOne) {
    nlohmann::json older = detail::configToJson(ExperimentConfig{});
    ASSERT_EQ(older["allocator"], "caching");
    older.erase("allocator");
    EXPECT_EQ(detail::configFromJson(older, detail::Path{}).allocator, AllocatorKind::System);
    older["allocator"] = "system";  // not written so, but read the same
    EXPECT_EQ(detail::configFromJson(older, detail::Path{}).allocator, AllocatorKind::System);
    older["allocator"] = "caching";
    EXPECT_EQ(detail::configFromJson(older, detail::Path{}).allocator, AllocatorKind::Caching);
    older["allocator"] = "jemalloc";
    try {
        detail::configFromJson(older, detail::Path{});
        FAIL() << "an unknown allocator loaded";
    } catch (const ResultsFileError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "allocator: unknown value \"jemalloc\" (expected caching or system)");
    }
    // The CLI's option: the two choices, the default first.
    const ConfigField& field = *findConfigField("allocator");
    EXPECT_STREQ(field.cli, "--allocator");
    EXPECT_EQ(choicesOf(field), (std::vector<std::string>{"caching", "system"}));
    EXPECT_FALSE(field.in_lessons);
    EXPECT_FALSE(parseValueText(field, "malloc"));
}

TEST(ConfigFields, RoundTripThroughTheCommandLine) {
    const ExperimentConfig changed = everyFieldChanged();
    const auto args = cliArguments(changed);
    EXPECT_TRUE(differingKeys(fromCliArguments(args), changed).empty());
    // --repeats auto stands for the adaptive repeats; --repeats 9 is not typed beside it.
    int repeats = 0;
    for (const auto& [option, text] : args) repeats += option == "--repeats";
    EXPECT_EQ(repeats, 2);
    EXPECT_TRUE(
        differingKeys(fromCliArguments(cliArguments(ExperimentConfig{})), ExperimentConfig{})
            .empty());
}

TEST(ConfigFields, RangeMessagesNameTheFieldAndItsRange) {
    const auto messageFor = [](const char* key, auto set) {
        ExperimentConfig c;
        set(c);
        const auto error = rangeError(*findConfigField(key), c);
        return error ? error->message.english : std::string("(none)");
    };
    EXPECT_EQ(messageFor("width", [](ExperimentConfig& c) { c.width = 0; }),
              "width must be between 8 and 16384 (got 0)");
    EXPECT_EQ(messageFor("dropout", [](ExperimentConfig& c) { c.dropout = 1.5; }),
              "dropout must be between 0 and 0.9 (got 1.5)");
    EXPECT_EQ(messageFor("time-limit", [](ExperimentConfig& c) { c.time_limit_s = 0.5; }),
              "time-limit must be between 1 and 86400 seconds (got 0.5)");
    EXPECT_EQ(messageFor("memory-limit", [](ExperimentConfig& c) { c.memory_limit_mib = -5; }),
              "memory-limit must be 0 (no limit) or between 0.001 and 16777216 MiB (got -5)");
    EXPECT_EQ(messageFor("memory-limit", [](ExperimentConfig& c) { c.memory_limit_mib = 0; }),
              "(none)");
    EXPECT_EQ(messageFor("kv-heads", [](ExperimentConfig& c) { c.kv_heads = 300; }),
              "kv-heads must be between 0 and 256 (got 300)");
    EXPECT_EQ(rangeText(*findConfigField("memory-limit")), "0 (no limit) or [0.001, 16777216]");
    EXPECT_EQ(rangeText(*findConfigField("threads")), "[0, 512]");
}

TEST(ConfigFields, KvHeadsMustDivideHeadsWhereHeadsMatter) {
    ExperimentConfig c;
    c.block = BlockKind::Llama;
    c.heads = 4;
    for (int kv : {0, 1, 2, 4}) {
        c.kv_heads = kv;
        EXPECT_TRUE(validate(c).empty()) << kv;
    }
    c.kv_heads = 3;
    auto errors = validate(c);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].field, "kv-heads");
    EXPECT_EQ(errors[0].message.code, MessageCode::KvHeadsMustDivideHeads);
    EXPECT_EQ(errors[0].message.english, "kv-heads must divide heads (heads 4, kv-heads 3)");
    for (BlockKind other : {BlockKind::Ffn, BlockKind::Transformer}) {
        c.block = other;  // only the llama block reads it: elsewhere only its range is checked
        EXPECT_TRUE(validate(c).empty());
    }
    c.kv_heads = -1;
    errors = validate(c);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].field, "kv-heads");
}

TEST(ConfigFields, WhatEachFieldChanges) {
    ExperimentConfig kv;
    kv.kv_heads = 2;
    const ExperimentConfig d;
    // kv_heads: another cost key, another run and other work (the llama block reads it).
    EXPECT_NE(fieldsKey(kv, kChangesCost), fieldsKey(d, kChangesCost));
    EXPECT_FALSE(sameFields(kv, d, kChangesIdentity));
    EXPECT_FALSE(sameFields(kv, d, kChangesWork));
    // Depth reaches the cost key only through the measured chain (costMeasurementDepth).
    ExperimentConfig deeper;
    deeper.depth = 40;
    EXPECT_EQ(fieldsKey(deeper, kChangesCost), fieldsKey(d, kChangesCost));
    EXPECT_FALSE(sameFields(deeper, d, kChangesWork));
    ExperimentConfig threads;
    threads.threads = 2;
    EXPECT_TRUE(sameFields(threads, d, kChangesWork));
    EXPECT_FALSE(sameFields(threads, d, kChangesMachine));
    // The allocator changes the cost model's times and what a step's time is compared with.
    ExperimentConfig system;
    system.allocator = AllocatorKind::System;
    EXPECT_NE(fieldsKey(system, kChangesCost), fieldsKey(d, kChangesCost));
    EXPECT_FALSE(sameFields(system, d, kChangesWork));
    ExperimentConfig limit;
    limit.memory_limit_mib = 64;
    EXPECT_EQ(fieldsKey(limit, kChangesCost), fieldsKey(d, kChangesCost));
}

TEST(ConfigFields, DisplayTextIsWhatTheComparisonShows) {
    ExperimentConfig c;
    EXPECT_EQ(displayText(*findConfigField("heads"), c), "-");  // ffn has no heads
    EXPECT_EQ(displayText(*findConfigField("memory-limit"), c), "no limit");
    EXPECT_EQ(displayText(*findConfigField("threads"), c), "default");
    EXPECT_EQ(displayText(*findConfigField("keep-grads"), c), "no");
    c.block = BlockKind::Transformer;
    c.memory_limit_mib = 512;
    EXPECT_EQ(displayText(*findConfigField("heads"), c), "4");
    EXPECT_EQ(displayText(*findConfigField("kv-heads"), c), "-");  // llama's
    EXPECT_EQ(displayText(*findConfigField("dropout"), c), "0.1");
    EXPECT_EQ(displayText(*findConfigField("vocab"), c), "no embedding or LM head");
    EXPECT_EQ(displayText(*findConfigField("loss-chunks"), c), "-");  // without an LM head
    c.block = BlockKind::Llama;
    EXPECT_EQ(displayText(*findConfigField("kv-heads"), c), "same as heads");
    EXPECT_EQ(displayText(*findConfigField("dropout"), c), "-");
    EXPECT_EQ(displayText(*findConfigField("memory-limit"), c), "512 MiB");
    // Exact: configs that differ in the seventh digit must not read the same.
    c.rope_theta = 500000.5;
    EXPECT_EQ(displayText(*findConfigField("rope-theta"), c), "500000.5");
    c.rms_norm_eps = 1e-6;
    EXPECT_EQ(displayText(*findConfigField("rms-norm-eps"), c), "1e-06");
}
