#pragma once
// Sees every allocation and free of the device allocator while installed (a
// c10::MemoryReportingInfoBase under DebugInfoGuard(PROFILER_STATE)), labelled with the phase
// and block that were running.

#include <c10/core/Allocator.h>
#include <c10/util/ThreadLocalDebugInfo.h>
#include <torch/version.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <vector>

#include "ckptlab/model/result.h"

namespace ckptlab::engine {

struct AllocationRecord {
    double t_ms;
    std::int64_t delta;
    std::int64_t total;           // running sum of deltas since the tracker started
    std::int64_t allocatorTotal;  // the allocator's own running total, for cross-checks
    int span;                     // index into spans()
    const void* ptr;
};

// The modelled device is full (ExperimentConfig::memory_limit_mib), or the allocator failed.
struct OutOfMemoryError : std::runtime_error {
    explicit OutOfMemoryError(const OutOfMemory& where);
    OutOfMemory where;
};

struct LabelSpan {
    Phase phase;
    int block;
    double begin_ms;
    double end_ms;
};

class MemoryTracker : public c10::MemoryReportingInfoBase {
public:
    // Counts the allocations of `device`: one GPU when it has an index (cuda:1 does not see
    // cuda:0's), every device of the type otherwise.
    explicit MemoryTracker(c10::Device device);

#if TORCH_VERSION_MAJOR >= 2
    void reportMemoryUsage(void* ptr, int64_t alloc_size, size_t total_allocated,
                           size_t total_reserved, c10::Device device) override;
#else
    void reportMemoryUsage(void* ptr, int64_t alloc_size, int64_t total_allocated,
                           int64_t total_reserved, c10::Device device) override;
#endif
    bool memoryProfilingEnabled() const override { return true; }

    // Starts a new span unless the label is already the current one.
    void setLabel(Phase phase, int block);
    void finish();  // closes the last span

    // Models a device of `limitBytes` that already holds `baselineBytes` (parameters, input,
    // optimizer state): an allocation that would pass the limit throws OutOfMemoryError. On
    // CPU it throws from the allocation itself, after handing the block back to the allocator;
    // elsewhere the allocator must not be unwound from inside, so it throws at the next label.
    void setLimit(std::int64_t baselineBytes, std::int64_t limitBytes);
    // Throws the OutOfMemoryError a deferred check recorded, if any.
    void throwIfOutOfMemory() const;

    std::int64_t total() const;
    double elapsedMs() const;
    // The span now open: its phase and block (the caching allocator's trace labels its blocks
    // with it, caching_cpu_allocator.h).
    LabelSpan currentSpan() const;
    const std::vector<AllocationRecord>& records() const { return records_; }
    // While the step runs, from any thread: how many records there are, and the index of the
    // last allocation of `ptr` at index `from` or later (precision.h's recorder of weight casts).
    std::size_t recordCount() const;
    std::optional<std::size_t> allocationOf(const void* ptr, std::size_t from) const;
    const std::vector<LabelSpan>& spans() const { return spans_; }

private:
    void record(const void* ptr, std::int64_t delta, std::int64_t allocatorTotal);
    // The limit's verdict on an allocation of `bytes`; set only when it does not fit.
    std::optional<OutOfMemory> overLimit(std::int64_t bytes, double t) const;

    c10::Device device_;
    std::chrono::steady_clock::time_point start_;
    mutable std::mutex mutex_;  // allocations may come from intra-op or autograd threads
    std::int64_t total_ = 0;
    std::vector<AllocationRecord> records_;
    std::vector<LabelSpan> spans_;
    std::int64_t baseline_ = 0;
    std::int64_t limit_ = 0;              // 0: no limit
    std::optional<OutOfMemory> pending_;  // deferred out-of-memory (non-CPU devices)
    const void* refused_ = nullptr;       // the refused block, whose free must not be recorded
};

// Installs a tracker for the current scope; the autograd engine carries it into backward. The
// slot is thread-local (ThreadLocalDebugInfo), not a process-wide allocator hook: a tracker
// never sees another thread's allocations, so two measurements at once cannot mix.
class TrackingScope {
public:
    explicit TrackingScope(std::shared_ptr<MemoryTracker> tracker)
        : guard_(c10::DebugInfoKind::PROFILER_STATE, std::move(tracker)) {}

private:
    c10::DebugInfoGuard guard_;
};

}  // namespace ckptlab::engine
