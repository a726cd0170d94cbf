// Exact CPU allocation counts for the PyTorch side of torch_side_by_side.py: the same hook
// ckptlab's MemoryTracker uses (a c10::MemoryReportingInfoBase installed as PROFILER_STATE),
// so both sides count the same bytes. Loaded with ctypes into the Python process, whose torch
// must use the same libc10 (Debian's python3-torch and libtorch-dev do).
#include <c10/core/Allocator.h>
#include <c10/util/ThreadLocalDebugInfo.h>

#include <atomic>
#include <cstdint>
#include <memory>

namespace {

struct PeakCounter : c10::MemoryReportingInfoBase {
    std::atomic<long long> total{0};
    std::atomic<long long> peak{0};
    void reportMemoryUsage(void*, int64_t size, int64_t, int64_t, c10::Device device) override {
        if (device.type() != c10::DeviceType::CPU) return;
        const long long now = total += size;
        long long high = peak.load();
        while (now > high && !peak.compare_exchange_weak(high, now)) {
        }
    }
    bool memoryProfilingEnabled() const override { return true; }
};

std::shared_ptr<PeakCounter> counter;
std::unique_ptr<c10::DebugInfoGuard> installed;

}  // namespace

// Starts counting on the calling thread (the autograd engine runs CPU backward there too).
extern "C" void peak_start() {
    counter = std::make_shared<PeakCounter>();
    installed = std::make_unique<c10::DebugInfoGuard>(c10::DebugInfoKind::PROFILER_STATE, counter);
}
// Bytes allocated since peak_start, now.
extern "C" long long peak_total() { return counter ? counter->total.load() : 0; }
// Stops counting; the highest total since peak_start.
extern "C" long long peak_stop() {
    installed.reset();
    return counter ? counter->peak.load() : 0;
}
