// Memory-efficient attention: FlashAttention is checkpointing inside one op.
//
// Eager attention keeps the S x S probabilities for backward: its activations grow with S².
// This op keeps what a checkpoint keeps, the inputs (q, k, v) and the little it needs to
// replay cheaply, here the output and each query row's log-sum-exp (lse, one number per row),
// and recomputes the scores in backward, one chunk pair at a time. The forward never sees a
// whole row of scores either: an online softmax walks the keys chunk by chunk, keeping per row
// the running maximum m, the running sum l of exp(s − m) and the output's accumulator, each
// rescaled by exp(m_old − m_new) when a larger score arrives (Milakov & Gimelshein 2018; Dao et
// al., "FlashAttention", 2022). With lse saved, backward turns a chunk of scores S back into
// probabilities without any sum over the row, P = exp(S − lse), and follows from them:
//   dV += Pᵀ dO;  dP = dO Vᵀ;  D = rowsum(dO ∘ O);  dS = P ∘ (dP − D);
//   dQ += dS K · scale;  dK += dSᵀ Q · scale.
// So at no time does more than one chunk pair of scores exist: the activations grow with S,
// paid for by computing the scores twice, as a checkpointed block computes its forward twice.
//
// Shapes: B batches, Hkv key/value heads each serving G = H / Hkv query heads (grouped-query
// attention), S positions, Dh per head. The G query heads of a key/value head are folded into
// the rows of one batched matmul, (B·Hkv, G·rows, Dh) against (B·Hkv, keys, Dh), so k and v
// are never repeated per query head, and dK, dV sum over the G heads inside the matmul.
// Every chunk is copied into float32 workspace allocated once per call (bf16 inputs are
// accumulated in float32), so the memory of a call is its inputs, its results and a fixed
// workspace, whatever S.
#include "engine/chunked_attention.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace ckptlab::engine {

namespace {

using torch::Tensor;

struct Shape {
    std::int64_t batch, kvHeads, groups, seq, headDim, chunk;
    std::int64_t pairs() const { return batch * kvHeads; }  // the matmuls' batch
};

Shape shapeOf(const Tensor& q, const Tensor& k, int chunk) {
    if (q.dim() != 4 || k.dim() != 4 || q.size(0) != k.size(0) || q.size(2) != k.size(2) ||
        q.size(3) != k.size(3) || q.size(1) % k.size(1) != 0)
        throw std::invalid_argument("chunked attention: q (B, H, S, Dh), k and v (B, Hkv, S, Dh)");
    if (chunk < 1) throw std::invalid_argument("chunked attention: chunk must be positive");
    const auto seq = q.size(2);
    return {q.size(0), k.size(1), q.size(1) / k.size(1),
            seq,       q.size(3), std::min<std::int64_t>(chunk, std::max<std::int64_t>(seq, 1))};
}

// The leading `shape` of a flat float32 buffer, contiguous: the same workspace serves the last,
// shorter chunk.
Tensor area(const Tensor& buffer, at::IntArrayRef shape) {
    std::int64_t count = 1;
    for (const auto n : shape) count *= n;
    return buffer.narrow(0, 0, count).view(shape);
}

// Query rows [begin, begin + size) of a (B, H, S, …) tensor, its heads split by key/value head:
// (B, Hkv, G, size, …), a view.
Tensor queryRows(const Tensor& t, const Shape& s, std::int64_t begin, std::int64_t size) {
    std::vector<std::int64_t> shape{s.batch, s.kvHeads, s.groups};
    for (std::int64_t d = 2; d < t.dim(); ++d) shape.push_back(t.size(d));
    return t.view(shape).narrow(3, begin, size);
}

// Positions [begin, begin + size) of a (B, Hkv, S, Dh) tensor.
Tensor keyRows(const Tensor& t, std::int64_t begin, std::int64_t size) {
    return t.narrow(2, begin, size);
}

// A row's scores after its own position are −inf. With queries and keys in the same chunks,
// only the diagonal pairs cut through the mask; pairs above it are skipped, those below have
// none. `future` is the (chunk, chunk) upper triangle; a shorter last chunk takes its corner.
void maskFuture(const Tensor& scores, const Tensor& future, const Shape& s, std::int64_t rows) {
    const auto keys = scores.size(2);
    scores.view({s.pairs(), s.groups, rows, keys})
        .masked_fill_(future.narrow(0, 0, rows).narrow(1, 0, keys),
                      -std::numeric_limits<float>::infinity());
}

// The fixed float32 workspace of one pass: one chunk of queries (rows = G · chunk per key/value
// head) against one chunk of keys.
struct Workspace {
    Workspace(const Shape& s, const torch::TensorOptions& f32, int scoreBuffers, int rowBuffers,
              int queryBuffers, int keyBuffers) {
        const auto rows = s.pairs() * s.groups * s.chunk;
        for (int i = 0; i < scoreBuffers; ++i) scores.push_back(at::empty({rows * s.chunk}, f32));
        for (int i = 0; i < rowBuffers; ++i) perRow.push_back(at::empty({rows}, f32));
        for (int i = 0; i < queryBuffers; ++i)
            queries.push_back(at::empty({rows * s.headDim}, f32));
        for (int i = 0; i < keyBuffers; ++i)
            keys.push_back(at::empty({s.pairs() * s.chunk * s.headDim}, f32));
        // A tensor, so multiplying by it allocates nothing (a number is wrapped in a new one).
        scale = at::scalar_tensor(1 / std::sqrt(static_cast<double>(s.headDim)), f32);
    }
    std::vector<Tensor> scores, perRow, queries, keys;
    Tensor scale;  // 1 / √Dh
};

// The causal mask's upper triangle, or nothing.
Tensor futureMask(const Shape& s, const torch::TensorOptions& options, bool causal) {
    if (!causal) return {};
    return at::ones({s.chunk, s.chunk}, options.dtype(torch::kBool)).triu_(1);
}

struct Forward {
    Tensor out, lse;
};

// The online softmax over key chunks for every query chunk; the output in q's dtype, lse in
// float32 (B, Hkv, G, S).
Forward forwardPass(const Tensor& q, const Tensor& k, const Tensor& v, const Shape& s,
                    bool causal) {
    const auto f32 = q.options().dtype(torch::kFloat32);
    Forward result{at::empty({s.batch, s.kvHeads * s.groups, s.seq, s.headDim}, q.options()),
                   at::empty({s.batch, s.kvHeads, s.groups, s.seq}, f32)};
    Workspace w(s, f32, /*scores=*/1, /*rows=*/4, /*queries=*/2, /*keys=*/2);
    const Tensor future = futureMask(s, q.options(), causal);
    for (std::int64_t i0 = 0; i0 < s.seq; i0 += s.chunk) {
        const auto rows = std::min(s.chunk, s.seq - i0), groupRows = s.groups * rows;
        Tensor qc = area(w.queries[0], {s.pairs(), groupRows, s.headDim});
        qc.view({s.batch, s.kvHeads, s.groups, rows, s.headDim}).copy_(queryRows(q, s, i0, rows));
        qc.mul_(w.scale);
        Tensor acc = area(w.queries[1], {s.pairs(), groupRows, s.headDim}).zero_();
        Tensor m = area(w.perRow[0], {s.pairs(), groupRows})
                       .fill_(-std::numeric_limits<float>::infinity());
        Tensor l = area(w.perRow[1], {s.pairs(), groupRows}).zero_();
        Tensor rowMax = area(w.perRow[2], {s.pairs(), groupRows});
        Tensor rescale = area(w.perRow[3], {s.pairs(), groupRows});
        const auto keyEnd = causal ? i0 + rows : s.seq;  // pairs above the diagonal: skipped
        for (std::int64_t j0 = 0; j0 < keyEnd; j0 += s.chunk) {
            const auto keys = std::min(s.chunk, s.seq - j0);
            const Tensor kc = area(w.keys[0], {s.pairs(), keys, s.headDim});
            const Tensor vc = area(w.keys[1], {s.pairs(), keys, s.headDim});
            kc.view({s.batch, s.kvHeads, keys, s.headDim}).copy_(keyRows(k, j0, keys));
            vc.view({s.batch, s.kvHeads, keys, s.headDim}).copy_(keyRows(v, j0, keys));
            Tensor sc = area(w.scores[0], {s.pairs(), groupRows, keys});
            at::bmm_out(sc, qc, kc.transpose(1, 2));
            if (causal && j0 == i0) maskFuture(sc, future, s, rows);
            // m_new = max(m, max_j s); the old sum and accumulator shrink by exp(m − m_new).
            at::amax_out(rowMax, sc, {-1});
            at::maximum_out(rowMax, rowMax, m);
            at::sub_out(rescale, m, rowMax).exp_();
            m.copy_(rowMax);
            sc.sub_(rowMax.unsqueeze(-1)).exp_();  // the chunk's exp(s − m_new), in place
            at::sum_out(rowMax, sc, {-1});
            l.mul_(rescale).add_(rowMax);
            acc.mul_(rescale.unsqueeze(-1)).baddbmm_(sc, vc);
        }
        acc.div_(l.unsqueeze(-1));
        queryRows(result.out, s, i0, rows)
            .copy_(acc.view({s.batch, s.kvHeads, s.groups, rows, s.headDim}));
        l.log_().add_(m);  // lse = m + log l
        result.lse.narrow(3, i0, rows).copy_(l.view({s.batch, s.kvHeads, s.groups, rows}));
    }
    return result;
}

struct Gradients {
    Tensor dq, dk, dv;
};

// D = rowsum(dO ∘ O), float32 (B, Hkv, G, S): the softmax backward's per-row term, once.
Tensor rowDots(const Tensor& gradOut, const Tensor& out, const Shape& s, Workspace& w) {
    Tensor d = at::empty({s.batch, s.kvHeads, s.groups, s.seq}, out.options().dtype(at::kFloat));
    for (std::int64_t i0 = 0; i0 < s.seq; i0 += s.chunk) {
        const auto rows = std::min(s.chunk, s.seq - i0);
        const std::vector<std::int64_t> grouped{s.batch, s.kvHeads, s.groups, rows, s.headDim};
        Tensor doc = area(w.queries[0], grouped).copy_(queryRows(gradOut, s, i0, rows));
        const Tensor oc = area(w.queries[1], grouped).copy_(queryRows(out, s, i0, rows));
        Tensor dc = area(w.perRow[0], {s.batch, s.kvHeads, s.groups, rows});
        at::sum_out(dc, doc.mul_(oc), {-1});
        d.narrow(3, i0, rows).copy_(dc);
    }
    return d;
}

// Key chunks outside, query chunks inside: dK and dV of a key chunk accumulate in the
// workspace and are written once; dQ accumulates in a float32 (B, H, S, Dh) tensor.
Gradients backwardPass(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& out,
                       const Tensor& lse, const Tensor& gradOut, const Shape& s, bool causal) {
    const auto f32 = q.options().dtype(torch::kFloat32);
    const double scale = 1 / std::sqrt(static_cast<double>(s.headDim));
    Gradients g;
    g.dq = at::zeros(q.sizes(), f32);
    g.dk = at::empty(k.sizes(), k.options());
    g.dv = at::empty(v.sizes(), v.options());
    Workspace w(s, f32, /*scores=*/2, /*rows=*/2, /*queries=*/3, /*keys=*/4);
    const Tensor d = rowDots(gradOut, out, s, w);
    const Tensor future = futureMask(s, q.options(), causal);
    for (std::int64_t j0 = 0; j0 < s.seq; j0 += s.chunk) {
        const auto keys = std::min(s.chunk, s.seq - j0);
        const std::vector<std::int64_t> keyShape{s.pairs(), keys, s.headDim};
        const std::vector<std::int64_t> keyView{s.batch, s.kvHeads, keys, s.headDim};
        const Tensor kc = area(w.keys[0], keyShape), vc = area(w.keys[1], keyShape);
        kc.view(keyView).copy_(keyRows(k, j0, keys));
        vc.view(keyView).copy_(keyRows(v, j0, keys));
        const Tensor dkc = area(w.keys[2], keyShape).zero_();
        const Tensor dvc = area(w.keys[3], keyShape).zero_();
        for (std::int64_t i0 = causal ? j0 : 0; i0 < s.seq; i0 += s.chunk) {
            const auto rows = std::min(s.chunk, s.seq - i0), groupRows = s.groups * rows;
            const std::vector<std::int64_t> rowShape{s.pairs(), groupRows, s.headDim};
            const std::vector<std::int64_t> rowView{s.batch, s.kvHeads, s.groups, rows, s.headDim};
            Tensor qc = area(w.queries[0], rowShape);
            qc.view(rowView).copy_(queryRows(q, s, i0, rows));
            qc.mul_(w.scale);
            Tensor doc = area(w.queries[1], rowShape);
            doc.view(rowView).copy_(queryRows(gradOut, s, i0, rows));
            const Tensor lsec = area(w.perRow[0], {s.pairs(), groupRows});
            lsec.view({s.batch, s.kvHeads, s.groups, rows}).copy_(lse.narrow(3, i0, rows));
            Tensor dc = area(w.perRow[1], {s.pairs(), groupRows});
            dc.view({s.batch, s.kvHeads, s.groups, rows}).copy_(d.narrow(3, i0, rows));
            // P = exp(S − lse), recomputed: the only scores that ever exist.
            Tensor p = area(w.scores[0], {s.pairs(), groupRows, keys});
            at::bmm_out(p, qc, kc.transpose(1, 2));
            if (causal && j0 == i0) maskFuture(p, future, s, rows);
            p.sub_(lsec.unsqueeze(-1)).exp_();
            dvc.baddbmm_(p.transpose(1, 2), doc);
            // dS = P ∘ (dO Vᵀ − D), in dP's memory.
            Tensor ds = area(w.scores[1], {s.pairs(), groupRows, keys});
            at::bmm_out(ds, doc, vc.transpose(1, 2));
            ds.sub_(dc.unsqueeze(-1)).mul_(p);
            dkc.baddbmm_(ds.transpose(1, 2), qc);  // qc holds Q · scale
            Tensor dqc = area(w.queries[2], rowShape);
            at::bmm_out(dqc, ds, kc);
            queryRows(g.dq, s, i0, rows).add_(dqc.view(rowView), scale);
        }
        keyRows(g.dk, j0, keys).copy_(dkc.view(keyView));
        keyRows(g.dv, j0, keys).copy_(dvc.view(keyView));
    }
    if (q.scalar_type() != torch::kFloat32) g.dq = g.dq.to(q.scalar_type());
    return g;
}

class ChunkedAttention : public torch::autograd::Function<ChunkedAttention> {
public:
    static Tensor forward(torch::autograd::AutogradContext* ctx, const Tensor& q, const Tensor& k,
                          const Tensor& v, std::int64_t chunk, bool causal) {
        const Shape s = shapeOf(q, k, static_cast<int>(chunk));
        Forward f = forwardPass(q, k, v, s, causal);
        // What a checkpoint keeps, and the row statistics that make the replay cheap.
        ctx->save_for_backward({q, k, v, f.out, f.lse});
        ctx->saved_data["chunk"] = chunk;
        ctx->saved_data["causal"] = causal;
        return f.out;
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                   torch::autograd::variable_list gradOutputs) {
        const auto saved = ctx->get_saved_variables();
        const auto chunk = ctx->saved_data["chunk"].toInt();
        const bool causal = ctx->saved_data["causal"].toBool();
        const Shape s = shapeOf(saved[0], saved[1], static_cast<int>(chunk));
        Gradients g = backwardPass(saved[0], saved[1], saved[2], saved[3], saved[4], gradOutputs[0],
                                   s, causal);
        return {g.dq, g.dk, g.dv, Tensor(), Tensor()};
    }
};

}  // namespace

torch::Tensor chunkedAttention(const torch::Tensor& q, const torch::Tensor& k,
                               const torch::Tensor& v, int chunk, bool causal) {
    return ChunkedAttention::apply(q, k, v, static_cast<std::int64_t>(chunk), causal);
}

}  // namespace ckptlab::engine
