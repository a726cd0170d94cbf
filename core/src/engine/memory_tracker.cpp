#include "engine/memory_tracker.h"

namespace ckptlab::engine {

MemoryTracker::MemoryTracker(c10::Device device)
    : device_(device), start_(std::chrono::steady_clock::now()) {
    records_.reserve(1 << 14);
    spans_.push_back({Phase::Idle, -1, 0.0, 0.0});
}

#if TORCH_VERSION_MAJOR >= 2
void MemoryTracker::reportMemoryUsage(void* ptr, int64_t alloc_size, size_t total_allocated, size_t,
                                      c10::Device device) {
#else
void MemoryTracker::reportMemoryUsage(void* ptr, int64_t alloc_size, int64_t total_allocated,
                                      int64_t, c10::Device device) {
#endif
    if (device.type() != device_.type() || alloc_size == 0) return;
    if (device_.has_index() && device.has_index() && device.index() != device_.index()) return;
    if (alloc_size < 0 && ptr != nullptr && ptr == refused_) {
        refused_ = nullptr;  // the block refused below, going back: it was never counted
        return;
    }
    if (alloc_size > 0 && limit_ > 0) {
        if (auto oom = overLimit(alloc_size, elapsedMs())) {
            if (device_.is_cpu()) {
                // Give the block back before unwinding, or it would leak: the allocator has
                // not yet wrapped it in a DataPtr. Its free report is skipped above.
                refused_ = ptr;
                c10::GetAllocator(c10::DeviceType::CPU)->raw_deallocate(ptr);
                throw OutOfMemoryError(*oom);
            }
            std::lock_guard<std::mutex> lock(mutex_);
            if (!pending_) pending_ = oom;
        }
    }
    record(ptr, alloc_size, static_cast<std::int64_t>(total_allocated));
}

OutOfMemoryError::OutOfMemoryError(const OutOfMemory& oom)
    : std::runtime_error(describe(oom)), where(oom) {}

void MemoryTracker::setLimit(std::int64_t baselineBytes, std::int64_t limitBytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    baseline_ = baselineBytes;
    limit_ = limitBytes;
}

std::optional<OutOfMemory> MemoryTracker::overLimit(std::int64_t bytes, double t) const {
    std::lock_guard<std::mutex> lock(mutex_);
    const std::int64_t allocated = baseline_ + total_;
    if (bytes <= limit_ - allocated) return std::nullopt;
    OutOfMemory oom;
    oom.requested_bytes = bytes;
    oom.allocated_bytes = allocated;
    oom.limit_bytes = limit_;
    oom.phase = spans_.back().phase;
    oom.block = spans_.back().block;
    oom.t_ms = t;
    return oom;
}

void MemoryTracker::throwIfOutOfMemory() const {
    std::optional<OutOfMemory> oom;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        oom = pending_;
    }
    if (oom) throw OutOfMemoryError(*oom);
}

void MemoryTracker::record(const void* ptr, std::int64_t delta, std::int64_t allocatorTotal) {
    const double t = elapsedMs();
    std::lock_guard<std::mutex> lock(mutex_);
    total_ += delta;
    records_.push_back(
        {t, delta, total_, allocatorTotal, static_cast<int>(spans_.size()) - 1, ptr});
}

void MemoryTracker::setLabel(Phase phase, int block) {
    const double t = elapsedMs();
    std::lock_guard<std::mutex> lock(mutex_);
    LabelSpan& current = spans_.back();
    if (current.phase == phase && current.block == block) return;
    current.end_ms = t;
    spans_.push_back({phase, block, t, t});
}

void MemoryTracker::finish() {
    const double t = elapsedMs();
    std::lock_guard<std::mutex> lock(mutex_);
    spans_.back().end_ms = t;
}

std::int64_t MemoryTracker::total() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return total_;
}

std::size_t MemoryTracker::recordCount() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return records_.size();
}

std::optional<std::size_t> MemoryTracker::allocationOf(const void* ptr, std::size_t from) const {
    std::lock_guard<std::mutex> lock(mutex_);
    for (std::size_t i = records_.size(); i > from; --i)
        if (records_[i - 1].ptr == ptr && records_[i - 1].delta > 0) return i - 1;
    return std::nullopt;
}

LabelSpan MemoryTracker::currentSpan() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return spans_.back();
}

double MemoryTracker::elapsedMs() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
        .count();
}

}  // namespace ckptlab::engine
