#pragma once
// State shared by everything that runs during one training step: the phase labels for the
// memory tracker, the cancel flag, and the recompute counters. Not thread-local on purpose:
// on CUDA the autograd engine runs backward on its own thread.

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "ckptlab/model/result.h"
#include "engine/memory_tracker.h"

namespace ckptlab::engine {

struct Cancelled : std::runtime_error {
    Cancelled() : std::runtime_error("cancelled") {}
};

struct Label {
    Phase phase = Phase::Idle;
    int block = -1;
};

class StepClock;

class StepContext {
public:
    std::shared_ptr<MemoryTracker> tracker;  // null in timed (untraced) steps
    const std::atomic<bool>* cancel = nullptr;
    bool syncCuda = false;  // synchronize before reading clocks
    // The tutorial's protocol: the step adds its gradients into the previous step's instead of
    // starting without any (ExperimentConfig::keep_grads).
    bool keepGradients = false;

    void label(Phase phase, int block = -1) {
        current_ = {phase, block};
        if (tracker) {
            tracker->throwIfOutOfMemory();
            tracker->setLabel(phase, block);
        }
    }
    Label currentLabel() const { return current_; }
    void throwIfCancelled() const {
        if (cancel && cancel->load(std::memory_order_relaxed)) throw Cancelled();
    }

    // Recompute bookkeeping, used by the checkpoint Function's backward.
    int recomputeDepth = 0;
    int recomputedUnits = 0;  // sub-blocks run again
    double recomputeMs = 0;
    // The step's clock (step_clock.h), set by runStep: a recompute marks its start and end on
    // it, and runStep adds them up once the clock has finished. Null outside runStep: the
    // recompute then times itself on the host clock into recomputeMs.
    StepClock* clock = nullptr;
    std::vector<std::pair<int, int>> recomputeMarks;
    Phase forwardPhase() const { return recomputeDepth > 0 ? Phase::Recompute : Phase::Forward; }

private:
    Label current_;
};

}  // namespace ckptlab::engine
