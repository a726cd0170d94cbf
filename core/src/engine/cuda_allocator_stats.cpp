// CUDA caching allocator statistics per step (cuda_allocator_stats.h).
#include "engine/cuda_allocator_stats.h"

#ifdef CKPTLAB_WITH_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#endif

namespace ckptlab::engine {
namespace {

#ifdef CKPTLAB_WITH_CUDA
// The aggregate entry of the allocator's StatArrays is index 0 (StatType::AGGREGATE) in every
// LibTorch from 1.13 on; the enum's namespace moved in 2.x, the index did not. `auto` because
// DeviceStats moved to c10::CachingDeviceAllocator too.
constexpr std::size_t kAggregate = 0;

AllocatorStats read(c10::DeviceIndex device) {
    const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(device);
    AllocatorStats s;
    s.source = AllocatorSource::Cuda;
    s.allocated_start = stats.allocated_bytes[kAggregate].current;
    s.allocated_peak = stats.allocated_bytes[kAggregate].peak;
    s.reserved_start = stats.reserved_bytes[kAggregate].current;
    s.reserved_peak = stats.reserved_bytes[kAggregate].peak;
    return s;
}
#endif

}  // namespace

void startCudaRun(const c10::Device& device) {
#ifdef CKPTLAB_WITH_CUDA
    if (device.is_cuda()) c10::cuda::CUDACachingAllocator::emptyCache();
#else
    (void)device;
#endif
}

AllocatorStepStats::AllocatorStepStats(const c10::Device& device) {
#ifdef CKPTLAB_WITH_CUDA
    if (!device.is_cuda()) return;
    device_ = device.has_index() ? device.index() : c10::DeviceIndex{0};
    c10::cuda::CUDACachingAllocator::resetPeakStats(*device_);
    start_ = read(*device_);
#else
    (void)device;
#endif
}

std::optional<AllocatorStats> AllocatorStepStats::finish() const {
#ifdef CKPTLAB_WITH_CUDA
    if (!device_) return std::nullopt;
    const AllocatorStats now = read(*device_);
    AllocatorStats s = start_;
    s.allocated_peak = now.allocated_peak;  // since the reset: this step's
    s.reserved_peak = now.reserved_peak;
    return s;
#else
    return std::nullopt;
#endif
}

}  // namespace ckptlab::engine
