#pragma once
// The timed steps of a sweep, interleaved in rounds (timed_rounds.cpp): after every strategy's
// traced step and warm-up, round r takes one timed step of each strategy still running, in
// sweep order, so a slow period of the machine hits all of them alike.

#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/result.h"
#include "ckptlab/model/strategy.h"
#include "engine/machine_load.h"
#include "engine/measure_run.h"
#include "engine/step.h"

namespace ckptlab::engine {

// Timed steps one run counts for progress: `repeats`, or kAutoMinRounds with --repeats auto.
int timedStepsPerRun(const ExperimentConfig& config);

// Times results.runs[i] with plans[i] (the runs of one sweep, prepared by measureRun; failed
// ones are skipped) until the fixed repeats are taken or the adaptive rule stops
// (autoRoundsStop). Fills each run's timing metrics and spread, results.timing and a note.
// A run whose timed step fails records the error and drops out; the others go on. When
// cancelled (or results.cancelled is already set) the incomplete round is dropped and the
// runs keep the complete rounds' samples, or NaN times when there were none.
void timeInRounds(Workbench& bench, ResultSet& results, const std::vector<Plan>& plans,
                  const RunnerHooks& hooks, ProgressCounter& progress, LoadMonitor& load);

}  // namespace ckptlab::engine
