#pragma once
// The clock a training step is timed with. On CPU (and on a GPU when the core was built
// without CKPTLAB_WITH_CUDA) a mark is the host's steady clock, read when the mark is made:
// the caller synchronises the device first. On CUDA with CKPTLAB_WITH_CUDA a mark is a CUDA
// event recorded on the device's current stream, so timed steps need no synchronisation
// until finish(), which waits for the last event; times between marks are then the device's.

#include <c10/core/Device.h>

#include <chrono>
#include <memory>
#include <vector>

namespace ckptlab::engine {

class StepClock {
public:
    explicit StepClock(const c10::Device& device);
    ~StepClock();
    StepClock(const StepClock&) = delete;
    StepClock& operator=(const StepClock&) = delete;

    // True when marks are CUDA events (times are the device's; no syncs needed before marks).
    bool usesEvents() const { return events_ != nullptr; }
    // Records a point in time and returns its index.
    int mark();
    // Waits until every mark has happened (the last CUDA event); nothing on the host clock.
    void finish();
    // Milliseconds from mark `from` to mark `to`; after finish() when usesEvents().
    double ms(int from, int to) const;

private:
    struct Events;  // CUDA events; defined only when compiled with CUDA
    std::vector<std::chrono::steady_clock::time_point> host_;
    std::unique_ptr<Events> events_;
};

}  // namespace ckptlab::engine
