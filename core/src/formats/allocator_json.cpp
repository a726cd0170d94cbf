// A run's caching-allocator keys in the results file (allocator_json.h).
#include "formats/allocator_json.h"

#include <cstddef>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

namespace ckptlab::detail {
namespace {

using OrderedJson = nlohmann::ordered_json;

constexpr Phase kPhases[] = {Phase::Idle,      Phase::Forward,  Phase::Loss,
                             Phase::Recompute, Phase::Backward, Phase::Optimizer};
const char* const kSegmentColumns[] = {"size", "small_pool", "created_ms", "released_ms"};
const char* const kBlockColumns[] = {"segment",      "offset",   "size",  "requested",
                                     "allocated_ms", "freed_ms", "phase", "block"};
constexpr std::size_t kSegmentWidth = std::size(kSegmentColumns);
constexpr std::size_t kBlockWidth = std::size(kBlockColumns);

template <std::size_t N>
OrderedJson columns(const char* const (&names)[N]) {
    OrderedJson list = OrderedJson::array();
    for (const char* name : names) list.push_back(name);
    return list;
}

OrderedJson time(const std::optional<double>& t) {
    return t ? OrderedJson(*t) : OrderedJson(nullptr);
}

OrderedJson traceJson(const AllocatorTrace& trace) {
    OrderedJson codes = OrderedJson::array();
    for (Phase phase : kPhases) codes.push_back(toString(phase));
    OrderedJson segments = OrderedJson::array();
    for (const SegmentRecord& s : trace.segments)
        segments.push_back(
            OrderedJson::array({s.size, s.small_pool, time(s.created_ms), time(s.released_ms)}));
    OrderedJson blocks = OrderedJson::array();
    for (const SegmentBlock& b : trace.blocks)
        blocks.push_back(
            OrderedJson::array({b.segment, b.offset, b.size, b.requested, time(b.allocated_ms),
                                time(b.freed_ms), static_cast<int>(b.phase), b.block}));
    OrderedJson json{{"phase_codes", std::move(codes)},
                     {"segment_columns", columns(kSegmentColumns)},
                     {"segments", std::move(segments)},
                     {"block_columns", columns(kBlockColumns)},
                     {"blocks", std::move(blocks)}};
    if (trace.unlisted_blocks > 0) json["unlisted_blocks"] = trace.unlisted_blocks;
    return json;
}

// The counts of one allocator, which always hold: each peak at least its start, and no more
// allocated than reserved at the start or at the peaks.
AllocatorStats readStats(const Fields& c, AllocatorSource source) {
    AllocatorStats s{source, c.bytes("allocated_start"), c.bytes("allocated_peak"),
                     c.bytes("reserved_start"), c.bytes("reserved_peak")};
    const auto atLeast = [&](const char* key, std::int64_t value, const char* other,
                             std::int64_t bound) {
        if (value < bound)
            fail(c.at().member(key), "expected at least " + std::string(other) + " (" +
                                         std::to_string(bound) + "), got " + std::to_string(value));
    };
    atLeast("allocated_peak", s.allocated_peak, "allocated_start", s.allocated_start);
    atLeast("reserved_peak", s.reserved_peak, "reserved_start", s.reserved_start);
    atLeast("reserved_start", s.reserved_start, "allocated_start", s.allocated_start);
    atLeast("reserved_peak", s.reserved_peak, "allocated_peak", s.allocated_peak);
    return s;
}

// A header of column names must be exactly `names`: the rows are read by position.
template <std::size_t N>
void checkColumns(const Fields& f, const char* key, const char* const (&names)[N]) {
    const Path at = f.at().member(key);
    const Json& list = arrayAt(f.get(key), at);
    if (list.size() != N) fail(at, "expected " + columns(names).dump());
    for (std::size_t i = 0; i < N; ++i)
        if (readString(list[i], at.item(i)) != names[i])
            fail(at.item(i), "expected \"" + std::string(names[i]) + "\": the columns are " +
                                 columns(names).dump());
}

// A row of `width` values at `at`.
const Json& rowAt(const Json& row, const Path& at, std::size_t width) {
    const Json& values = arrayAt(row, at);
    if (values.size() != width)
        fail(at,
             "expected " + std::to_string(width) + " values, got " + std::to_string(values.size()));
    return values;
}

std::optional<double> readOptionalTime(const Json& j, const Path& at) {
    if (j.is_null()) return std::nullopt;
    return readTime(j, at);
}

// `later` may not come before `earlier` (both set).
void inOrder(const std::optional<double>& earlier, const std::optional<double>& later,
             const Path& at, const char* earlierName) {
    if (earlier && later && *later < *earlier)
        fail(at, "expected " + std::string(earlierName) + " (" + numberText(*earlier) +
                     ") or later, got " + numberText(*later));
}

std::vector<SegmentRecord> readSegments(const Fields& f) {
    checkColumns(f, "segment_columns", kSegmentColumns);
    const Path listAt = f.at().member("segments");
    const Json& list = arrayAt(f.get("segments"), listAt);
    if (list.size() > kMaxAllocatorTraceBlocks)
        fail(listAt, "has more than " + std::to_string(kMaxAllocatorTraceBlocks) + " segments");
    std::vector<SegmentRecord> segments;
    segments.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Path at = listAt.item(i);
        const Json& row = rowAt(list[i], at, kSegmentWidth);
        SegmentRecord s;
        s.size = readInt64(row[0], at.member("size"), 1, kMaxBytes);
        if (!row[1].is_boolean())
            fail(at.member("small_pool"), "expected true or false, got " + describe(row[1]));
        s.small_pool = row[1].get<bool>();
        s.created_ms = readOptionalTime(row[2], at.member("created_ms"));
        s.released_ms = readOptionalTime(row[3], at.member("released_ms"));
        inOrder(s.created_ms, s.released_ms, at.member("released_ms"), "created_ms");
        segments.push_back(s);
    }
    return segments;
}

// `lowestBlock`: -1 (no block), or the LM head's label when the run's chain has ends.
std::vector<SegmentBlock> readBlocks(const Fields& f, const std::vector<SegmentRecord>& segments,
                                     int depth, int lowestBlock) {
    const Path codesAt = f.at().member("phase_codes");
    const Json& codes = arrayAt(f.get("phase_codes"), codesAt);
    if (codes.size() > 1000) fail(codesAt, "has more than 1000 entries");
    std::vector<Phase> legend;
    for (std::size_t i = 0; i < codes.size(); ++i)
        legend.push_back(readPhase(codes[i], codesAt.item(i)));
    checkColumns(f, "block_columns", kBlockColumns);
    const Path listAt = f.at().member("blocks");
    const Json& list = arrayAt(f.get("blocks"), listAt);
    if (list.size() > kMaxAllocatorTraceBlocks)
        fail(listAt, "has more than " + std::to_string(kMaxAllocatorTraceBlocks) + " blocks");
    if (!list.empty() && legend.empty()) fail(codesAt, "is empty but the trace has blocks");
    std::vector<SegmentBlock> blocks;
    blocks.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Path at = listAt.item(i);
        const Json& row = rowAt(list[i], at, kBlockWidth);
        SegmentBlock b;
        if (segments.empty()) fail(at.member("segment"), "the trace has no segments");
        b.segment = readInt(row[0], at.member("segment"), 0, static_cast<int>(segments.size()) - 1);
        b.offset = readInt64(row[1], at.member("offset"), 0, kMaxBytes);
        b.size = readInt64(row[2], at.member("size"), 1, kMaxBytes);
        b.requested = readInt64(row[3], at.member("requested"), 1, b.size);
        const std::int64_t segmentSize = segments[static_cast<std::size_t>(b.segment)].size;
        if (b.offset > segmentSize - b.size)
            fail(at.member("offset"), "a block of " + std::to_string(b.size) + " bytes at " +
                                          std::to_string(b.offset) + " ends past its segment " +
                                          std::to_string(b.segment) + " of " +
                                          std::to_string(segmentSize) + " bytes");
        b.allocated_ms = readOptionalTime(row[4], at.member("allocated_ms"));
        b.freed_ms = readOptionalTime(row[5], at.member("freed_ms"));
        inOrder(b.allocated_ms, b.freed_ms, at.member("freed_ms"), "allocated_ms");
        b.phase = legend[static_cast<std::size_t>(
            readInt(row[6], at.member("phase"), 0, static_cast<int>(legend.size()) - 1))];
        b.block = readInt(row[7], at.member("block"), lowestBlock, depth - 1);
        blocks.push_back(b);
    }
    return blocks;
}

AllocatorTrace readTrace(const Json& j, const Path& at, int depth, int lowestBlock) {
    const Fields f(j, at);
    AllocatorTrace trace;
    trace.segments = readSegments(f);
    trace.blocks = readBlocks(f, trace.segments, depth, lowestBlock);
    if (f.find("unlisted_blocks")) trace.unlisted_blocks = f.int64("unlisted_blocks", 1, kMaxBytes);
    return trace;
}

}  // namespace

void writeAllocator(const RunResult& run, nlohmann::ordered_json& json) {
    if (const auto& c = run.allocator) {
        json["allocator"] = OrderedJson{{"source", toString(c->source)},
                                        {"allocated_start", c->allocated_start},
                                        {"allocated_peak", c->allocated_peak},
                                        {"reserved_start", c->reserved_start},
                                        {"reserved_peak", c->reserved_peak}};
    }
    if (const auto& trace = run.allocator_trace) json["allocator_trace"] = traceJson(*trace);
}

void readAllocator(const Fields& f, const Path& at, RunResult& run) {
    const Json* stats = f.find("allocator");
    const Json* older = f.find("cuda_allocator");  // files from before the CPU model
    if (stats && older)
        fail(at.member("cuda_allocator"),
             "a run holds \"allocator\" or, in older files, \"cuda_allocator\", not both");
    if (stats) {
        const Fields c(*stats, at.member("allocator"));
        run.allocator =
            readStats(c, c.choice("source", parseAllocatorSource, "\"cuda\" or \"caching-model\""));
    } else if (older) {
        run.allocator =
            readStats(Fields(*older, at.member("cuda_allocator")), AllocatorSource::Cuda);
    }
    if (const Json* trace = f.find("allocator_trace"))
        run.allocator_trace = readTrace(*trace, at.member("allocator_trace"), run.config.depth,
                                        hasChainEnds(run.config) ? kHeadBlock : -1);
}

}  // namespace ckptlab::detail
