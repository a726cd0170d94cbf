// Timelines as Chrome trace event JSON, which Perfetto and chrome://tracing open.
// One process per run: an "allocated" counter track, phase slices on thread 1 and activation
// lifetimes on thread 2. Times are in microseconds, rounded to whole nanoseconds.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "ckptlab/formats/results_io.h"
#include "ckptlab/model/summary.h"
#include "formats/file_io.h"

namespace ckptlab {

namespace {

using Json = nlohmann::ordered_json;

constexpr int kPhaseTid = 1;
constexpr int kActivationTid = 2;
constexpr int kLaneTidStride = 100;  // overflow lanes: 101, 201, ... and 102, 202, ...

bool toNs(double ms, std::int64_t& ns) {
    if (!std::isfinite(ms) || std::fabs(ms) > 1e12) return false;
    ns = std::llround(ms * 1e6);
    return true;
}

double toUs(std::int64_t ns) { return static_cast<double>(ns) / 1000.0; }

struct Slice {
    std::int64_t begin = 0;  // ns
    std::int64_t end = 0;
    std::string name;
    std::string category;
    Json args;
    int lane = 0;
};

// Slices on one thread must nest. Phases and lifetimes normally do, but when one does not,
// it moves to the first extra lane where it does instead of garbling the track.
void assignLanes(std::vector<Slice>& slices) {
    std::sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
    });
    std::vector<std::vector<std::int64_t>> open;  // per lane, the ends of enclosing slices
    for (Slice& slice : slices) {
        std::size_t lane = 0;
        for (; lane < open.size(); ++lane) {
            auto& ends = open[lane];
            while (!ends.empty() && ends.back() <= slice.begin) ends.pop_back();
            if (ends.empty() || slice.end <= ends.back()) break;
        }
        if (lane == open.size()) open.emplace_back();
        open[lane].push_back(slice.end);
        slice.lane = static_cast<int>(lane);
    }
}

class TraceWriter {
public:
    explicit TraceWriter(std::string& out) : out_(out) {}
    void add(const Json& event) {
        out_ += first_ ? "\n" : ",\n";
        first_ = false;
        out_ += event.dump(-1, ' ', false, Json::error_handler_t::replace);
    }
    // Counter events are most of a trace; formatting them by hand is several times faster.
    void addCounter(double ts, int pid, double mib) {
        out_ += first_ ? "\n" : ",\n";
        first_ = false;
        out_ += R"({"name":"allocated","ph":"C","ts":)";
        appendNumber(ts);
        out_ += R"(,"pid":)";
        out_ += std::to_string(pid);
        out_ += R"(,"args":{"MiB":)";
        appendNumber(mib);
        out_ += "}}";
    }

private:
    void appendNumber(double value) {  // finite here; shortest round-trip form, no locale
        char buffer[32];
        const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
        out_.append(buffer, result.ptr);
    }

    std::string& out_;
    bool first_ = true;
};

Json metadata(const char* name, int pid, const Json& args) {
    return Json{{"name", name}, {"ph", "M"}, {"pid", pid}, {"args", args}};
}

void addThreadNames(TraceWriter& trace, int pid, int baseTid, const char* label, int lanes,
                    int sortBase) {
    for (int lane = 0; lane < lanes; ++lane) {
        const int tid = baseTid + lane * kLaneTidStride;
        std::string name = label;
        if (lane > 0) name += " (overlapping " + std::to_string(lane + 1) + ")";
        Json thread = metadata("thread_name", pid, Json{{"name", name}});
        thread["tid"] = tid;
        trace.add(thread);
        Json order = metadata("thread_sort_index", pid, Json{{"sort_index", sortBase + lane}});
        order["tid"] = tid;
        trace.add(order);
    }
}

void addSlices(TraceWriter& trace, std::vector<Slice>& slices, int pid, int baseTid,
               const char* label, int sortBase) {
    assignLanes(slices);
    int lanes = 0;
    for (const Slice& slice : slices) lanes = std::max(lanes, slice.lane + 1);
    addThreadNames(trace, pid, baseTid, label, lanes, sortBase);
    for (const Slice& slice : slices) {
        Json event{{"name", slice.name},
                   {"cat", slice.category},
                   {"ph", "X"},
                   {"ts", toUs(slice.begin)},
                   {"dur", toUs(slice.end - slice.begin)},
                   {"pid", pid},
                   {"tid", baseTid + slice.lane * kLaneTidStride}};
        if (!slice.args.is_null()) event["args"] = slice.args;
        trace.add(event);
    }
}

// "block 3", or one of the chain's ends.
std::string blockName(int block) {
    if (block == kEmbeddingBlock) return "embedding";
    if (block == kHeadBlock) return "LM head";
    return "block " + std::to_string(block);
}

std::vector<Slice> phaseSlices(const RunResult& run) {
    std::vector<Slice> slices;
    for (const PhaseSpan& span : run.phases) {
        Slice slice;
        if (!toNs(span.begin_ms, slice.begin) || !toNs(span.end_ms, slice.end)) continue;
        slice.end = std::max(slice.end, slice.begin);
        slice.category = toString(span.phase);
        slice.name = slice.category;
        if (span.block >= 0 || span.block == kEmbeddingBlock || span.block == kHeadBlock) {
            slice.name += " " + blockName(span.block);
            slice.args = Json{{"block", span.block}};
        }
        slices.push_back(std::move(slice));
    }
    return slices;
}

std::vector<Slice> lifetimeSlices(const RunResult& run) {
    std::vector<Slice> slices;
    for (const BlockLifetime& life : run.blocks) {
        Slice slice;
        if (!toNs(life.saved_ms, slice.begin) || !toNs(life.freed_ms, slice.end)) continue;
        slice.end = std::max(slice.end, slice.begin);
        slice.name = blockName(life.block) + " activations (" + toString(life.phase) + ")";
        slice.category = "activations";
        slice.args = Json{{"MiB", static_cast<double>(life.bytes) / kMiB}, {"bytes", life.bytes}};
        slices.push_back(std::move(slice));
    }
    return slices;
}

void addRun(TraceWriter& trace, const RunResult& run, int pid) {
    trace.add(metadata("process_name", pid, Json{{"name", run.name()}}));
    trace.add(metadata("process_sort_index", pid, Json{{"sort_index", pid}}));
    if (run.error) {
        const std::string label = "failed: " + run.error->substr(0, 120);
        trace.add(metadata("process_labels", pid, Json{{"labels", label}}));
    }

    for (const TimelineEvent& e : run.timeline) {
        std::int64_t ns = 0;
        if (!toNs(e.t_ms, ns)) continue;
        trace.addCounter(toUs(ns), pid, static_cast<double>(e.total) / kMiB);
    }
    std::vector<Slice> phases = phaseSlices(run);
    addSlices(trace, phases, pid, kPhaseTid, "phases", 0);
    std::vector<Slice> lifetimes = lifetimeSlices(run);
    addSlices(trace, lifetimes, pid, kActivationTid, "activations", 1000);
}

}  // namespace

std::string chromeTraceJson(const ResultSet& results) {
    const Environment& env = results.environment;
    const Json about{{"generator", "Checkpoint Lab"},
                     {"ckptlab_version", env.ckptlab_version},
                     {"libtorch_version", env.libtorch_version},
                     {"device", env.device},
                     {"dtype", env.dtype},
                     {"blas", env.blas}};
    std::string out = "{\"displayTimeUnit\":\"ms\",\n\"otherData\":";
    out += about.dump(-1, ' ', false, Json::error_handler_t::replace);
    out += ",\n\"traceEvents\":[";
    TraceWriter trace(out);
    for (std::size_t i = 0; i < results.runs.size(); ++i) {
        addRun(trace, results.runs[i], static_cast<int>(i) + 1);
    }
    out += "\n]}\n";
    return out;
}

void saveChromeTrace(const ResultSet& results, const std::string& path) {
    detail::writeFileAtomically(path, chromeTraceJson(results));
}

}  // namespace ckptlab
