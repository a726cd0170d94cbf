// Strategy -> plan: the segments each strategy checkpoints, at block or unit level.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "ckptlab/model/block_kinds.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/planner.h"

namespace ckptlab {
namespace {

std::vector<Segment> singleBlocks(int depth, const std::vector<bool>& checkpointed) {
    std::vector<Segment> segments;
    for (int i = 0; i < depth; ++i) segments.push_back({i, i + 1, checkpointed[i], {}});
    return segments;
}

std::vector<Segment> balancedSegments(int depth, int count) {
    std::vector<Segment> segments;
    for (int k = 0; k < count; ++k) {
        // Spread the remainder over the first segments so sizes differ by at most one.
        int begin = static_cast<int>(static_cast<long long>(depth) * k / count);
        int end = static_cast<int>(static_cast<long long>(depth) * (k + 1) / count);
        segments.push_back({begin, end, true, {}});
    }
    return segments;
}

}  // namespace

Plan makePlan(const Strategy& s, int depth) {
    Plan plan;
    std::vector<bool> flags(depth, false);
    switch (s.kind) {
    case StrategyKind::None:
    case StrategyKind::Attn:
    case StrategyKind::FfnOnly:
        plan.segments = singleBlocks(depth, flags);
        if (s.kind == StrategyKind::Attn) plan.subLayer = SubLayer::Attention;
        if (s.kind == StrategyKind::FfnOnly) plan.subLayer = SubLayer::Ffn;
        break;
    case StrategyKind::Revolve: plan = revolvePlan(depth, s.param); break;
    case StrategyKind::Optimal:
        // Planned from measured costs only: resolvePlan (plan_of_strategy.h) with a cost model,
        // estimateStrategy (its budget as the bound) without one.
        throw std::invalid_argument("optimal:MiB is planned from the measured cost model (" +
                                    s.name() + "): use resolvePlan");
    case StrategyKind::Full:
        plan.segments = singleBlocks(depth, std::vector<bool>(depth, true));
        break;
    case StrategyKind::Every:
        for (int i = 0; i < depth; ++i) flags[i] = i % s.param == 0;
        plan.segments = singleBlocks(depth, flags);
        break;
    case StrategyKind::From:
        for (int i = 0; i < depth; ++i) flags[i] = i >= s.param;
        plan.segments = singleBlocks(depth, flags);
        break;
    case StrategyKind::UpTo:
        for (int i = 0; i < depth; ++i) flags[i] = i < s.param;
        plan.segments = singleBlocks(depth, flags);
        break;
    case StrategyKind::Segments: plan.segments = balancedSegments(depth, s.param); break;
    case StrategyKind::Sqrt:
        plan.segments = balancedSegments(depth, static_cast<int>(std::ceil(std::sqrt(depth))));
        break;
    case StrategyKind::SeedBug:
        plan.segments = balancedSegments(depth, s.param);
        plan.recomputeLastSegment = true;
        break;
    }
    return plan;
}

namespace {

std::vector<Segment> scaled(const std::vector<Segment>& segments, int units) {
    std::vector<Segment> out;
    for (const auto& s : segments)
        out.push_back({s.begin * units, s.end * units, s.checkpointed, scaled(s.inner, units)});
    return out;
}

}  // namespace

// Attention blocks are two units (attention, MLP), the ffn block one (blockKinds()).
int unitsPerBlockOf(BlockKind block) { return blockKind(block).unitsPerBlock(); }

Plan toUnitLevel(const Plan& plan, int unitsPerBlock) {
    if (plan.unitLevel) return plan;
    Plan out = plan;
    out.unitLevel = true;
    out.subLayer = SubLayer::None;
    out.segments.clear();
    const int selectedPart = plan.subLayer == SubLayer::Attention ? 0
                             : plan.subLayer == SubLayer::Ffn     ? unitsPerBlock - 1
                                                                  : -1;
    for (const auto& segment : scaled(plan.segments, unitsPerBlock)) {
        if (segment.checkpointed || selectedPart < 0 || unitsPerBlock < 2) {
            out.segments.push_back(segment);
            continue;
        }
        // Selective: checkpoint one sub-block of every block on its own.
        for (int u = segment.begin; u < segment.end; ++u)
            out.segments.push_back({u, u + 1, u % unitsPerBlock == selectedPart, {}});
    }
    return out;
}

}  // namespace ckptlab
