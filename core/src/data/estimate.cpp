// Analytic memory estimate from the model's shapes: which tensors each block keeps for
// backward. Used to refuse configs that cannot fit and to show the need live while editing.
#include "ckptlab/estimate.h"

#include <algorithm>

namespace ckptlab {
namespace {

struct BlockShapes {
    std::int64_t ffnSaved;   // bytes an FFN sub-block keeps for backward
    std::int64_t attnSaved;  // bytes an attention sub-block keeps (0 for the ffn block)
    std::int64_t output;     // bytes of one block output (= next block's input)
    std::int64_t parameters;
    std::int64_t transient;  // largest temporaries while one block runs backward
};

BlockShapes shapesFor(const ExperimentConfig& c) {
    const std::int64_t e = bytesPerElement(c.dtype);
    const std::int64_t n = static_cast<std::int64_t>(c.batch) * c.seq;  // tokens
    const std::int64_t d = c.width;
    const std::int64_t nd = n * d * e;
    BlockShapes s{};
    s.output = nd;
    // LayerNorm output, ReLU output (4d), block output.
    s.ffnSaved = nd + 4 * nd + nd;
    s.parameters = (2 * d /*LN*/ + d * 4 * d + 4 * d + 4 * d * d + d) * e;
    s.transient = 2 * 4 * nd;
    if (c.block == BlockKind::Transformer) {
        const std::int64_t scores = static_cast<std::int64_t>(c.batch) * c.heads * c.seq * c.seq * e;
        // LN out, qkv, contiguous q, k, v, merged heads, sub-block output; softmax, mask, dropout.
        s.attnSaved = 7 * nd + 3 * scores;
        s.parameters += (2 * d + 3 * d * d + 3 * d + d * d + d) * e;
        s.transient = std::max(s.transient, 2 * scores);
    }
    return s;
}

std::int64_t keptBySegments(const std::vector<Segment>& segments, const BlockShapes& s,
                            SubLayer sub, std::int64_t& maxRecompute) {
    std::int64_t perBlock = s.ffnSaved + s.attnSaved;
    if (sub == SubLayer::Attention) perBlock = s.ffnSaved + s.output;
    if (sub == SubLayer::Ffn) perBlock = s.attnSaved + s.output;
    std::int64_t kept = 0;
    for (const auto& segment : segments) {
        const std::int64_t blocks = segment.end - segment.begin;
        if (!segment.checkpointed) {
            kept += blocks * perBlock;
            continue;
        }
        kept += s.output;  // a checkpoint keeps only its output alive (its input is counted before)
        std::int64_t inner = 0;
        std::int64_t innerMax = 0;
        if (!segment.inner.empty()) {
            inner = keptBySegments(segment.inner, s, sub, innerMax);
        } else {
            inner = blocks * (s.ffnSaved + s.attnSaved);
        }
        maxRecompute = std::max(maxRecompute, inner + innerMax);
    }
    if (sub != SubLayer::None) {
        // The checkpointed sub-block is recomputed in backward, one block at a time.
        const std::int64_t part = sub == SubLayer::Attention ? s.attnSaved : s.ffnSaved;
        maxRecompute = std::max(maxRecompute, part);
    }
    return kept;
}

}  // namespace

MemoryEstimate estimateMemory(const ExperimentConfig& c, const Plan& plan) {
    const BlockShapes s = shapesFor(c);
    MemoryEstimate m;
    m.parameters = s.parameters * c.depth;
    m.input = s.output;
    if (c.optimizer == Optimizer::Adam) m.optimizer_state = 2 * m.parameters;
    std::int64_t maxRecompute = 0;
    m.activations = keptBySegments(plan.segments, s, plan.subLayer, maxRecompute);
    // Backward starts with every kept activation alive, adds the recompute of one segment,
    // its temporaries, and gradients that grow towards the parameters' size (+ the input's).
    m.peak = m.activations + maxRecompute + s.transient + m.parameters + m.input;
    return m;
}

}  // namespace ckptlab
