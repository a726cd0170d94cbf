// Matmul FLOPs of a step from the model's shapes (flops.h says what is counted).
#include "ckptlab/planning/flops.h"

#include "ckptlab/model/block_kinds.h"
#include "ckptlab/planning/planner.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace ckptlab {

namespace {

// Matmul FLOPs of `tokens` rows through Linear(in → out): 2 per multiply-add.
double linearFlops(double tokens, double in, double out) { return 2 * tokens * in * out; }

// The MLP: up and down, or a gated MLP's gate, up and down (blockKinds()), hidden ffnWidthOf.
double mlpFlops(const ExperimentConfig& c) {
    const double tokens = double(c.batch) * c.seq;
    return blockKind(c.block).mlpMatrices * linearFlops(tokens, c.width, ffnWidthOf(c));
}

// Q·Kᵀ and P·V per batch and query head, [S, Dh]·[Dh, S] and [S, S]·[S, Dh], over the full
// S × S even when causal: the eager path computes the masked half too.
double scoreFlops(const ExperimentConfig& c, double queryWidth) {
    return 2 * (2.0 * c.batch * c.seq * c.seq * queryWidth);
}

// The query heads' total width, heads × head width (d where the heads split the width).
double attentionQueryWidth(const ExperimentConfig& c) { return double(c.heads) * headDimOf(c); }

// q, k and v, the scores and the output projection. Grouped-query: k and v are kv heads wide,
// the scores still one per query head (kvHeadsOf is heads for kinds without grouped queries).
double attentionFlops(const ExperimentConfig& c) {
    const double tokens = double(c.batch) * c.seq, d = c.width;
    const double q = attentionQueryWidth(c), kv = double(kvHeadsOf(c)) * headDimOf(c);
    return linearFlops(tokens, d, q) + 2 * linearFlops(tokens, d, kv) + scoreFlops(c, q) +
           linearFlops(tokens, q, d);
}

}  // namespace

double headForwardFlops(const ExperimentConfig& config) {
    if (!hasChainEnds(config)) return 0;
    return linearFlops(double(config.batch) * config.seq, config.width, config.vocab);
}

double unitForwardFlops(const ExperimentConfig& config, int part) {
    const int parts = unitsPerBlockOf(config.block);
    if (part < 0 || part >= parts)
        throw std::invalid_argument("a " + toString(config.block) + " block has " +
                                    (parts == 1 ? "one part" : "parts 0 and 1") + " (got " +
                                    std::to_string(part) + ")");
    const bool attention = blockKind(config.block).attention && part == 0;
    return attention ? attentionFlops(config) : mlpFlops(config);
}

double blockForwardFlops(const ExperimentConfig& config) {
    double total = 0;
    for (int part = 0; part < unitsPerBlockOf(config.block); ++part)
        total += unitForwardFlops(config, part);
    return total;
}

StepFlops stepFlops(const ExperimentConfig& config, const std::vector<int>& forwardCounts) {
    const int parts = unitsPerBlockOf(config.block);
    const std::size_t units = static_cast<std::size_t>(config.depth) * parts;
    if (!forwardCounts.empty() && forwardCounts.size() != units)
        throw std::invalid_argument("forward counts: expected " + std::to_string(units) +
                                    " (one per unit), got " + std::to_string(forwardCounts.size()));
    StepFlops flops;
    for (std::size_t u = 0; u < units; ++u) {
        const int part = static_cast<int>(u % parts);
        const double once = unitForwardFlops(config, part);
        const int runs = forwardCounts.empty() ? 1 : forwardCounts[u];
        flops.forward += once;
        if (runs > 1) flops.recompute += (runs - 1) * once;
        flops.backward += 2 * once;
        // Memory-efficient attention's backward computes each chunk pair's scores again.
        const bool attention = blockKind(config.block).attention && part == 0;
        if (attention && config.attention == AttentionKind::MemoryEfficient)
            flops.recompute += runs * scoreFlops(config, attentionQueryWidth(config)) / 2;
    }
    if (hasChainEnds(config)) {
        const double head = headForwardFlops(config);
        flops.forward += head;
        if (config.loss_chunks > 1) flops.recompute += head;  // each chunk runs again in backward
        flops.backward += 2 * head;
    }
    return flops;
}

std::optional<double> gflopPerSecond(double flops, double stepMs) {
    if (!(stepMs > 0) || !std::isfinite(stepMs) || !std::isfinite(flops)) return std::nullopt;
    return flops / (stepMs * 1e-3) / 1e9;
}

void setFlopMetrics(RunResult& run) {
    run.metrics.step_gflop.reset();
    run.metrics.gflop_per_s.reset();
    if (run.error) return;
    double flops = 0;
    try {
        flops = stepFlops(run.config, run.forward_counts).total();
    } catch (const std::invalid_argument&) {
        return;  // counts that do not match the model: nothing honest to report
    }
    run.metrics.step_gflop = flops / 1e9;
    run.metrics.gflop_per_s = gflopPerSecond(flops, run.metrics.step_ms);
}

}  // namespace ckptlab
