#pragma once
// One-line answers of the curve sweeps, for the status bar: where the hand-written strategies
// landed against the optimal curve, and the fitted scaling exponents.

#include <QString>

#include "ckptlab/model/result.h"
#include "ckptlab/planning/sweep_strategies.h"

namespace ckptlab::ui {

// "Hand-written: 1 on the optimal curve, 5 above it (sqrt farthest: …)", or which strategies
// are below it (the planner or cost model would be wrong).
QString paretoVerdict(const ResultSet& results);

// "Activation memory ∝ depth^k: none k=1.00, sqrt k=0.50"; empty if not a scaling sweep.
QString scalingVerdict(const ResultSet& results);

// "Under the 40.00 MiB memory limit, none ran out of memory at forward of block 12; 3 other
// run(s) fit." Empty when no run ran out of memory.
QString outOfMemoryVerdict(const ResultSet& results);

// What to show under the results table: the out-of-memory verdict, the noisy machine's
// warnings (time_text.h noiseVerdict), what stopped adaptive repeats, then the set's notes
// (ResultSet::notes), one per line. Empty when there is nothing to say.
QStringList resultNotes(const ResultSet& results);

// The progress line a sweep starts with: "Preparing 4 strategie(s)…" and the like.
QString sweepStartMessage(SweepKind kind, int strategies, int sizes);

// The status line a sweep ends with: runs and time, then the curve's verdict (Pareto,
// scaling) unless cancelled, then the out-of-memory verdict, the noisy machine's warnings and
// what stopped adaptive repeats when it ran something.
QString sweepEndMessage(SweepKind kind, bool cancelled, int runs, double elapsedSeconds,
                        const ResultSet& results);

}  // namespace ckptlab::ui
