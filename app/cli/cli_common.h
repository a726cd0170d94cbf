#pragma once
// Pieces every measuring command of ckptlab-cli shares.

#include <string>

#include "ckptlab/result.h"
#include "ckptlab/runner.h"
#include "cli_options.h"

namespace ckptlab::cli {

// Parses the text options into the config; empty when fine, else the message.
std::string completeConfig(ExperimentOptions& options);

// Progress on stderr (a live line on a terminal), and Ctrl+C as the cancel flag.
RunnerHooks makeHooks(bool quiet);

// Environment, table, files; returns the exit code for the results.
int reportAndFinish(const ResultSet& results, const ExperimentOptions& options);

bool writeOutputs(const ResultSet& results, const ExperimentOptions& options);
void printEnvironment(const Environment& env, const ExperimentConfig& config);

}  // namespace ckptlab::cli
