// A config.json's rotary embedding (rope_theta, rope_scaling, rope_parameters), read as
// transformers resolves it.
#include <algorithm>
#include <vector>

#include "ckptlab/model/number_text.h"
#include "formats/json_values.h"
#include "formats/model_config_values.h"

namespace ckptlab::hf {
namespace {

// transformers' required keys of each rotary scaling (besides rope_type, and
// original_max_position_embeddings, which it fills from max_position_embeddings).
struct RopeKind {
    const char* name;
    std::vector<const char*> required;
};
const std::vector<RopeKind>& ropeKinds() {
    static const std::vector<RopeKind> kinds = {
        {"default", {}},
        {"linear", {"factor"}},
        {"dynamic", {"factor"}},
        {"yarn", {"factor"}},
        {"longrope", {"short_factor", "long_factor"}},
        {"llama3", {"factor", "low_freq_factor", "high_freq_factor"}},
    };
    return kinds;
}

const Json* member(const Json& object, const char* key) {
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

// The object that says the rotary embedding: a non-empty rope_scaling, else rope_parameters
// (none: the top-level rope_theta alone), and the name messages give it.
struct RopeSource {
    const Json* rope = nullptr;
    std::string field = "rope_scaling";
};

RopeSource ropeSource(const Json& root, ModelDescription& model) {
    const Json* scaling = member(root, "rope_scaling");
    const Json* parameters = member(root, "rope_parameters");
    const bool scalingGiven =
        scaling && !scaling->is_null() && !(scaling->is_object() && scaling->empty());
    if (scalingGiven && !scaling->is_object())
        refuse("rope_scaling", "must be an object or null (got " + shown(*scaling) + ")");
    if (parameters && !parameters->is_null() && !parameters->is_object())
        refuse("rope_parameters", "must be an object or null (got " + shown(*parameters) + ")");
    RopeSource source;
    source.rope = scalingGiven ? scaling : nullptr;
    if (!source.rope && parameters && parameters->is_object()) {
        source.rope = parameters;
        source.field = "rope_parameters";
    }
    if (scalingGiven && parameters && parameters->is_object() && !parameters->empty())
        model.notes.push_back(
            "rope_parameters is ignored: rope_scaling replaces it, as transformers does");
    return source;
}

// The base: the source's rope_theta, else the top-level one, else 10000.
void readRopeBase(const Json& root, const RopeSource& source, ModelDescription& model) {
    const Json* topTheta = member(root, "rope_theta");
    const Json* theta = source.rope ? member(*source.rope, "rope_theta") : nullptr;
    std::string thetaField = source.field + ".rope_theta";
    if (!theta && topTheta) {
        theta = topTheta;
        thetaField = "rope_theta";
    }
    if (theta && theta->is_null())
        refuse(thetaField,
               "null leaves transformers' rotary embedding without a base; give a number or "
               "leave it out for 10000");
    model.rope_theta =
        theta ? numberIn(*theta, thetaField, limits::ropeThetaMin, limits::ropeThetaMax)
              : kDefaultRopeTheta;
    if (theta && thetaField != "rope_theta" && topTheta && !topTheta->is_null()) {
        const double top =
            numberIn(*topTheta, "rope_theta", limits::ropeThetaMin, limits::ropeThetaMax);
        if (top != model.rope_theta)
            model.notes.push_back(
                "rope_theta " + formatGeneral(top, 12) + " is ignored: " + thetaField + " " +
                formatGeneral(model.rope_theta, 12) + " counts, as in transformers");
    }
}

// The scaling's type, each type's required keys, and the note that scaling changes no bytes.
void readRopeScaling(const RopeSource& source, ModelDescription& model) {
    const Json& rope = *source.rope;
    const std::string& field = source.field;
    // One rotary embedding for every layer: a rope per layer type ("full_attention": {...})
    // is not read by these models (Llama and Mistral run 10000, Qwen2 fails to build).
    for (const auto& [key, value] : rope.items())
        if (value.is_object())
            refuse(field + "." + detail::clip(key, 40),
                   "a rotary embedding per layer type is not read by LlamaForCausalLM, "
                   "MistralForCausalLM or Qwen2ForCausalLM in transformers; give rope_type and "
                   "rope_theta in " +
                       field + " itself");

    auto type = rope.find("rope_type");
    std::string typeField = field + ".rope_type";
    if (type == rope.end()) {
        type = rope.find("type");  // the older name
        typeField = field + ".type";
    }
    const bool typed = type != rope.end();
    if (!typed && field == "rope_scaling")
        refuse(field, "has no rope_type (nor type): which scaling is meant?");
    const std::string name = !typed              ? std::string("default")
                             : type->is_string() ? type->get<std::string>()
                                                 : "";
    const auto& kinds = ropeKinds();
    const auto kind = std::find_if(kinds.begin(), kinds.end(),
                                   [&name](const RopeKind& k) { return name == k.name; });
    if (kind == kinds.end())
        refuse(typeField, shown(*type) +
                              " is not a rotary scaling the lab knows: default, linear, "
                              "dynamic, llama3, yarn or longrope");
    for (const char* key : kind->required)
        if (rope.find(key) == rope.end())
            refuse(field + "." + key, std::string("missing; ") + kind->name +
                                          " scaling needs it (transformers refuses the file "
                                          "without it)");
    if (name == "default") return;
    model.rope_scaling_type = name;
    if (const auto factor = rope.find("factor"); factor != rope.end())
        model.rope_scaling_factor = numberIn(*factor, field + ".factor", 1, limits::ropeThetaMax);
    const std::string factorText =
        model.rope_scaling_factor > 0
            ? " (factor " + formatShortest(model.rope_scaling_factor) + ")"
            : std::string();
    model.notes.push_back("rope scaling " + name + factorText +
                          " changes only the rotary frequencies, not memory or time; the lab "
                          "runs the unscaled rotary embedding");
}

}  // namespace

// The rotary embedding as transformers resolves it (convert_rope_params_to_dict): a non-empty
// rope_scaling replaces rope_parameters; the base is that object's rope_theta, else the
// top-level rope_theta, else 10000; the type its rope_type, else its type, else "default".
// Scaling is accepted with a note: it changes which frequencies the rotary embedding turns by,
// not what is stored or computed.
void readRope(const Json& root, ModelDescription& model) {
    const RopeSource source = ropeSource(root, model);
    readRopeBase(root, source, model);
    if (source.rope) readRopeScaling(source, model);
}

}  // namespace ckptlab::hf
