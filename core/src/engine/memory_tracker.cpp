#include "engine/memory_tracker.h"

namespace ckptlab::engine {

MemoryTracker::MemoryTracker(c10::DeviceType device)
    : device_(device), start_(std::chrono::steady_clock::now()) {
    records_.reserve(1 << 14);
    spans_.push_back({Phase::Idle, -1, 0.0, 0.0});
}

#if TORCH_VERSION_MAJOR >= 2
void MemoryTracker::reportMemoryUsage(void* ptr, int64_t alloc_size, size_t total_allocated,
                                      size_t, c10::Device device) {
#else
void MemoryTracker::reportMemoryUsage(void* ptr, int64_t alloc_size, int64_t total_allocated,
                                      int64_t, c10::Device device) {
#endif
    if (device.type() != device_ || alloc_size == 0) return;
    record(ptr, alloc_size, static_cast<std::int64_t>(total_allocated));
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

double MemoryTracker::elapsedMs() const {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start_)
        .count();
}

}  // namespace ckptlab::engine
