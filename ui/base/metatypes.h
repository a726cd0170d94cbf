#pragma once
// Core value types that travel through queued signals between the sweep thread and the GUI.

#include <QMetaType>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/result.h"

namespace ckptlab::ui {

// One measured run plus its timeline already thinned on the worker thread, so the GUI thread
// never walks a full allocation trace.
struct MeasuredRun {
    RunResult run;
    std::vector<TimelineEvent> thinned;
    // Right after the traced step: the times come later in the same run, complete
    // (RunnerHooks::traced); ResultsDocument then replaces it.
    bool timesPending = false;
};

// The planner's predicted frontier of a Pareto sweep.
using Frontier = std::vector<FrontierPoint>;

// Points kept per timeline for charts; enough for a 1600 px wide plot.
inline constexpr std::size_t kTimelinePoints = 1500;

}  // namespace ckptlab::ui

Q_DECLARE_METATYPE(ckptlab::ExperimentConfig)
Q_DECLARE_METATYPE(ckptlab::Environment)
Q_DECLARE_METATYPE(ckptlab::RunResult)
Q_DECLARE_METATYPE(ckptlab::ResultSet)
Q_DECLARE_METATYPE(ckptlab::TimingRounds)
Q_DECLARE_METATYPE(ckptlab::ui::MeasuredRun)
Q_DECLARE_METATYPE(ckptlab::ui::Frontier)
