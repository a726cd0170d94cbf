// Hugging Face config.json files (core/src/formats/model_config.cpp, model_presets.cpp): every
// preset in resources/models maps to its published shape and parameter count (worked out by
// hand from the shapes in resources/models/README.md); what the lab does not model is refused
// naming the field; hostile text is refused with a ModelConfigError, never a crash.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ckptlab/formats/model_config.h"
#include "ckptlab/model/config.h"

using namespace ckptlab;
using nlohmann::json;

namespace {

// A small valid Llama config; each refusal test changes one thing.
json smallLlama() {
    return {{"architectures", {"LlamaForCausalLM"}},
            {"model_type", "llama"},
            {"hidden_size", 64},
            {"intermediate_size", 160},
            {"num_hidden_layers", 2},
            {"num_attention_heads", 4},
            {"num_key_value_heads", 2},
            {"vocab_size", 100},
            {"rms_norm_eps", 1e-5},
            {"rope_theta", 500000.0},
            {"hidden_act", "silu"},
            {"attention_bias", false},
            {"mlp_bias", false},
            {"tie_word_embeddings", false},
            {"torch_dtype", "bfloat16"}};
}

ModelDescription parse(const json& j) { return parseModelConfig(j.dump(), "test"); }

// The error parsing `text` gives; fails the test when it parses.
ModelConfigError refusal(const std::string& text) {
    try {
        parseModelConfig(text, "test");
    } catch (const ModelConfigError& e) {
        return e;
    }
    ADD_FAILURE() << "accepted: " << text.substr(0, 200);
    return ModelConfigError("", "");
}

// Checks that `j` is refused naming `field` (as field() and at the start of the message) and
// saying `words`.
void expectRefused(const json& j, const std::string& field, const std::string& words) {
    const ModelConfigError e = refusal(j.dump());
    EXPECT_EQ(e.field(), field) << e.what();
    EXPECT_EQ(std::string(e.what()).rfind(field + ": ", 0), 0u) << e.what();
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
}

json with(json j, const std::string& key, const json& value) {
    j[key] = value;
    return j;
}
json without(json j, const std::string& key) {
    j.erase(key);
    return j;
}

struct Published {
    const char* preset;
    const char* architecture;
    int hidden, intermediate, layers, heads, kvHeads, vocab;
    bool tied;
    int headDim;  // as the file gives it, 0 when it does not
    double ropeTheta, rmsNormEps;
    const char* ropeScaling;
    bool qkvBias;
    long long parameters;  // worked out by hand from the shape (resources/models/README.md)
};

// The published numbers (Hugging Face repositories, checked 2026-12-02).
const Published kPublished[] = {
    {"smollm2-135m", "LlamaForCausalLM", 576, 1536, 30, 9, 3, 49152, true, 0, 100000, 1e-5, "",
     false, 134515008LL},
    {"llama-3.2-1b", "LlamaForCausalLM", 2048, 8192, 16, 32, 8, 128256, true, 64, 500000, 1e-5,
     "llama3", false, 1235814400LL},
    {"llama-3.1-8b", "LlamaForCausalLM", 4096, 14336, 32, 32, 8, 128256, false, 0, 500000, 1e-5,
     "llama3", false, 8030261248LL},
    {"qwen2.5-7b", "Qwen2ForCausalLM", 3584, 18944, 28, 28, 4, 152064, false, 0, 1000000, 1e-6, "",
     true, 7615616512LL},
    {"mistral-7b-v0.3", "MistralForCausalLM", 4096, 14336, 32, 32, 8, 32768, false, 0, 1000000,
     1e-5, "", false, 7248023552LL},
    {"llama-3.1-70b", "LlamaForCausalLM", 8192, 28672, 80, 64, 8, 128256, false, 0, 500000, 1e-5,
     "llama3", false, 70553706496LL},
};

// A scratch folder, removed at the end.
struct ScratchDir {
    std::filesystem::path path;
    ScratchDir() {
        path = std::filesystem::temp_directory_path() /
               ("ckptlab_model_config_" + std::to_string(::getpid()));
        std::filesystem::create_directories(path);
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    std::string write(const std::string& name, const std::string& text) const {
        const std::string file = (path / name).string();
        std::ofstream(file, std::ios::binary) << text;
        return file;
    }
};

}  // namespace

TEST(ModelPresets, AllSixAreFoundSorted) {
    EXPECT_FALSE(modelsDirectory().empty());
    EXPECT_EQ(modelPresetNames(),
              (std::vector<std::string>{"llama-3.1-70b", "llama-3.1-8b", "llama-3.2-1b",
                                        "mistral-7b-v0.3", "qwen2.5-7b", "smollm2-135m"}));
}

TEST(ModelPresets, EachMapsToItsPublishedShape) {
    for (const Published& p : kPublished) {
        SCOPED_TRACE(p.preset);
        const ModelDescription m = loadModel(p.preset);
        EXPECT_EQ(m.name, p.preset);
        EXPECT_EQ(m.architecture, p.architecture);
        EXPECT_EQ(m.head_dim, p.headDim);
        EXPECT_EQ(m.rope_scaling_type, p.ropeScaling);
        EXPECT_EQ(m.torch_dtype, "bfloat16");

        ExperimentConfig c;
        c.seq = 4096;  // kept: the model does not set the batch's shape
        applyModel(m, c);
        EXPECT_EQ(c.block, BlockKind::Llama);
        EXPECT_EQ(c.width, p.hidden);
        EXPECT_EQ(c.ffn_width, p.intermediate);
        EXPECT_EQ(ffnWidthOf(c), p.intermediate);
        EXPECT_EQ(c.depth, p.layers);
        EXPECT_EQ(c.heads, p.heads);
        EXPECT_EQ(kvHeadsOf(c), p.kvHeads);
        EXPECT_EQ(c.vocab, p.vocab);
        EXPECT_EQ(c.tie_embeddings, p.tied);
        EXPECT_EQ(c.head_dim, 0);  // every preset's heads are hidden / heads wide
        EXPECT_EQ(headDimOf(c), p.hidden / p.heads);
        EXPECT_DOUBLE_EQ(c.rope_theta, p.ropeTheta);
        EXPECT_DOUBLE_EQ(c.rms_norm_eps, p.rmsNormEps);
        EXPECT_EQ(c.qkv_bias, p.qkvBias);
        EXPECT_EQ(c.dtype, DType::MixedBFloat16);
        EXPECT_EQ(c.attention, AttentionKind::MemoryEfficient);
        EXPECT_EQ(c.seq, 4096);
        EXPECT_TRUE(validate(c).empty()) << validate(c).front().message.english;
        EXPECT_EQ(modelParameterCount(c), p.parameters);
    }
}

TEST(ModelPresets, NotesSayWhatTheLabTakesDifferently) {
    const ModelDescription llama = loadModel("llama-3.1-8b");
    ASSERT_EQ(llama.notes.size(), 1u);
    EXPECT_NE(llama.notes[0].find("llama3 (factor 8)"), std::string::npos) << llama.notes[0];
    EXPECT_NE(llama.notes[0].find("not memory or time"), std::string::npos) << llama.notes[0];
    EXPECT_TRUE(loadModel("qwen2.5-7b").notes.empty());  // sliding_window present, not used
    EXPECT_TRUE(loadModel("mistral-7b-v0.3").notes.empty());
}

TEST(ModelParameterCount, SmallShapesByHand) {
    // Llama block, width 64, 4 heads of 16, 2 kv heads, MLP 160, vocab 100, 2 layers:
    // per layer 2*64 + 2*64*16*(4+2) + 3*64*160 = 128 + 12288 + 30720 = 43136; ends untied
    // 2*100*64 + 64 = 12864.
    ExperimentConfig c;
    applyModel(parse(smallLlama()), c);
    EXPECT_EQ(modelParameterCount(c), 2 * 43136 + 12864);
    c.tie_embeddings = true;
    EXPECT_EQ(modelParameterCount(c), 2 * 43136 + 6464);
    c.qkv_bias = true;  // + 16 * (4 + 2*2) per layer
    EXPECT_EQ(modelParameterCount(c), 2 * (43136 + 128) + 6464);
    c.vocab = 0;  // no ends: the blocks alone
    EXPECT_EQ(modelParameterCount(c), 2 * (43136 + 128));
    // The seed's FFN block, width 8, MLP 32: LayerNorm 16, 8x32 + 32, 32x8 + 8 = 568.
    ExperimentConfig ffn;
    ffn.width = 8;
    ffn.depth = 3;
    EXPECT_EQ(modelParameterCount(ffn), 3 * 568);
}

TEST(ModelConfig, CommandLineValuesSetAfterTheModelStay) {
    // What the CLI does: the model first, then each typed option.
    ExperimentConfig c;
    applyModel(loadModel("llama-3.2-1b"), c);
    c.depth = 2;
    c.width = 256;
    c.dtype = DType::Float32;
    c.vocab = 1000;
    EXPECT_EQ(c.depth, 2);
    EXPECT_EQ(c.dtype, DType::Float32);
    // head_dim 64 in the file is what the heads imply, so it is not pinned: a narrower width
    // gives narrower heads (256 / 32 = 8) instead of a config the width cannot hold.
    EXPECT_EQ(headDimOf(c), 8);
    EXPECT_EQ(kvHeadsOf(c), 8);
    EXPECT_EQ(ffnWidthOf(c), 8192);
    EXPECT_TRUE(validate(c).empty());

    // A head_dim the heads do not imply (Mistral-Nemo style: 32 heads of 128 in 5120) stays.
    json nemo = with(with(smallLlama(), "hidden_size", 5120), "head_dim", 128);
    nemo["num_attention_heads"] = 32;
    nemo["num_key_value_heads"] = 8;
    ExperimentConfig n;
    applyModel(parse(nemo), n);
    EXPECT_EQ(n.head_dim, 128);
    n.width = 1024;
    EXPECT_EQ(headDimOf(n), 128);
}

TEST(ModelConfig, ArchitecturesAndModelType) {
    const json base = smallLlama();
    expectRefused(with(base, "architectures", {"MixtralForCausalLM"}), "architectures[0]",
                  "LlamaForCausalLM, MistralForCausalLM or Qwen2ForCausalLM");
    expectRefused(with(base, "architectures", "LlamaForCausalLM"), "architectures",
                  "a list of one name");
    expectRefused(with(base, "architectures", {"LlamaForCausalLM", "MistralForCausalLM"}),
                  "architectures", "got 2 names");
    expectRefused(with(base, "architectures", {7}), "architectures[0]", "got 7");
    expectRefused(with(base, "model_type", "qwen2"), "model_type",
                  "\"qwen2\" is not LlamaForCausalLM's \"llama\"");
    expectRefused(with(without(base, "architectures"), "model_type", "gpt2"), "architectures",
                  "\"gpt2\" is not llama, mistral or qwen2");
    expectRefused(without(without(base, "architectures"), "model_type"), "architectures",
                  "model_type is missing too");

    const ModelDescription fromType = parse(with(
        with(without(base, "architectures"), "model_type", "mistral"), "sliding_window", nullptr));
    EXPECT_EQ(fromType.architecture, "MistralForCausalLM");
    ASSERT_FALSE(fromType.notes.empty());
    EXPECT_NE(fromType.notes[0].find("model_type"), std::string::npos);
    // transformers builds the model_type's class: another model than the architecture's.
    expectRefused(with(base, "model_type", "gemma"), "model_type",
                  "\"gemma\" is not LlamaForCausalLM's \"llama\"");
    json qwen = with(base, "architectures", {"Qwen2ForCausalLM"});
    expectRefused(with(qwen, "model_type", "qwen2_moe"), "model_type",
                  "\"qwen2_moe\" is not Qwen2ForCausalLM's \"qwen2\"");
    // Left out, the architecture's own.
    EXPECT_EQ(parse(without(qwen, "model_type")).model_type, "qwen2");
}

TEST(ModelConfig, IntegersAreJsonIntegersInTheLabsRange) {
    const json base = smallLlama();
    expectRefused(with(base, "hidden_size", 64.0), "hidden_size", "from 8 to 16384 (got 64.0)");
    expectRefused(with(base, "hidden_size", "64"), "hidden_size", "not a string");
    expectRefused(with(base, "hidden_size", -64), "hidden_size", "got -64");
    expectRefused(with(base, "hidden_size", 16385), "hidden_size", "from 8 to 16384");
    expectRefused(with(base, "hidden_size", 18446744073709551615ULL), "hidden_size",
                  "got 18446744073709551615");
    expectRefused(with(base, "hidden_size", nullptr), "hidden_size", "missing");
    expectRefused(with(base, "num_hidden_layers", 513), "num_hidden_layers", "from 1 to 512");
    expectRefused(with(base, "num_attention_heads", 0), "num_attention_heads", "from 1 to 256");
    expectRefused(with(base, "intermediate_size", 262145), "intermediate_size", "from 1 to 262144");
    expectRefused(with(base, "vocab_size", 2147483648LL), "vocab_size", "from 1 to 2147483647");
    expectRefused(without(base, "vocab_size"), "vocab_size", "missing");
    expectRefused(with(base, "num_key_value_heads", 3), "num_key_value_heads",
                  "must divide num_attention_heads (4 heads, 3 key/value heads)");
    expectRefused(with(base, "num_key_value_heads", 300), "num_key_value_heads", "from 1 to 256");
    expectRefused(with(base, "head_dim", 5), "head_dim", "must be even");
    expectRefused(with(base, "head_dim", 2048), "head_dim", "from 1 to 1024");
    expectRefused(with(base, "hidden_size", 30), "num_attention_heads",
                  "not a whole number of heads");
    expectRefused(with(base, "rms_norm_eps", 0.0), "rms_norm_eps", "from 1e-12 to 1");
    expectRefused(with(base, "rope_theta", 0.5), "rope_theta", "from 1 to 1000000000");
    expectRefused(with(base, "rope_theta", "big"), "rope_theta", "got \"big\"");
    expectRefused(with(base, "tie_word_embeddings", "yes"), "tie_word_embeddings", "true or false");

    // Absent optional fields: LlamaConfig's defaults.
    const ModelDescription m = parse(without(without(base, "num_key_value_heads"), "rope_theta"));
    EXPECT_EQ(m.num_key_value_heads, 4);
    EXPECT_DOUBLE_EQ(m.rope_theta, 10000);
    ExperimentConfig c;
    applyModel(m, c);
    EXPECT_EQ(c.kv_heads, 0);  // implied by the heads, so a --heads override keeps it derived
    EXPECT_EQ(kvHeadsOf(c), 4);
}

TEST(ModelConfig, WhatTheLabDoesNotModelIsRefusedByName) {
    const json base = smallLlama();
    expectRefused(with(base, "num_local_experts", 8), "num_local_experts", "mixture of experts");
    expectRefused(with(base, "num_experts", 60), "num_experts", "mixture of experts");
    expectRefused(with(base, "num_experts_per_tok", 2), "num_experts_per_tok",
                  "mixture of experts");
    EXPECT_NO_THROW(parse(with(base, "num_local_experts", 0)));
    expectRefused(with(base, "hidden_act", "gelu"), "hidden_act", "SwiGLU (silu)");
    expectRefused(with(base, "mlp_bias", true), "mlp_bias", "no biases");
    expectRefused(with(base, "attention_bias", true), "attention_bias", "o_proj");

    json mistral = with(base, "architectures", {"MistralForCausalLM"});
    mistral["model_type"] = "mistral";
    mistral["sliding_window"] = nullptr;
    expectRefused(with(mistral, "sliding_window", 4096), "sliding_window",
                  "sliding-window attention (4096 tokens)");
    // MistralForCausalLM has no biases to switch on: transformers ignores the fields.
    const ModelDescription unbiased =
        parse(with(with(mistral, "attention_bias", true), "mlp_bias", true));
    EXPECT_FALSE(unbiased.attention_bias);
    ASSERT_EQ(unbiased.notes.size(), 2u);
    EXPECT_NE(unbiased.notes[0].find("attention_bias is ignored"), std::string::npos);
    EXPECT_NO_THROW(parse(mistral));
    // Llama does not read sliding_window at all.
    EXPECT_NO_THROW(parse(with(base, "sliding_window", 4096)));

    json qwen = with(base, "architectures", {"Qwen2ForCausalLM"});
    qwen["model_type"] = "qwen2";
    // Qwen2 slides only the layers from max_window_layers (28) on: none of these two.
    EXPECT_NO_THROW(parse(with(qwen, "use_sliding_window", true)));
    expectRefused(with(with(qwen, "use_sliding_window", true), "max_window_layers", 1),
                  "use_sliding_window", "layers 1 to 1 use sliding-window attention (4096 tokens)");
    qwen["sliding_window"] = 131072;  // present but unused
    qwen["use_sliding_window"] = false;
    // q, k and v biases whatever attention_bias says; no o_proj bias to refuse.
    for (const bool bias : {false, true}) {
        ExperimentConfig c;
        applyModel(parse(with(qwen, "attention_bias", bias)), c);
        EXPECT_TRUE(c.qkv_bias);
    }
}

TEST(ModelConfig, RopeScaling) {
    const json base = smallLlama();
    const ModelDescription linear =
        parse(with(base, "rope_scaling", {{"type", "linear"}, {"factor", 2.0}}));
    EXPECT_EQ(linear.rope_scaling_type, "linear");
    ASSERT_EQ(linear.notes.size(), 1u);
    EXPECT_NE(linear.notes[0].find("linear (factor 2)"), std::string::npos) << linear.notes[0];
    for (const char* type : {"dynamic", "yarn"})
        EXPECT_EQ(parse(with(base, "rope_scaling", {{"rope_type", type}, {"factor", 4.0}}))
                      .rope_scaling_type,
                  type);
    EXPECT_EQ(parse(with(base, "rope_scaling",
                         {{"rope_type", "longrope"}, {"short_factor", {1}}, {"long_factor", {2}}}))
                  .rope_scaling_type,
              "longrope");
    // transformers refuses a scaling without its required keys.
    expectRefused(with(base, "rope_scaling", {{"rope_type", "llama3"}, {"factor", 8.0}}),
                  "rope_scaling.low_freq_factor", "llama3 scaling needs it");
    expectRefused(with(base, "rope_scaling", {{"rope_type", "linear"}}), "rope_scaling.factor",
                  "missing");
    // The factor is a number of at least 1.
    expectRefused(with(base, "rope_scaling", {{"type", "linear"}, {"factor", -2.0}}),
                  "rope_scaling.factor", "must be a number from 1 to 1000000000 (got -2.0)");
    expectRefused(with(base, "rope_scaling", {{"type", "linear"}, {"factor", "8"}}),
                  "rope_scaling.factor", "(got \"8\")");
    const ModelDescription plain = parse(with(base, "rope_scaling", {{"rope_type", "default"}}));
    EXPECT_EQ(plain.rope_scaling_type, "");
    EXPECT_TRUE(plain.notes.empty());
    EXPECT_TRUE(parse(with(base, "rope_scaling", nullptr)).notes.empty());
    expectRefused(with(base, "rope_scaling", {{"rope_type", "mrope"}}), "rope_scaling.rope_type",
                  "default, linear, dynamic, llama3, yarn or longrope");
    expectRefused(with(base, "rope_scaling", {{"type", 3}}), "rope_scaling.type",
                  "3 is not a rotary scaling");
    expectRefused(with(base, "rope_scaling", json::array({1, 2})), "rope_scaling",
                  "an object or null");
    expectRefused(with(base, "rope_scaling", {{"factor", 2.0}}), "rope_scaling", "no rope_type");
    // Newer files: the base and the scaling in rope_parameters.
    const ModelDescription newer = parse(with(without(base, "rope_theta"), "rope_parameters",
                                              {{"rope_type", "default"}, {"rope_theta", 1e6}}));
    EXPECT_DOUBLE_EQ(newer.rope_theta, 1e6);
    EXPECT_EQ(newer.rope_scaling_type, "");
}

TEST(ModelConfig, TorchDtypePicksThePrecision) {
    const json base = smallLlama();
    const auto precision = [](const ModelDescription& m) {
        ExperimentConfig c;
        applyModel(m, c);
        return c.dtype;
    };
    EXPECT_EQ(precision(parse(base)), DType::MixedBFloat16);
    EXPECT_TRUE(parse(base).notes.empty());
    EXPECT_EQ(precision(parse(with(base, "torch_dtype", "float32"))), DType::Float32);
    const ModelDescription fp16 = parse(with(base, "torch_dtype", "float16"));
    EXPECT_EQ(precision(fp16), DType::MixedBFloat16);
    ASSERT_EQ(fp16.notes.size(), 1u);
    EXPECT_NE(fp16.notes[0].find("same bytes"), std::string::npos) << fp16.notes[0];
    const ModelDescription missing = parse(without(base, "torch_dtype"));
    EXPECT_EQ(precision(missing), DType::MixedBFloat16);
    ASSERT_EQ(missing.notes.size(), 1u);
    EXPECT_NE(missing.notes[0].find("no dtype"), std::string::npos);
    // The newer name.
    EXPECT_EQ(precision(parse(with(without(base, "torch_dtype"), "dtype", "float32"))),
              DType::Float32);
    expectRefused(with(base, "torch_dtype", "int8"), "torch_dtype", "bfloat16, float16");
    expectRefused(with(base, "torch_dtype", 16), "torch_dtype", "must be a string");
}

TEST(ModelConfig, HostileTextIsRefused) {
    const std::string good = smallLlama().dump();
    const auto message = [](const std::string& text) { return std::string(refusal(text).what()); };
    // A duplicate key: which of the two would count?
    const ModelConfigError twice = refusal(R"({"hidden_size": 64, "hidden_size": 4096})");
    EXPECT_EQ(twice.field(), "hidden_size");
    EXPECT_NE(std::string(twice.what()).find("duplicate key"), std::string::npos);
    // Named by its path.
    const ModelConfigError inner =
        refusal(R"({"rope_scaling": {"factor": 8.0, "rope_type": "llama3", "factor": 2.0}})");
    EXPECT_EQ(inner.field(), "rope_scaling.factor");
    EXPECT_EQ(std::string(inner.what()).rfind("rope_scaling.factor: duplicate key", 0), 0u)
        << inner.what();
    EXPECT_NE(message(R"({"a": [{"b": 1}, {"b": 1, "b": 2}]})").find("a[1].b: duplicate key"),
              std::string::npos);
    // The same key in two objects is fine.
    EXPECT_NO_THROW(parseModelConfig(
        good.substr(0, good.size() - 1) + R"(,"x": {"factor": 1}, "y": {"factor": 2}})", "t"));

    EXPECT_NE(message(std::string(100000, '[') + std::string(100000, ']')).find("nested more"),
              std::string::npos);
    EXPECT_NE(message(std::string(65, '[')).find("nested more"), std::string::npos);
    std::string nul = good;
    nul[10] = '\0';
    EXPECT_NE(message(nul).find("a NUL byte at byte 11"), std::string::npos);
    EXPECT_NE(message("{\"model_type\": \"ll\xff\"}").find("not UTF-8 text: byte 0xff at byte 19"),
              std::string::npos);
    EXPECT_NE(message("{\"a\": \"\xed\xa0\x80\"}").find("not UTF-8"), std::string::npos);
    EXPECT_NE(message("[1, 2]").find("one JSON object"), std::string::npos);
    EXPECT_NE(message("\"text\"").find("one JSON object"), std::string::npos);
    EXPECT_NE(message("").find("the text is empty"), std::string::npos);
    EXPECT_NE(message(" \n").find("the text is empty"), std::string::npos);
    EXPECT_NE(message(good.substr(0, good.size() / 2)).find("truncated"), std::string::npos);
    EXPECT_NE(message(R"({"hidden_size": 1e400})").find("not valid JSON"), std::string::npos);
    EXPECT_NE(message(good + "x").find("not valid JSON"), std::string::npos);
    EXPECT_NE(message(std::string(kMaxModelConfigBytes + 1, ' ')).find("1048577 bytes"),
              std::string::npos);
    // An ignored field may hold anything short of the limits.
    EXPECT_NO_THROW(
        parseModelConfig(good.substr(0, good.size() - 1) + R"(,"x": [[[{"y": null}]]]})", "t"));
}

TEST(ModelConfig, FilesAndNames) {
    const ScratchDir dir;
    const std::string good = dir.write("config.json", smallLlama().dump(1));
    const ModelDescription m = loadModel(good);
    EXPECT_EQ(m.name, "config.json");
    EXPECT_EQ(m.hidden_size, 64);

    // A file's errors start with its path; the field is the file's.
    const std::string moe =
        dir.write("moe.json", with(smallLlama(), "num_local_experts", 8).dump());
    try {
        loadModel(moe);
        ADD_FAILURE() << "accepted";
    } catch (const ModelConfigError& e) {
        EXPECT_EQ(e.field(), "num_local_experts");
        EXPECT_EQ(std::string(e.what()).rfind(moe + ": num_local_experts: ", 0), 0u) << e.what();
    }

    const auto message = [](const std::string& fileOrName) {
        try {
            loadModel(fileOrName);
        } catch (const ModelConfigError& e) {
            EXPECT_EQ(e.field(), "--model") << e.what();
            return std::string(e.what());
        }
        ADD_FAILURE() << "accepted " << fileOrName;
        return std::string();
    };
    const std::string unknown = message("llama-9");
    EXPECT_NE(unknown.find("neither a preset nor a file"), std::string::npos) << unknown;
    EXPECT_NE(unknown.find("llama-3.1-8b"), std::string::npos) << unknown;
    EXPECT_NE(unknown.find("smollm2-135m"), std::string::npos) << unknown;
    EXPECT_NE(message(dir.path.string()).find("a folder"), std::string::npos);
    // Refused by its size before it is read: 1 MiB + 1 byte.
    const std::string big = dir.write("big.json", std::string(kMaxModelConfigBytes + 1, ' '));
    EXPECT_NE(message(big).find("1048577 bytes"), std::string::npos) << message(big);
    // A device is never read: it may never end.
    EXPECT_NE(message("/dev/zero").find("/dev/zero: a device, not a regular file"),
              std::string::npos)
        << message("/dev/zero");
}

TEST(ModelConfig, ModelsDirectoryFromTheEnvironment) {
    const ScratchDir dir;
    dir.write("tiny.json", smallLlama().dump());
    dir.write("notes.txt", "not a preset");
    ::setenv("CKPTLAB_MODELS_DIR", dir.path.c_str(), 1);
    EXPECT_EQ(modelsDirectory(), dir.path.string());
    EXPECT_EQ(modelPresetNames(), std::vector<std::string>{"tiny"});
    EXPECT_EQ(loadModel("tiny").name, "tiny");
    // Asked for explicitly, a wrong folder is not silently replaced by another.
    ::setenv("CKPTLAB_MODELS_DIR", (dir.path / "missing").c_str(), 1);
    EXPECT_EQ(modelsDirectory(), "");
    EXPECT_TRUE(modelPresetNames().empty());
    ::unsetenv("CKPTLAB_MODELS_DIR");
    EXPECT_FALSE(modelPresetNames().empty());
}
