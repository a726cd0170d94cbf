#include "teaching/lesson_json.h"

namespace ckptlab::teaching {

void Where::fail(const std::string& fieldName, const std::string& message) const {
    std::string text = file + ": ";
    if (!step.empty()) text += step + ": ";
    if (!fieldName.empty()) text += fieldName + ": ";
    throw LessonError(text + message);
}

std::string kindOf(const Json& j) {
    if (j.is_null()) return "null";
    if (j.is_boolean()) return "a boolean";
    if (j.is_number_integer() || j.is_number_unsigned()) return "an integer";
    if (j.is_number()) return "a number";
    if (j.is_string()) return "a string";
    if (j.is_array()) return "an array";
    return "an object";
}

std::string field(const std::string& parent, const std::string& key) {
    return parent.empty() ? key : parent + "." + key;
}

const Json& objectIn(const Json& j, const std::string& name, const Where& where) {
    if (!j.is_object()) where.fail(name, "expected an object, got " + kindOf(j));
    return j;
}

void onlyKeys(const Json& object, const std::string& name, const std::vector<const char*>& allowed,
              const Where& where) {
    for (const auto& item : object.items()) {
        bool known = false;
        for (const char* key : allowed) known = known || item.key() == key;
        if (known) continue;
        std::string list;
        for (const char* key : allowed) list += (list.empty() ? "" : ", ") + std::string(key);
        where.fail(field(name, item.key()), "unknown key (allowed: " + list + ")");
    }
}

const Json& member(const Json& object, const std::string& parent, const char* key,
                   const Where& where) {
    const auto it = object.find(key);
    if (it == object.end()) where.fail(field(parent, key), "missing");
    return *it;
}

std::string stringIn(const Json& j, const std::string& name, const Where& where) {
    if (!j.is_string()) where.fail(name, "expected a string, got " + kindOf(j));
    return j.get<std::string>();
}

long long integerIn(const Json& j, const std::string& name, long long min, long long max,
                    const Where& where) {
    const std::string range = "[" + std::to_string(min) + ", " + std::to_string(max) + "]";
    const bool integer = j.is_number_integer() || j.is_number_unsigned();
    if (!integer) where.fail(name, "expected a whole number in " + range + ", got " + kindOf(j));
    // Unsigned values past long long's range read as out of range, not wrapped.
    if (j.is_number_unsigned() &&
        j.get<unsigned long long>() > static_cast<unsigned long long>(max))
        where.fail(name, "expected a whole number in " + range + ", got " + j.dump());
    const long long v = j.get<long long>();
    if (v < min || v > max)
        where.fail(name, "expected a whole number in " + range + ", got " + std::to_string(v));
    return v;
}

}  // namespace ckptlab::teaching
