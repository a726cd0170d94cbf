#pragma once
// A CPU allocator that keeps its memory as CUDA's caching allocator does
// (ExperimentConfig::allocator == AllocatorKind::Caching): CachingAllocatorModel
// (ckptlab/planning/caching_allocator.h) decides which segment and offset each allocation gets and
// when a segment is reserved or given back; this class backs each segment with one anonymous mmap
// (page aligned, so every block is at least 512-byte aligned, above the 64 bytes LibTorch's CPU
// allocator promises) and unmaps it only when the model releases it (emptyCache). Freed memory
// stays mapped, so a step does not page-fault it in again as it does under glibc's malloc, which
// gives freed memory back; and the model counts reserved bytes, what runs out on a GPU.
//
// Every allocation and free is reported to LibTorch's memory profiling hook
// (c10::reportMemoryUsageToProfiler) as DefaultCPUAllocator reports it: with the REQUESTED
// size, when profiling is on for the thread (an allocation; a free, of a block whose allocation
// was reported), with a running total of the reported bytes; so the exact tracker
// (memory_tracker.h) counts the same bytes, to the byte, under either allocator. A report that
// throws (the tracker's modelled out-of-memory on CPU, which first hands the block back
// through raw_deallocate) leaves nothing allocated.
//
// Where it is installed (CpuAllocatorScope): by every measurement entry point of runner.h on a
// CPU device, inside its MeasurementScope, from before the Workbench is built until the sweep
// ends, so parameters, optimizer state and inputs live in its segments as on a GPU. Each run
// starts with emptyCache() and resetPeaks() (startCachingRun, measure_run.cpp), as a PyTorch
// script calls torch.cuda.empty_cache() and torch.cuda.reset_peak_memory_stats(). While
// installed it serves every thread of the process (c10's allocator slot is process-wide);
// the measurement scope lets one measurement in at a time.
//
// The allocator lives for the process: a tensor it allocated may be freed after it is
// uninstalled (its deleter still returns the block), and a segment left with nothing allocated
// is then released at once.

#include <c10/core/Allocator.h>
#include <c10/core/Device.h>
#include <torch/version.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

#include "ckptlab/model/config.h"
#include "ckptlab/model/result.h"
#include "ckptlab/planning/caching_allocator.h"

// LibTorch 2.3 made c10::Allocator::allocate non-const and added the pure copy_data.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 3)
#define CKPTLAB_ALLOCATE_CONST
#define CKPTLAB_ALLOCATOR_COPY_DATA 1
#else
#define CKPTLAB_ALLOCATE_CONST const
#define CKPTLAB_ALLOCATOR_COPY_DATA 0
#endif

namespace ckptlab::engine {

class MemoryTracker;

class CachingCpuAllocator final : public c10::Allocator {
public:
    // The one instance, never destroyed.
    static CachingCpuAllocator& instance();

    c10::DataPtr allocate(std::size_t nbytes) CKPTLAB_ALLOCATE_CONST override;
    c10::DeleterFnPtr raw_deleter() const override;
#if CKPTLAB_ALLOCATOR_COPY_DATA
    void copy_data(void* dest, const void* src, std::size_t count) const override;
#endif

    // Whether c10::GetAllocator(kCPU) is this allocator now.
    bool isCurrent() const;
    // Releases (unmaps) every segment with nothing allocated in it.
    void emptyCache();
    void resetPeaks();

    struct Counts {
        std::int64_t allocated = 0;  // rounded sizes of live blocks
        std::int64_t reserved = 0;   // mapped segments
        std::int64_t peakAllocated = 0;
        std::int64_t peakReserved = 0;
        std::size_t liveBlocks = 0;
        std::size_t segments = 0;  // mapped now
    };
    Counts counts() const;

    // Records the segments and blocks from now on, timed and labelled by `tracker` (its clock
    // and current span); resets the peaks. stopTrace() returns them with the allocated and
    // reserved bytes at the start and their peaks since. The trace lists at most
    // kMaxAllocatorTraceBlocks blocks (result.h); later ones are only counted.
    void startTrace(std::shared_ptr<const MemoryTracker> tracker);
    struct Trace {
        AllocatorStats stats;
        AllocatorTrace trace;
    };
    Trace stopTrace();

    struct State;  // the model, the mapped segments, the live blocks, the trace

private:
    CachingCpuAllocator();
    static void deleteBlock(void* ptr);
    friend class CpuAllocatorScope;
    friend class SystemAllocatorScope;
    c10::Allocator* displaced_ = nullptr;  // what the outermost install replaced
    void installed(int change);
    State* state_;
};

// Installs the caching allocator as LibTorch's CPU allocator for its lifetime when `kind` is
// Caching and `device` is the CPU, then puts the previous one back and empties the cache; with
// System (or on CUDA) it does nothing, so the C library's malloc serves as before. Nests.
class CpuAllocatorScope {
public:
    CpuAllocatorScope(AllocatorKind kind, const c10::Device& device);
    ~CpuAllocatorScope();
    CpuAllocatorScope(const CpuAllocatorScope&) = delete;
    CpuAllocatorScope& operator=(const CpuAllocatorScope&) = delete;

private:
    c10::Allocator* previous_ = nullptr;  // null: nothing installed
};

// A run's start (measure_run.cpp): emptyCache() and resetPeaks() when the caching allocator is
// the current one.
void startCachingRun();

// The lab's own copies (a Workbench's initial weights, the reference gradients) are no part of
// what a training script holds: while the caching allocator is current, this puts the allocator
// it displaced (the C library's) back for its lifetime, so they stay out of its segments.
class SystemAllocatorScope {
public:
    SystemAllocatorScope();
    ~SystemAllocatorScope();
    SystemAllocatorScope(const SystemAllocatorScope&) = delete;
    SystemAllocatorScope& operator=(const SystemAllocatorScope&) = delete;

private:
    c10::Allocator* caching_ = nullptr;  // null: nothing changed
};

// The caching allocator's view of one traced step, when it is the current CPU allocator and the
// step runs on the CPU: started here, finished by finish() or, when the step throws past it, by
// the destructor.
class AllocatorTraceScope {
public:
    AllocatorTraceScope(std::shared_ptr<const MemoryTracker> tracker, const c10::Device& device);
    ~AllocatorTraceScope();
    AllocatorTraceScope(const AllocatorTraceScope&) = delete;
    AllocatorTraceScope& operator=(const AllocatorTraceScope&) = delete;

    std::optional<CachingCpuAllocator::Trace> finish();

private:
    bool active_ = false;
};

}  // namespace ckptlab::engine
