// Results as JSON (schema "ckptlab.results/1"): strict reading, with the path of any bad value
// in the error. The layout is described at the top of results_json_write.cpp.
//
// What the reader refuses, beyond wrong types and missing keys (each with a one-line message
// that names the place, echoing at most a short, printable excerpt of the file):
// - text that is not JSON, with the byte (counted from 1), line and column; invalid UTF-8 is
//   reported at its first bad byte, and so is a NUL byte; a text that does not end with the
//   '}' closing the top-level object is reported as cut off without parsing it (a large
//   truncated file fails fast);
// - duplicate keys in an object (JSON allows them, but one of the two values would be lost
//   silently), naming the key;
// - numbers outside what can be measured: byte counts past 2^53 (8 PiB; sums of them stay
//   exact and cannot overflow), durations below 0 or above 1e12 ms, time points that are not
//   finite or outside +-1e12 ms, a negative gradient difference or tolerance;
// - more than kMaxRuns runs; strategy names over kMaxStrategyBytes bytes or with control
//   characters (a name is one line of a table, a legend, a chart title); schedules that do not
//   describe the run's model (they are drawn, so they must be bounded by its units).
// Text that is only shown (environment, errors, notes) has the characters XML cannot hold
// (C0 controls other than tab and line breaks, U+FFFE, U+FFFF) replaced by U+FFFD, so a file
// can never break the SVG a chart is exported to.
// Non-finite values are written as the strings "nan", "inf" and "-inf"; they are read where a
// run can hold them: durations ("nan" = not measured), the gradient check's difference and
// tolerance.
#include "ckptlab/results_io.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "ckptlab/config.h"
#include "ckptlab/planner.h"
#include "formats/file_io.h"

namespace ckptlab {

namespace {

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
std::string clip(const std::string& text, std::size_t max = 200) {
    std::size_t end = std::min(text.size(), max);
    if (end < text.size()) {
        while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xc0) == 0x80) --end;
    }
    std::string out;
    out.reserve(end + 3);
    for (std::size_t i = 0; i < end; ++i) {
        const auto u = static_cast<unsigned char>(text[i]);
        if (u < 0x20 || u == 0x7f) {
            out += '?';
        } else if (u == 0xef && i + 2 < end && static_cast<unsigned char>(text[i + 1]) == 0xbf &&
                   static_cast<unsigned char>(text[i + 2]) >= 0xbe) {
            out += '?';  // U+FFFE, U+FFFF: not characters
            i += 2;
        } else {
            out += text[i];
        }
    }
    if (end < text.size()) out += "...";
    return out;
}

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

[[noreturn]] void fail(const Path& at, const std::string& message) {
    const std::string where = at.str();
    throw ResultsFileError(where.empty() ? message : where + ": " + message);
}

std::string describe(const Json& j) {
    switch (j.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::string: return "a string";
    case Json::value_t::array: return "an array";
    case Json::value_t::object: return "an object";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: return "an integer";
    case Json::value_t::number_float: return "a number with a fraction";
    default: return "an unsupported value";
    }
}

// A double as a message shows it: shortest text that reads back the same.
std::string numberText(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    return Json(value).dump();
}

const Json& objectAt(const Json& j, const Path& at) {
    if (!j.is_object()) fail(at, "expected an object, got " + describe(j));
    return j;
}

const Json& arrayAt(const Json& j, const Path& at) {
    if (!j.is_array()) fail(at, "expected an array, got " + describe(j));
    return j;
}

std::int64_t readInt64(const Json& j, const Path& at, std::int64_t min, std::int64_t max) {
    if (j.is_number_float()) {
        // JSON integers past 2^64 arrive as doubles: say what is wrong with them.
        const double v = j.get<double>();
        if (std::floor(v) == v && std::fabs(v) >= 9.2e18) {
            fail(at, "integer " + numberText(v) + " is too large");
        }
    }
    if (!j.is_number_integer()) fail(at, "expected an integer, got " + describe(j));
    std::int64_t value = 0;
    if (j.is_number_unsigned()) {
        const auto u = j.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(kInt64Max)) {
            fail(at, "integer " + std::to_string(u) + " is too large");
        }
        value = static_cast<std::int64_t>(u);
    } else {
        value = j.get<std::int64_t>();
    }
    if (value < min || value > max) {
        if (min == 0 && max == kInt64Max) {
            fail(at, "expected a non-negative integer, got " + std::to_string(value));
        }
        if (min == 0 && max == kMaxBytes && value >= 0) {
            fail(at, "expected at most 2^53 bytes (8 PiB), got " + std::to_string(value));
        }
        if (min == 0 && value < 0) {
            fail(at, "expected a non-negative integer, got " + std::to_string(value));
        }
        fail(at, "expected an integer from " + std::to_string(min) + " to " +
                     std::to_string(max) + ", got " + std::to_string(value));
    }
    return value;
}

int readInt(const Json& j, const Path& at, int min, int max) {
    return static_cast<int>(readInt64(j, at, min, max));
}

double readDouble(const Json& j, const Path& at) {
    if (j.is_number()) return j.get<double>();
    if (j.is_string()) {
        const auto& s = j.get_ref<const std::string&>();
        if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
        if (s == "inf") return std::numeric_limits<double>::infinity();
        if (s == "-inf") return -std::numeric_limits<double>::infinity();
        fail(at, "expected a number, got the string \"" + clip(s, 40) + "\"");
    }
    fail(at, "expected a number, got " + describe(j));
}

// A duration in ms: 0 to kMaxMs, or "nan" (not measured) or "inf".
double readDuration(const Json& j, const Path& at) {
    const double value = readDouble(j, at);
    if (value < 0) fail(at, "expected a duration of 0 ms or more, got " + numberText(value));
    if (value > kMaxMs && !std::isinf(value)) {
        fail(at, "expected a duration of at most 1e12 ms, got " + numberText(value));
    }
    return value;
}

// A moment within the traced step, in ms since it began: finite, within +-kMaxMs.
double readTime(const Json& j, const Path& at) {
    const double value = readDouble(j, at);
    if (!(std::fabs(value) <= kMaxMs)) {
        fail(at, "expected a time from -1e12 to 1e12 ms, got " + numberText(value));
    }
    return value;
}

std::string readString(const Json& j, const Path& at) {
    if (!j.is_string()) fail(at, "expected a string, got " + describe(j));
    return j.get<std::string>();
}

// Code points XML cannot hold (and a terminal or a table should not get): C0 controls other
// than tab, newline and carriage return, and U+FFFE, U+FFFF. Returns the length of the one at
// text[i] in bytes, or 0. The text is valid UTF-8 (the parser checked).
std::size_t unprintableAt(const std::string& text, std::size_t i, bool allowLineBreaks) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20) return allowLineBreaks && (c == '\t' || c == '\n' || c == '\r') ? 0 : 1;
    if (c == 0xef && i + 2 < text.size() && static_cast<unsigned char>(text[i + 1]) == 0xbf &&
        (static_cast<unsigned char>(text[i + 2]) == 0xbe ||
         static_cast<unsigned char>(text[i + 2]) == 0xbf)) {
        return 3;
    }
    return 0;
}

// Text shown as it is (environment, error messages, notes): what XML cannot hold becomes
// U+FFFD, so a file's text can never break the SVG a chart is exported to.
std::string readText(const Json& j, const Path& at) {
    std::string text = readString(j, at);
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (const std::size_t n = unprintableAt(text, i, true)) {
            text.replace(i, n, "\xEF\xBF\xBD");
            i += 2;
        }
    }
    return text;
}

Phase readPhase(const Json& j, const Path& at) {
    const std::string text = readString(j, at);
    const auto phase = parsePhase(text);
    if (!phase) {
        fail(at, "unknown phase \"" + clip(text, 40) +
                     "\" (expected idle, forward, loss, recompute, backward or optimizer)");
    }
    return *phase;
}

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

Environment readEnvironment(const Json& j, const Path& at) {
    const Fields f(j, at);
    Environment e;
    e.ckptlab_version = f.text("ckptlab_version");
    e.libtorch_version = f.text("libtorch_version");
    e.device = f.text("device");
    e.device_name = f.text("device_name");
    e.dtype = f.text("dtype");
    e.threads = f.integer("threads", 0, kIntMax);
    e.blas = f.text("blas");
    e.cuda_compiled = f.boolean("cuda_compiled");
    e.created_utc = f.text("created_utc");
    return e;
}

ExperimentConfig readConfig(const Json& j, const Path& at) {
    const Fields f(j, at);
    ExperimentConfig c;
    c.block = f.choice("block", parseBlockKind, "ffn or transformer");
    c.depth = f.integer("depth", 0, kIntMax);
    c.width = f.integer("width", 0, kIntMax);
    c.seq = f.integer("seq", 0, kIntMax);
    c.batch = f.integer("batch", 0, kIntMax);
    c.heads = f.integer("heads", 0, kIntMax);
    c.dropout = f.number("dropout");
    c.dtype = f.choice("dtype", parseDType, "float32 or bfloat16");
    c.device = f.string("device");
    c.optimizer = f.choice("optimizer", parseOptimizer, "none, sgd or adam");
    const Json& seed = f.get("seed");
    if (!seed.is_number_unsigned()) {
        fail(at.member("seed"), "expected a non-negative integer, got " +
                                    (seed.is_number() ? seed.dump() : describe(seed)));
    }
    c.seed = seed.get<std::uint64_t>();
    c.threads = f.integer("threads", 0, kIntMax);
    c.warmup = f.integer("warmup", 0, kIntMax);
    c.repeats = f.integer("repeats", 0, kIntMax);
    if (f.find("memory_limit_mib")) c.memory_limit_mib = f.number("memory_limit_mib");
    // The same ranges the runner enforces: a config it would refuse cannot have been measured.
    const auto errors = validate(c);
    if (!errors.empty()) {
        fail(at.member(errors.front().field.c_str()), clip(errors.front().message, 300));
    }
    return c;
}

Metrics readMetrics(const Json& j, const Path& at) {
    const Fields f(j, at);
    Metrics m;
    m.peak_bytes = f.bytes("peak_bytes");
    m.activation_bytes = f.bytes("activation_bytes");
    m.baseline_bytes = f.bytes("baseline_bytes");
    m.step_ms = f.duration("step_ms");
    m.forward_ms = f.duration("forward_ms");
    m.backward_ms = f.duration("backward_ms");
    m.recompute_ms = f.duration("recompute_ms");
    m.optimizer_ms = f.duration("optimizer_ms");
    m.recomputed_blocks = f.integer("recomputed_blocks", 0, kIntMax);
    const Path samplesAt = at.member("step_samples_ms");
    const Json& samples = arrayAt(f.get("step_samples_ms"), samplesAt);
    for (std::size_t i = 0; i < samples.size(); ++i) {
        m.step_samples_ms.push_back(readDuration(samples[i], samplesAt.item(i)));
    }
    return m;
}

GradCheck readGradCheck(const Json& j, const Path& at) {
    const Fields f(j, at);
    GradCheck g;
    g.checked = f.boolean("checked");
    // NaN or +Inf when gradients went non-finite: the check then fails.
    g.max_abs_diff = f.number("max_abs_diff");
    if (g.max_abs_diff < 0) {
        fail(at.member("max_abs_diff"),
             "expected 0 or more (or \"nan\", \"inf\"), got " + numberText(g.max_abs_diff));
    }
    g.tolerance = f.number("tolerance");
    if (g.tolerance < 0) {
        fail(at.member("tolerance"),
             "expected 0 or more (or \"nan\", \"inf\"), got " + numberText(g.tolerance));
    }
    f.boolean("passed");  // must be well-formed, but passed() is recomputed from the numbers
    if (f.find("note")) g.note = f.text("note");
    return g;
}

Breakdown readBreakdown(const Json& j, const Path& at) {
    const Fields f(j, at);
    Breakdown b;
    b.parameters = f.bytes("parameters");
    b.input = f.bytes("input");
    b.optimizer_state = f.bytes("optimizer_state");
    b.gradients = f.bytes("gradients");
    b.activations = f.bytes("activations");
    b.other = f.bytes("other");
    return b;
}

std::vector<BlockLifetime> readBlocks(const Json& j, const Path& at, int depth) {
    const Json& list = arrayAt(j, at);
    std::vector<BlockLifetime> blocks;
    blocks.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Path itemAt = at.item(i);
        const Fields f(list[i], itemAt);
        BlockLifetime b;
        b.block = f.integer("block", 0, depth - 1);
        b.phase = f.phase("phase");
        if (b.phase != Phase::Forward && b.phase != Phase::Recompute) {
            fail(itemAt.member("phase"), "expected forward or recompute, got \"" +
                                             toString(b.phase) + "\"");
        }
        b.saved_ms = f.time("saved_ms");
        b.freed_ms = f.time("freed_ms");
        b.bytes = f.bytes("bytes");
        blocks.push_back(b);
    }
    return blocks;
}

std::vector<PhaseSpan> readPhases(const Json& j, const Path& at, int depth) {
    const Json& list = arrayAt(j, at);
    std::vector<PhaseSpan> spans;
    spans.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Path itemAt = at.item(i);
        const Fields f(list[i], itemAt);
        PhaseSpan s;
        s.phase = f.phase("phase");
        s.block = f.integer("block", -1, depth - 1);
        s.begin_ms = f.time("begin_ms");
        s.end_ms = f.time("end_ms");
        spans.push_back(s);
    }
    return spans;
}

std::vector<TimelineEvent> readTimeline(const Json& j, const Path& at, int depth) {
    const Fields f(j, at);
    const Path codesAt = at.member("phase_codes");
    const Json& codes = arrayAt(f.get("phase_codes"), codesAt);
    std::vector<Phase> legend;
    for (std::size_t i = 0; i < codes.size(); ++i) {
        legend.push_back(readPhase(codes[i], codesAt.item(i)));
    }
    if (legend.size() > 1000) fail(codesAt, "has more than 1000 entries");

    const Path tAt = at.member("t_ms"), deltaAt = at.member("delta"),
               totalAt = at.member("total"), phaseAt = at.member("phase"),
               blockAt = at.member("block");
    const Json& t = arrayAt(f.get("t_ms"), tAt);
    const Json& delta = arrayAt(f.get("delta"), deltaAt);
    const Json& total = arrayAt(f.get("total"), totalAt);
    const Json& phase = arrayAt(f.get("phase"), phaseAt);
    const Json& block = arrayAt(f.get("block"), blockAt);
    const std::size_t n = t.size();
    const std::pair<const Json*, const Path*> others[] = {
        {&delta, &deltaAt}, {&total, &totalAt}, {&phase, &phaseAt}, {&block, &blockAt}};
    for (const auto& [column, columnAt] : others) {
        if (column->size() != n) {
            fail(*columnAt, "has " + std::to_string(column->size()) +
                                " values but t_ms has " + std::to_string(n));
        }
    }
    if (n > 0 && legend.empty()) fail(codesAt, "is empty but the timeline has events");

    std::vector<TimelineEvent> events(n);
    for (std::size_t i = 0; i < n; ++i) {
        TimelineEvent& e = events[i];
        e.t_ms = readTime(t[i], tAt.item(i));
        e.delta = readInt64(delta[i], deltaAt.item(i), -kMaxBytes, kMaxBytes);
        e.total = readInt64(total[i], totalAt.item(i), -kMaxBytes, kMaxBytes);
        e.phase = legend[static_cast<std::size_t>(
            readInt(phase[i], phaseAt.item(i), 0, static_cast<int>(legend.size()) - 1))];
        e.block = readInt(block[i], blockAt.item(i), -1, depth - 1);
    }
    return events;
}

std::optional<OutOfMemory> readOutOfMemory(const Json& j, const Path& at, int depth) {
    const Fields f(j, at);
    OutOfMemory o;
    o.requested_bytes = f.bytes("requested_bytes");
    o.allocated_bytes = f.bytes("allocated_bytes");
    o.limit_bytes = f.bytes("limit_bytes");
    o.phase = f.phase("phase");
    o.block = f.integer("block", -1, depth - 1);
    o.t_ms = f.time("t_ms");
    return o;
}

// The schedule is parsed and drawn, so it must describe this run's model: at most as deep as
// it has units (a deeper nesting would only repeat a checkpoint inside itself) and covering
// exactly its units. Checked before parsing, since the parser recurses per level.
void checkSchedule(const std::string& schedule, const ExperimentConfig& c, const Path& at) {
    const int units = c.depth * (c.block == BlockKind::Transformer ? 2 : 1);
    int level = 0;
    for (const char ch : schedule) {
        if (ch == '{' && ++level > units) {
            fail(at, "checkpoints nested more than " + std::to_string(units) +
                         " deep, deeper than the model has units");
        }
        if (ch == '}') --level;
    }
    Plan plan;
    try {
        plan = parseSchedule(schedule);
    } catch (const std::exception& e) {
        fail(at, clip(e.what(), 200));
    }
    const int end = plan.segments.empty() ? 0 : plan.segments.back().end;
    if (end != units) {
        fail(at, "covers units 0.." + std::to_string(end - 1) + " but the model has " +
                     std::to_string(units) + " units");
    }
}

RunResult readRun(const Json& j, const Path& at) {
    const Fields f(j, at);
    RunResult run;
    run.config = readConfig(f.get("config"), at.member("config"));
    run.strategy = f.string("strategy");
    if (run.strategy.empty()) fail(at.member("strategy"), "expected a strategy name, got \"\"");
    for (std::size_t i = 0; i < run.strategy.size(); ++i) {
        if (unprintableAt(run.strategy, i, false)) {
            char code[16];
            const auto c = static_cast<unsigned char>(run.strategy[i]);
            const unsigned point = c < 0x20 ? c
                                 : static_cast<unsigned char>(run.strategy[i + 2]) == 0xbe ? 0xfffe
                                                                                           : 0xffff;
            std::snprintf(code, sizeof code, "U+%04X", point);
            fail(at.member("strategy"), "the strategy name \"" + clip(run.strategy, 40) +
                                            "\" holds " + code + ", which is not printable text");
        }
    }
    if (run.strategy.size() > kMaxStrategyBytes) {
        fail(at.member("strategy"), "expected a strategy name of at most " +
                                        std::to_string(kMaxStrategyBytes) + " bytes, got " +
                                        std::to_string(run.strategy.size()));
    }
    run.metrics = readMetrics(f.get("metrics"), at.member("metrics"));
    run.grad_check = readGradCheck(f.get("grad_check"), at.member("grad_check"));
    run.breakdown = readBreakdown(f.get("breakdown"), at.member("breakdown"));
    const int depth = run.config.depth;
    run.blocks = readBlocks(f.get("blocks"), at.member("blocks"), depth);
    run.timeline = readTimeline(f.get("timeline"), at.member("timeline"), depth);
    run.phases = readPhases(f.get("phases"), at.member("phases"), depth);
    if (const Json* p = f.find("prediction")) {
        const Fields pf(*p, at.member("prediction"));
        run.prediction = PredictedMetrics{pf.bytes("peak_bytes"), pf.bytes("activation_bytes"),
                                          pf.duration("step_ms"), std::nullopt};
        if (pf.find("optimal_step_ms")) run.prediction->optimal_step_ms = pf.duration("optimal_step_ms");
    }
    if (f.find("schedule")) {
        run.schedule = f.string("schedule");
        if (!run.schedule.empty()) checkSchedule(run.schedule, run.config, at.member("schedule"));
    }
    if (const Json* counts = f.find("forward_counts")) {
        const Path countsAt = at.member("forward_counts");
        const Json& list = arrayAt(*counts, countsAt);
        const std::size_t units =
            static_cast<std::size_t>(depth) * (run.config.block == BlockKind::Transformer ? 2 : 1);
        if (!list.empty() && list.size() != units) {
            fail(countsAt, "has " + std::to_string(list.size()) + " values but the model has " +
                               std::to_string(units) + " units");
        }
        for (std::size_t i = 0; i < list.size(); ++i)
            run.forward_counts.push_back(readInt(list[i], countsAt.item(i), 0, 1 << 20));
    }
    const Json& error = f.get("error");
    if (!error.is_null()) {
        if (!error.is_string()) {
            fail(at.member("error"), "expected null or a string, got " + describe(error));
        }
        run.error = readText(error, at.member("error"));
    }
    if (const Json* oom = f.find("out_of_memory")) {
        run.out_of_memory = readOutOfMemory(*oom, at.member("out_of_memory"), depth);
    }
    return run;
}

ResultSet readResults(const Json& doc) {
    const std::string foreign = "not a Checkpoint Lab results file: ";
    if (!doc.is_object()) {
        throw ResultsFileError(foreign + "the top level is " + describe(doc) +
                               ", not an object");
    }
    const auto schema = doc.find("schema");
    if (schema == doc.end()) throw ResultsFileError(foreign + "missing \"schema\"");
    if (!schema->is_string()) {
        throw ResultsFileError(foreign + "\"schema\" is " + describe(*schema) +
                               ", not a string");
    }
    const auto& name = schema->get_ref<const std::string&>();
    if (name != kResultsSchema) {
        // "ckptlab.results/2" and later come from a newer Checkpoint Lab: say so.
        const std::string prefix = "ckptlab.results/";
        const std::string version = name.rfind(prefix, 0) == 0 ? name.substr(prefix.size()) : "";
        const bool newer = !version.empty() && version.size() <= 9 && version[0] != '0' &&
                           version.find_first_not_of("0123456789") == std::string::npos &&
                           version != "1";
        throw ResultsFileError("unsupported schema \"" + clip(name, 80) + "\" (expected " +
                               kResultsSchema + ")" +
                               (newer ? ": the file is from a newer Checkpoint Lab" : ""));
    }

    const Path root;
    const Fields top(doc, root);
    ResultSet results;
    results.environment = readEnvironment(top.get("environment"), root.member("environment"));
    results.cancelled = top.boolean("cancelled");
    const Path runsAt = root.member("runs");
    const Json& runs = arrayAt(top.get("runs"), runsAt);
    if (runs.size() > kMaxRuns) {
        fail(runsAt, "more than " + std::to_string(kMaxRuns) + " runs (" +
                         std::to_string(runs.size()) + "); a results file holds at most " +
                         std::to_string(kMaxRuns));
    }
    results.runs.reserve(runs.size());
    for (std::size_t i = 0; i < runs.size(); ++i) {
        results.runs.push_back(readRun(runs[i], runsAt.item(i)));
    }
    if (const Json* frontier = top.find("predicted_frontier")) {
        const Path frontierAt = root.member("predicted_frontier");
        const Json& points = arrayAt(*frontier, frontierAt);
        for (std::size_t i = 0; i < points.size(); ++i) {
            const Fields point(points[i], frontierAt.item(i));
            results.predicted_frontier.push_back(
                {point.bytes("peak_bytes"), point.duration("step_ms")});
        }
    }
    if (const Json* notes = top.find("notes")) {
        const Path notesAt = root.member("notes");
        const Json& list = arrayAt(*notes, notesAt);
        for (std::size_t i = 0; i < list.size(); ++i) {
            results.notes.push_back(readText(list[i], notesAt.item(i)));
        }
    }
    return results;
}

// ---------------------------------------------------------------- parsing

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

// Offset (from 0) of the first byte that breaks UTF-8, or npos.
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

// Builds the document like nlohmann's own DOM parser, but refuses duplicate keys and more than
// kMaxRuns runs while parsing (so a file of a million runs fails at the first one too many),
// and keeps the error with the place it happened.
class StrictDomBuilder {
public:
    using number_integer_t = Json::number_integer_t;
    using number_unsigned_t = Json::number_unsigned_t;
    using number_float_t = Json::number_float_t;
    using string_t = Json::string_t;
    using binary_t = Json::binary_t;

    StrictDomBuilder(Json& root, const std::string& text) : root_(root), text_(text) {}

    bool null() { return add(Json(nullptr)); }
    bool boolean(bool value) { return add(Json(value)); }
    bool number_integer(number_integer_t value) { return add(Json(value)); }
    bool number_unsigned(number_unsigned_t value) { return add(Json(value)); }
    bool number_float(number_float_t value, const string_t&) { return add(Json(value)); }
    bool string(string_t& value) { return add(Json(std::move(value))); }
    bool binary(binary_t&) { return refuse(pathOf(frames_.size()), "binary data in JSON"); }

    bool start_object(std::size_t) {
        if (!add(Json(Json::value_t::object))) return false;
        frames_.push_back({last_, false, nullptr, 0});
        return true;
    }
    bool key(string_t& name) {
        Frame& frame = frames_.back();
        auto& members = frame.value->get_ref<Json::object_t&>();
        const auto [it, inserted] = members.try_emplace(std::move(name));
        if (!inserted) {
            return refuse(pathOf(frames_.size() - 1),
                          "duplicate key \"" + clip(name, 60) +
                              "\" (each key may appear once in an object)");
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
        if (!add(Json(Json::value_t::array))) return false;
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

private:
    struct Frame {
        Json* value;
        bool array;
        const std::string* key;  // objects: the member being read (a key in the map)
        std::size_t count;  // arrays: elements so far
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
        if (frames_.size() == 2 && frame.count > kMaxRuns && !frames_[0].array &&
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

    Json& root_;
    const std::string& text_;
    std::vector<Frame> frames_;
    Json* slot_ = nullptr;  // the member a key made, waiting for its value
    Json* last_ = nullptr;  // the value just added
    std::string error_;
};

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

bool isBlank(const std::string& text) {
    return std::all_of(text.begin(), text.end(), isSpace);
}

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
    StrictDomBuilder builder(doc, text);
    const bool ok = Json::sax_parse(text, &builder, Json::input_format_t::json, true, false);
    if (!ok || !builder.error().empty()) {
        throw ResultsFileError(builder.error().empty() ? "not valid JSON" : builder.error());
    }
    return doc;
}

}  // namespace

ResultSet resultsFromJson(const std::string& text) {
    if (isBlank(text)) throw ResultsFileError("not valid JSON: there is no text");
    try {
        checkText(text);
        return readResults(parseStrict(text));
    } catch (const Json::exception& e) {
        // Every value is type-checked before use, so this is a last line of defence.
        throw ResultsFileError("malformed results file: " + clip(e.what(), 300));
    } catch (const std::bad_alloc&) {
        throw ResultsFileError("not enough memory to read the results");
    } catch (const std::length_error&) {
        throw ResultsFileError("not enough memory to read the results");
    }
}

ResultSet loadResults(const std::string& path) {
    try {
        const std::string text = detail::readFile(path);
        if (isBlank(text)) throw ResultsFileError(path + ": the file is empty");
        try {
            return resultsFromJson(text);
        } catch (const ResultsFileError& e) {
            throw ResultsFileError(path + ": " + e.what());
        }
    } catch (const std::bad_alloc&) {
        throw ResultsFileError("cannot read " + path + ": not enough memory");
    }
}

}  // namespace ckptlab
