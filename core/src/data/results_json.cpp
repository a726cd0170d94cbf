// Results as JSON (schema "ckptlab.results/1"): writing, strict reading, and the file helpers.
//
// Layout notes beyond the obvious field names:
// - Non-finite doubles (a NaN gradient difference, say) have no JSON number, so they are
//   written as the strings "nan", "inf" and "-inf" and read back as such.
// - The timeline is stored as columns (t_ms, delta, total, phase, block) because it can hold
//   hundreds of thousands of events. Its "phase" column holds small integers that index the
//   "phase_codes" list stored beside it, so the file explains itself.
#include "ckptlab/results_io.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <memory>
#include <new>
#include <system_error>

#include <nlohmann/json.hpp>

#include "ckptlab/config.h"

namespace ckptlab {

// Also used by results_csv.cpp and chrome_trace.cpp, which declare it themselves.
namespace detail {
void writeFileAtomically(const std::string& path, const std::string& text);
}

namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

constexpr Phase kAllPhases[] = {Phase::Idle,      Phase::Forward,  Phase::Loss,
                                Phase::Recompute, Phase::Backward, Phase::Optimizer};
// Results files are megabytes; refusing gigabytes keeps a wrong file from exhausting memory.
constexpr std::size_t kMaxFileBytes = std::size_t{1} << 30;

std::string errnoText(int error) {
    return std::error_code(error ? error : EIO, std::generic_category()).message();
}

std::string clip(const std::string& text, std::size_t max = 200) {
    return text.size() <= max ? text : text.substr(0, max) + "...";
}

// ---------------------------------------------------------------- writing

OrderedJson number(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    return value;
}

OrderedJson environmentJson(const Environment& e) {
    return OrderedJson{{"ckptlab_version", e.ckptlab_version},
                       {"libtorch_version", e.libtorch_version},
                       {"device", e.device},
                       {"device_name", e.device_name},
                       {"dtype", e.dtype},
                       {"threads", e.threads},
                       {"blas", e.blas},
                       {"cuda_compiled", e.cuda_compiled},
                       {"created_utc", e.created_utc}};
}

OrderedJson configJson(const ExperimentConfig& c) {
    return OrderedJson{{"block", toString(c.block)},   {"depth", c.depth},
                       {"width", c.width},             {"seq", c.seq},
                       {"batch", c.batch},             {"heads", c.heads},
                       {"dropout", number(c.dropout)}, {"dtype", toString(c.dtype)},
                       {"device", c.device},           {"optimizer", toString(c.optimizer)},
                       {"seed", c.seed},               {"threads", c.threads},
                       {"warmup", c.warmup},           {"repeats", c.repeats}};
}

OrderedJson metricsJson(const Metrics& m) {
    OrderedJson samples = OrderedJson::array();
    for (double sample : m.step_samples_ms) samples.push_back(number(sample));
    return OrderedJson{{"peak_bytes", m.peak_bytes},
                       {"activation_bytes", m.activation_bytes},
                       {"baseline_bytes", m.baseline_bytes},
                       {"step_ms", number(m.step_ms)},
                       {"forward_ms", number(m.forward_ms)},
                       {"backward_ms", number(m.backward_ms)},
                       {"recompute_ms", number(m.recompute_ms)},
                       {"optimizer_ms", number(m.optimizer_ms)},
                       {"recomputed_blocks", m.recomputed_blocks},
                       {"step_samples_ms", std::move(samples)}};
}

OrderedJson breakdownJson(const Breakdown& b) {
    return OrderedJson{{"parameters", b.parameters},   {"input", b.input},
                       {"optimizer_state", b.optimizer_state}, {"gradients", b.gradients},
                       {"activations", b.activations}, {"other", b.other}};
}

OrderedJson timelineJson(const std::vector<TimelineEvent>& events) {
    OrderedJson codes = OrderedJson::array();
    for (Phase phase : kAllPhases) codes.push_back(toString(phase));
    OrderedJson t = OrderedJson::array(), delta = OrderedJson::array(),
                total = OrderedJson::array(), phase = OrderedJson::array(),
                block = OrderedJson::array();
    for (const TimelineEvent& e : events) {
        t.push_back(number(e.t_ms));
        delta.push_back(e.delta);
        total.push_back(e.total);
        phase.push_back(static_cast<int>(e.phase));
        block.push_back(e.block);
    }
    return OrderedJson{{"phase_codes", std::move(codes)}, {"t_ms", std::move(t)},
                       {"delta", std::move(delta)},       {"total", std::move(total)},
                       {"phase", std::move(phase)},       {"block", std::move(block)}};
}

OrderedJson runJson(const RunResult& run) {
    OrderedJson blocks = OrderedJson::array();
    for (const BlockLifetime& b : run.blocks) {
        blocks.push_back(OrderedJson{{"block", b.block},
                                     {"phase", toString(b.phase)},
                                     {"saved_ms", number(b.saved_ms)},
                                     {"freed_ms", number(b.freed_ms)},
                                     {"bytes", b.bytes}});
    }
    OrderedJson phases = OrderedJson::array();
    for (const PhaseSpan& s : run.phases) {
        phases.push_back(OrderedJson{{"phase", toString(s.phase)},
                                     {"block", s.block},
                                     {"begin_ms", number(s.begin_ms)},
                                     {"end_ms", number(s.end_ms)}});
    }
    const GradCheck& g = run.grad_check;
    return OrderedJson{
        {"config", configJson(run.config)},
        {"strategy", run.strategy},
        {"metrics", metricsJson(run.metrics)},
        // "passed" is derived; it is written for people and scripts, and recomputed on load.
        {"grad_check", OrderedJson{{"checked", g.checked},
                                   {"max_abs_diff", number(g.max_abs_diff)},
                                   {"tolerance", number(g.tolerance)},
                                   {"passed", g.passed()}}},
        {"breakdown", breakdownJson(run.breakdown)},
        {"blocks", std::move(blocks)},
        {"timeline", timelineJson(run.timeline)},
        {"phases", std::move(phases)},
        {"prediction", run.prediction
                           ? OrderedJson{{"peak_bytes", run.prediction->peak_bytes},
                                         {"activation_bytes", run.prediction->activation_bytes},
                                         {"step_ms", number(run.prediction->step_ms)},
                                         {"optimal_step_ms",
                                          run.prediction->optimal_step_ms
                                              ? number(*run.prediction->optimal_step_ms)
                                              : OrderedJson(nullptr)}}
                           : OrderedJson(nullptr)},
        {"schedule", run.schedule},
        {"forward_counts", run.forward_counts},
        {"error", run.error ? OrderedJson(*run.error) : OrderedJson(nullptr)}};
}

std::string compact(const OrderedJson& j) {
    // Strings from LibTorch errors or /proc may not be valid UTF-8; never fail to save for that.
    return j.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

bool isFlat(const OrderedJson& j) {
    for (const OrderedJson& child : j) {
        if (child.is_structured()) return false;
    }
    return true;
}

// Indented like dump(2), except that arrays of scalars (the timeline columns) and flat objects
// inside arrays (blocks, phases) take one line each, so a big file stays readable and small.
void appendPretty(std::string& out, const OrderedJson& j, int depth) {
    if (!j.is_structured() || j.empty() || (j.is_array() && isFlat(j))) {
        out += compact(j);
        return;
    }
    const bool object = j.is_object();
    const std::string pad(2 * (depth + 1), ' ');
    out += object ? '{' : '[';
    for (auto it = j.begin(); it != j.end(); ++it) {
        out += it == j.begin() ? "\n" : ",\n";
        out += pad;
        if (object) {
            out += compact(OrderedJson(it.key()));
            out += ": ";
            appendPretty(out, *it, depth + 1);
        } else if (isFlat(*it)) {
            out += compact(*it);
        } else {
            appendPretty(out, *it, depth + 1);
        }
    }
    out += '\n';
    out.append(2 * depth, ' ');
    out += object ? '}' : ']';
}

// ---------------------------------------------------------------- reading

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

std::string readFile(const std::string& path) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        throw ResultsFileError("cannot open " + path + ": it is a directory");
    }
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                        &std::fclose);
    if (!file) throw ResultsFileError("cannot open " + path + ": " + errnoText(errno));
    std::string text;
    char buffer[1 << 16];
    std::size_t got = 0;
    while ((got = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) {
        if (text.size() + got > kMaxFileBytes) {
            throw ResultsFileError("cannot open " + path +
                                   ": larger than 1 GiB, too large for a results file");
        }
        text.append(buffer, got);
    }
    if (std::ferror(file.get())) {
        throw ResultsFileError("cannot read " + path + ": " + errnoText(errno));
    }
    return text;
}

}  // namespace

namespace detail {

// Writes FILE.tmp and renames it over FILE, so a crash or a full disk never leaves a
// half-written results file where a good one was.
void writeFileAtomically(const std::string& path, const std::string& text) {
    if (path.empty()) throw ResultsFileError("cannot write: no file name given");
    const std::string temporary = path + ".tmp";
    std::FILE* file = std::fopen(temporary.c_str(), "wb");
    if (!file) throw ResultsFileError("cannot write " + path + ": " + errnoText(errno));
    int error = 0;
    if (std::fwrite(text.data(), 1, text.size(), file) != text.size()) {
        error = errno ? errno : EIO;
    }
    if (std::fflush(file) != 0 && !error) error = errno ? errno : EIO;
    if (std::fclose(file) != 0 && !error) error = errno ? errno : EIO;
    std::error_code ec;
    if (error) {
        std::filesystem::remove(temporary, ec);
        throw ResultsFileError("cannot write " + path + ": " + errnoText(error));
    }
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
        std::error_code ignored;
        std::filesystem::remove(temporary, ignored);
        throw ResultsFileError("cannot write " + path + ": " + ec.message());
    }
}

}  // namespace detail

std::string resultsToJson(const ResultSet& results) {
    OrderedJson runs = OrderedJson::array();
    for (const RunResult& run : results.runs) runs.push_back(runJson(run));
    OrderedJson frontier = OrderedJson::array();
    for (const FrontierPoint& p : results.predicted_frontier)
        frontier.push_back(OrderedJson{{"peak_bytes", p.peak_bytes}, {"step_ms", number(p.step_ms)}});
    const OrderedJson doc{{"schema", kResultsSchema},
                          {"environment", environmentJson(results.environment)},
                          {"cancelled", results.cancelled},
                          {"runs", std::move(runs)},
                          {"predicted_frontier", std::move(frontier)}};
    std::string text;
    appendPretty(text, doc, 0);
    text += '\n';
    return text;
}

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

void saveResults(const ResultSet& results, const std::string& path) {
    detail::writeFileAtomically(path, resultsToJson(results));
}

ResultSet loadResults(const std::string& path) {
    try {
        const std::string text = readFile(path);
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
