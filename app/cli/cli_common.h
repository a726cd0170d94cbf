#pragma once
// Pieces every measuring command of ckptlab-cli shares.

#include <atomic>
#include <string>
#include <vector>

#include "ckptlab/engine/runner.h"
#include "ckptlab/model/result.h"
#include "cli_options.h"

namespace ckptlab::cli {

// Parses the text options into the config, splits the strategy list and checks that every
// output can be written; empty when fine, else the message (exit 2 before any work).
std::string completeConfig(ExperimentOptions& options);

// A sweep's shard (completeConfig chose it): the runner runs only it, and one line on stderr
// says which and where from; without one, a note when the scheduler names a task.
void prepareShard(const ExperimentOptions& options, Runner& runner);

// The strategies of a list the user did not type item by item (a preset, a default) that the
// model can take: from:10 needs 11 blocks, so at depth 4 it is left out. `note` says what was
// left out and why (empty when nothing was), for the results' notes.
std::vector<Strategy> strategiesForModel(const std::vector<Strategy>& wanted,
                                         const std::string& listName,
                                         const ExperimentConfig& config, std::string* note);

// The strategies a curve sweep (pareto, scaling) left out of those typed: memory budgets
// (sweepStrategies). A note for the results, empty when none was.
std::string leftOutNote(const std::vector<Strategy>& typed, const SweepCheck& check);

// The exit code and one line on stderr for an exception that escaped a command: 2 for bad
// input (std::invalid_argument and its kin, MemoryError), 1 for anything else.
int reportFailure(const std::exception& error, bool verbose);

// Ctrl+C as a flag from now on, for the commands that stop on it: the process's one flag (set
// by SIGINT; an inherited SIG_IGN is kept, so then never).
const std::atomic<bool>* catchInterrupts();

// Progress on stderr (a live line on a terminal), and Ctrl+C as the cancel flag
// (catchInterrupts).
RunnerHooks makeHooks(bool quiet);
// makeHooks for a request of the command's options: once the runner's check passes, the check
// goes to `checked` and the --model notes to stderr.
RunnerHooks makeHooks(const ExperimentOptions& options, SweepCheck& checked);
// --model's notes on stderr, unless quiet: after the command's own check, before any work.
void printModelNotes(const ExperimentOptions& options);

// Environment, table, files; returns the exit code for the results (kInterrupted when
// cancelled).
int reportAndFinish(const ResultSet& results, const ExperimentOptions& options);

// --json, --csv, --trace, --png and --svg of the results; nothing for a sweep interrupted before
// any run finished, so the files of an earlier run stay as they were.
bool writeOutputs(const ResultSet& results, const ExperimentOptions& options);
void printEnvironment(const Environment& env, const ExperimentConfig& config);

}  // namespace ckptlab::cli
