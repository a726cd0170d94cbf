// A Hugging Face config.json read strictly: the text is checked before it is parsed, every
// field the lab reads is checked for its type and ExperimentConfig's range, and what the lab's
// Llama block does not model is refused naming the field, so a model never runs as something
// it is not.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include <nlohmann/json.hpp>

#include "ckptlab/model_config.h"
#include "ckptlab/number_text.h"
#include "ckptlab/saturating.h"
#include "formats/json_parse.h"
#include "formats/json_values.h"

namespace ckptlab {
namespace {

using Json = nlohmann::json;

// Real configs nest three deep (rope_scaling, quantization_config); a limit keeps a hostile
// file of a million brackets from costing more than its first few.
constexpr int kMaxDepth = 64;

enum class Family { Llama, Mistral, Qwen2 };

struct Architecture {
    const char* name;
    const char* modelType;
    Family family;
};
constexpr Architecture kArchitectures[] = {
    {"LlamaForCausalLM", "llama", Family::Llama},
    {"MistralForCausalLM", "mistral", Family::Mistral},
    {"Qwen2ForCausalLM", "qwen2", Family::Qwen2},
};
constexpr const char* kArchitectureList =
    "LlamaForCausalLM, MistralForCausalLM or Qwen2ForCausalLM";

[[noreturn]] void refuse(const std::string& field, const std::string& message) {
    throw ModelConfigError(field, field.empty() ? message : field + ": " + message);
}

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

// nlohmann's message without its "[json.exception...]" tag, short and printable: its "last
// read" excerpt echoes the input, which may end inside a UTF-8 character.
std::string jsonErrorText(const std::string& what) {
    std::string detail = what;
    if (const auto bracket = detail.find("] "); bracket != std::string::npos)
        detail = detail.substr(bracket + 2);
    for (char& c : detail)
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
    return detail.size() > 300 ? detail.substr(0, 300) + "..." : detail;
}

// Parses like nlohmann's DOM parser, but refuses duplicate keys (nlohmann keeps the last,
// silently) and nesting past kMaxDepth.
Json parseStrictly(const std::string& text) {
    std::vector<std::set<std::string>> keys;  // of each object being read, innermost last
    const Json::parser_callback_t check = [&keys](int depth, Json::parse_event_t event,
                                                  Json& parsed) {
        switch (event) {
        case Json::parse_event_t::object_start:
        case Json::parse_event_t::array_start:
            if (depth >= kMaxDepth)
                refuse("", "JSON nested more than " + std::to_string(kMaxDepth) +
                               " deep; a config.json nests a few levels");
            if (event == Json::parse_event_t::object_start) keys.emplace_back();
            break;
        case Json::parse_event_t::object_end:
            if (!keys.empty()) keys.pop_back();
            break;
        case Json::parse_event_t::key: {
            const std::string& name = parsed.get_ref<const std::string&>();
            if (!keys.empty() && !keys.back().insert(name).second)
                refuse(detail::clip(name, 60),
                       "duplicate key (each key may appear once in an object; which one "
                       "would count?)");
            break;
        }
        default: break;
        }
        return true;
    };
    try {
        return Json::parse(text, check);
    } catch (const Json::parse_error& e) {
        std::string message = "not valid JSON: " + jsonErrorText(e.what());
        // Past the last byte: the text ran out mid-value, whatever the token.
        if (e.byte > text.size()) message += " (the text ends early: is the file truncated?)";
        refuse("", message);
    } catch (const Json::exception& e) {  // a number past a double's range (1e400)
        refuse("", "not valid JSON: " + jsonErrorText(e.what()));
    }
}

// A value as a message shows it: 4096, 4096.0, "4096", true, null, a list, an object.
std::string shown(const Json& j) {
    switch (j.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return j.get<bool>() ? "true" : "false";
    case Json::value_t::number_integer: return std::to_string(j.get<std::int64_t>());
    case Json::value_t::number_unsigned: return std::to_string(j.get<std::uint64_t>());
    case Json::value_t::number_float: {
        std::string text = formatShortest(j.get<double>());
        if (text.find_first_of(".en") == std::string::npos) text += ".0";
        return text;
    }
    case Json::value_t::string: return "\"" + detail::clip(j.get<std::string>(), 60) + "\"";
    case Json::value_t::array: return "a list";
    case Json::value_t::object: return "an object";
    default: return "binary data";
    }
}

// The fields of the root object; a null field reads as absent (Hugging Face writes null for
// "the default").
class Fields {
public:
    explicit Fields(const Json& root) : root_(root) {}

    const Json* find(const char* key) const {
        const auto it = root_.find(key);
        return it == root_.end() || it->is_null() ? nullptr : &*it;
    }

    // A whole number in `range`; `what` says what it is for the message.
    static int integer(const Json& j, const std::string& field, IntRange range) {
        const std::string wanted = "must be a whole number from " + std::to_string(range.min) +
                                   " to " + std::to_string(range.max);
        if (j.is_number_unsigned()) {
            const std::uint64_t v = j.get<std::uint64_t>();
            if (range.max >= 0 && v <= static_cast<std::uint64_t>(range.max) &&
                static_cast<long long>(v) >= range.min)
                return static_cast<int>(v);
        } else if (j.is_number_integer()) {
            const std::int64_t v = j.get<std::int64_t>();
            if (v >= range.min && v <= range.max) return static_cast<int>(v);
        }
        std::string hint;
        if (j.is_number_float()) hint = "; write it as an integer, without a point or exponent";
        if (j.is_string()) hint = "; a JSON number, not a string";
        refuse(field, wanted + " (got " + shown(j) + ")" + hint);
    }

    int required(const char* key, IntRange range) const {
        const Json* j = find(key);
        if (!j)
            refuse(key,
                   "missing; a model needs hidden_size, intermediate_size, "
                   "num_hidden_layers, num_attention_heads and vocab_size");
        return integer(*j, key, range);
    }
    // 0 when absent.
    int optional(const char* key, IntRange range) const {
        const Json* j = find(key);
        return j ? integer(*j, key, range) : 0;
    }

    double number(const char* key, double fallback, double min, double max) const {
        const Json* j = find(key);
        if (!j) return fallback;
        return numberIn(*j, key, min, max);
    }
    static double numberIn(const Json& j, const std::string& field, double min, double max) {
        if (j.is_number()) {
            const double v = j.get<double>();
            if (std::isfinite(v) && v >= min && v <= max) return v;
        }
        refuse(field, "must be a number from " + formatGeneral(min, 12) + " to " +
                          formatGeneral(max, 12) + " (got " + shown(j) + ")");
    }

    bool boolean(const char* key, bool fallback) const {
        const Json* j = find(key);
        if (!j) return fallback;
        if (!j->is_boolean()) refuse(key, "must be true or false (got " + shown(*j) + ")");
        return j->get<bool>();
    }

    // "" when absent.
    std::string text(const char* key) const {
        const Json* j = find(key);
        if (!j) return {};
        if (!j->is_string()) refuse(key, "must be a string (got " + shown(*j) + ")");
        return j->get<std::string>();
    }

private:
    const Json& root_;
};

const Architecture* architectureNamed(const std::string& name) {
    for (const Architecture& a : kArchitectures)
        if (name == a.name) return &a;
    return nullptr;
}

const Architecture& readArchitecture(const Fields& f, ModelDescription& model) {
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
                                          : "\"" + detail::clip(modelType, 40) +
                                                "\" is not llama, mistral or qwen2") +
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
    if (byType && byType != a)
        refuse("model_type", "\"" + modelType + "\" does not match architectures " + a->name +
                                 " (model_type \"" + a->modelType + "\")");
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

void readShape(const Fields& f, ModelDescription& model) {
    model.hidden_size = f.required("hidden_size", limits::width);
    model.intermediate_size = f.required("intermediate_size", {1, limits::ffnWidth.max});
    model.num_hidden_layers = f.required("num_hidden_layers", limits::depth);
    model.num_attention_heads = f.required("num_attention_heads", limits::heads);
    model.vocab_size = f.required("vocab_size", limits::vocab);
    model.num_key_value_heads = f.optional("num_key_value_heads", {1, limits::kvHeads.max});
    model.head_dim = f.optional("head_dim", {1, limits::headDim.max});

    const int heads = model.num_attention_heads;
    if (const int kv = model.num_key_value_heads; kv > 0 && heads % kv != 0)
        refuse("num_key_value_heads", "must divide num_attention_heads (" + std::to_string(heads) +
                                          " heads, " + std::to_string(kv) + " key/value heads)");
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

// The rotary embedding's base and scaling: either at the top (rope_theta, rope_scaling) or, in
// newer files, in rope_parameters. Scaling is accepted with a note: it changes which
// frequencies the rotary embedding turns by, not what is stored or computed.
void readRope(const Fields& f, ModelDescription& model) {
    const Json* scaling = f.find("rope_scaling");
    const char* scalingField = "rope_scaling";
    model.rope_theta =
        f.number("rope_theta", model.rope_theta, limits::ropeThetaMin, limits::ropeThetaMax);
    if (const Json* parameters = f.find("rope_parameters")) {
        if (!parameters->is_object())
            refuse("rope_parameters", "must be an object (got " + shown(*parameters) + ")");
        if (const auto theta = parameters->find("rope_theta");
            theta != parameters->end() && !theta->is_null() && !f.find("rope_theta"))
            model.rope_theta = Fields::numberIn(*theta, "rope_parameters.rope_theta",
                                                limits::ropeThetaMin, limits::ropeThetaMax);
        if (!scaling) {
            scaling = parameters;
            scalingField = "rope_parameters";
        }
    }
    if (!scaling) return;
    const std::string field = scalingField;
    if (!scaling->is_object())
        refuse(field, "must be an object or null (got " + shown(*scaling) + ")");
    auto type = scaling->find("rope_type");
    std::string typeField = field + ".rope_type";
    if (type == scaling->end() || type->is_null()) {
        type = scaling->find("type");  // the older name
        typeField = field + ".type";
    }
    if (type == scaling->end() || type->is_null()) {
        if (field == "rope_parameters") return;  // only the base
        refuse(field, "has no rope_type (nor type)");
    }
    constexpr const char* kKnown[] = {"default", "linear", "dynamic", "llama3", "yarn", "longrope"};
    const std::string name = type->is_string() ? type->get<std::string>() : std::string();
    if (std::find(std::begin(kKnown), std::end(kKnown), name) == std::end(kKnown))
        refuse(typeField, shown(*type) +
                              " is not a rotary scaling the lab knows: default, linear, "
                              "dynamic, llama3, yarn or longrope");
    if (name == "default") return;
    model.rope_scaling_type = name;
    std::string factor;
    if (const auto it = scaling->find("factor"); it != scaling->end() && it->is_number())
        factor = " (factor " + formatShortest(it->get<double>()) + ")";
    model.notes.push_back("rope scaling " + name + factor +
                          " changes only the rotary frequencies, not memory or time; the lab "
                          "runs the unscaled rotary embedding");
}

// What the lab's Llama block does not have: refused naming the field.
void refuseUnmodelled(const Fields& f, Family family, ModelDescription& model) {
    const std::string act = f.text("hidden_act");
    if (!act.empty() && act != "silu")
        refuse("hidden_act",
               "\"" + detail::clip(act, 40) + "\" is not modelled; the lab's MLP is SwiGLU (silu)");
    if (f.boolean("mlp_bias", false))
        refuse("mlp_bias", "true is not modelled; the lab's MLP has no biases");
    if (family == Family::Qwen2) {
        // Qwen2 always has q, k and v biases (and none on o_proj), whatever attention_bias says.
        model.attention_bias = true;
        if (f.boolean("use_sliding_window", false))
            refuse("use_sliding_window",
                   "true is not modelled; the lab's attention is full causal attention");
    } else {
        if (f.boolean("attention_bias", false))
            refuse("attention_bias",
                   "true is not modelled: it puts biases on q, k, v and o_proj, and the lab's "
                   "Llama block has none on o_proj");
        if (family == Family::Mistral) {
            if (const Json* window = f.find("sliding_window")) {
                const int tokens = Fields::integer(*window, "sliding_window", {1, 1 << 30});
                refuse("sliding_window",
                       "sliding-window attention (" + std::to_string(tokens) +
                           " tokens) is not modelled; the lab's attention is full causal "
                           "attention (\"sliding_window\": null is)");
            }
        }
    }
}

// The precision: torch_dtype (or dtype, its newer name) picks the lab's.
void readDType(const Fields& f, ModelDescription& model) {
    const char* key = f.find("torch_dtype") || !f.find("dtype") ? "torch_dtype" : "dtype";
    model.torch_dtype = f.text(key);
    const std::string& dtype = model.torch_dtype;
    if (dtype.empty())
        model.notes.push_back("no torch_dtype: mixed-bf16, what these models are trained in");
    else if (dtype == "float16")
        model.notes.push_back(
            "torch_dtype float16 is modelled as mixed-bf16 (the same bytes per element)");
    else if (dtype != "bfloat16" && dtype != "float32")
        refuse(key, "\"" + detail::clip(dtype, 40) +
                        "\" is not modelled; the lab takes bfloat16, float16 (as bf16) or "
                        "float32");
}

}  // namespace

ModelDescription parseModelConfig(const std::string& text, const std::string& name) {
    checkText(text);
    const Json root = parseStrictly(text);
    if (!root.is_object())
        refuse("", "the text must be one JSON object, a Hugging Face config.json (got " +
                       shown(root) + ")");
    const Fields f(root);
    ModelDescription model;
    model.name = name;
    const Architecture& architecture = readArchitecture(f, model);
    model.architecture = architecture.name;
    refuseExperts(f);
    readShape(f, model);
    model.rms_norm_eps =
        f.number("rms_norm_eps", model.rms_norm_eps, limits::rmsNormEpsMin, limits::rmsNormEpsMax);
    readRope(f, model);
    model.tie_word_embeddings = f.boolean("tie_word_embeddings", false);
    refuseUnmodelled(f, architecture.family, model);
    readDType(f, model);
    return model;
}

void applyModel(const ModelDescription& model, ExperimentConfig& config) {
    config.block = BlockKind::Llama;
    config.depth = model.num_hidden_layers;
    config.width = model.hidden_size;
    config.heads = model.num_attention_heads;
    config.kv_heads = model.num_key_value_heads;
    // Only a head width the heads do not already imply, so a --width override keeps it derived.
    const bool implied = model.num_attention_heads > 0 &&
                         model.head_dim * model.num_attention_heads == model.hidden_size;
    config.head_dim = implied ? 0 : model.head_dim;
    config.ffn_width = model.intermediate_size;
    config.vocab = model.vocab_size;
    config.tie_embeddings = model.tie_word_embeddings;
    config.rms_norm_eps = model.rms_norm_eps;
    config.rope_theta = model.rope_theta;
    config.qkv_bias = model.attention_bias;
    config.dtype = model.torch_dtype == "float32" ? DType::Float32 : DType::MixedBFloat16;
    config.attention = AttentionKind::MemoryEfficient;
}

std::int64_t modelParameterCount(const ExperimentConfig& c) {
    using sat::add;
    using sat::mul;
    const std::int64_t d = c.width, f = ffnWidthOf(c);
    std::int64_t block = 0;
    if (c.block == BlockKind::Llama) {
        const std::int64_t dh = headDimOf(c), h = c.heads, g = kvHeadsOf(c);
        // q and o (h heads), k and v (g heads), the two RMSNorms, gate, up and down.
        const std::int64_t attention =
            add(mul(2, d, dh, add(h, g)), c.qkv_bias ? mul(dh, add(h, mul(2, g))) : 0);
        block = add(mul(2, d), attention, mul(3, d, f));
    } else {
        // LayerNorm, d->f and f->d with biases; the transformer adds its attention's LayerNorm,
        // q, k, v, o and their biases.
        block = add(mul(2, d), mul(2, d, f), f, d);
        if (c.block == BlockKind::Transformer)
            block = add(block, mul(2, d), mul(4, d, d), mul(4, d));
    }
    std::int64_t ends = 0;
    if (hasChainEnds(c)) {
        const std::int64_t table = mul(c.vocab, d);
        ends = add(table, c.tie_embeddings ? 0 : table, d);  // embedding, head, final RMSNorm
    }
    return add(mul(block, c.depth), ends);
}

}  // namespace ckptlab
