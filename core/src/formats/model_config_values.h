#pragma once
// What the readers of a Hugging Face config.json share (model_config.cpp and its rotary part,
// model_config_rope.cpp): refusing a field by name, a value as a message shows it, a number
// checked against a range, and one object's fields read as transformers' classes read them.

#include <cstdint>
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "ckptlab/formats/model_config.h"
#include "ckptlab/model/config.h"

namespace ckptlab::hf {

using Json = nlohmann::json;

// transformers' rotary base when a config gives none.
constexpr double kDefaultRopeTheta = 10000;

// Throws ModelConfigError naming `field` ("" for the text as a whole).
[[noreturn]] void refuse(const std::string& field, const std::string& message);
// A value as a message shows it: 4096, 4096.0, "4096", true, null, a list, an object.
std::string shown(const Json& j);
std::string quoted(const std::string& text);  // clipped, in double quotes
// A finite number in [min, max], else refused naming `field`.
double numberIn(const Json& j, const std::string& field, double min, double max);

// The fields of one object (the root, or rope_scaling). find() reads a null field as absent;
// where transformers' class refuses a null (a field typed int, float, bool or str),
// notNull() refuses it first.
class Fields {
public:
    Fields(const Json& object, std::string configClass)
        : object_(object), class_(std::move(configClass)) {}

    const Json* find(const char* key) const {
        const auto it = object_.find(key);
        return it == object_.end() || it->is_null() ? nullptr : &*it;
    }
    bool isNull(const char* key) const {
        const auto it = object_.find(key);
        return it != object_.end() && it->is_null();
    }
    // `type` is how a message names what transformers takes ("a whole number").
    void notNull(const char* key, const std::string& type) const {
        if (isNull(key))
            refuse(key, "null is refused by transformers' " + class_ + ", which takes " + type +
                            "; leave the field out for its default");
    }

    // A whole number in `range`.
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
    // `fallback` when absent; null refused.
    int optional(const char* key, IntRange range, int fallback) const {
        notNull(key, "a whole number");
        const Json* j = find(key);
        return j ? integer(*j, key, range) : fallback;
    }

    bool boolean(const char* key, bool fallback) const {
        notNull(key, "true or false");
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

    const std::string& configClass() const { return class_; }

private:
    const Json& object_;
    std::string class_;
};

// The rotary embedding as transformers resolves it: rope_theta and any rope scaling.
void readRope(const Json& root, ModelDescription& model);

}  // namespace ckptlab::hf
