#include "engine/trace_analysis.h"

#include <algorithm>
#include <limits>
#include <map>
#include <unordered_map>

namespace ckptlab::engine {
namespace {

// One allocation from its malloc to its free (or the end of the trace).
struct Allocation {
    std::size_t allocIndex;
    std::size_t freeIndex;  // records().size() when never freed in the trace
    std::int64_t bytes;
    int span;
    const void* ptr;
};

std::vector<Allocation> pairAllocations(const std::vector<AllocationRecord>& records) {
    std::vector<Allocation> allocations;
    std::unordered_map<const void*, std::size_t> open;  // ptr -> index in allocations
    for (std::size_t i = 0; i < records.size(); ++i) {
        const auto& r = records[i];
        if (r.delta > 0) {
            open[r.ptr] = allocations.size();
            allocations.push_back({i, records.size(), r.delta, r.span, r.ptr});
        } else if (auto it = open.find(r.ptr); it != open.end()) {
            allocations[it->second].freeIndex = i;
            open.erase(it);
        }
    }
    return allocations;
}

bool isActivationPhase(Phase phase) { return phase == Phase::Forward || phase == Phase::Recompute; }

// Blocks with a lifetime: the chain's blocks and its two ends, not the unlabelled rest.
bool hasLifetime(int block) {
    return block >= 0 || block == kEmbeddingBlock || block == kHeadBlock;
}

}  // namespace

TraceSummary analyzeTrace(const MemoryTracker& tracker,
                          const std::unordered_set<const void*>& gradientBuffers,
                          const std::unordered_set<std::size_t>& weightCopies) {
    const auto& records = tracker.records();
    const auto& spans = tracker.spans();
    TraceSummary out;

    std::size_t peakIndex = 0;
    for (std::size_t i = 0; i < records.size(); ++i) {
        const auto& r = records[i];
        const auto& span = spans[r.span];
        out.timeline.push_back({r.t_ms, r.delta, r.total, span.phase, span.block});
        if (r.total > out.peak) out.peak = r.total, peakIndex = i;
    }
    for (const auto& span : spans) {
        if (span.end_ms > span.begin_ms || span.phase != Phase::Idle)
            out.phases.push_back({span.phase, span.block, span.begin_ms, span.end_ms});
    }

    const auto allocations = pairAllocations(records);
    const double endMs = spans.empty() ? 0.0 : spans.back().end_ms;

    // What was alive at the peak, by what it is.
    for (const auto& a : allocations) {
        if (a.allocIndex > peakIndex || a.freeIndex <= peakIndex) continue;
        const bool isGradient = a.freeIndex == records.size() && gradientBuffers.count(a.ptr);
        if (isGradient)
            out.atPeak.gradients += a.bytes;
        else if (weightCopies.count(a.allocIndex))
            out.atPeak.weight_copies += a.bytes;
        else if (spans[a.span].block == kHeadBlock)  // logits, log-probabilities, their gradients
            out.atPeak.logits += a.bytes;
        else if (isActivationPhase(spans[a.span].phase))
            out.atPeak.activations += a.bytes;
        else
            out.atPeak.other += a.bytes;
    }

    // What a forward left allocated and still lives after the last backward span was saved by
    // no backward: the step holds it (the chain's output and the loss) until it ends, as a
    // PyTorch script holds its `out` and `loss`. Counted among the last block's activations,
    // it would stretch that block's lifetime to the step's end.
    std::size_t lastBackward = spans.size();
    for (std::size_t i = 0; i < spans.size(); ++i)
        if (spans[i].phase == Phase::Backward) lastBackward = i;
    auto heldByStep = [&](const Allocation& a) {
        if (lastBackward == spans.size()) return false;  // no backward (out of memory before)
        return a.freeIndex == records.size() ||
               static_cast<std::size_t>(records[a.freeIndex].span) > lastBackward;
    };

    // Per forward or recompute span: the bytes it left allocated for the backward, and when
    // the last of them went.
    std::map<int, BlockLifetime> bySpan;
    for (const auto& a : allocations) {
        const auto& span = spans[a.span];
        if (weightCopies.count(a.allocIndex)) continue;  // a weight's, not an activation
        if (!isActivationPhase(span.phase) || !hasLifetime(span.block)) continue;
        const double freedMs = a.freeIndex < records.size() ? records[a.freeIndex].t_ms : endMs;
        if (freedMs <= span.end_ms) continue;  // a temporary of the block's own forward
        if (heldByStep(a)) continue;
        auto& life = bySpan[a.span];
        if (life.bytes == 0) {
            life.block = span.block;
            life.phase = span.phase;
            life.saved_ms = span.end_ms;
            life.freed_ms = freedMs;
        }
        life.bytes += a.bytes;
        life.freed_ms = std::max(life.freed_ms, freedMs);
    }
    for (auto& [span, life] : bySpan) out.blocks.push_back(life);
    return out;
}

}  // namespace ckptlab::engine
