#include "charts/phase_bands.h"

#include <algorithm>
#include <array>

namespace ckptlab::ui {

namespace {

int priority(Phase phase) {
    switch (phase) {
    case Phase::Recompute: return 5;
    case Phase::Loss: return 4;
    case Phase::Optimizer: return 3;
    case Phase::Forward: return 2;
    case Phase::Backward: return 1;
    case Phase::Idle: break;
    }
    return 0;
}

struct Edge {
    double t;
    Phase phase;
    int delta;  // +1 opens, -1 closes
};

}  // namespace

std::vector<PhaseSpan> flattenPhases(const std::vector<PhaseSpan>& spans) {
    std::vector<Edge> edges;
    for (const PhaseSpan& s : spans) {
        if (s.phase == Phase::Idle || !(s.end_ms > s.begin_ms)) continue;
        edges.push_back({s.begin_ms, s.phase, +1});
        edges.push_back({s.end_ms, s.phase, -1});
    }
    std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) { return a.t < b.t; });

    // Sweep: between consecutive edge times the open phase with the highest priority shows.
    std::array<int, 6> open{};
    std::vector<PhaseSpan> out;
    for (std::size_t i = 0; i < edges.size();) {
        const double t = edges[i].t;
        for (; i < edges.size() && edges[i].t == t; ++i)
            open[int(edges[i].phase)] += edges[i].delta;
        if (i == edges.size()) break;
        Phase top = Phase::Idle;
        for (int p = 0; p < int(open.size()); ++p)
            if (open[p] > 0 && priority(Phase(p)) > priority(top)) top = Phase(p);
        if (top == Phase::Idle) continue;
        const double next = edges[i].t;
        if (!out.empty() && out.back().phase == top && out.back().end_ms == t)
            out.back().end_ms = next;
        else
            out.push_back(PhaseSpan{top, -1, t, next});
    }
    return out;
}

std::vector<double> blockBoundaries(const std::vector<PhaseSpan>& spans, double minGap) {
    std::vector<double> starts;
    for (const PhaseSpan& s : spans)
        if ((s.block >= 0 || s.block == kEmbeddingBlock || s.block == kHeadBlock) &&
            s.phase != Phase::Idle)
            starts.push_back(s.begin_ms);
    std::sort(starts.begin(), starts.end());
    std::vector<double> out;
    for (double t : starts)
        if (out.empty() || t - out.back() >= minGap) out.push_back(t);
    return out;
}

const PhaseSpan* phaseAt(const std::vector<PhaseSpan>& flattened, double t) {
    auto it = std::upper_bound(flattened.begin(), flattened.end(), t,
                               [](double value, const PhaseSpan& s) { return value < s.end_ms; });
    if (it == flattened.end() || t < it->begin_ms) return nullptr;
    return &*it;
}

}  // namespace ckptlab::ui
