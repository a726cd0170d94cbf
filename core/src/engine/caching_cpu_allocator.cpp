// The CPU allocator with CUDA's caching rules (caching_cpu_allocator.h).
#include "engine/caching_cpu_allocator.h"

#include <c10/util/Exception.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/memory_tracker.h"

namespace ckptlab::engine {

using Block = CachingAllocatorModel::Block;

struct CachingCpuAllocator::State {
    struct Live {
        Block block;
        std::int64_t requested = 0;
        std::uint64_t serial = 0;  // tells this allocation from a later one at the same address
        std::uint64_t trace = 0;   // the trace that lists it (0: none)
        std::size_t traceIndex = 0;
        bool profiled = false;  // allocated while memory profiling was on: reported
    };
    using LiveMap = std::unordered_map<const void*, Live>;

    std::mutex mutex;  // guards everything below; allocations come from intra-op threads too
    CachingAllocatorModel model;
    std::vector<char*> bases;  // per model segment: its mapping, null when not mapped
    LiveMap live;
    std::uint64_t nextSerial = 1;
    // DefaultCPUAllocator's running total for the profiling hook: requested bytes of the blocks
    // whose allocation was reported, less those whose free was.
    std::int64_t reportedTotal = 0;
    int installed = 0;  // CpuAllocatorScopes alive

    // The traced step's record, between startTrace and stopTrace (tracker set).
    std::shared_ptr<const MemoryTracker> tracker;
    std::uint64_t traceId = 0;
    AllocatorTrace trace;
    std::vector<int> traceSegment;  // model segment -> index into trace.segments, or -1
    std::int64_t allocatedStart = 0, reservedStart = 0;

    // With `mutex` held:
    Block tryPlace(std::int64_t requested);
    std::pair<void*, std::uint64_t> place(std::int64_t requested, bool profiled);
    void drop(LiveMap::iterator it);
    void releaseEmpty();
    void listSegment(int segment, std::optional<double> createdMs);
    void listBlock(Live& entry, std::optional<double> allocatedMs, const LabelSpan& span);
};

namespace {

// LibTorch's memory profiling hook, as DefaultCPUAllocator calls it (through its
// ProfiledCPUMemoryReporter): the block, the requested bytes (negative for a free) and the
// running total; the reserved total as CUDA's allocator reports it (the CPU one says 0).
void report(void* ptr, std::int64_t delta, std::int64_t allocatedTotal,
            std::int64_t reservedTotal) {
    const c10::Device cpu(c10::DeviceType::CPU);
#if TORCH_VERSION_MAJOR >= 2
    c10::reportMemoryUsageToProfiler(ptr, delta, static_cast<std::size_t>(allocatedTotal),
                                     static_cast<std::size_t>(reservedTotal), cpu);
#else
    c10::reportMemoryUsageToProfiler(ptr, delta, allocatedTotal, reservedTotal, cpu);
#endif
}

char* mapSegment(std::int64_t size) {
    void* p = mmap(nullptr, static_cast<std::size_t>(size), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? nullptr : static_cast<char*>(p);
}

}  // namespace

// A block of `requested` bytes, in a cached block or a new segment mapped for it; an empty
// Block when that segment could not be mapped (the model then holds it free, unmapped, until
// releaseEmpty()).
Block CachingCpuAllocator::State::tryPlace(std::int64_t requested) {
    const std::size_t before = model.segments().size();
    const Block block = model.allocate(requested);
    if (model.segments().size() == before) return block;
    bases.resize(model.segments().size(), nullptr);
    bases[block.segment] = mapSegment(model.segments()[block.segment].size);
    if (bases[block.segment]) return block;
    model.free(block);
    return {};
}

std::pair<void*, std::uint64_t> CachingCpuAllocator::State::place(std::int64_t requested,
                                                                  bool profiled) {
    const std::size_t segmentsBefore = model.segments().size();
    Block block = tryPlace(requested);
    if (block.empty()) {
        // As CUDA's allocator does when cudaMalloc fails: give back the cached segments, retry.
        releaseEmpty();
        block = tryPlace(requested);
    }
    if (block.empty()) {
        releaseEmpty();
        const std::int64_t segment = caching::segmentSizeFor(caching::roundSize(requested));
        // The words reference_gradients.cpp's isOutOfMemory and requestedBytesIn read.
        TORCH_CHECK(false, "CachingCpuAllocator: not enough memory: you tried to allocate ",
                    requested, " bytes (a segment of ", segment, " bytes could not be mapped)");
    }
    char* ptr = bases[block.segment] + block.offset;
    Live entry{block, requested, nextSerial++, 0, 0, profiled};
    if (tracker) {
        const double t = tracker->elapsedMs();
        if (static_cast<std::size_t>(block.segment) >= segmentsBefore)
            listSegment(block.segment, t);
        listBlock(entry, t, tracker->currentSpan());
    }
    live[ptr] = entry;
    return {ptr, entry.serial};
}

void CachingCpuAllocator::State::drop(LiveMap::iterator it) {
    const Live& entry = it->second;
    if (tracker && entry.trace == traceId)
        trace.blocks[entry.traceIndex].freed_ms = tracker->elapsedMs();
    model.free(entry.block);
    live.erase(it);
    // Uninstalled: nothing will use a cached segment before the next install empties it anyway.
    if (installed == 0) releaseEmpty();
}

void CachingCpuAllocator::State::releaseEmpty() {
    const std::vector<int> released = model.emptyCache();
    if (released.empty()) return;
    const std::optional<double> t =
        tracker ? std::optional<double>(tracker->elapsedMs()) : std::nullopt;
    for (int s : released) {
        if (char* base = bases[s]) munmap(base, static_cast<std::size_t>(model.segments()[s].size));
        bases[s] = nullptr;
        if (tracker && static_cast<std::size_t>(s) < traceSegment.size() && traceSegment[s] >= 0)
            trace.segments[traceSegment[s]].released_ms = t;
    }
}

void CachingCpuAllocator::State::listSegment(int segment, std::optional<double> createdMs) {
    if (traceSegment.size() <= static_cast<std::size_t>(segment))
        traceSegment.resize(static_cast<std::size_t>(segment) + 1, -1);
    traceSegment[segment] = static_cast<int>(trace.segments.size());
    const CachingAllocatorModel::Segment& s = model.segments()[segment];
    trace.segments.push_back({s.size, s.small_pool, createdMs, std::nullopt});
}

void CachingCpuAllocator::State::listBlock(Live& entry, std::optional<double> allocatedMs,
                                           const LabelSpan& span) {
    if (trace.blocks.size() >= kMaxAllocatorTraceBlocks) {
        ++trace.unlisted_blocks;
        return;
    }
    entry.trace = traceId;
    entry.traceIndex = trace.blocks.size();
    const Block& b = entry.block;
    trace.blocks.push_back({traceSegment[b.segment], b.offset, b.size, entry.requested, allocatedMs,
                            std::nullopt, span.phase, span.block});
}

CachingCpuAllocator::CachingCpuAllocator() : state_(new State) {}

CachingCpuAllocator& CachingCpuAllocator::instance() {
    // Never destroyed: tensors freed during the process's exit still find it.
    static CachingCpuAllocator* const allocator = new CachingCpuAllocator;
    return *allocator;
}

c10::DataPtr CachingCpuAllocator::allocate(std::size_t nbytes) CKPTLAB_ALLOCATE_CONST {
    const c10::Device cpu(c10::DeviceType::CPU);
    if (nbytes == 0) return {nullptr, nullptr, &deleteBlock, cpu};  // as c10's: no block
    TORCH_CHECK(nbytes <= static_cast<std::size_t>(caching::kMaxRequest),
                "CachingCpuAllocator: not enough memory: you tried to allocate ", nbytes, " bytes");
    const auto requested = static_cast<std::int64_t>(nbytes);
    // Reported when memory profiling is on for this thread, as DefaultCPUAllocator reports.
    const bool profiled = c10::memoryProfilingEnabled();
    std::pair<void*, std::uint64_t> placed;
    std::int64_t allocatedTotal = 0, reservedTotal = 0;
    {
        std::lock_guard<std::mutex> lock(state_->mutex);
        placed = state_->place(requested, profiled);
        if (profiled) state_->reportedTotal += requested;
        allocatedTotal = state_->reportedTotal;
        reservedTotal = state_->model.reserved();
    }
    void* ptr = placed.first;
    if (!profiled) return {ptr, ptr, &deleteBlock, cpu};
    try {
        // With the requested size: the memory tracker sees the same bytes under either
        // allocator. It may throw (the tracker's modelled out-of-memory), after handing the
        // block back through raw_deallocate.
        report(ptr, requested, allocatedTotal, reservedTotal);
    } catch (...) {
        // Whoever threw did not hand it back: do it here, unless the address already belongs
        // to a later allocation.
        std::lock_guard<std::mutex> lock(state_->mutex);
        const auto it = state_->live.find(ptr);
        if (it != state_->live.end() && it->second.serial == placed.second) state_->drop(it);
        throw;
    }
    return {ptr, ptr, &deleteBlock, cpu};
}

c10::DeleterFnPtr CachingCpuAllocator::raw_deleter() const { return &deleteBlock; }

#if CKPTLAB_ALLOCATOR_COPY_DATA
void CachingCpuAllocator::copy_data(void* dest, const void* src, std::size_t count) const {
    if (count > 0) std::memcpy(dest, src, count);
}
#endif

// DefaultCPUAllocator's deleter (ReportAndDelete), for this allocator: the free is reported
// first, when the allocation was and profiling is on for this thread now, then the block goes
// back to the model. (DefaultCPUAllocator remembers reported sizes by address, so a block it
// reported, freed unreported and whose address a later unreported block took would report that
// one's free with the old size; a flag per block cannot.)
void CachingCpuAllocator::deleteBlock(void* ptr) {
    if (!ptr) return;
    State& s = *instance().state_;
    std::int64_t delta = 0, allocatedTotal = 0, reservedTotal = 0;
    {
        std::lock_guard<std::mutex> lock(s.mutex);
        const auto it = s.live.find(ptr);
        if (it == s.live.end()) return;  // not ours: nothing to give back
        if (it->second.profiled && c10::memoryProfilingEnabled()) {
            delta = -it->second.requested;
            s.reportedTotal += delta;
            allocatedTotal = s.reportedTotal;
            reservedTotal = s.model.reserved();
        }
    }
    if (delta != 0) report(ptr, delta, allocatedTotal, reservedTotal);
    std::lock_guard<std::mutex> lock(s.mutex);
    const auto it = s.live.find(ptr);
    if (it != s.live.end()) s.drop(it);
}

bool CachingCpuAllocator::isCurrent() const {
    return c10::GetAllocator(c10::DeviceType::CPU) == this;
}

void CachingCpuAllocator::emptyCache() {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->releaseEmpty();
}

void CachingCpuAllocator::resetPeaks() {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->model.resetPeaks();
}

CachingCpuAllocator::Counts CachingCpuAllocator::counts() const {
    std::lock_guard<std::mutex> lock(state_->mutex);
    const CachingAllocatorModel& m = state_->model;
    Counts c;
    c.allocated = m.allocated();
    c.reserved = m.reserved();
    c.peakAllocated = m.peakAllocated();
    c.peakReserved = m.peakReserved();
    c.liveBlocks = state_->live.size();
    c.segments = static_cast<std::size_t>(
        std::count_if(state_->bases.begin(), state_->bases.end(), [](char* b) { return b; }));
    return c;
}

void CachingCpuAllocator::installed(int change) {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->installed += change;
    if (state_->installed == 0) state_->releaseEmpty();
}

void CachingCpuAllocator::startTrace(std::shared_ptr<const MemoryTracker> tracker) {
    std::lock_guard<std::mutex> lock(state_->mutex);
    State& s = *state_;
    s.tracker = std::move(tracker);
    ++s.traceId;
    s.trace = {};
    s.traceSegment.assign(s.model.segments().size(), -1);
    for (int i = 0; i < static_cast<int>(s.model.segments().size()); ++i)
        if (!s.model.segments()[i].released) s.listSegment(i, std::nullopt);
    // What the step starts with, by address.
    std::vector<State::Live*> before;
    for (auto& [ptr, entry] : s.live) before.push_back(&entry);
    std::sort(before.begin(), before.end(), [](const State::Live* a, const State::Live* b) {
        return std::pair(a->block.segment, a->block.offset) <
               std::pair(b->block.segment, b->block.offset);
    });
    const LabelSpan idle{Phase::Idle, -1, 0.0, 0.0};
    for (State::Live* entry : before) s.listBlock(*entry, std::nullopt, idle);
    s.model.resetPeaks();
    s.allocatedStart = s.model.allocated();
    s.reservedStart = s.model.reserved();
}

CachingCpuAllocator::Trace CachingCpuAllocator::stopTrace() {
    std::lock_guard<std::mutex> lock(state_->mutex);
    State& s = *state_;
    Trace out;
    out.stats = AllocatorStats{AllocatorSource::CachingModel, s.allocatedStart,
                               s.model.peakAllocated(), s.reservedStart, s.model.peakReserved()};
    out.trace = std::move(s.trace);
    s.trace = {};
    s.tracker.reset();
    s.traceSegment.clear();
    return out;
}

CpuAllocatorScope::CpuAllocatorScope(AllocatorKind kind, const c10::Device& device) {
    if (kind != AllocatorKind::Caching || !device.is_cpu()) return;
    CachingCpuAllocator& caching = CachingCpuAllocator::instance();
    c10::Allocator* previous = c10::GetAllocator(c10::DeviceType::CPU);
    caching.installed(+1);
    c10::SetAllocator(c10::DeviceType::CPU, &caching);
    if (!caching.isCurrent()) {  // another allocator holds the slot at a higher priority
        caching.installed(-1);
        throw std::runtime_error(
            "the caching CPU allocator could not be installed: another CPU allocator was set "
            "with a higher priority (use --allocator system)");
    }
    previous_ = previous;
    if (previous != &caching) caching.displaced_ = previous;
}

CpuAllocatorScope::~CpuAllocatorScope() {
    if (!previous_) return;
    c10::SetAllocator(c10::DeviceType::CPU, previous_);
    CachingCpuAllocator::instance().installed(-1);
}

void startCachingRun() {
    CachingCpuAllocator& caching = CachingCpuAllocator::instance();
    if (!caching.isCurrent()) return;
    caching.emptyCache();
    caching.resetPeaks();
}

SystemAllocatorScope::SystemAllocatorScope() {
    CachingCpuAllocator& caching = CachingCpuAllocator::instance();
    if (!caching.isCurrent() || !caching.displaced_) return;
    c10::SetAllocator(c10::DeviceType::CPU, caching.displaced_);
    caching_ = &caching;
}

SystemAllocatorScope::~SystemAllocatorScope() {
    if (caching_) c10::SetAllocator(c10::DeviceType::CPU, caching_);
}

AllocatorTraceScope::AllocatorTraceScope(std::shared_ptr<const MemoryTracker> tracker,
                                         const c10::Device& device) {
    CachingCpuAllocator& caching = CachingCpuAllocator::instance();
    if (!device.is_cpu() || !caching.isCurrent()) return;
    caching.startTrace(std::move(tracker));
    active_ = true;
}

AllocatorTraceScope::~AllocatorTraceScope() {
    if (active_) CachingCpuAllocator::instance().stopTrace();
}

std::optional<CachingCpuAllocator::Trace> AllocatorTraceScope::finish() {
    if (!active_) return std::nullopt;
    active_ = false;
    return CachingCpuAllocator::instance().stopTrace();
}

}  // namespace ckptlab::engine
