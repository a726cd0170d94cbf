#pragma once
// Turns a run's PhaseSpans (which may nest, e.g. a recompute inside a backward span) into
// non-overlapping bands for shading, and finds where blocks begin for boundary marks.

#include <vector>

#include "ckptlab/model/result.h"

namespace ckptlab::ui {

// Non-overlapping spans sorted by time; where spans overlap the more specific phase wins
// (recompute over backward, loss/optimizer over forward/backward); touching spans of the same
// phase are merged (block is then -1). Idle and empty spans are dropped.
std::vector<PhaseSpan> flattenPhases(const std::vector<PhaseSpan>& spans);

// Times at which a block's (or a chain end's: the embedding, the LM head) forward, recompute or
// backward begins, sorted, dropping any closer
// than `minGap` to the previous one so dense models don't paint a solid wall.
std::vector<double> blockBoundaries(const std::vector<PhaseSpan>& spans, double minGap);

// The flattened span containing `t`, or nullptr.
const PhaseSpan* phaseAt(const std::vector<PhaseSpan>& flattened, double t);

}  // namespace ckptlab::ui
