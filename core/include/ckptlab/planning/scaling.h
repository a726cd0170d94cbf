#pragma once
// Scaling sweeps: how memory and time grow with depth, sequence length or width, as the
// exponent of a power law fitted on a log-log scale.

#include <optional>
#include <string>
#include <vector>

#include "ckptlab/model/result.h"

namespace ckptlab {

enum class ScalingAxis { Depth, Seq, Width, Batch };
std::string toString(ScalingAxis axis);
bool parseScalingAxis(const std::string& text, ScalingAxis& axis);
int axisValue(const ExperimentConfig& config, ScalingAxis axis);
IntRange axisRange(ScalingAxis axis);  // the config field's allowed range (config.h)
void setAxisValue(ExperimentConfig& config, ScalingAxis axis, int value);

struct PowerFit {
    double exponent = 0;  // y ≈ coefficient · x^exponent
    double coefficient = 0;
    double r2 = 0;  // of the fit in log-log space
    int points = 0;
};

// Least squares of log y on log x; points with x or y <= 0 are skipped.
PowerFit fitPowerLaw(const std::vector<double>& x, const std::vector<double>& y);

enum class ScalingMetric { ActivationBytes, PeakBytes, StepMs };
std::string toString(ScalingMetric metric);
double metricValue(const RunResult& run, ScalingMetric metric);

// The fit of `metric` against `axis` over the runs of `strategy` that finished.
PowerFit fitRuns(const ResultSet& results, const Strategy& strategy, ScalingAxis axis,
                 ScalingMetric metric);
// The same over the given runs (e.g. one file's of several merged), those that finished.
PowerFit fitRuns(const std::vector<const RunResult*>& runs, ScalingAxis axis, ScalingMetric metric);

// Whether a result set is a scaling sweep, and along which axis: the finished runs of some
// strategy differ in exactly one dimension. Nothing when none or several vary.
std::optional<ScalingAxis> detectScalingAxis(const ResultSet& results);

}  // namespace ckptlab
