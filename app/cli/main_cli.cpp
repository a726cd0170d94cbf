// ckptlab-cli: the same experiments as the desktop app, headless (e.g. on a GPU server).
#include <CLI/CLI.hpp>

#include <iostream>

#include "ckptlab/engine/blas_kernels.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/full_size.h"
#include "ckptlab/planning/pareto.h"
#include "ckptlab/planning/sweep_check.h"
#include "ckptlab/planning/sweep_shard.h"
#include "cli_commands.h"
#include "cli_common.h"
#include "cli_compare.h"
#include "cli_config_options.h"
#include "cli_merge.h"
#include "cli_models.h"
#include "cli_validators.h"

using namespace ckptlab;
using namespace ckptlab::cli;

namespace {

void addExperimentOptions(CLI::App* cmd, ExperimentOptions& o) {
    addConfigOptions(cmd, o.configText);
    cmd->add_option("--model", o.model,
                    "A published model's shape: a preset (see ckptlab-cli models) or a Hugging "
                    "Face config.json (LlamaForCausalLM, MistralForCausalLM, Qwen2ForCausalLM); "
                    "the options typed with it override its values")
        ->type_name("FILE|NAME")
        ->check(CLI::Validator(
            [](std::string& value) {
                return value.empty() ? std::string("must not be empty") : "";
            },
            ""));
    cmd->add_option("--json", o.jsonPath, "Write results JSON (opens in the app)")
        ->check(nonEmpty());
    cmd->add_option("--csv", o.csvPath, "Write the summary table as CSV")->check(nonEmpty());
    cmd->add_option("--trace", o.tracePath, "Write Chrome trace JSON (Perfetto) of the timelines")
        ->check(nonEmpty());
    cmd->add_option("--png", o.pngDir, "Render the charts as PNG into this folder")
        ->check(nonEmpty())
        ->check(utf8Name());
    cmd->add_option("--svg", o.svgDir, "Render the charts as SVG into this folder")
        ->check(nonEmpty())
        ->check(utf8Name());
    cmd->add_option("--scale", o.scale, "PNG pixel ratio, 1 or 2")->check(CLI::IsMember({1, 2}));
    cmd->add_flag("--quiet,-q", o.quiet, "No progress or environment lines");
}

// sweep, pareto, scaling: one shard of the sweep (cli_shard.h checks the values).
void addShardOptions(CLI::App* cmd, ExperimentOptions& o) {
    const std::string range = "[1, " + std::to_string(kShardMaxCount) + "]";
    cmd->add_option("--shard", o.shardText,
                    "Run one shard of the sweep: K/N, 0-based (K from 0 to N-1, N in " + range +
                        "), or auto: K and N from a Slurm job array (SLURM_ARRAY_TASK_ID - "
                        "SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_COUNT) or a Kubernetes Indexed "
                        "Job (JOB_COMPLETION_INDEX, with --shard-count). Join the shards' --json "
                        "files with ckptlab-cli merge")
        ->check(nonEmpty());
    cmd->add_option("--shard-count", o.shardCountText,
                    "The number of shards N " + range +
                        ", the index from the environment as with --shard auto (Kubernetes "
                        "exports no count)")
        ->check(nonEmpty());
}

// What the command line asked for: each subcommand's options, filled in by CLI11.
struct Request {
    ExperimentOptions run, sweep, pareto, plan, scaling;
    int paretoPoints = 6;
    std::string planBudgets;
    int planPoints = 5;
    bool planBruteForce = false;
    FullSizeOptions planFullSize;
    std::string scalingAxis, scalingValues;
    PlotOptions plot;
    LessonOptions lesson;
    CompareOptions compare;
    MergeCommandOptions merge;
    bool verbose = false;
};

CLI::App* addRunCommand(CLI::App& app, Request& r) {
    auto* run = app.add_subcommand("run", "Measure one strategy (and the none reference)");
    addExperimentOptions(run, r.run);
    run->add_option("--strategy,-s", r.run.strategy, "Strategy, e.g. full, every:2")
        ->capture_default_str();
    return run;
}

// "a, b, c or d": core's preset names as --help lists them.
std::string presetChoices() {
    const std::vector<std::string> names = presetNames();
    std::string text;
    for (std::size_t i = 0; i < names.size(); ++i)
        text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    return text;
}

CLI::App* addSweepCommand(CLI::App& app, Request& r) {
    auto* sweep = app.add_subcommand("sweep", "Measure several strategies on the same weights");
    addExperimentOptions(sweep, r.sweep);
    sweep
        ->add_option("--strategies", r.sweep.strategiesText,
                     std::string("Comma-separated strategies (default: the ") + kDefaultPreset +
                         " preset, less the strategies the depth cannot take)")
        ->check(nonEmptyList("leave --strategies out for the default"));
    sweep
        ->add_option(
            "--preset", r.sweep.preset,
            presetChoices() + " (less the strategies the depth cannot take, said in a note)")
        ->check(nonEmptyList(std::string("leave --preset out for ") + kDefaultPreset));
    addShardOptions(sweep, r.sweep);
    return sweep;
}

CLI::App* addParetoCommand(CLI::App& app, Request& r) {
    auto* pareto = app.add_subcommand(
        "pareto",
        "Run optimal schedules from the smallest feasible budget to the no-checkpoint "
        "peak, beside hand-written strategies (the measured Pareto curve)");
    addExperimentOptions(pareto, r.pareto);
    pareto
        ->add_option("--points", r.paretoPoints,
                     "Optimal budgets to run " + rangeText({kParetoMinPoints, kParetoMaxPoints}))
        ->capture_default_str();
    pareto
        ->add_option("--strategies", r.pareto.strategiesText,
                     std::string("Hand-written strategies to compare (default: ") + kDefaultPreset +
                         " + sqrt, less the strategies the depth cannot take)")
        ->check(nonEmptyList("leave --strategies out for the default"));
    addShardOptions(pareto, r.pareto);
    return pareto;
}

CLI::App* addPlanCommand(CLI::App& app, Request& r) {
    auto* plan = app.add_subcommand(
        "plan",
        "Print the optimal schedule for memory budgets from the measured cost model, "
        "without running it");
    addExperimentOptions(plan, r.plan);
    auto* capacity =
        plan->add_option("--capacity", r.planFullSize.capacity,
                         "Plan the model at its real size for a device of this memory: 80GB "
                         "(10^9 bytes), 79.5GiB (2^30 bytes), 512MB, or a preset (24GB, 40GB, "
                         "48GB, 80GB, 94GB, 141GB); units B, kB, MB, GB, TB, KiB, MiB, GiB, TiB "
                         "in that case (b is bits). Every strategy's peak, whether it fits, the "
                         "largest batch and longest sequence, and the fastest schedule that "
                         "fits, for a training step of " +
                             fullSizeDefaultsText() +
                             " unless --optimizer, --batch or --seq say otherwise")
            ->check(nonEmpty())
            ->type_name("SIZE");
    plan->add_option("--costs-from", r.planFullSize.costsFrom,
                     "With --capacity: a sweep's results JSON of the same work (e.g. from a "
                     "GPU: every config field of the model and the step but batch, seq and "
                     "depth); its measured none step (1 microsecond to 1e9 ms) scales the "
                     "predicted times to that machine")
        ->check(nonEmpty())
        ->type_name("FILE")
        ->needs(capacity);
    plan->add_option("--strategies", r.plan.strategiesText,
                     "With --capacity: comma-separated strategies (default: none, full, attn, "
                     "ffn, every:2, sqrt, less those the model cannot take)")
        ->check(nonEmptyList("leave --strategies out for the default"))
        ->needs(capacity);
    plan->add_option("--budgets", r.planBudgets,
                     "Comma-separated peak budgets in MiB above the step's start (default: "
                     "--points budgets from the smallest feasible to the no-checkpoint peak)")
        ->check(nonEmptyList("leave --budgets out for --points budgets"))
        ->excludes(capacity);
    plan->add_option("--points", r.planPoints,
                     "Budgets when --budgets is not given " + rangeText(kPlanPoints))
        ->capture_default_str()
        ->excludes(capacity);
    plan->add_flag("--brute-force", r.planBruteForce,
                   "Check each schedule against every schedule of the planner's class (at most "
                   "8 units)")
        ->excludes(capacity);
    return plan;
}

CLI::App* addScalingCommand(CLI::App& app, Request& r) {
    auto* scaling = app.add_subcommand(
        "scaling", "Vary one dimension and fit how memory and time grow (log-log exponent)");
    addExperimentOptions(scaling, r.scaling);
    scaling->add_option("--vary", r.scalingAxis, "depth, seq, width or batch")->required();
    scaling->add_option("--values", r.scalingValues, "Comma-separated values, e.g. 4,8,16,32")
        ->required()
        ->check(
            nonEmptyList(std::to_string(kScalingMinValues) + " or more values, e.g. 4,8,16,32"));
    scaling
        ->add_option("--strategies", r.scaling.strategiesText,
                     "Strategies (default: none,sqrt,full)")
        ->check(nonEmptyList("leave --strategies out for the default"));
    addShardOptions(scaling, r.scaling);
    return scaling;
}

CLI::App* addPlotCommand(CLI::App& app, Request& r) {
    auto* plot = app.add_subcommand("plot", "Render the charts of a results JSON file");
    plot->add_option("results", r.plot.resultsPath, "Results JSON from run/sweep or the app")
        ->required();
    plot->add_option("--png", r.plot.pngDir, "Folder for PNG charts")
        ->check(nonEmpty())
        ->check(utf8Name());
    plot->add_option("--svg", r.plot.svgDir, "Folder for SVG charts")
        ->check(nonEmpty())
        ->check(utf8Name());
    plot->add_option("--scale", r.plot.scale, "PNG pixel ratio, 1 or 2")
        ->check(CLI::IsMember({1, 2}));
    return plot;
}

CLI::App* addLessonCommand(CLI::App& app, Request& r) {
    auto& o = r.lesson;
    auto* lesson = app.add_subcommand(
        "lesson",
        "Teach a lesson (resources/lessons): its steps with the answers filled from "
        "the recorded results, or with --live from runs made now");
    lesson->add_option("ids", o.ids,
                       "The lesson to show (see --list); with --record, the lessons to record "
                       "(default: all)");
    lesson->add_flag("--list", o.list, "List the lessons: id, title, number of steps");
    lesson->add_flag("--check", o.check,
                     "Check every lesson file, load every recording and fill every placeholder "
                     "in both languages; exit 1 listing what fails");
    lesson
        ->add_option("--record", o.recordDir,
                     "Measure the lessons again and write DIR/<lesson>/<step>.json")
        ->check(nonEmpty());
    lesson->add_flag("--live", o.live, "Measure the lesson's steps now instead of the recording");
    lesson->add_option("--lang", o.lang, "Language of the texts: en or zh_CN")
        ->capture_default_str();
    lesson->add_option("--json", o.jsonPath, "Write the filled lesson and its results as JSON")
        ->check(nonEmpty());
    lesson->add_option("--pdf", o.pdfPath, "Write the lesson as a PDF handout")
        ->check(nonEmpty())
        ->check(utf8Name());
    lesson
        ->add_option("--recordings", o.recordingsDir,
                     "Folder of recordings (default: <lessons>/recordings)")
        ->check(nonEmpty());
    lesson
        ->add_option("--lessons", o.lessonsDir,
                     "Folder of lesson files (default: $CKPTLAB_LESSONS_DIR, the installed "
                     "share/ckptlab/lessons, the source tree's resources/lessons)")
        ->check(nonEmpty());
    lesson->add_flag("--quiet,-q", o.quiet, "No progress lines while measuring");
    lesson->add_flag("--paths", o.paths,
                     "List the class paths (<lessons>/paths/*.json): id, title, minutes, steps");
    lesson
        ->add_option("--path", o.pathId,
                     "Print the plan of a class path (see --paths) in Markdown, in --lang")
        ->check(nonEmpty());
    lesson
        ->add_option("--time-limit", o.timeLimitS,
                     "When measuring (--record, --live): the most seconds each step's timed "
                     "rounds take (they stop earlier once every median's 95 % interval is within "
                     "5 %)")
        ->capture_default_str()
        ->check(CLI::Range(0.1, 3600.0));
    lesson->add_flag("--no-answers", o.noAnswers,
                     "A student's copy (text, --json, --pdf): the questions and predictions "
                     "without answers, right choices, measured values or the machine");
    lesson->add_flag("--teacher", o.teacher,
                     "The teacher's key (text, --json, --pdf): the answers, the right choices "
                     "and the machine the recording was made on");
    return lesson;
}

// The subcommands in the order --help lists them.
struct Commands {
    CLI::App *run, *sweep, *pareto, *plan, *scaling, *plot, *lesson;
    CLI::App* compare = nullptr;
    CLI::App* merge = nullptr;
    CLI::App* models = nullptr;
};

Commands addCommands(CLI::App& app, Request& r) {
    Commands c{};
    c.run = addRunCommand(app, r);
    app.add_flag("--verbose,-v", r.verbose,
                 "On a LibTorch error, print its whole message with the C++ backtrace; say "
                 "when OpenBLAS's generic kernels were switched for ones that fit the CPU");
    app.fallthrough();  // so --verbose also works after the subcommand
    c.sweep = addSweepCommand(app, r);
    c.pareto = addParetoCommand(app, r);
    c.plan = addPlanCommand(app, r);
    c.scaling = addScalingCommand(app, r);
    c.plot = addPlotCommand(app, r);
    c.lesson = addLessonCommand(app, r);
    c.compare = addCompareCommand(app, r.compare);
    c.merge = addMergeCommand(app, r.merge);
    c.models = addModelsCommand(app);
    return c;
}

// Runs the subcommand that was given. Whatever escapes a command ends here: exit 2 for bad
// input, 1 for a failed run, one line on stderr (LibTorch's backtrace only with --verbose),
// never std::terminate.
int runCommand(const Commands& c, const Request& r) {
    try {
        if (*c.run) return runExperiment(r.run, false);
        if (*c.sweep) return runExperiment(r.sweep, true);
        if (*c.pareto) return runPareto(r.pareto, r.paretoPoints);
        if (*c.plan)
            return r.planFullSize.capacity.empty()
                       ? runPlan(r.plan, r.planBudgets, r.planPoints, r.planBruteForce)
                       : runPlanFullSize(r.plan, r.planFullSize);
        if (*c.scaling) return runScaling(r.scaling, r.scalingAxis, r.scalingValues);
        if (*c.lesson) return runLesson(r.lesson);
        if (*c.compare) return runCompare(r.compare);
        if (*c.merge) return runMerge(r.merge);
        if (*c.models) return runModels();
        return plotResults(r.plot);
    } catch (const std::exception& e) {
        return reportFailure(e, r.verbose);
    } catch (...) {
        std::cerr << "ckptlab-cli: failed with an unknown error\n";
        return kRunFailed;
    }
}

// Whether the subcommand runs LibTorch's matmuls (plot, compare, --help and --version do not):
// only those are worth running the program again for other BLAS kernels
// (ckptlab/engine/blas_kernels.h), which costs a second start. Before the subcommand come only
// flags.
bool commandMeasures(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.empty() || arg[0] == '-') continue;
        for (const char* measuring : {"run", "sweep", "pareto", "plan", "scaling", "lesson"})
            if (arg == measuring) return true;
        return false;
    }
    return false;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{
        "Checkpoint Lab: measure gradient checkpointing strategies with LibTorch.\n"
        "Strategies:\n" +
            strategySyntaxHelp(),
        "ckptlab-cli"};
    app.require_subcommand(1);
    app.set_version_flag("--version", std::string("ckptlab-cli ") + CKPTLAB_VERSION);
    Request request;
    const Commands commands = addCommands(app, request);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
        std::cerr << "ckptlab-cli: " << e.what() << " (see ckptlab-cli --help)\n";
        return kBadInput;
    }
    // Before any matmul, and only once the command line parses (a refused one costs no second
    // start): a measuring command may run the program again on OpenBLAS kernels that fit the CPU.
    if (commandMeasures(argc, argv)) useFittingBlasKernel(argc, argv);
    if (request.verbose)
        if (const std::string note = blasKernelSwitchNote(); !note.empty())
            std::cerr << "ckptlab-cli: " << note << "\n";
    return runCommand(commands, request);
}
