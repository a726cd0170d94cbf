// Analytic memory estimate from the model's shapes: which tensors each block keeps for
// backward. Used to refuse configs that cannot fit and to show the need live while editing.
#include "ckptlab/planning/estimate.h"

#include <algorithm>

#include "ckptlab/model/saturating.h"

namespace ckptlab {
namespace {

struct BlockShapes {
    std::int64_t ffnSaved;   // bytes an FFN sub-block keeps for backward
    std::int64_t attnSaved;  // bytes an attention sub-block keeps (0 for the ffn block)
    std::int64_t output;     // bytes of one block output (= next block's input)
    std::int64_t parameters;
    std::int64_t transient;  // largest temporaries while one block runs backward
};

// What attention keeps per row instead of the S x S probabilities when it is not eager
// (memory-efficient, sdpa): one fp32 log-sum-exp per query and head.
std::int64_t logSumExpBytes(const ExperimentConfig& c) {
    return sat::mul(c.batch, c.heads, c.seq, 4);
}

// Attention's largest temporaries in backward: eager's scores and their gradient; the
// memory-efficient kernel's one chunk of queries against one chunk of keys (scores,
// probabilities and their gradient in fp32).
std::int64_t attentionTransient(const ExperimentConfig& c) {
    using sat::mul;
    if (c.attention == AttentionKind::Eager)
        return mul(2, c.batch, c.heads, c.seq, c.seq, bytesPerElement(c.dtype));
    const std::int64_t chunk = std::min(c.seq, c.attention_chunk);
    return mul(3, c.batch, c.heads, chunk, chunk, 4);
}

// The Llama block: RMSNorm, grouped-query attention with rotary q and k, the SwiGLU MLP.
BlockShapes llamaShapesFor(const ExperimentConfig& c, BlockShapes s) {
    using sat::add;
    using sat::mul;
    const std::int64_t e = bytesPerElement(c.dtype);
    const std::int64_t n = mul(c.batch, c.seq);
    const std::int64_t d = c.width, f = ffnWidthOf(c), dh = headDimOf(c);
    const std::int64_t h = c.heads, g = kvHeadsOf(c);
    const std::int64_t nd = s.output, nf = mul(n, f, e);
    const std::int64_t scores = mul(c.batch, h, c.seq, c.seq, e);
    const std::int64_t mask = mul(c.seq, c.seq);  // one byte a score
    // RMSNorm's input and output, the rotary q (h heads) and k (g), k and v repeated for the
    // query heads (h each), the merged context (h), the sub-block output; the probabilities
    // (eager) or each row's log-sum-exp.
    const std::int64_t probabilities =
        c.attention == AttentionKind::Eager ? add(scores, mask) : logSumExpBytes(c);
    s.attnSaved = add(mul(3, nd), mul(n, dh, add(mul(4, h), g), e), probabilities);
    // RMSNorm's input and output, gate, SiLU, up and their product (f each), block output.
    s.ffnSaved = add(mul(3, nd), mul(4, nf));
    const std::int64_t attention =
        add(mul(2, d, dh, add(h, g)), c.qkv_bias ? mul(dh, add(h, mul(2, g))) : 0);
    s.parameters = mul(add(mul(2, d), attention, mul(3, d, f)), parameterBytesPerElement(c.dtype));
    s.transient = std::max(mul(nf, 3), attentionTransient(c));
    return s;
}

// The seed's MLP (LayerNorm, d→f, ReLU, f→d), the ffn block and the transformer's second half.
BlockShapes mlpShapesFor(const ExperimentConfig& c, BlockShapes s) {
    using sat::add;
    using sat::mul;
    const std::int64_t e = bytesPerElement(c.dtype);
    const std::int64_t n = mul(c.batch, c.seq);  // tokens
    const std::int64_t d = c.width;
    const std::int64_t nd = mul(n, d, e);
    const std::int64_t f = ffnWidthOf(c);  // the MLP's hidden width, 4d unless set
    const std::int64_t nf = mul(n, f, e);
    // LayerNorm output, ReLU output (f), block output.
    s.ffnSaved = add(mul(nd, 2), nf);
    // LayerNorm, d→f and f→d weights with their biases, stored in the parameters' precision
    // (mixed-bf16: fp32 master weights).
    const std::int64_t pe = parameterBytesPerElement(c.dtype);
    s.parameters = mul(add(mul(2, d), mul(2, d, f), f, d), pe);
    s.transient = mul(nf, 2);
    return s;
}

// The transformer: pre-LN attention with a fused qkv in front of the seed's MLP.
BlockShapes transformerShapesFor(const ExperimentConfig& c, BlockShapes s) {
    using sat::add;
    using sat::mul;
    const std::int64_t e = bytesPerElement(c.dtype);
    const std::int64_t d = c.width;
    const std::int64_t nd = mul(c.batch, c.seq, d, e);
    const std::int64_t pe = parameterBytesPerElement(c.dtype);
    const std::int64_t scores = mul(c.batch, c.heads, c.seq, c.seq, e);
    // LN out, qkv, contiguous q, k, v, merged heads, sub-block output; softmax, mask,
    // dropout (eager) or each row's log-sum-exp.
    const std::int64_t probabilities =
        c.attention == AttentionKind::Eager ? mul(3, scores) : logSumExpBytes(c);
    s.attnSaved = add(mul(7, nd), probabilities);
    s.parameters = add(s.parameters, mul(add(mul(2, d), mul(4, d, d), mul(4, d)), pe));
    s.transient = std::max(s.transient, attentionTransient(c));
    return s;
}

BlockShapes shapesFor(const ExperimentConfig& c) {
    BlockShapes s{};
    s.output = sat::mul(c.batch, c.seq, c.width, bytesPerElement(c.dtype));
    switch (c.block) {
    case BlockKind::Ffn: return mlpShapesFor(c, s);
    case BlockKind::Transformer: return transformerShapesFor(c, mlpShapesFor(c, s));
    case BlockKind::Llama: return llamaShapesFor(c, s);
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

// The chain's ends (vocab > 0): the embedding table, the final norm and, untied, the LM head;
// the token ids and targets; and the head's largest moment, the logits of one loss chunk in
// the compute precision with their fp32 log-probabilities and gradient.
struct EndShapes {
    std::int64_t parameters = 0;
    std::int64_t input = 0;
    std::int64_t headPeak = 0;  // above the chain's kept activations
};

EndShapes endShapesFor(const ExperimentConfig& c) {
    using sat::add;
    using sat::mul;
    EndShapes ends;
    if (!hasChainEnds(c)) return ends;
    const std::int64_t pe = parameterBytesPerElement(c.dtype);
    const std::int64_t table = mul(c.vocab, c.width, pe);
    ends.parameters = add(table, c.tie_embeddings ? 0 : table, mul(c.width, pe));
    ends.input = mul(2, c.batch, c.seq, 8);  // int64 token ids and targets
    const std::int64_t chunks = std::max(1, c.loss_chunks);
    const std::int64_t rows = mul(c.batch, (c.seq + chunks - 1) / chunks);
    const std::int64_t logits = mul(rows, c.vocab);
    ends.headPeak = add(mul(logits, bytesPerElement(c.dtype)), mul(2, logits, 4));
    return ends;
}

}  // namespace

MemoryEstimate estimateMemory(const ExperimentConfig& c, const Plan& plan) {
    using sat::add;
    const BlockShapes s = shapesFor(c);
    const EndShapes ends = endShapesFor(c);
    MemoryEstimate m;
    m.parameters = add(sat::mul(s.parameters, c.depth), ends.parameters);
    // Without ends the input is the chain's activations, with them the token ids and targets,
    // and the embedding's output is the chain's input.
    m.input = hasChainEnds(c) ? ends.input : s.output;
    if (c.optimizer == Optimizer::Adam) m.optimizer_state = sat::mul(2, m.parameters);
    std::int64_t maxRecompute = 0;
    m.activations = keptBySegments(plan.segments, s, plan.subLayer, maxRecompute);
    if (hasChainEnds(c)) m.activations = add(m.activations, s.output);
    // Backward starts with every kept activation alive, adds the recompute of one segment,
    // its temporaries, and gradients that grow towards the parameters' size (+ the input's);
    // with ends the head's logits sit on top of the activations first.
    const std::int64_t during = std::max(add(maxRecompute, s.transient), ends.headPeak);
    m.peak = add(m.activations, during, m.parameters, s.output);
    return m;
}

std::int64_t MemoryEstimate::total() const {
    return sat::add(parameters, input, optimizer_state, peak);
}

}  // namespace ckptlab
