#pragma once
// One measurement at a time in the process, at the intra-op thread count its config asks for.
//
// What two threads measuring at once would share, and how each is kept apart:
// - the random generators: each run owns its own (generators.h), nothing draws from the
//   default ones;
// - the intra-op thread count: at::set_num_threads is process-wide (with LibTorch's OpenMP
//   backend the count is per thread once a thread has run an op, but a new thread starts
//   from the last count set anywhere; with the native and TBB backends it is one pool) and so
//   are the cores and caches the times measure, and CUDA's allocator peak statistics: this
//   scope serialises measurements, so one config's count is in effect for all of its work;
// - grad mode, autocast (the engine sets neither process-wide) and the memory tracker (a
//   ThreadLocalDebugInfo, carried by LibTorch into backward; memory_tracker.h) are
//   thread-local: safe without the scope.
// Every measurement entry point of runner.h enters one; nested scopes on one thread (a sweep
// inside pareto, measureCostModel inside a sweep) are re-entrant. Waiting threads get their
// turn in arrival order, so a thread measuring again and again (a forecast) cannot starve a
// sweep that waits.

#include <atomic>

namespace ckptlab::engine {

class MeasurementScope {
public:
    // Waits until no other thread is measuring (throws Cancelled when `cancel` is set
    // meanwhile), then sets `threads` intra-op threads; 0 keeps the current count, LibTorch's
    // default unless a caller outside any scope changed it.
    MeasurementScope(int threads, const std::atomic<bool>* cancel);
    // Puts the previous count back, then lets the next measurement in.
    ~MeasurementScope();

    MeasurementScope(const MeasurementScope&) = delete;
    MeasurementScope& operator=(const MeasurementScope&) = delete;

private:
    int previous_ = 0;
};

}  // namespace ckptlab::engine
