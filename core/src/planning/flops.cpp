// Matmul FLOPs of a step from the model's shapes (flops.h says what is counted).
#include "ckptlab/flops.h"

#include "ckptlab/planner.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace ckptlab {

double unitForwardFlops(const ExperimentConfig& config, int part) {
    const double b = config.batch, s = config.seq, d = config.width;
    const double tokens = b * s;
    const double ffn = 2 * tokens * d * (4 * d) + 2 * tokens * (4 * d) * d;
    if (config.block == BlockKind::Ffn) {
        if (part != 0)
            throw std::invalid_argument("an ffn block has one part (got " + std::to_string(part) +
                                        ")");
        return ffn;
    }
    if (part == 1) return ffn;
    if (part != 0)
        throw std::invalid_argument("a transformer block has parts 0 and 1 (got " +
                                    std::to_string(part) + ")");
    const double qkv = 2 * tokens * d * (3 * d);
    // Per batch and head: [S, Dh]·[Dh, S] and [S, S]·[S, Dh]; heads·Dh = d.
    const double scores = 2 * b * s * s * d;
    const double context = 2 * b * s * s * d;
    const double projection = 2 * tokens * d * d;
    return qkv + scores + context + projection;
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
        const double once = unitForwardFlops(config, static_cast<int>(u % parts));
        const int runs = forwardCounts.empty() ? 1 : forwardCounts[u];
        flops.forward += once;
        if (runs > 1) flops.recompute += (runs - 1) * once;
        flops.backward += 2 * once;
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
