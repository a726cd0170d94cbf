// Analytic memory estimate from the model's shapes: which tensors each block keeps for
// backward. Used to refuse configs that cannot fit and to show the need live while editing.
#include "ckptlab/estimate.h"

#include <algorithm>

#include "ckptlab/saturating.h"

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
    using sat::add;
    using sat::mul;
    const std::int64_t e = bytesPerElement(c.dtype);
    const std::int64_t n = mul(c.batch, c.seq);  // tokens
    const std::int64_t d = c.width;
    const std::int64_t nd = mul(n, d, e);
    BlockShapes s{};
    s.output = nd;
    // LayerNorm output, ReLU output (4d), block output.
    s.ffnSaved = mul(nd, 6);
    // LayerNorm, d→4d and 4d→d weights with their biases.
    s.parameters = mul(add(mul(2, d), mul(8, d, d), mul(5, d)), e);
    s.transient = mul(nd, 8);
    if (c.block == BlockKind::Transformer) {
        const std::int64_t scores = mul(c.batch, c.heads, c.seq, c.seq, e);
        // LN out, qkv, contiguous q, k, v, merged heads, sub-block output; softmax, mask, dropout.
        s.attnSaved = add(mul(7, nd), mul(3, scores));
        s.parameters = add(s.parameters, mul(add(mul(2, d), mul(4, d, d), mul(4, d)), e));
        s.transient = std::max(s.transient, mul(2, scores));
    }
    return s;
}

std::int64_t keptBySegments(const std::vector<Segment>& segments, const BlockShapes& s,
                            SubLayer sub, std::int64_t& maxRecompute) {
    using sat::add;
    using sat::mul;
    std::int64_t perBlock = add(s.ffnSaved, s.attnSaved);
    if (sub == SubLayer::Attention) perBlock = add(s.ffnSaved, s.output);
    if (sub == SubLayer::Ffn) perBlock = add(s.attnSaved, s.output);
    std::int64_t kept = 0;
    for (const auto& segment : segments) {
        const std::int64_t blocks = segment.end - segment.begin;
        if (!segment.checkpointed) {
            kept = add(kept, mul(blocks, perBlock));
            continue;
        }
        // A checkpoint keeps only its output alive (its input is counted before).
        kept = add(kept, s.output);
        std::int64_t inner = 0;
        std::int64_t innerMax = 0;
        if (!segment.inner.empty()) {
            inner = keptBySegments(segment.inner, s, sub, innerMax);
        } else {
            inner = mul(blocks, add(s.ffnSaved, s.attnSaved));
        }
        maxRecompute = std::max(maxRecompute, add(inner, innerMax));
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
    using sat::add;
    const BlockShapes s = shapesFor(c);
    MemoryEstimate m;
    m.parameters = sat::mul(s.parameters, c.depth);
    m.input = s.output;
    if (c.optimizer == Optimizer::Adam) m.optimizer_state = sat::mul(2, m.parameters);
    std::int64_t maxRecompute = 0;
    m.activations = keptBySegments(plan.segments, s, plan.subLayer, maxRecompute);
    // Backward starts with every kept activation alive, adds the recompute of one segment,
    // its temporaries, and gradients that grow towards the parameters' size (+ the input's).
    m.peak = add(m.activations, maxRecompute, s.transient, m.parameters, m.input);
    return m;
}

std::int64_t MemoryEstimate::total() const {
    return sat::add(parameters, input, optimizer_state, peak);
}

}  // namespace ckptlab
