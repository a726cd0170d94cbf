#pragma once
// Tooltip text for one run: its numbers, absolute and against the `none` baseline.

#include <QString>

#include "ckptlab/result.h"

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

}  // namespace ckptlab::ui
