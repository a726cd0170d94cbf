#pragma once
// The JSON value readers of the results loader (private to ckptlab_formats): each checks a
// value's type and range and, when it is wrong, throws ResultsFileError naming its Path, e.g.
// "runs[3].metrics.peak_bytes: expected an integer, got a string".

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "ckptlab/model/result.h"

namespace ckptlab::detail {

using Json = nlohmann::json;

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr int kIntMax = std::numeric_limits<int>::max();
// 8 PiB: more than any device holds; six of them still add up without overflow, and every
// value up to it is exact as a double.
constexpr std::int64_t kMaxBytes = std::int64_t{1} << 53;
constexpr double kMaxMs = 1e12;  // about 32 years
constexpr std::size_t kMaxRuns = 10000;
constexpr std::size_t kMaxStrategyBytes = 1000;

// An excerpt of file text for a message: at most `max` bytes, cut at a UTF-8 character
// boundary, control characters shown as '?', so the message stays one printable line.
std::string clip(const std::string& text, std::size_t max = 200);

// Where a value sits in the document, e.g. runs[3].metrics.peak_bytes. Built as a chain of
// stack objects and turned into text only when there is an error to report.
struct Path {
    const Path* parent = nullptr;
    const char* key = nullptr;  // member name, or null for an array index
    std::size_t index = 0;

    Path member(const char* name) const { return Path{this, name, 0}; }
    Path item(std::size_t i) const { return Path{this, nullptr, i}; }
    std::string str() const {
        if (!parent) return key ? key : "";
        const std::string base = parent->str();
        if (key) return base.empty() ? std::string(key) : base + "." + key;
        return base + "[" + std::to_string(index) + "]";
    }
};

// Throws ResultsFileError "PATH: message" ("message" at the top level).
[[noreturn]] void fail(const Path& at, const std::string& message);

// "null", "a boolean", "an integer", ...: what a value is, for a message.
std::string describe(const Json& j);
// A double as a message shows it: shortest text that reads back the same.
std::string numberText(double value);

const Json& objectAt(const Json& j, const Path& at);
const Json& arrayAt(const Json& j, const Path& at);
std::int64_t readInt64(const Json& j, const Path& at, std::int64_t min, std::int64_t max);
int readInt(const Json& j, const Path& at, int min, int max);
// A number, or "nan", "inf", "-inf".
double readDouble(const Json& j, const Path& at);
// A duration in ms: 0 to kMaxMs, or "nan" (not measured) or "inf".
double readDuration(const Json& j, const Path& at);
// A moment within the traced step, in ms since it began: finite, within +-kMaxMs.
double readTime(const Json& j, const Path& at);
std::string readString(const Json& j, const Path& at);
// Code points XML cannot hold (and a terminal or a table should not get): C0 controls other
// than tab, newline and carriage return, and U+FFFE, U+FFFF. Returns the length of the one at
// text[i] in bytes, or 0. The text is valid UTF-8 (the parser checked).
std::size_t unprintableAt(const std::string& text, std::size_t i, bool allowLineBreaks);
// Text shown as it is (environment, error messages, notes): what XML cannot hold becomes
// U+FFFD, so a file's text can never break the SVG a chart is exported to.
std::string readText(const Json& j, const Path& at);
Phase readPhase(const Json& j, const Path& at);

// The members of one JSON object, read with their paths for error messages.
class Fields {
public:
    Fields(const Json& j, const Path& at) : object_(objectAt(j, at)), at_(at) {}

    // Keys added after schema 1 first shipped are optional: null when absent.
    const Json* find(const char* key) const {
        const auto it = object_.find(key);
        return it == object_.end() || it->is_null() ? nullptr : &*it;
    }
    const Json& get(const char* key) const {
        const auto it = object_.find(key);
        if (it == object_.end()) fail(at_, std::string("missing \"") + key + "\"");
        return *it;
    }
    std::int64_t int64(const char* key, std::int64_t min, std::int64_t max) const {
        return readInt64(get(key), at_.member(key), min, max);
    }
    std::int64_t bytes(const char* key) const { return int64(key, 0, kMaxBytes); }
    int integer(const char* key, int min, int max) const {
        return readInt(get(key), at_.member(key), min, max);
    }
    double number(const char* key) const { return readDouble(get(key), at_.member(key)); }
    double duration(const char* key) const { return readDuration(get(key), at_.member(key)); }
    double time(const char* key) const { return readTime(get(key), at_.member(key)); }
    std::string string(const char* key) const { return readString(get(key), at_.member(key)); }
    std::string text(const char* key) const { return readText(get(key), at_.member(key)); }
    bool boolean(const char* key) const {
        const Json& j = get(key);
        if (!j.is_boolean()) fail(at_.member(key), "expected true or false, got " + describe(j));
        return j.get<bool>();
    }
    Phase phase(const char* key) const { return readPhase(get(key), at_.member(key)); }
    template <typename Enum>
    Enum choice(const char* key, std::optional<Enum> (*parse)(const std::string&),
                const char* expected) const {
        const std::string text = string(key);
        const auto value = parse(text);
        if (!value) {
            fail(at_.member(key),
                 "unknown value \"" + clip(text, 40) + "\" (expected " + expected + ")");
        }
        return *value;
    }
    const Path& at() const { return at_; }

private:
    const Json& object_;
    Path at_;
};

}  // namespace ckptlab::detail
