#pragma once
// Measures one strategy's plan on the workbench (measure_run.cpp): the runner's inner loop.

#include <algorithm>
#include <string>
#include <vector>

#include "ckptlab/engine/runner.h"
#include "ckptlab/model/result.h"
#include "ckptlab/model/strategy.h"
#include "engine/step.h"

namespace ckptlab::engine {

// Counts steps across the sweep for progress.
struct ProgressCounter {
    const RunnerHooks& hooks;
    int total;
    int done = 0;
    void step(const CoreMessage& message) { advance(1, message); }
    // A run that stopped early still moves the bar by all of its steps.
    void advance(int steps, const CoreMessage& message) {
        done += steps;
        if (hooks.progress) hooks.progress(std::min(1.0, double(done) / total), message);
    }
};

// Steps one run takes: the traced step, warm-up, timed steps (timedStepsPerRun) and the
// optimizer-state step.
int stepsPerRun(const ExperimentConfig& config);

// Prepares one strategy: traced step (memory, gradients), then warm-up; its timed steps run in
// rounds with the others' (timed_rounds.h). A step that runs out of memory returns the run up
// to where it stopped, with `out_of_memory` set.
RunResult measureRun(Workbench& bench, const Strategy& strategy, const Plan& plan,
                     const std::vector<torch::Tensor>& reference, const RunnerHooks& hooks,
                     ProgressCounter& progress);

}  // namespace ckptlab::engine
