#pragma once
// The commands behind ckptlab-cli: run/sweep measure and write files, plot renders charts.

#include <functional>
#include <string>
#include <vector>

#include "ckptlab/model/result.h"
#include "cli_options.h"

namespace ckptlab::cli {

int runExperiment(ExperimentOptions options, bool sweep);
int plotResults(const PlotOptions& options);
int runPareto(ExperimentOptions options, int points);
int runPlan(ExperimentOptions options, const std::string& budgetsMib, int points, bool bruteForce);
// plan --capacity: the model at its real size from one layer's fitted costs (full_size.h).
int runPlanFullSize(ExperimentOptions options, const FullSizeOptions& fullSize);
int runScaling(ExperimentOptions options, const std::string& axis, const std::string& values);
int runLesson(const LessonOptions& options);

// Headless chart export through the GUI's chart builders (cli_charts.cpp); returns false with
// a message when it fails or when this build has no GUI.
// Runs `work` inside a QApplication (offscreen without a display), for the GUI's renderers.
bool withHeadlessApp(const std::function<bool()>& work);

bool exportCharts(const ResultSet& results, const std::string& pngDir, const std::string& svgDir,
                  int scale, std::string* error);

}  // namespace ckptlab::cli
