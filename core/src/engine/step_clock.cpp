// Host clock, or CUDA events when the core is built against a CUDA LibTorch (step_clock.h).
// The CUDA half has not been compiled or run yet (bench/gpu/README.md).
#include "engine/step_clock.h"

#include <stdexcept>

#ifdef CKPTLAB_WITH_CUDA
// The runtime's events directly, through c10's stream, guard and error check, which have kept
// their names since LibTorch 1.x (at::cuda::CUDAEvent moved to c10::cuda in 2.x).
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>
#endif

namespace ckptlab::engine {

#ifdef CKPTLAB_WITH_CUDA
struct StepClock::Events {
    c10::DeviceIndex device = 0;
    std::vector<cudaEvent_t> marks;  // created with cudaEventDefault: timing enabled
    ~Events() {
        const c10::cuda::CUDAGuard guard(device);
        for (cudaEvent_t event : marks) C10_CUDA_CHECK_WARN(cudaEventDestroy(event));
    }
};
#else
struct StepClock::Events {};
#endif

StepClock::StepClock(const c10::Device& device) {
#ifdef CKPTLAB_WITH_CUDA
    if (device.is_cuda()) {
        events_ = std::make_unique<Events>();
        events_->device = device.has_index() ? device.index() : 0;
    }
#else
    (void)device;
#endif
}

StepClock::~StepClock() = default;

int StepClock::mark() {
#ifdef CKPTLAB_WITH_CUDA
    if (events_) {
        const c10::cuda::CUDAGuard guard(events_->device);
        cudaEvent_t event = nullptr;
        C10_CUDA_CHECK(cudaEventCreateWithFlags(&event, cudaEventDefault));
        events_->marks.push_back(event);
        // The stream this thread runs the step's kernels on: the main thread's forward, the
        // autograd engine's device thread during backward (it keeps the forward's stream).
        C10_CUDA_CHECK(
            cudaEventRecord(event, c10::cuda::getCurrentCUDAStream(events_->device).stream()));
        return static_cast<int>(events_->marks.size()) - 1;
    }
#endif
    host_.push_back(std::chrono::steady_clock::now());
    return static_cast<int>(host_.size()) - 1;
}

void StepClock::finish() {
#ifdef CKPTLAB_WITH_CUDA
    if (events_ && !events_->marks.empty())
        C10_CUDA_CHECK(cudaEventSynchronize(events_->marks.back()));
#endif
}

double StepClock::ms(int from, int to) const {
#ifdef CKPTLAB_WITH_CUDA
    if (events_) {
        const auto& marks = events_->marks;
        if (from < 0 || to < 0 || from >= static_cast<int>(marks.size()) ||
            to >= static_cast<int>(marks.size()))
            throw std::out_of_range("StepClock::ms: no such mark");
        float ms = 0;
        C10_CUDA_CHECK(cudaEventElapsedTime(&ms, marks[from], marks[to]));
        return static_cast<double>(ms);
    }
#endif
    if (from < 0 || to < 0 || from >= static_cast<int>(host_.size()) ||
        to >= static_cast<int>(host_.size()))
        throw std::out_of_range("StepClock::ms: no such mark");
    return std::chrono::duration<double, std::milli>(host_[to] - host_[from]).count();
}

}  // namespace ckptlab::engine
