#pragma once
// Everything ckptlab-cli's commands take, filled by CLI11 in main_cli.cpp.

#include <string>
#include <vector>

#include "ckptlab/config.h"

namespace ckptlab::cli {

// Exit codes: 0 success, 1 a run failed (error or gradient check), 2 bad usage or input.
enum ExitCode { kOk = 0, kRunFailed = 1, kBadInput = 2, kInterrupted = 130 };

struct ExperimentOptions {
    ExperimentConfig config;
    std::string block = "ffn";
    std::string dtype = "float32";
    std::string optimizer = "none";
    // As typed: CLI11 would wrap "-1" and saturate 2^64 silently; parseSeed checks it.
    std::string seed = "0";
    // As typed: a whole number or "auto" (ExperimentConfig::repeats_auto).
    std::string repeats = std::to_string(ExperimentConfig{}.repeats);
    std::string strategy = "full";        // run
    std::vector<std::string> strategies;  // sweep, parsed from strategiesText
    std::string strategiesText;           // as typed: "none,full,every:2"
    std::string preset;                   // sweep
    std::string jsonPath, csvPath, tracePath, pngDir, svgDir;
    int scale = 1;
    bool quiet = false;
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
};

struct PlotOptions {
    std::string resultsPath;
    std::string pngDir, svgDir;
    int scale = 1;
};

}  // namespace ckptlab::cli
