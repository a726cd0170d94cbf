#pragma once
// Everything ckptlab-cli's commands take, filled by CLI11 in main_cli.cpp.

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/teaching/lesson_time_checks.h"
#include "cli_shard.h"

namespace ckptlab::cli {

// Exit codes: 0 success, 1 a run failed (error or gradient check), 2 bad usage or input.
enum ExitCode { kOk = 0, kRunFailed = 1, kBadInput = 2, kInterrupted = 130 };

// `plan --points`: how many budgets it plans when --budgets is not given.
inline constexpr IntRange kPlanPoints{1, 50};

// The config options as typed (cli_config_options.cpp): each option's text by its name
// ("--width" -> "64", "--repeats" -> "auto"), each flag's state ("--keep-grads"). Text, so a
// "-1" seed or an "abc" width is refused with its option named instead of wrapped or guessed.
struct ConfigOptionText {
    std::map<std::string, std::string> values;
    std::map<std::string, bool> flags;
    // The options typed on the command line ("--width"): only they are applied, so an option
    // left out keeps the config's value (the default, or the --model's).
    std::set<std::string> given;
};

struct ExperimentOptions {
    ExperimentConfig config;  // filled from model and configText by completeConfig
    ConfigOptionText configText;
    // --model: a preset's name or a config.json, applied before configText's options, which
    // override it (model_config.h).
    std::string model;
    std::string strategy = "full";     // run, as typed
    std::vector<Strategy> strategies;  // parsed once from strategiesText by completeConfig
    std::string strategiesText;        // as typed: "none,full,every:2"
    std::string preset;                // sweep
    std::string jsonPath, csvPath, tracePath, pngDir, svgDir;
    int scale = 1;
    bool quiet = false;
    // sweep, pareto, scaling: --shard and --shard-count as typed, and the shard completeConfig
    // chose from them and the environment (cli_shard.h); empty: the whole sweep.
    std::string shardText, shardCountText;
    std::optional<ShardChoice> shard;
    // --model's notes, set by completeConfig; said once the config passed its check
    // (printModelNotes), so that a refusal stays one line.
    std::vector<std::string> modelNotes;
};

// ckptlab-cli lesson (cli_lesson.cpp): show, list, check or record the lessons.
struct LessonOptions {
    std::vector<std::string> ids;  // the lesson to show, or the lessons to record
    bool list = false;
    bool check = false;
    bool live = false;
    std::string recordDir;  // --record DIR
    std::string lang = "en";
    std::string jsonPath, pdfPath;
    std::string recordingsDir;  // default: <lessons>/recordings
    std::string lessonsDir;     // default: lessonsDirectory(executable)
    bool quiet = false;
    bool paths = false;  // --paths: list the class paths
    std::string pathId;  // --path ID: print a path's plan
    // A student's copy: no answers, right choices or measured values (text, JSON and PDF).
    bool noAnswers = false;
    // The teacher's key: the answers and the machine the recording was made on.
    bool teacher = false;
    // --time-limit: the adaptive repeats' limit per step when measuring (--record, --live).
    double timeLimitS = kLessonStepTimeLimitS;
};

// plan --capacity (cli_plan_full_size.cpp): the model at its real size against a device's
// memory instead of the budget listing.
struct FullSizeOptions {
    std::string capacity;   // as typed: "80GB", "79.5GiB"; empty: the budget listing
    std::string costsFrom;  // a results file whose measured `none` step scales the times
};

struct PlotOptions {
    std::string resultsPath;
    std::string pngDir, svgDir;
    int scale = 1;
};

}  // namespace ckptlab::cli
