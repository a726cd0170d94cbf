// A Hugging Face config.json read strictly: the text is checked before it is parsed, every
// field the lab reads is checked for its type and ExperimentConfig's range, and what the lab's
// Llama block does not model is refused naming the field, so a model never runs as something
// it is not.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include <nlohmann/json.hpp>

#include "ckptlab/formats/model_config.h"
#include "ckptlab/model/number_text.h"
#include "ckptlab/model/saturating.h"
#include "formats/json_parse.h"
#include "formats/json_values.h"
#include "formats/model_config_values.h"

namespace ckptlab {
namespace {

using hf::Fields;
using hf::Json;
using hf::numberIn;
using hf::quoted;
using hf::readRope;
using hf::refuse;
using hf::shown;

// Real configs nest three deep (rope_scaling, quantization_config); a limit keeps a hostile
// file of a million brackets from costing more than its first few.
constexpr std::size_t kMaxDepth = 64;

enum class Family { Llama, Mistral, Qwen2 };

// What transformers' configuration class of each architecture takes when the file leaves a
// field out (LlamaConfig, MistralConfig, Qwen2Config of the pinned transformers,
// packaging/torch-python/requirements.txt).
struct Architecture {
    const char* name;
    const char* modelType;
    const char* configClass;
    Family family;
    int defaultKvHeads;  // 0: as many as num_attention_heads
    int defaultMaxPositions;
};
constexpr Architecture kArchitectures[] = {
    {"LlamaForCausalLM", "llama", "LlamaConfig", Family::Llama, 0, 2048},
    {"MistralForCausalLM", "mistral", "MistralConfig", Family::Mistral, 8, 4096 * 32},
    {"Qwen2ForCausalLM", "qwen2", "Qwen2Config", Family::Qwen2, 32, 32768},
};
constexpr const char* kArchitectureList =
    "LlamaForCausalLM, MistralForCausalLM or Qwen2ForCausalLM";
// MistralConfig's and Qwen2Config's sliding_window, Qwen2Config's max_window_layers.
constexpr int kDefaultSlidingWindow = 4096;
constexpr int kDefaultMaxWindowLayers = 28;
// Checks that need no parsing: size, NUL bytes, UTF-8.
void checkText(const std::string& text) {
    if (text.size() > kMaxModelConfigBytes)
        refuse("", "the text is " + std::to_string(text.size()) +
                       " bytes; a config.json is at most 1 MiB (1048576 bytes)");
    if (const std::size_t nul = text.find('\0'); nul != std::string::npos)
        refuse("", "a NUL byte at byte " + std::to_string(nul + 1) +
                       ": a config.json is text (is the file binary or damaged?)");
    if (const std::size_t bad = detail::firstInvalidUtf8(text); bad != std::string::npos) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(text[bad]));
        refuse("", std::string("not UTF-8 text: byte ") + hex + " at byte " +
                       std::to_string(bad + 1) + "; a config.json is UTF-8 JSON");
    }
    if (text.find_first_not_of(" \t\r\n") == std::string::npos)
        refuse("", "the text is empty; a config.json is one JSON object");
}

// Parses like nlohmann's DOM parser, but refuses duplicate keys (nlohmann keeps the last,
// silently), naming the key by its path, and nesting past kMaxDepth.
Json parseStrictly(const std::string& text) {
    Json doc;
    detail::StrictJsonError error;
    if (detail::parseStrictJson(text, kMaxDepth, doc, error)) return doc;
    if (!error.path.empty()) refuse(error.path, error.message + "; which one would count?");
    if (error.message.rfind("JSON nested", 0) == 0)
        refuse("", error.message + "; a config.json nests a few levels");
    refuse("", error.message);
}

const Architecture* architectureNamed(const std::string& name) {
    for (const Architecture& a : kArchitectures)
        if (name == a.name) return &a;
    return nullptr;
}

// The architecture from architectures[0]; a model_type, when given, must be that
// architecture's: transformers' AutoConfig builds the class of the model_type ("gemma" with
// LlamaForCausalLM is a Gemma model).
const Architecture& readArchitecture(const Json& root, ModelDescription& model) {
    const Fields f(root, kArchitectures[0].configClass);
    const std::string modelType = f.text("model_type");
    const Architecture* byType = nullptr;
    for (const Architecture& a : kArchitectures)
        if (modelType == a.modelType) byType = &a;
    const Json* list = f.find("architectures");
    if (!list) {
        if (!byType)
            refuse("architectures",
                   "missing, and model_type " +
                       (modelType.empty() ? std::string("is missing too")
                                          : quoted(modelType) + " is not llama, mistral or qwen2") +
                       "; the lab models " + kArchitectureList);
        model.notes.push_back(std::string("no architectures: ") + byType->name +
                              " from model_type \"" + byType->modelType + "\"");
        return *byType;
    }
    if (!list->is_array() || list->size() != 1)
        refuse("architectures",
               std::string("must be a list of one name, ") + kArchitectureList + " (got " +
                   (list->is_array() ? std::to_string(list->size()) + " names" : shown(*list)) +
                   ")");
    const Json& name = (*list)[0];
    if (!name.is_string())
        refuse("architectures[0]",
               std::string("must be ") + kArchitectureList + " (got " + shown(name) + ")");
    const Architecture* a = architectureNamed(name.get<std::string>());
    if (!a)
        refuse("architectures[0]",
               shown(name) + " is not modelled; the lab models " + kArchitectureList);
    if (!modelType.empty() && byType != a)
        refuse("model_type", quoted(modelType) + " is not " + a->name + "'s \"" + a->modelType +
                                 "\": transformers builds the model of the model_type, so the "
                                 "file describes another model (write \"" +
                                 a->modelType + "\" or leave it out)");
    return *a;
}

// A mixture of experts: many MLPs per layer and a router, which the lab's one dense SwiGLU
// MLP does not model.
void refuseExperts(const Fields& f) {
    for (const char* key : {"num_local_experts", "num_experts", "num_experts_per_tok"}) {
        const Json* j = f.find(key);
        if (!j) continue;
        const int experts = Fields::integer(*j, key, {0, 1 << 30});
        if (experts > 0)
            refuse(key, std::to_string(experts) +
                            ": a mixture of experts is not modelled (the lab's layer has one "
                            "dense SwiGLU MLP); a dense model leaves it out or 0");
    }
}

void readShape(const Fields& f, const Architecture& a, ModelDescription& model) {
    model.hidden_size = f.required("hidden_size", limits::width);
    model.intermediate_size = f.required("intermediate_size", {1, limits::ffnWidth.max});
    model.num_hidden_layers = f.required("num_hidden_layers", limits::depth);
    model.num_attention_heads = f.required("num_attention_heads", limits::heads);
    model.vocab_size = f.required("vocab_size", limits::vocab);
    const int heads = model.num_attention_heads;

    // num_key_value_heads: left out, the class's default (Llama: the heads, Mistral 8, Qwen2
    // 32); null: the heads, except MistralConfig, which refuses it.
    const IntRange kvRange{1, limits::kvHeads.max};
    std::string kvDefault;
    if (const Json* kv = f.find("num_key_value_heads")) {
        model.num_key_value_heads = Fields::integer(*kv, "num_key_value_heads", kvRange);
    } else if (f.isNull("num_key_value_heads")) {
        if (a.family == Family::Mistral) f.notNull("num_key_value_heads", "a whole number");
        model.num_key_value_heads = heads;
    } else if (a.defaultKvHeads > 0) {
        model.num_key_value_heads = a.defaultKvHeads;
        kvDefault = std::string(", ") + a.configClass +
                    "'s default when the file leaves num_key_value_heads out";
        model.notes.push_back("no num_key_value_heads: " + std::to_string(a.defaultKvHeads) +
                              " key/value heads, " + a.configClass + "'s default");
    } else {
        model.num_key_value_heads = heads;
    }
    if (const int kv = model.num_key_value_heads; heads % kv != 0)
        refuse("num_key_value_heads", "must divide num_attention_heads (" + std::to_string(heads) +
                                          " heads, " + std::to_string(kv) + " key/value heads" +
                                          kvDefault + ")");

    // head_dim: null is the default for Llama and Mistral; Qwen2 takes the attribute as it is.
    if (a.family == Family::Qwen2 && f.isNull("head_dim"))
        refuse("head_dim",
               "null: Qwen2ForCausalLM in transformers reads head_dim as given and cannot build "
               "heads of no width; leave it out for hidden_size / num_attention_heads");
    if (const Json* dim = f.find("head_dim"))
        model.head_dim = Fields::integer(*dim, "head_dim", {1, limits::headDim.max});
    // LlamaConfig checks this even when head_dim is given (validate_architecture).
    if (a.family == Family::Llama && model.hidden_size % heads != 0)
        refuse("num_attention_heads", "hidden_size " + std::to_string(model.hidden_size) +
                                          " is not a whole number of heads (" +
                                          std::to_string(heads) +
                                          "): transformers' LlamaConfig refuses it");
    if (model.head_dim > 0) {
        if (model.head_dim % 2 != 0)
            refuse("head_dim", "must be even: rotary embeddings turn pairs of features (got " +
                                   std::to_string(model.head_dim) + ")");
        return;
    }
    // Without head_dim each head is hidden_size / num_attention_heads wide.
    if (model.hidden_size % heads != 0)
        refuse("num_attention_heads", "hidden_size " + std::to_string(model.hidden_size) +
                                          " is not a whole number of heads (" +
                                          std::to_string(heads) +
                                          ") and the file gives no head_dim");
    const int width = model.hidden_size / heads;
    if (width > limits::headDim.max || width % 2 != 0)
        refuse("num_attention_heads",
               "each head would be " + std::to_string(width) +
                   " wide (hidden_size / num_attention_heads); the lab takes an even width up "
                   "to " +
                   std::to_string(limits::headDim.max));
}

// The attention of each layer: layer_types, and the sliding window as the class resolves it.
// A window in use is refused: the lab's attention is full causal attention.
void readAttention(const Fields& f, const Architecture& a, ModelDescription& model) {
    const int layers = model.num_hidden_layers;
    // Every layer full attention; another type is refused even where the model ignores it.
    if (const Json* types = f.find("layer_types")) {
        if (!types->is_array() || static_cast<int>(types->size()) != layers)
            refuse(
                "layer_types",
                "must be a list of num_hidden_layers (" + std::to_string(layers) + ") names (got " +
                    (types->is_array() ? std::to_string(types->size()) + " names" : shown(*types)) +
                    ")");
        for (std::size_t i = 0; i < types->size(); ++i) {
            const Json& type = (*types)[i];
            const std::string where = "layer_types[" + std::to_string(i) + "]";
            // "attention": transformers' older name of full_attention.
            if (type.is_string() && (type.get<std::string>() == "full_attention" ||
                                     type.get<std::string>() == "attention"))
                continue;
            refuse(where, shown(type) +
                              " is not modelled; the lab's attention is full causal attention "
                              "(\"full_attention\")");
        }
    }

    if (a.family == Family::Mistral) {
        // MistralConfig: sliding_window left out is a 4096-token window, null none.
        if (f.isNull("sliding_window")) return;
        const Json* window = f.find("sliding_window");
        const int tokens = window ? Fields::integer(*window, "sliding_window", {1, 1 << 30})
                                  : kDefaultSlidingWindow;
        refuse("sliding_window",
               (window ? std::string() : "left out, which MistralConfig reads as ") +
                   "sliding-window attention (" + std::to_string(tokens) +
                   " tokens) is not modelled; the lab's attention is full causal attention "
                   "(\"sliding_window\": null is)");
    }
    if (a.family != Family::Qwen2) return;
    // Qwen2Config: the window is used only with use_sliding_window, by the layers from
    // max_window_layers on (unless layer_types names them).
    const bool use = f.boolean("use_sliding_window", false);
    const int fromLayer = f.optional("max_window_layers", {0, 1 << 30}, kDefaultMaxWindowLayers);
    int tokens = 0;
    if (!f.isNull("sliding_window")) {
        const Json* window = f.find("sliding_window");
        tokens = window ? Fields::integer(*window, "sliding_window", {1, 1 << 30})
                        : kDefaultSlidingWindow;
    }
    if (!use || tokens == 0 || f.find("layer_types") || fromLayer >= layers) return;
    refuse("use_sliding_window",
           "true with max_window_layers " + std::to_string(fromLayer) + " of " +
               std::to_string(layers) + " layers: layers " + std::to_string(fromLayer) + " to " +
               std::to_string(layers - 1) + " use sliding-window attention (" +
               std::to_string(tokens) +
               " tokens), which is not modelled; the lab's attention is full causal attention");
}

// What the lab's Llama block does not have: refused naming the field. Mistral and Qwen2 have
// no attention_bias nor mlp_bias in transformers: there they are ignored.
void refuseUnmodelled(const Fields& f, const Architecture& a, ModelDescription& model) {
    f.notNull("hidden_act", "a string");
    const std::string act = f.text("hidden_act");
    // transformers' ACT2FN: "swish" is SiLU too.
    if (!act.empty() && act != "silu" && act != "swish")
        refuse("hidden_act", quoted(act) + " is not modelled; the lab's MLP is SwiGLU (silu)");
    if (a.family == Family::Llama) {
        if (f.boolean("mlp_bias", false))
            refuse("mlp_bias", "true is not modelled; the lab's MLP has no biases");
        if (f.boolean("attention_bias", false))
            refuse("attention_bias",
                   "true is not modelled: it puts biases on q, k, v and o_proj, and the lab's "
                   "Llama block has none on o_proj");
    } else {
        for (const char* key : {"attention_bias", "mlp_bias"})
            if (const Json* j = f.find(key); j && j->is_boolean() && j->get<bool>())
                model.notes.push_back(std::string(key) + " is ignored: " + a.name +
                                      " in transformers has no such biases");
    }
    // Qwen2 always has q, k and v biases (and none on o_proj).
    model.attention_bias = a.family == Family::Qwen2;
}

// The precision: dtype, or torch_dtype (its older name) when dtype is left out or null; with
// both, dtype wins, as in transformers 5.
void readDType(const Fields& f, ModelDescription& model) {
    const bool both = f.find("dtype") && f.find("torch_dtype");
    const char* key = f.find("dtype") ? "dtype" : "torch_dtype";
    model.torch_dtype = f.text(key);
    const std::string& dtype = model.torch_dtype;
    if (both) {
        const Json& older = *f.find("torch_dtype");
        if (!older.is_string() || older.get<std::string>() != dtype)
            model.notes.push_back("torch_dtype " + shown(older) + " is ignored: dtype \"" + dtype +
                                  "\" counts, as in transformers 5");
    }
    if (dtype.empty())
        model.notes.push_back("no dtype: mixed-bf16, what these models are trained in");
    else if (dtype == "float16")
        model.notes.push_back(std::string(key) +
                              " float16 is modelled as mixed-bf16 (the same bytes per element)");
    else if (dtype != "bfloat16" && dtype != "float32")
        refuse(key, quoted(dtype) +
                        " is not modelled; the lab takes bfloat16, float16 (as bf16) or "
                        "float32");
}

}  // namespace

ModelDescription parseModelConfig(const std::string& text, const std::string& name) {
    checkText(text);
    const Json root = parseStrictly(text);
    if (!root.is_object())
        refuse("", "the text must be one JSON object, a Hugging Face config.json (got " +
                       shown(root) + ")");
    ModelDescription model;
    model.name = name;
    const Architecture& architecture = readArchitecture(root, model);
    model.architecture = architecture.name;
    model.model_type = architecture.modelType;
    const Fields f(root, architecture.configClass);
    refuseExperts(f);
    readShape(f, architecture, model);
    model.max_position_embeddings = f.optional("max_position_embeddings", {1, limits::vocab.max},
                                               architecture.defaultMaxPositions);
    f.notNull("rms_norm_eps", "a number");
    if (const Json* eps = f.find("rms_norm_eps")) {
        if (!eps->is_number_float() && eps->is_number())
            refuse("rms_norm_eps", "must be written with a point or an exponent (got " +
                                       shown(*eps) + "): transformers' " +
                                       architecture.configClass + " takes a float");
        model.rms_norm_eps =
            numberIn(*eps, "rms_norm_eps", limits::rmsNormEpsMin, limits::rmsNormEpsMax);
    }
    readRope(root, model);
    model.tie_word_embeddings = f.boolean("tie_word_embeddings", false);
    readAttention(f, architecture, model);
    refuseUnmodelled(f, architecture, model);
    readDType(f, model);
    return model;
}

}  // namespace ckptlab
