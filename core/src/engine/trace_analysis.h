#pragma once
// Turns a traced step's raw allocation records into what users look at: the timeline, the
// peak, each block's activation lifetimes and what the memory held at the peak.

#include <cstddef>
#include <unordered_set>
#include <vector>

#include "ckptlab/model/result.h"
#include "engine/memory_tracker.h"

namespace ckptlab::engine {

struct TraceSummary {
    std::int64_t peak = 0;
    std::vector<TimelineEvent> timeline;
    std::vector<PhaseSpan> phases;
    std::vector<BlockLifetime> blocks;
    // Only gradients, activations, logits (what the LM head and loss allocated) and other are
    // filled: the rest is known without a trace.
    Breakdown atPeak;
};

// `gradientBuffers`: data pointers of the gradients alive when the step ended. `weightCopies`:
// indices into the tracker's records of the allocations holding autocast's copies of the
// weights (mixed-bf16, precision.h's WeightCastRecorder): counted as weight copies, never as a
// block's activations.
TraceSummary analyzeTrace(const MemoryTracker& tracker,
                          const std::unordered_set<const void*>& gradientBuffers,
                          const std::unordered_set<std::size_t>& weightCopies = {});

}  // namespace ckptlab::engine
