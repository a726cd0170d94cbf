#pragma once
// What CUDA's caching allocator itself says about one step: bytes allocated (handed to
// tensors) and reserved (taken from the device with cudaMalloc, cached blocks included) at
// the step's start and at their peaks during it. Reserved is what runs out on a GPU; the
// exact tracker (memory_tracker.h) counts allocated bytes only. Compiled in only with
// CKPTLAB_WITH_CUDA (a CUDA LibTorch); otherwise, and on CPU, there is nothing to read.
// The CUDA half has not been compiled or run yet (bench/gpu/README.md).

#include <c10/core/Device.h>

#include <optional>

#include "ckptlab/model/result.h"

namespace ckptlab::engine {

// A run's start on CUDA (measure_run.cpp, beside startCachingRun): CUDA's cached blocks given
// back (torch.cuda.empty_cache()), so each run's traced step starts as the CPU model's does.
// Nothing on the CPU or without CUDA compiled in.
void startCudaRun(const c10::Device& device);

class AllocatorStepStats {
public:
    // Resets the allocator's peak statistics of `device` and reads where the step starts.
    explicit AllocatorStepStats(const c10::Device& device);
    // The step's statistics; empty on CPU or without CUDA support compiled in.
    std::optional<AllocatorStats> finish() const;

private:
    std::optional<c10::DeviceIndex> device_;
    AllocatorStats start_;
};

}  // namespace ckptlab::engine
