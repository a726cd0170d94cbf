// Results as JSON (schema "ckptlab.results/1"): strict reading, with the path of any bad value
// in the error. The layout is described at the top of results_json_write.cpp.
#include "ckptlab/results_io.h"

#include <cstdint>
#include <limits>
#include <new>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "ckptlab/config.h"
#include "data/file_io.h"

namespace ckptlab {

namespace {

using Json = nlohmann::json;

std::string clip(const std::string& text, std::size_t max = 200) {
    return text.size() <= max ? text : text.substr(0, max) + "...";
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

const Json& objectAt(const Json& j, const Path& at) {
    if (!j.is_object()) fail(at, "expected an object, got " + describe(j));
    return j;
}

const Json& arrayAt(const Json& j, const Path& at) {
    if (!j.is_array()) fail(at, "expected an array, got " + describe(j));
    return j;
}

std::int64_t readInt64(const Json& j, const Path& at, std::int64_t min, std::int64_t max) {
    if (!j.is_number_integer()) fail(at, "expected an integer, got " + describe(j));
    std::int64_t value = 0;
    if (j.is_number_unsigned()) {
        const auto u = j.get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
            fail(at, "integer " + std::to_string(u) + " is too large");
        }
        value = static_cast<std::int64_t>(u);
    } else {
        value = j.get<std::int64_t>();
    }
    if (value < min || value > max) {
        if (min == 0 && max == std::numeric_limits<std::int64_t>::max()) {
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

std::string readString(const Json& j, const Path& at) {
    if (!j.is_string()) fail(at, "expected a string, got " + describe(j));
    return j.get<std::string>();
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

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr int kIntMax = std::numeric_limits<int>::max();

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
    std::int64_t bytes(const char* key) const { return int64(key, 0, kInt64Max); }
    int integer(const char* key, int min, int max) const {
        return readInt(get(key), at_.member(key), min, max);
    }
    double number(const char* key) const { return readDouble(get(key), at_.member(key)); }
    double duration(const char* key) const {
        const double value = number(key);
        if (value < 0) fail(at_.member(key), "expected a duration of 0 ms or more");
        return value;
    }
    std::string string(const char* key) const { return readString(get(key), at_.member(key)); }
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

private:
    const Json& object_;
    Path at_;
};

Environment readEnvironment(const Json& j, const Path& at) {
    const Fields f(j, at);
    Environment e;
    e.ckptlab_version = f.string("ckptlab_version");
    e.libtorch_version = f.string("libtorch_version");
    e.device = f.string("device");
    e.device_name = f.string("device_name");
    e.dtype = f.string("dtype");
    e.threads = f.integer("threads", 0, kIntMax);
    e.blas = f.string("blas");
    e.cuda_compiled = f.boolean("cuda_compiled");
    e.created_utc = f.string("created_utc");
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
    // The same ranges the runner enforces: a config it would refuse cannot have been measured.
    const auto errors = validate(c);
    if (!errors.empty()) fail(at.member(errors.front().field.c_str()), errors.front().message);
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
        const double value = readDouble(samples[i], samplesAt.item(i));
        if (value < 0) fail(samplesAt.item(i), "expected a duration of 0 ms or more");
        m.step_samples_ms.push_back(value);
    }
    return m;
}

GradCheck readGradCheck(const Json& j, const Path& at) {
    const Fields f(j, at);
    GradCheck g;
    g.checked = f.boolean("checked");
    g.max_abs_diff = f.number("max_abs_diff");
    g.tolerance = f.number("tolerance");
    f.boolean("passed");  // must be well-formed, but passed() is recomputed from the numbers
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
        b.saved_ms = f.number("saved_ms");
        b.freed_ms = f.number("freed_ms");
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
        s.begin_ms = f.number("begin_ms");
        s.end_ms = f.number("end_ms");
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
    const std::int64_t minInt64 = std::numeric_limits<std::int64_t>::min();
    for (std::size_t i = 0; i < n; ++i) {
        TimelineEvent& e = events[i];
        e.t_ms = readDouble(t[i], tAt.item(i));
        e.delta = readInt64(delta[i], deltaAt.item(i), minInt64, kInt64Max);
        e.total = readInt64(total[i], totalAt.item(i), minInt64, kInt64Max);
        e.phase = legend[static_cast<std::size_t>(
            readInt(phase[i], phaseAt.item(i), 0, static_cast<int>(legend.size()) - 1))];
        e.block = readInt(block[i], blockAt.item(i), -1, depth - 1);
    }
    return events;
}

RunResult readRun(const Json& j, const Path& at) {
    const Fields f(j, at);
    RunResult run;
    run.config = readConfig(f.get("config"), at.member("config"));
    run.strategy = f.string("strategy");
    if (run.strategy.empty()) fail(at.member("strategy"), "expected a strategy name, got \"\"");
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
    if (f.find("schedule")) run.schedule = f.string("schedule");
    if (const Json* counts = f.find("forward_counts")) {
        const Path countsAt = at.member("forward_counts");
        const Json& list = arrayAt(*counts, countsAt);
        for (std::size_t i = 0; i < list.size(); ++i)
            run.forward_counts.push_back(readInt(list[i], countsAt.item(i), 0, 1 << 20));
    }
    const Json& error = f.get("error");
    if (!error.is_null()) {
        if (!error.is_string()) {
            fail(at.member("error"), "expected null or a string, got " + describe(error));
        }
        run.error = error.get<std::string>();
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
        throw ResultsFileError("unsupported schema \"" + clip(name, 80) + "\" (expected " +
                               kResultsSchema + ")");
    }

    const Path root;
    const Fields top(doc, root);
    ResultSet results;
    results.environment = readEnvironment(top.get("environment"), root.member("environment"));
    results.cancelled = top.boolean("cancelled");
    const Path runsAt = root.member("runs");
    const Json& runs = arrayAt(top.get("runs"), runsAt);
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
    return results;
}

// "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error ..." becomes
// "not valid JSON at byte 42 (line 3, column 5): syntax error ...".
std::string parseErrorMessage(const Json::parse_error& e, std::size_t textSize) {
    std::string what = e.what();
    std::string where = "at byte " + std::to_string(e.byte);
    const auto lineAt = what.find("at line ");
    const auto colon = what.find(": ", lineAt == std::string::npos ? 0 : lineAt);
    if (lineAt != std::string::npos && colon != std::string::npos) {
        where += " (" + what.substr(lineAt + 3, colon - lineAt - 3) + ")";
        what = what.substr(colon + 2);
    }
    // The "last read" excerpt echoes the input, which may be binary: keep the message printable.
    for (char& c : what) {
        if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
    }
    std::string message = "not valid JSON " + where + ": " + clip(what, 300);
    // Running out of text mid-value is what a cut-off file looks like, whatever the token.
    if (e.byte >= textSize) message += " (the text ends early: is the file truncated?)";
    return message;
}

bool isBlank(const std::string& text) {
    return text.find_first_not_of(" \t\r\n") == std::string::npos;
}

}  // namespace

ResultSet resultsFromJson(const std::string& text) {
    if (isBlank(text)) throw ResultsFileError("not valid JSON: there is no text");
    try {
        return readResults(Json::parse(text));
    } catch (const Json::parse_error& e) {
        throw ResultsFileError(parseErrorMessage(e, text.size()));
    } catch (const Json::exception& e) {
        // Every value is type-checked before use, so this is a last line of defence.
        throw ResultsFileError(std::string("malformed results file: ") + e.what());
    } catch (const std::bad_alloc&) {
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
