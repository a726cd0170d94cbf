#include "ckptlab/planning/scaling.h"

#include <cmath>
#include <map>
#include <set>

namespace ckptlab {

std::string toString(ScalingAxis axis) {
    switch (axis) {
    case ScalingAxis::Depth: return "depth";
    case ScalingAxis::Seq: return "seq";
    case ScalingAxis::Width: return "width";
    case ScalingAxis::Batch: return "batch";
    }
    return "depth";
}

bool parseScalingAxis(const std::string& text, ScalingAxis& axis) {
    for (auto candidate :
         {ScalingAxis::Depth, ScalingAxis::Seq, ScalingAxis::Width, ScalingAxis::Batch}) {
        if (toString(candidate) == text) {
            axis = candidate;
            return true;
        }
    }
    return false;
}

IntRange axisRange(ScalingAxis axis) {
    switch (axis) {
    case ScalingAxis::Depth: return limits::depth;
    case ScalingAxis::Seq: return limits::seq;
    case ScalingAxis::Width: return limits::width;
    case ScalingAxis::Batch: break;
    }
    return limits::batch;
}

int axisValue(const ExperimentConfig& c, ScalingAxis axis) {
    switch (axis) {
    case ScalingAxis::Depth: return c.depth;
    case ScalingAxis::Seq: return c.seq;
    case ScalingAxis::Width: return c.width;
    case ScalingAxis::Batch: return c.batch;
    }
    return 0;
}

void setAxisValue(ExperimentConfig& c, ScalingAxis axis, int value) {
    switch (axis) {
    case ScalingAxis::Depth: c.depth = value; break;
    case ScalingAxis::Seq: c.seq = value; break;
    case ScalingAxis::Width: c.width = value; break;
    case ScalingAxis::Batch: c.batch = value; break;
    }
}

PowerFit fitPowerLaw(const std::vector<double>& x, const std::vector<double>& y) {
    std::vector<double> lx, ly;
    for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
        if (x[i] > 0 && y[i] > 0) lx.push_back(std::log(x[i])), ly.push_back(std::log(y[i]));
    }
    PowerFit fit;
    fit.points = static_cast<int>(lx.size());
    if (fit.points < 2) return fit;
    double mx = 0, my = 0;
    for (int i = 0; i < fit.points; ++i) mx += lx[i], my += ly[i];
    mx /= fit.points;
    my /= fit.points;
    double sxx = 0, sxy = 0, syy = 0;
    for (int i = 0; i < fit.points; ++i) {
        sxx += (lx[i] - mx) * (lx[i] - mx);
        sxy += (lx[i] - mx) * (ly[i] - my);
        syy += (ly[i] - my) * (ly[i] - my);
    }
    if (sxx == 0) return fit;
    fit.exponent = sxy / sxx;
    fit.coefficient = std::exp(my - fit.exponent * mx);
    fit.r2 = syy == 0 ? 1.0 : (sxy * sxy) / (sxx * syy);
    return fit;
}

std::string toString(ScalingMetric metric) {
    switch (metric) {
    case ScalingMetric::ActivationBytes: return "activation_bytes";
    case ScalingMetric::PeakBytes: return "peak_bytes";
    case ScalingMetric::StepMs: return "step_ms";
    }
    return "activation_bytes";
}

double metricValue(const RunResult& run, ScalingMetric metric) {
    switch (metric) {
    case ScalingMetric::ActivationBytes: return static_cast<double>(run.metrics.activation_bytes);
    case ScalingMetric::PeakBytes: return static_cast<double>(run.metrics.peak_bytes);
    case ScalingMetric::StepMs: return run.metrics.step_ms;
    }
    return 0;
}

PowerFit fitRuns(const ResultSet& results, const Strategy& strategy, ScalingAxis axis,
                 ScalingMetric metric) {
    std::vector<const RunResult*> runs;
    for (const auto& run : results.runs)
        if (run.strategy == strategy) runs.push_back(&run);
    return fitRuns(runs, axis, metric);
}

PowerFit fitRuns(const std::vector<const RunResult*>& runs, ScalingAxis axis,
                 ScalingMetric metric) {
    std::vector<double> x, y;
    for (const RunResult* run : runs) {
        if (run->error) continue;
        x.push_back(axisValue(run->config, axis));
        y.push_back(metricValue(*run, metric));
    }
    return fitPowerLaw(x, y);
}

std::optional<ScalingAxis> detectScalingAxis(const ResultSet& results) {
    std::map<std::string, std::vector<const RunResult*>> byStrategy;
    for (const RunResult& run : results.runs)
        if (!run.error) byStrategy[run.name()].push_back(&run);  // merged files stay apart
    // The axes along which some strategy's runs differ; a sweep varies exactly one.
    std::set<int> varying;
    for (const auto& [strategy, runs] : byStrategy) {
        for (ScalingAxis a :
             {ScalingAxis::Depth, ScalingAxis::Seq, ScalingAxis::Width, ScalingAxis::Batch}) {
            std::set<int> values;
            for (const RunResult* run : runs) values.insert(axisValue(run->config, a));
            if (values.size() > 1) varying.insert(int(a));
        }
    }
    if (varying.size() != 1) return std::nullopt;
    return ScalingAxis(*varying.begin());
}

}  // namespace ckptlab
