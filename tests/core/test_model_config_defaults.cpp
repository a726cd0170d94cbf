// A config.json read as transformers' configuration classes read it (LlamaConfig,
// MistralConfig, Qwen2Config of the transformers pinned in packaging/torch-python/
// requirements.txt): one test per default the reader applies, per precedence it resolves
// (dtype over torch_dtype, rope_parameters over rope_theta), and a refusal for each field
// transformers would build into another model than the lab's. tests/side_by_side/
// test_transformers_config_peer.py checks the same against the real classes.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "ckptlab/formats/model_config.h"
#include "ckptlab/model/config.h"

using namespace ckptlab;
using nlohmann::json;

namespace {

// The shape only: every other field is left to the class's default.
json shape(const char* architecture, const char* modelType, int heads = 32) {
    return {{"architectures", {architecture}},
            {"model_type", modelType},
            {"hidden_size", 64 * heads},
            {"intermediate_size", 256},
            {"num_hidden_layers", 2},
            {"num_attention_heads", heads},
            {"vocab_size", 100}};
}
json llama(int heads = 32) { return shape("LlamaForCausalLM", "llama", heads); }
json mistral(int heads = 32) {
    json j = shape("MistralForCausalLM", "mistral", heads);
    j["sliding_window"] = nullptr;  // full attention, so the other defaults can be read
    return j;
}
json qwen2(int heads = 32) { return shape("Qwen2ForCausalLM", "qwen2", heads); }

ModelDescription parse(const json& j) { return parseModelConfig(j.dump(), "test"); }

json with(json j, const std::string& key, const json& value) {
    j[key] = value;
    return j;
}

// The refusal of `j`: its field, and a message that says `words`.
void expectRefused(const json& j, const std::string& field, const std::string& words) {
    try {
        parse(j);
        ADD_FAILURE() << "accepted: " << j.dump();
    } catch (const ModelConfigError& e) {
        EXPECT_EQ(e.field(), field) << e.what();
        EXPECT_EQ(std::string(e.what()).rfind(field + ": ", 0), 0u) << e.what();
        EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
}

bool hasNote(const ModelDescription& m, const std::string& words) {
    for (const std::string& note : m.notes)
        if (note.find(words) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST(TransformersDefaults, LlamaKeyValueHeadsAreTheHeads) {
    EXPECT_EQ(parse(llama(32)).num_key_value_heads, 32);
    EXPECT_EQ(parse(with(llama(16), "num_key_value_heads", nullptr)).num_key_value_heads, 16);
}

TEST(TransformersDefaults, MistralKeyValueHeadsAreEight) {
    const ModelDescription m = parse(mistral(32));
    EXPECT_EQ(m.num_key_value_heads, 8);
    EXPECT_TRUE(hasNote(m, "8 key/value heads, MistralConfig's default"));
    ExperimentConfig c;
    applyModel(m, c);
    EXPECT_EQ(kvHeadsOf(c), 8);
    // Eight do not divide four heads: transformers would build a model that cannot run.
    expectRefused(mistral(4), "num_key_value_heads",
                  "(4 heads, 8 key/value heads, MistralConfig's default");
    // MistralConfig's field is an int: null is refused.
    expectRefused(with(mistral(), "num_key_value_heads", nullptr), "num_key_value_heads",
                  "null is refused by transformers' MistralConfig");
}

TEST(TransformersDefaults, Qwen2KeyValueHeadsAreThirtyTwo) {
    const ModelDescription m = parse(qwen2(64));
    EXPECT_EQ(m.num_key_value_heads, 32);
    EXPECT_TRUE(hasNote(m, "32 key/value heads, Qwen2Config's default"));
    expectRefused(qwen2(28), "num_key_value_heads", "(28 heads, 32 key/value heads");
    // Null is the heads in Qwen2Config (its __post_init__), not the default 32.
    EXPECT_EQ(parse(with(qwen2(28), "num_key_value_heads", nullptr)).num_key_value_heads, 28);
}

TEST(TransformersDefaults, MistralSlidingWindowIs4096) {
    json j = mistral();
    j.erase("sliding_window");
    expectRefused(j, "sliding_window",
                  "left out, which MistralConfig reads as sliding-window attention (4096 tokens)");
    EXPECT_NO_THROW(parse(with(j, "sliding_window", nullptr)));
}

TEST(TransformersDefaults, Qwen2SlidesOnlyFromMaxWindowLayers) {
    // use_sliding_window false (the default): no window whatever sliding_window says.
    EXPECT_NO_THROW(parse(with(qwen2(), "sliding_window", 64)));
    // max_window_layers 28 by default: layers 28 on slide, none of two.
    EXPECT_NO_THROW(parse(with(qwen2(), "use_sliding_window", true)));
    json sliding = with(qwen2(), "use_sliding_window", true);
    sliding["num_hidden_layers"] = 30;
    expectRefused(sliding, "use_sliding_window", "layers 28 to 29 use sliding-window attention");
    sliding["sliding_window"] = nullptr;  // no window: every layer full attention
    EXPECT_NO_THROW(parse(sliding));
    expectRefused(with(qwen2(), "layer_types", {"full_attention", "sliding_attention"}),
                  "layer_types[1]", "\"sliding_attention\" is not modelled");
    expectRefused(with(llama(), "layer_types", {"full_attention"}), "layer_types",
                  "num_hidden_layers (2) names (got 1 names)");
    EXPECT_NO_THROW(parse(with(llama(), "layer_types", {"full_attention", "full_attention"})));
}

TEST(TransformersDefaults, MaxPositionEmbeddings) {
    EXPECT_EQ(parse(llama()).max_position_embeddings, 2048);
    EXPECT_EQ(parse(mistral()).max_position_embeddings, 131072);
    EXPECT_EQ(parse(qwen2()).max_position_embeddings, 32768);
    EXPECT_EQ(parse(with(llama(), "max_position_embeddings", 8192)).max_position_embeddings, 8192);
    expectRefused(with(llama(), "max_position_embeddings", 4096.0), "max_position_embeddings",
                  "whole number");
    expectRefused(with(llama(), "max_position_embeddings", nullptr), "max_position_embeddings",
                  "null is refused by transformers' LlamaConfig");
}

TEST(TransformersDefaults, NormEpsilonTiesActivationAndBiases) {
    for (const json& j : {llama(), mistral(), qwen2()}) {
        const ModelDescription m = parse(j);
        SCOPED_TRACE(m.architecture);
        EXPECT_DOUBLE_EQ(m.rms_norm_eps, 1e-6);
        EXPECT_FALSE(m.tie_word_embeddings);
        EXPECT_DOUBLE_EQ(m.rope_theta, 10000);
        EXPECT_EQ(m.head_dim, 0);  // hidden_size / num_attention_heads
        EXPECT_EQ(m.attention_bias, m.architecture == "Qwen2ForCausalLM");
    }
    // transformers' classes type rms_norm_eps as a float and refuse 1 for it.
    expectRefused(with(llama(), "rms_norm_eps", 1), "rms_norm_eps", "with a point or an exponent");
    expectRefused(with(llama(), "tie_word_embeddings", nullptr), "tie_word_embeddings",
                  "null is refused");
    expectRefused(with(llama(), "hidden_act", nullptr), "hidden_act", "null is refused");
    EXPECT_NO_THROW(parse(with(llama(), "hidden_act", "swish")));  // ACT2FN's SiLU too
    // Qwen2 reads head_dim as given: null would build heads without a width.
    expectRefused(with(qwen2(), "head_dim", nullptr), "head_dim", "heads of no width");
    EXPECT_EQ(parse(with(llama(), "head_dim", nullptr)).head_dim, 0);
    // LlamaConfig refuses a hidden_size that is not a whole number of heads, head_dim or not.
    json odd = with(llama(4), "hidden_size", 258);
    odd["head_dim"] = 64;
    expectRefused(odd, "num_attention_heads", "LlamaConfig refuses it");
    odd["architectures"] = {"MistralForCausalLM"};
    odd["model_type"] = "mistral";
    odd["sliding_window"] = nullptr;
    odd["num_key_value_heads"] = 4;
    EXPECT_EQ(parse(odd).head_dim, 64);
}

TEST(TransformersDefaults, DtypeWinsOverTorchDtype) {
    json j = with(with(llama(), "torch_dtype", "float32"), "dtype", "bfloat16");
    const ModelDescription both = parse(j);
    EXPECT_EQ(both.torch_dtype, "bfloat16");
    EXPECT_TRUE(hasNote(both, "torch_dtype \"float32\" is ignored"));
    ExperimentConfig c;
    applyModel(both, c);
    EXPECT_EQ(c.dtype, DType::MixedBFloat16);
    // A null dtype is left out: torch_dtype counts.
    EXPECT_EQ(parse(with(j, "dtype", nullptr)).torch_dtype, "float32");
    // What is ignored is not refused, what counts is.
    EXPECT_NO_THROW(parse(with(j, "torch_dtype", "int8")));
    expectRefused(with(j, "dtype", "int8"), "dtype", "\"int8\" is not modelled");
}

TEST(TransformersDefaults, RopeParametersGiveTheBase) {
    const json params = {{"rope_type", "default"}, {"rope_theta", 1e6}};
    EXPECT_DOUBLE_EQ(parse(with(llama(), "rope_parameters", params)).rope_theta, 1e6);
    // A top-level rope_theta only fills a rope_parameters without one.
    const ModelDescription both =
        parse(with(with(llama(), "rope_parameters", params), "rope_theta", 5e5));
    EXPECT_DOUBLE_EQ(both.rope_theta, 1e6);
    EXPECT_TRUE(hasNote(both, "rope_theta 500000 is ignored: rope_parameters.rope_theta 1000000"));
    EXPECT_DOUBLE_EQ(
        parse(with(with(llama(), "rope_parameters", {{"rope_type", "default"}}), "rope_theta", 5e5))
            .rope_theta,
        5e5);
    // A non-empty rope_scaling replaces rope_parameters: its base is the top-level one.
    json scaled = with(llama(), "rope_parameters", params);
    scaled["rope_scaling"] = {{"rope_type", "linear"}, {"factor", 2.0}};
    scaled["rope_theta"] = 5e5;
    const ModelDescription replaced = parse(scaled);
    EXPECT_DOUBLE_EQ(replaced.rope_theta, 5e5);
    EXPECT_EQ(replaced.rope_scaling_type, "linear");
    EXPECT_DOUBLE_EQ(replaced.rope_scaling_factor, 2);
    EXPECT_TRUE(hasNote(replaced, "rope_parameters is ignored"));
    // An empty one does not.
    scaled["rope_scaling"] = json::object();
    EXPECT_DOUBLE_EQ(parse(scaled).rope_theta, 1e6);
    // Null bases build no rotary embedding in transformers.
    expectRefused(with(llama(), "rope_theta", nullptr), "rope_theta", "without a base");
    expectRefused(with(llama(), "rope_parameters", {{"rope_theta", nullptr}}),
                  "rope_parameters.rope_theta", "without a base");
}

TEST(TransformersDefaults, RopePerLayerTypeIsRefused) {
    const json perType = {{"full_attention", {{"rope_type", "default"}, {"rope_theta", 1e6}}}};
    for (const json& j : {llama(), mistral(), qwen2()})
        expectRefused(with(j, "rope_parameters", perType), "rope_parameters.full_attention",
                      "a rotary embedding per layer type is not read");
}
