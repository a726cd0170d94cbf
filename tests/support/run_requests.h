#pragma once
// Tests run experiments as the front ends do: a request (sweep_check.h) through the runner's
// one entry point, Runner::run. These build the request of each kind from its parts.

#include <vector>

#include "ckptlab/engine/runner.h"

namespace ckptlab::test {

inline ResultSet sweep(Runner& runner, const ExperimentConfig& config,
                       const std::vector<Strategy>& strategies, const RunnerHooks& hooks = {}) {
    SweepRequestData request;
    request.config = config;
    request.checked = strategies;
    return runner.run(request, hooks);
}

inline ResultSet sweep(const ExperimentConfig& config, const std::vector<Strategy>& strategies,
                       const RunnerHooks& hooks = {}) {
    Runner runner;
    return sweep(runner, config, strategies, hooks);
}

inline ResultSet pareto(Runner& runner, const ExperimentConfig& config,
                        const std::vector<Strategy>& handWritten, int points,
                        const RunnerHooks& hooks = {}) {
    SweepRequestData request;
    request.kind = SweepKind::Pareto;
    request.config = config;
    request.checked = handWritten;
    request.paretoPoints = points;
    return runner.run(request, hooks);
}

inline ResultSet pareto(const ExperimentConfig& config, const std::vector<Strategy>& handWritten,
                        int points, const RunnerHooks& hooks = {}) {
    Runner runner;
    return pareto(runner, config, handWritten, points, hooks);
}

inline ResultSet scaling(Runner& runner, const ExperimentConfig& config, ScalingAxis axis,
                         const std::vector<int>& values, const std::vector<Strategy>& strategies,
                         const RunnerHooks& hooks = {}) {
    SweepRequestData request;
    request.kind = SweepKind::Scaling;
    request.config = config;
    request.checked = strategies;
    request.axis = axis;
    request.values = values;
    return runner.run(request, hooks);
}

inline ResultSet scaling(const ExperimentConfig& config, ScalingAxis axis,
                         const std::vector<int>& values, const std::vector<Strategy>& strategies,
                         const RunnerHooks& hooks = {}) {
    Runner runner;
    return scaling(runner, config, axis, values, strategies, hooks);
}

}  // namespace ckptlab::test
