// The small shapes a model at its real size is measured at (fitShapes, full_size.h): two
// families of byte shapes, batch 1 and batches from 2, each with a last shape that checks its
// fit, then the timed shapes nearest the target's sequence that a layer can afford.
#include <algorithm>

#include "ckptlab/planning/flops.h"
#include "ckptlab/planning/full_size.h"

namespace ckptlab {
namespace {

// The sequences at which the byte shapes are measured are multiples of `step`, and the
// attention chunk of sequence S is S / chunks (0: the config's chunk).
struct SequenceStep {
    int step = 64;
    int chunks = 0;
};

// The most chunks a byte shape keeps: with more, its chunk pairs would make the measurement
// slow, and the shapes measure at the config's chunk instead (their scripts then differ).
constexpr int kMaxKeptChunks = 128;

SequenceStep sequenceStep(const ExperimentConfig& t) {
    const int lossChunks = std::max(1, t.loss_chunks);
    SequenceStep out;
    if (t.attention == AttentionKind::MemoryEfficient) {
        const int chunks = (t.seq + t.attention_chunk - 1) / t.attention_chunk;
        if (chunks <= kMaxKeptChunks) {
            int k = 1;
            while ((chunks * k) % lossChunks != 0 || chunks * k < 64) ++k;
            return {chunks * k, chunks};
        }
        out.step = std::max(out.step, t.attention_chunk);
    }
    out.step = (out.step + lossChunks - 1) / lossChunks * lossChunks;
    if (t.attention == AttentionKind::MemoryEfficient)
        while (out.step % t.attention_chunk != 0) out.step += lossChunks;
    return out;
}

// The sequences the times are measured at, at the config's own attention chunk: the
// largest as close to the target as a layer's forward and backward within kTimedFlops allow
// (the rate a matmul reaches grows with its size, so the times extrapolate from the nearest
// shape they can afford), then a half and a quarter of it, each a whole number of attention
// chunks and loss chunks.
constexpr double kTimedFlops = 1.5e12;

std::vector<int> timedSequences(const ExperimentConfig& target) {
    int step = std::max(1, target.loss_chunks);
    if (target.attention == AttentionKind::MemoryEfficient)
        while (step % target.attention_chunk != 0) step += std::max(1, target.loss_chunks);
    auto stepFlops = [&](int seq) {
        ExperimentConfig c = target;
        c.batch = 1;
        c.seq = seq;
        return 3 * blockForwardFlops(c);  // forward and backward
    };
    int largest = std::max(step, target.seq / step * step);
    while (largest > 4 * step && stepFlops(largest) > kTimedFlops)
        largest = largest / 2 / step * step;
    largest = std::max(largest, 4 * step);
    return {largest / 4 / step * step, largest / 2 / step * step, largest};
}

}  // namespace

std::vector<MeasuredShape> fitShapes(const ExperimentConfig& target) {
    const SequenceStep seq = sequenceStep(target);
    const int s = seq.step;
    const bool vocab = target.vocab > 0;
    const int v2 = vocab ? std::max(2, std::min(target.vocab, 8192)) : 0;
    const int v1 = v2 / 2;
    auto shape = [&](int b, int times, int v) {
        MeasuredShape m{b, times * s, v, false, true, 0};
        if (seq.chunks) m.attention_chunk = m.seq / seq.chunks;
        return m;
    };
    // Each family's solving shapes, then its check shape last. Batch 1 solves 1, S, S² (and
    // V, S·V); batches from 2 also the B terms.
    std::vector<MeasuredShape> shapes = {shape(1, 1, v1), shape(1, 2, v1), shape(1, 3, v1)};
    if (vocab) {
        shapes.push_back(shape(1, 1, v2));
        shapes.push_back(shape(1, 2, v2));
    }
    shapes.push_back(shape(1, vocab ? 3 : 4, vocab ? v2 : 0));
    for (const auto& [b, times] : {std::pair{2, 1}, {2, 2}, {2, 3}, {3, 1}, {3, 2}, {3, 3}})
        shapes.push_back(shape(b, times, v1));
    if (vocab) {
        shapes.push_back(shape(2, 1, v2));
        shapes.push_back(shape(2, 2, v2));
    }
    shapes.push_back(vocab ? shape(3, 2, v2) : shape(4, 2, 0));
    for (const int seqTimed : timedSequences(target))
        shapes.push_back({1, seqTimed, v2, true, false, 0});
    return shapes;
}

}  // namespace ckptlab
