#include "formats/json_parse.h"

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

#include "ckptlab/formats/results_io.h"

namespace ckptlab::detail {

std::size_t firstInvalidUtf8(const std::string& text) {
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const std::size_t n = text.size();
    for (std::size_t i = 0; i < n;) {
        const unsigned char c = s[i];
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t length = 0;
        unsigned char lo = 0x80, hi = 0xbf;  // allowed range of the second byte
        if (c >= 0xc2 && c <= 0xdf) {
            length = 2;
        } else if (c >= 0xe0 && c <= 0xef) {
            length = 3;
            if (c == 0xe0) lo = 0xa0;
            if (c == 0xed) hi = 0x9f;  // no UTF-16 surrogates
        } else if (c >= 0xf0 && c <= 0xf4) {
            length = 4;
            if (c == 0xf0) lo = 0x90;
            if (c == 0xf4) hi = 0x8f;
        } else {
            return i;
        }
        if (i + 1 >= n || s[i + 1] < lo || s[i + 1] > hi) return i;
        for (std::size_t k = 2; k < length; ++k) {
            if (i + k >= n || (s[i + k] & 0xc0) != 0x80) return i;
        }
        i += length;
    }
    return std::string::npos;
}

namespace {

// Line and column (from 1) of the byte at `position` (counted from 1), as nlohmann counts them.
std::string lineAndColumn(const std::string& text, std::size_t position) {
    const std::size_t end = std::min(position, text.size());
    std::size_t line = 1, lineStart = 0;
    for (std::size_t i = 0; i < end; ++i) {
        if (text[i] == '\n') {
            ++line;
            lineStart = i + 1;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(position - lineStart);
}

std::string hexByte(unsigned char c) {
    char buffer[8];
    std::snprintf(buffer, sizeof buffer, "0x%02x", c);
    return buffer;
}

// nlohmann's "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error
// ..." becomes "not valid JSON at byte 42 (line 3, column 5): syntax error ...".
std::string parseErrorMessage(const std::string& what, std::size_t position,
                              const std::string& text) {
    if (what.find("ill-formed UTF-8") != std::string::npos) {
        const std::size_t bad = firstInvalidUtf8(text);
        if (bad != std::string::npos) {
            return "not valid JSON at byte " + std::to_string(bad + 1) + " (" +
                   lineAndColumn(text, bad + 1) + "): invalid UTF-8 (byte " +
                   hexByte(static_cast<unsigned char>(text[bad])) +
                   "); a results file is UTF-8 text";
        }
    }
    std::string detail = what;
    const auto bracket = detail.find("] ");
    if (bracket != std::string::npos) detail = detail.substr(bracket + 2);
    if (detail.rfind("parse error", 0) == 0) {
        const auto colon = detail.find(": ");
        detail = colon == std::string::npos ? std::string() : detail.substr(colon + 2);
    }
    // The "last read" excerpt echoes the input, which may be binary: keep the message printable.
    for (char& c : detail) {
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
    }
    std::string message = "not valid JSON at byte " + std::to_string(position) + " (" +
                          lineAndColumn(text, position) + "): " + clip(detail, 300);
    // Running out of text mid-value is what a cut-off file looks like, whatever the token.
    if (position >= text.size()) message += " (the text ends early: is the file truncated?)";
    return message;
}

// Builds the document like nlohmann's own DOM parser, but refuses duplicate keys, more than
// kMaxRuns runs (results files) and nesting past a depth while parsing (so a file of a million
// runs fails at the first one too many), and keeps the error with the place it happened.
class StrictDomBuilder {
public:
    using number_integer_t = Json::number_integer_t;
    using number_unsigned_t = Json::number_unsigned_t;
    using number_float_t = Json::number_float_t;
    using string_t = Json::string_t;
    using binary_t = Json::binary_t;

    // maxDepth 0: no limit; limitRuns: at most kMaxRuns items in the root object's "runs".
    StrictDomBuilder(Json& root, const std::string& text, std::size_t maxDepth, bool limitRuns)
        : root_(root), text_(text), maxDepth_(maxDepth), limitRuns_(limitRuns) {}

    bool null() { return add(Json(nullptr)); }
    bool boolean(bool value) { return add(Json(value)); }
    bool number_integer(number_integer_t value) { return add(Json(value)); }
    bool number_unsigned(number_unsigned_t value) { return add(Json(value)); }
    bool number_float(number_float_t value, const string_t&) { return add(Json(value)); }
    bool string(string_t& value) { return add(Json(std::move(value))); }
    bool binary(binary_t&) { return refuse(pathOf(frames_.size()), "binary data in JSON"); }

    bool start_object(std::size_t) {
        if (!checkDepth() || !add(Json(Json::value_t::object))) return false;
        frames_.push_back({last_, false, nullptr, 0});
        return true;
    }
    bool key(string_t& name) {
        Frame& frame = frames_.back();
        auto& members = frame.value->get_ref<Json::object_t&>();
        const auto [it, inserted] = members.try_emplace(std::move(name));
        if (!inserted) {
            const std::string outer = pathOf(frames_.size() - 1);
            keyPath_ = (outer.empty() ? "" : outer + ".") + clip(name, 60);
            return refuse(
                pathOf(frames_.size() - 1),
                "duplicate key \"" + clip(name, 60) + "\" (each key may appear once in an object)");
        }
        frame.key = &it->first;
        slot_ = &it->second;
        return true;
    }
    bool end_object() {
        frames_.pop_back();
        return true;
    }
    bool start_array(std::size_t) {
        if (!checkDepth() || !add(Json(Json::value_t::array))) return false;
        frames_.push_back({last_, true, nullptr, 0});
        return true;
    }
    bool end_array() {
        frames_.pop_back();
        return true;
    }
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& e) {
        error_ = parseErrorMessage(e.what(), position, text_);
        return false;
    }

    const std::string& error() const { return error_; }
    // The duplicate key's own path ("rope_scaling.factor"), or "" for another refusal.
    const std::string& duplicateKeyPath() const { return keyPath_; }

private:
    struct Frame {
        Json* value;
        bool array;
        const std::string* key;  // objects: the member being read (a key in the map)
        std::size_t count;       // arrays: elements so far
    };

    bool add(Json&& value) {
        if (frames_.empty()) {
            root_ = std::move(value);
            last_ = &root_;
            return true;
        }
        Frame& frame = frames_.back();
        if (!frame.array) {
            *slot_ = std::move(value);
            last_ = slot_;
            return true;
        }
        ++frame.count;
        if (limitRuns_ && frames_.size() == 2 && frame.count > kMaxRuns && !frames_[0].array &&
            frames_[0].key && *frames_[0].key == "runs") {
            return refuse("runs", "more than " + std::to_string(kMaxRuns) +
                                      " runs; a results file holds at most " +
                                      std::to_string(kMaxRuns));
        }
        auto& items = frame.value->get_ref<Json::array_t&>();
        items.push_back(std::move(value));
        last_ = &items.back();
        return true;
    }

    // The place of the value being read inside the first `n` containers.
    std::string pathOf(std::size_t n) const {
        std::string path;
        for (std::size_t i = 0; i < n && i < frames_.size(); ++i) {
            const Frame& frame = frames_[i];
            if (frame.array) {
                path += "[" + std::to_string(frame.count == 0 ? 0 : frame.count - 1) + "]";
            } else {
                path += (path.empty() ? "" : ".") + clip(frame.key ? *frame.key : "", 60);
            }
            if (path.size() > 300) return path.substr(0, 300) + "...";
        }
        return path;
    }

    bool refuse(const std::string& path, const std::string& message) {
        error_ = path.empty() ? message : path + ": " + message;
        return false;
    }

    bool checkDepth() {
        if (maxDepth_ == 0 || frames_.size() < maxDepth_) return true;
        return refuse("", "JSON nested more than " + std::to_string(maxDepth_) + " deep");
    }

    Json& root_;
    const std::string& text_;
    const std::size_t maxDepth_;
    const bool limitRuns_;
    std::vector<Frame> frames_;
    Json* slot_ = nullptr;  // the member a key made, waiting for its value
    Json* last_ = nullptr;  // the value just added
    std::string error_;
    std::string keyPath_;
};

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

}  // namespace

bool isBlank(const std::string& text) { return std::all_of(text.begin(), text.end(), isSpace); }

// Checks that need no parsing. A results file is text: a NUL byte means binary data or a
// damaged file (a crash can leave blocks of zeros), and nlohmann would take it for the end of
// the text. And it is one object: one that starts with '{' but does not end with '}' was cut
// off (or has something after it); say so without parsing what may be hundreds of megabytes.
void checkText(const std::string& text) {
    if (const std::size_t nul = text.find('\0'); nul != std::string::npos) {
        throw ResultsFileError("not valid JSON at byte " + std::to_string(nul + 1) + " (" +
                               lineAndColumn(text, nul + 1) +
                               "): a NUL byte (is the file binary or damaged?)");
    }
    std::size_t first = 0;
    if (text.compare(0, 3, "\xEF\xBB\xBF") == 0) first = 3;  // a UTF-8 byte order mark
    while (first < text.size() && isSpace(text[first])) ++first;
    if (first >= text.size() || text[first] != '{') return;  // the parser explains
    std::size_t last = text.size();
    while (last > first && isSpace(text[last - 1])) --last;
    if (text[last - 1] == '}') return;
    throw ResultsFileError("not valid JSON at byte " + std::to_string(last) + " (" +
                           lineAndColumn(text, last) +
                           "): the text ends without the '}' that closes the top-level "
                           "object (is the file truncated?)");
}

Json parseStrict(const std::string& text) {
    Json doc;
    StrictDomBuilder builder(doc, text, 0, true);
    const bool ok = Json::sax_parse(text, &builder, Json::input_format_t::json, true, false);
    if (!ok || !builder.error().empty()) {
        throw ResultsFileError(builder.error().empty() ? "not valid JSON" : builder.error());
    }
    return doc;
}

bool parseStrictJson(const std::string& text, std::size_t maxDepth, Json& doc,
                     StrictJsonError& error) {
    StrictDomBuilder builder(doc, text, maxDepth, false);
    const bool ok = Json::sax_parse(text, &builder, Json::input_format_t::json, true, false);
    if (ok && builder.error().empty()) return true;
    if (!builder.duplicateKeyPath().empty()) {
        error = {builder.duplicateKeyPath(),
                 "duplicate key (each key may appear once in an object)"};
    } else {
        error = {"", builder.error().empty() ? "not valid JSON" : builder.error()};
    }
    doc = Json();
    return false;
}

}  // namespace ckptlab::detail
