#pragma once
// Tooltip text for one run: its numbers, absolute and against the `none` baseline.

#include <QString>
#include <vector>

#include "ckptlab/model/result.h"

namespace ckptlab::ui {

// "every:4\npeak 123.4 MiB · step 56.7 ms\nmemory saved 12.3 % · time added 4.5 %\n..."
QString runTooltip(const RunResult& run, const RunResult* baseline);

// Lines comparing the cost model's prediction with the measurement:
// "predicted peak 10.00 MiB · measured 10.20 MiB (error -2.0 %)", the same for activations and
// step time. Empty when the run carries no prediction.
QString predictionText(const RunResult& run);

// Signed error of a prediction in % of the measurement; 0 when nothing was measured.
double predictionErrorPct(double predicted, double measured);

// "gradient check passed (max |Δ| 1.2e-07)" and its failed / not-run forms.
QString gradCheckText(const GradCheck& check);

// Where in the step something happened, built from the phase and block (not parsed from
// core's English): "forward of block 7", "forward of the LM head", "loss", "optimizer step".
// Translated.
QString whereText(Phase phase, int block);

// The chain's two ends (kEmbeddingBlock, kHeadBlock): what the charts label with a block.
bool isChainEnd(int block);
// "embedding" or "LM head", translated; empty for any other block.
QString chainEndName(int block);
// `phase` (a phase's name, translated) of the embedding or the LM head: "forward of the LM
// head"; empty for a block that is no end.
QString chainEndPhaseText(const QString& phase, int block);

// "out of memory at forward of block 7" (translated), for the table and the chart labels.
QString outOfMemoryText(const OutOfMemory& oom);

// The run's out-of-memory in full, for tooltips: what was requested, what was allocated and
// the limit, then that the peak shown is the one reached before it stopped.
QString outOfMemoryDetails(const RunResult& run);

// The modelled device's capacity as the charts draw it, above the step's start (the limit
// minus parameters, input and optimizer state), in MiB; 0 when the runs set no limit, or set
// different limits or baselines (one line could not stand for all of them).
double capacityAboveStartMiB(const std::vector<const RunResult*>& runs);

}  // namespace ckptlab::ui
