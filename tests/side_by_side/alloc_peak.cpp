// Exact CPU allocation counts for the PyTorch side of the side-by-side test and benchmark
// (torch_chains.py): the same hook ckptlab's MemoryTracker uses (a c10::MemoryReportingInfoBase
// installed as PROFILER_STATE), so both sides count the same bytes. Compiled against the running
// torch's headers and its libc10, and loaded with ctypes into the Python process.
#include <c10/core/Allocator.h>
#include <c10/util/ThreadLocalDebugInfo.h>

#include <atomic>
#include <cstdint>
#include <memory>

namespace {

// reportMemoryUsage's total_allocated/total_reserved type: int64_t in torch 1.13, size_t in 2.x.
template <typename F>
struct TotalOf;
template <typename C, typename R, typename A0, typename A1, typename A2, typename A3, typename A4>
struct TotalOf<R (C::*)(A0, A1, A2, A3, A4)> {
    using type = A2;
};
using Total = TotalOf<decltype(&c10::MemoryReportingInfoBase::reportMemoryUsage)>::type;

struct PeakCounter : c10::MemoryReportingInfoBase {
    std::atomic<long long> total{0};
    std::atomic<long long> peak{0};
    void reportMemoryUsage(void*, int64_t size, Total, Total, c10::Device device) override {
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
