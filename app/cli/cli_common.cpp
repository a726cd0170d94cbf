#include "cli_common.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "ckptlab/formats/model_config.h"
#include "ckptlab/formats/output_paths.h"
#include "ckptlab/formats/results_io.h"
#include "ckptlab/model/config_fields.h"
#include "ckptlab/model/number_text.h"
#include "ckptlab/model/strategy.h"
#include "cli_commands.h"
#include "cli_config_options.h"
#include "cli_table.h"

namespace ckptlab::cli {
namespace {

std::atomic<bool> gCancel{false};

extern "C" void onInterrupt(int) { gCancel.store(true); }

// Ctrl+C sets gCancel, unless SIGINT was ignored when the program started (a background job of
// a shell without job control, nohup): an inherited SIG_IGN stays, as the shell meant.
void catchInterruptsOnce() {
    struct sigaction current {};
    if (sigaction(SIGINT, nullptr, &current) != 0 || current.sa_handler == SIG_IGN) return;
    if (current.sa_handler == onInterrupt) return;
    struct sigaction action {};
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, nullptr);
}

// The running executable, so an installed ckptlab-cli finds <prefix>/share/ckptlab/models.
std::string executablePath() {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : self.string();
}

// --model into the config; its notes (what the lab takes differently from the file) are
// returned for stderr. Throws ModelConfigError.
std::vector<std::string> applyModelOption(ExperimentOptions& o) {
    if (o.model.empty()) return {};
    const ModelDescription model = loadModel(o.model, executablePath());
    applyModel(model, o.config);
    std::vector<std::string> notes;
    for (const std::string& note : model.notes) notes.push_back(model.name + ": " + note);
    return notes;
}

}  // namespace

// Parses the text options into the config; empty string when fine, else the message.
std::string completeConfig(ExperimentOptions& o) {
    // The model first: the options typed on the command line override it.
    try {
        o.modelNotes = applyModelOption(o);
    } catch (const ModelConfigError& e) {
        return std::string("--model: ") + e.what();
    }
    if (std::string error = applyConfigOptions(o.configText, o.config); !error.empty())
        return error;
    try {
        // The command line's strategies, parsed here once; the model's ranges are the sweep
        // check's (Runner::check).
        if (!o.strategiesText.empty())
            o.strategies = parseStrategies(splitList(o.strategiesText, "--strategies"));
    } catch (const std::exception& e) {
        return e.what();
    }
    for (const auto& [path, field] :
         {std::pair{o.jsonPath, "--json"}, {o.csvPath, "--csv"}, {o.tracePath, "--trace"}}) {
        if (path.empty()) continue;  // not asked for (an explicit "" is refused by CLI11)
        if (std::string error = checkOutputFile(path, field); !error.empty()) return error;
    }
    for (const auto& [dir, field] : {std::pair{o.pngDir, "--png"}, {o.svgDir, "--svg"}}) {
        if (dir.empty()) continue;
        if (std::string error = checkOutputDir(dir, field); !error.empty()) return error;
    }
    std::string error;
    o.shard = chooseShard(o.shardText, o.shardCountText, std::getenv, &error);
    return error;
}

void printModelNotes(const ExperimentOptions& o) {
    if (o.quiet) return;
    for (const std::string& note : o.modelNotes)
        std::cerr << "ckptlab-cli: note: --model " << note << "\n";
}

void prepareShard(const ExperimentOptions& o, Runner& runner) {
    if (o.shard) {
        runner.useShard(o.shard->spec);
        std::cerr << "ckptlab-cli: " << shardLine(*o.shard) << "\n";
    } else if (const std::string note = unshardedNote(std::getenv); !note.empty() && !o.quiet) {
        std::cerr << "ckptlab-cli: note: " << note << "\n";
    }
}

std::vector<Strategy> strategiesForModel(const std::vector<Strategy>& wanted,
                                         const std::string& listName,
                                         const ExperimentConfig& config, std::string* note) {
    std::vector<Strategy> kept;
    std::vector<std::string> dropped;
    std::string reason;
    for (const Strategy& strategy : wanted) {
        try {
            checkStrategy(strategy, config.depth, config.block);
            kept.push_back(strategy);
        } catch (const StrategyError& e) {
            dropped.push_back(strategy.name());
            if (reason.empty()) reason = e.what();
        }
    }
    note->clear();
    if (dropped.empty()) return kept;
    std::string names;
    for (std::size_t i = 0; i < dropped.size(); ++i)
        names += (i == 0 ? "" : i + 1 == dropped.size() ? " and " : ", ") + dropped[i];
    *note = listName + " runs without " + names + ", which a depth-" +
            std::to_string(config.depth) + " " + toString(config.block) + " model cannot take" +
            (dropped.size() == 1 ? ": " + reason : "");
    return kept;
}

std::string leftOutNote(const std::vector<Strategy>& typed, const SweepCheck& check) {
    std::string names;
    for (const Strategy& strategy : typed)
        if (std::find(check.strategies.begin(), check.strategies.end(), strategy) ==
            check.strategies.end())
            names += (names.empty() ? "" : ", ") + strategy.name();
    if (names.empty()) return {};
    return names +
           " left out: a Pareto sweep runs budgets of its own, and one budget means nothing "
           "across the sizes of a scaling sweep";
}

int reportFailure(const std::exception& error, bool verbose) {
    std::string message = error.what();
    // c10::Error puts a C++ backtrace after the first line.
    if (!verbose) message = message.substr(0, message.find('\n'));
    std::cerr << "ckptlab-cli: " << message << "\n";
    const bool badInput = dynamic_cast<const std::invalid_argument*>(&error) ||
                          dynamic_cast<const MemoryError*>(&error);
    return badInput ? kBadInput : kRunFailed;
}

bool writeOutputs(const ResultSet& results, const ExperimentOptions& o) {
    // Interrupted before any run finished: nothing to write, and a file from before stays whole.
    if (results.cancelled && results.runs.empty()) return true;
    try {
        if (!o.jsonPath.empty()) saveResults(results, o.jsonPath);
        if (!o.csvPath.empty()) saveSummaryCsv(results, o.csvPath);
        if (!o.tracePath.empty()) saveChromeTrace(results, o.tracePath);
    } catch (const std::exception& e) {
        std::cerr << "ckptlab-cli: " << e.what() << "\n";
        return false;
    }
    if (!o.pngDir.empty() || !o.svgDir.empty()) {
        std::string error;
        if (!exportCharts(results, o.pngDir, o.svgDir, o.scale, &error)) {
            std::cerr << "ckptlab-cli: " << error << "\n";
            return false;
        }
    }
    return true;
}

// "OpenBLAS (OpenMP, SkylakeX kernels)": the BLAS and the kernels its matmuls ran, which set
// CPU times several-fold (ckptlab/engine/blas_kernels.h).
static std::string blasText(const Environment& env) {
    if (!env.blas_kernel) return env.blas;
    const std::string kernels = env.blas_kernel->name + " kernels";
    if (!env.blas.empty() && env.blas.back() == ')')
        return env.blas.substr(0, env.blas.size() - 1) + ", " + kernels + ")";
    return env.blas + " (" + kernels + ")";
}

void printEnvironment(const Environment& env, const ExperimentConfig& c) {
    std::cout << "Checkpoint Lab " << env.ckptlab_version << " | LibTorch " << env.libtorch_version
              << " | " << env.device << " (" << env.device_name << ") | " << blasText(env) << " | "
              << env.threads << " threads";
    if (!env.malloc_tunables.empty()) std::cout << " | GLIBC_TUNABLES=" << env.malloc_tunables;
    // Every field the registry shows for the model and its numerics, with derived values
    // resolved (describeConfig): "block=llama depth=1 width=576 ... kv-heads=3 head-dim=64".
    std::cout << "\n"
              << "model: " << configLine(c, kShownModel | kShownNumerics) << " | warm-up "
              << c.warmup << ", median of ";
    if (c.repeats_auto)
        std::cout << "auto rounds (time limit " << c.time_limit_s << " s)";
    else
        std::cout << c.repeats << " interleaved rounds";
    std::cout << "\n";
    if (const auto& load = env.load)
        std::printf(
            "machine: load %s before, %s at most during; CPU steal %s%% before, "
            "%s%% during the rounds; %d CPUs\n",
            formatFixed(load->load_before, 2).c_str(),
            formatFixed(load->load_during_max, 2).c_str(),
            formatFixed(load->steal_pct_before, 1).c_str(),
            formatFixed(load->steal_pct_during, 1).c_str(), load->cpus);
    std::cout << "\n" << std::flush;
}

const std::atomic<bool>* catchInterrupts() {
    catchInterruptsOnce();
    return &gCancel;
}

RunnerHooks makeHooks(bool quiet) {
    catchInterruptsOnce();
    const bool tty = isatty(STDERR_FILENO);
    RunnerHooks hooks;
    hooks.cancel = &gCancel;
    if (quiet) return hooks;
    hooks.progress = [tty](double fraction, const CoreMessage& message) {
        if (tty)
            std::fprintf(stderr, "\r\033[K[%3d%%] %s", static_cast<int>(fraction * 100),
                         message.english.c_str());
    };
    hooks.result = [tty](const RunResult& run) {
        std::fprintf(stderr, "%smeasured %s%s\n", tty ? "\r\033[K" : "",
                     run.strategy.name().c_str(), run.error ? " (failed)" : "");
    };
    return hooks;
}

RunnerHooks makeHooks(const ExperimentOptions& o, SweepCheck& checked) {
    RunnerHooks hooks = makeHooks(o.quiet);
    hooks.checked = [&o, &checked](const SweepCheck& check) {
        checked = check;
        printModelNotes(o);
    };
    return hooks;
}

int reportAndFinish(const ResultSet& results, const ExperimentOptions& o) {
    if (const auto& shard = results.shard; shard && results.runs.empty() && !results.cancelled)
        std::cerr << "ckptlab-cli: shard " << shard->index << " of " << shard->count
                  << " was dealt none of the sweep's " << shard->work_items
                  << " runs: its file holds none\n";
    if (!o.quiet) printEnvironment(results.environment, o.config);
    std::cout << formatSummaryTable(results) << std::flush;
    const bool written = writeOutputs(results, o);
    if (results.cancelled) {
        if (results.runs.empty())
            std::cerr << "ckptlab-cli: interrupted before any run finished; nothing written\n";
        else
            std::cerr << "ckptlab-cli: interrupted; " << results.runs.size()
                      << " finished runs kept\n";
        return kInterrupted;
    }
    bool failed = !written;
    for (const auto& run : results.runs) failed = failed || !run.ok();
    return failed ? kRunFailed : kOk;
}

}  // namespace ckptlab::cli
