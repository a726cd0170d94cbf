#pragma once
// The commands behind ckptlab-cli: run/sweep measure and write files, plot renders charts.

#include <string>

#include "ckptlab/result.h"
#include "cli_options.h"

namespace ckptlab::cli {

int runExperiment(ExperimentOptions options, bool sweep);
int plotResults(const PlotOptions& options);

// Headless chart export through the GUI's chart builders (cli_charts.cpp); returns false with
// a message when it fails or when this build has no GUI.
bool exportCharts(const ResultSet& results, const std::string& pngDir, const std::string& svgDir,
                  int scale, std::string* error);

}  // namespace ckptlab::cli
