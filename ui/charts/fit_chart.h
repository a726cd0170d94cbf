#pragma once
// The "Will it fit?" charts: what each strategy holds at its peak at the model's real size,
// stacked per strategy against the GPU's capacity, and one strategy's predicted memory timeline
// drawn by the timeline chart's builder. Sizes in GB (10^9 bytes), as GPUs are sold.

#include <QString>
#include <QStringList>
#include <vector>

#include "ckptlab/formats/full_size_files.h"
#include "ckptlab/model/result.h"
#include "ckptlab/planning/full_size.h"

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace ckptlab::ui {

inline constexpr double kGB = 1e9;

// Each row's name as shown: its strategy, the fastest schedule marked as such.
QStringList fitRowNames(const FullSizePlan& plan);

// The stacked parts of a bar, bottom to top: weights, bf16 weight copies, gradients, optimizer
// state, activations, logits, other (input, temporaries) and the caching allocator's reserve
// above them (reserved - allocated). Translated.
QStringList fitPartNames();
// The part values of one row in GB, in fitPartNames' order.
std::vector<double> fitPartValues(const StrategyAtSize& row);

// One horizontal stacked bar per row of fullSizeRows (the plan's first strategy on top), the parts
// above, and the capacity as a vertical line (objectName "capacity"). A plan without
// strategies gives an empty chart.
QChart* buildFitChart(const FullSizePlan& plan);

// A predicted step as a run the timeline builder draws: the prediction's timeline and phases
// (predict with PredictTimeline::Yes), its peak and baseline, and the capacity as the run's
// memory limit so the chart draws it.
RunResult predictedRun(const ExperimentConfig& config, const Strategy& strategy,
                       const Prediction& prediction, std::int64_t capacity);

// The timeline chart of `run` (predictedRun), titled as predicted, not measured.
QChart* buildPredictedTimelineChart(const RunResult& run);

}  // namespace ckptlab::ui
