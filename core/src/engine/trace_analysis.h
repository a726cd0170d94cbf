#pragma once
// Turns a traced step's raw allocation records into what users look at: the timeline, the
// peak, each block's activation lifetimes and what the memory held at the peak.

#include <unordered_set>
#include <vector>

#include "ckptlab/result.h"
#include "engine/memory_tracker.h"

namespace ckptlab::engine {

struct TraceSummary {
    std::int64_t peak = 0;
    std::vector<TimelineEvent> timeline;
    std::vector<PhaseSpan> phases;
    std::vector<BlockLifetime> blocks;
    // Only gradients, activations and other are filled: the rest is known without a trace.
    Breakdown atPeak;
};

// `gradientBuffers`: data pointers of the gradients alive when the step ended.
TraceSummary analyzeTrace(const MemoryTracker& tracker,
                          const std::unordered_set<const void*>& gradientBuffers);

}  // namespace ckptlab::engine
