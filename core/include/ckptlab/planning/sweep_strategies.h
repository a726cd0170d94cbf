#pragma once
// Which strategies a sweep runs: its kind, the default sets, what a curve sweep keeps. Planning
// room (docs/ARCHITECTURE.md): no LibTorch, no Qt.

#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/strategy.h"

namespace ckptlab {

enum class SweepKind { Sweep, Pareto, Scaling };

// Strategies a scaling sweep runs when none is asked for.
std::vector<Strategy> defaultScalingStrategies();
// Strategies checked in the app before the user chose any.
std::vector<Strategy> defaultSweepStrategies();

// The strategies a sweep of this kind runs from the checked ones: a curve sweep drops the
// memory budgets (the Pareto curve brings its own; a fixed budget means nothing across sizes)
// and falls back to its usual set when nothing else is left.
std::vector<Strategy> sweepStrategies(SweepKind kind, const std::vector<Strategy>& checked,
                                      int depth, BlockKind block);

}  // namespace ckptlab
