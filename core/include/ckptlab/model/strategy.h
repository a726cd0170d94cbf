#pragma once
// Checkpointing strategies: named, parameterized plans parsed from strings such as
// "every:4", and the plan each one makes for a chain of blocks.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/core_message.h"

namespace ckptlab {

enum class StrategyKind {
    None,      // keep every activation
    Full,      // checkpoint every block
    Every,     // every:N   checkpoint blocks 0, N, 2N, ... (the seed's experiment 1)
    Segments,  // segments:K  K contiguous checkpointed segments (experiment 2)
    From,      // from:K    checkpoint blocks K.. only (experiment 3)
    UpTo,      // upto:K    checkpoint blocks 0..K-1 only, the complement of from:K
    Sqrt,      // ceil(sqrt(L)) segments (Chen et al. 2016)
    Attn,      // transformer: checkpoint only the attention sub-block of every block
    FfnOnly,   // transformer: checkpoint only the FFN sub-block of every block
    SeedBug,   // seed-bug:K  segments whose recompute runs the last segment's blocks, the
               // tutorial's closure bug as its non-reentrant checkpoint runs it: each segment
               // gets the last segment's gradients at its input (wrong ones; the last
               // segment's are right), with segments:K's memory and time; exists so the
               // gradient check can be seen failing
    Optimal,   // optimal:MiB  fastest schedule within a peak budget (needs the cost model)
    Revolve,   // revolve:S    Griewank's binomial schedule with S stored states
};

// A strategy's text that is not one, or does not fit the model; what() is the English.
struct StrategyError : std::invalid_argument, CarriesMessage {
    explicit StrategyError(CoreMessage message)
        : std::invalid_argument(message.english), CarriesMessage(std::move(message)) {}
};

struct Strategy {
    StrategyKind kind = StrategyKind::None;
    int param = 0;             // N, K, slots or the start block; 0 where the kind has none
    double budget_mib = 0;     // Optimal: the peak budget in MiB above the step's start
    std::string name() const;  // canonical text, parses back to the same strategy
};
// The same kind, parameter and budget: one strategy (what duplicate checks and matching use).
bool operator==(const Strategy& a, const Strategy& b);
inline bool operator!=(const Strategy& a, const Strategy& b) { return !(a == b); }

// Parses and checks a strategy for a model of `depth` blocks of kind `block`.
// Throws StrategyError with a message naming the allowed values. The only reader of the text
// form (Strategy::name() is the only writer): front ends parse once, at their boundary.
Strategy parseStrategy(const std::string& text, int depth, BlockKind block);
// The same, returning nothing instead of throwing (and the message in `error` when given).
std::optional<Strategy> tryParseStrategy(const std::string& text, int depth, BlockKind block,
                                         std::string* error = nullptr);

// The text form alone, without the model's ranges (rows a table keeps while they do not apply
// to the current model); checkStrategy adds the ranges. parseStrategy is the two together.
std::optional<Strategy> parseStrategyForm(const std::string& text, std::string* error = nullptr);
// Throws StrategyError when `strategy` does not fit a model of `depth` blocks of `block`.
void checkStrategy(const Strategy& strategy, int depth, BlockKind block);
// A front end's list, each text's form parsed once (the model's ranges are the sweep check's,
// sweep_check.h). Throws StrategyError for the first text that is no strategy.
std::vector<Strategy> parseStrategies(const std::vector<std::string>& texts);
// How many texts have been parsed into strategies in this process: tests check that a request
// parses each strategy once, at its boundary, and nothing after it reads text back.
std::uint64_t strategyParseCount();

// Every kind once, in the order the app lists them: the one table of kinds. The CLI's help,
// the app's help and its strategy table are made from it.
struct StrategyKindInfo {
    StrategyKind kind;
    std::string name;         // "every"
    std::string syntax;       // "every:N", as the help shows it
    std::string description;  // "checkpoint blocks 0, N, 2N, ... (seed experiment 1)"
    bool takes_param;
    double default_param;  // the parameter strategyCatalog() offers (a budget in MiB for optimal)
};
const std::vector<StrategyKindInfo>& strategyKinds();
const StrategyKindInfo& strategyKindInfo(StrategyKind kind);

// A kind's name ("every") and whether it takes a parameter, for tables of kinds.
std::string kindName(StrategyKind kind);
bool takesParam(StrategyKind kind);
// A strategy of `kind` whose parameter is `value`: the count or block, or optimal's budget in
// MiB; ignored by kinds without one. paramOf reads it back.
Strategy makeStrategy(StrategyKind kind, double value);
double paramOf(const Strategy& strategy);
// Every kind once, with the parameter a list of strategies offers by default (every:2, ...,
// optimal:48), in the order the app lists them.
std::vector<Strategy> strategyCatalog();

// Schedules computed by a planner rather than written by hand (optimal:MiB, revolve:S): their
// schedule text is data worth showing.
bool isComputedSchedule(const Strategy& strategy);
// Needs the measured cost model to become a plan (optimal:MiB): without one only its budget,
// an upper bound of its peak, is known.
bool needsCostModel(const Strategy& strategy);
// A fixed memory budget (optimal:MiB): a Pareto sweep brings its own, and one budget means
// nothing across the sizes of a scaling sweep.
bool hasMemoryBudget(const Strategy& strategy);
// The budget in bytes above the step's start (0 for strategies without one).
std::int64_t budgetBytes(const Strategy& strategy);
// The baseline every comparison is made against (none).
bool isBaseline(const Strategy& strategy);
// keep_grads, the tutorial's protocol: whether a run of `strategy` starts with the previous
// step's gradients still allocated. Every run but the baseline, which runs first from a clean
// start as the tutorial's first run did. One rule for the traced step, the timed rounds and the
// predictions.
bool startsWithKeptGradients(const ExperimentConfig& config, const Strategy& strategy);

// One range of blocks [begin, end). A checkpointed segment keeps only its input and
// recomputes the rest in backward; `inner` may nest further checkpoints inside it.
struct Segment {
    int begin = 0;
    int end = 0;
    bool checkpointed = false;
    std::vector<Segment> inner;
};

enum class SubLayer { None, Attention, Ffn };

struct Plan {
    std::vector<Segment> segments;       // covers 0..depth in order
    SubLayer subLayer = SubLayer::None;  // selective checkpoint inside every block
    bool recomputeLastSegment = false;   // SeedBug: recomputes run the last segment's blocks
    // When set, segment bounds count sub-blocks ("units": block * unitsPerBlock + part) instead
    // of blocks, so a schedule may checkpoint inside a block. Planners produce these.
    bool unitLevel = false;
};

// makePlan (strategy -> plan) and toUnitLevel are in planner.h.

// Named sets of strategies: "seed-tradeoff", "experiment-1", "experiment-2", "experiment-3".
std::vector<std::string> presetNames();
// The preset a sweep runs when it names none, and the base of a Pareto sweep's default.
inline constexpr const char* kDefaultPreset = "seed-tradeoff";
std::vector<Strategy> presetStrategies(const std::string& preset);  // empty if unknown

// One line per kind of strategyKinds(), its syntax padded to a column, for --help.
std::string strategySyntaxHelp();

}  // namespace ckptlab
