#pragma once
// Core's messages as data: a code and its arguments. The CLI prints the English, written once
// in core_message.cpp; the app shows the same message in the user's language, translated by
// its code (ui/document/core_text.cpp), never by matching the English text.

#include <exception>
#include <string>
#include <utility>
#include <vector>

namespace ckptlab {

// Each code's English pattern is in core_message.cpp (messagePattern): %1, %2, ... are its
// arguments in order, then the texts of its nested messages.
enum class MessageCode {
    // A config field (validate); %1 is the field's CLI name ("depth", "memory-limit").
    FieldOutOfRange,          // %1 must be between %2 and %3 (got %4)
    FieldOutOfRangeSeconds,   // %1 must be between %2 and %3 seconds (got %4)
    FieldZeroOrRangeMib,      // %1 must be 0 (no limit) or between %2 and %3 MiB (got %4)
    HeadsMustDivideWidth,     // heads must divide width (width %1, heads %2)
    KvHeadsMustDivideHeads,   // kv-heads must divide heads (heads %1, kv-heads %2)
    DeviceUnknown,            // device must be cpu, cuda or cuda:N with N from 0 to %1 (got "%2")
    DeviceWithoutCuda,        // device must be cpu: this LibTorch has no usable CUDA (got "%1")
    DeviceIndexTooHigh,       // device must be cuda:0 to cuda:%1 on this machine (got "%2")
    HeadDimMustBeEven,        // head-dim must be even: rotary embeddings turn pairs (got %1)
    HeadDimNotFormed,         // head-dim: width %1 is not a whole number of heads (%2); ...
    LossChunksAboveTokens,    // loss-chunks must be at most seq (%1 tokens, got %2)
    NeedsVocab,               // %1 applies to the LM head: give vocab too (got %1 %2)
    AttentionWithoutDropout,  // attention %1 runs without dropout: set dropout 0 (got %2)
    AttentionScoresOverflow,  // %1 is too large: eager attention scores of all layers ...
    SdpaNeedsLibTorch2,       // attention sdpa needs LibTorch 2.0 or later (this one is %1)
    DeviceWithoutBf16,        // precision %1 needs bf16 on the device; %2 has none
    // A strategy's text against its kind and the model (parseStrategy, checkStrategy).
    UnknownStrategy,              // unknown strategy "%1" (known: %2)
    StrategyTakesNoParameter,     // strategy "%1" takes no parameter (got "%2")
    StrategyNeedsInteger,         // strategy "%1" needs an integer parameter, e.g. %2 (got "%3")
    OptimalBudgetOutOfRange,      // optimal:MiB needs a memory budget between %1 and %2 ...
    StrategyParameterOutOfRange,  // %1:N needs N between %2 and %3 for depth %4 (got %5)
    StrategyNeedsTransformer,     // strategy "%1" checkpoints a sub-block of the transformer ...
    // What a sweep refuses before it runs.
    NoStrategy,               // strategies: give at least one strategy
    StrategyListedTwice,      // strategies: %1 is listed twice (items %2 and %3)
    PlannerTooManyUnits,      // %1 plans at most %2 units (...); depth %3 of %4 blocks is ...
    ParetoTooManyUnits,       // a Pareto sweep plans at most %1 units (...); depth %2 of ...
    ScalingNeedsTwoValues,    // values: give at least two values to fit
    ScalingValueListedTwice,  // values: %1 is listed twice (items %2 and %3); ...
    AtScalingValue,           // at %1=%2: %3 (nested: the problem at that size)
    DoesNotFit,               // config does not fit: strategy %1 is predicted to need %2 ...
    DoesNotFitBudgetBound,    // the same, %1's budget taken as the upper bound of its peak
    BudgetBelowMinimum,       // optimal:%1 MiB is below the smallest feasible schedule, ...
    NoScheduleFits,           // no schedule fits %1 bytes
    FitMeasureTooLarge,       // one layer needs %1 GB to measure, %2 GB are available
    AtLessonStep,             // lesson %1, step %2: %3 (nested)
    // The runner's progress (RunnerHooks::progress); %1 is a strategy's name.
    BuildingModel,        // building the model
    MeasuringCostModel,   // measuring the cost model
    ReferenceGradients,   // reference gradients (none)
    OptimizerState,       // %1: optimizer state
    PreviousStepKept,     // %1: previous step, its gradients kept
    BaselineStartsClean,  // %1: the baseline starts without gradients, as the tutorial's did
    RanOutOfMemory,       // %1: out of memory
    RunFailed,            // %1: failed
    TracedStep,           // %1: traced step
    WarmUpStep,           // %1: warm-up %2/%3
    TimedStep,            // %1: timed step %2/%3
    TimedRoundAuto,       // timed round %1 (auto)
    TimedRoundsDone,      // timed rounds done
    AtScalingSize,        // %1 %2: %3 (nested: the size's own progress)
};
// The enum's last code: tables and tests walk every code from 0 to it.
inline constexpr MessageCode kLastMessageCode = MessageCode::AtScalingSize;

// A message: its code, its arguments (classic-locale text: numbers through number_text.h) and
// the messages it wraps. `english` is the pattern filled in, what the CLI prints.
struct CoreMessage {
    CoreMessage(MessageCode code, std::vector<std::string> args = {},
                std::vector<CoreMessage> nested = {});

    MessageCode code;
    std::vector<std::string> args;
    std::vector<CoreMessage> nested;
    std::string english;
};

// The English pattern of `code`, with %1, %2, ... for its arguments.
const char* messagePattern(MessageCode code);
// Puts args[i] for each %(i+1) of `pattern`, in one pass: an argument's own "%1" stays as it is.
std::string fillPattern(const std::string& pattern, const std::vector<std::string>& args);

// Core's errors carry their message beside the standard exception they derive from.
struct CarriesMessage {
    explicit CarriesMessage(CoreMessage message) : message(std::move(message)) {}
    virtual ~CarriesMessage() = default;
    CoreMessage message;
};
// The message of a core error (StrategyError, ConfigError, BudgetError, MemoryError); null for
// any other exception.
const CoreMessage* coreMessageOf(const std::exception& error);

}  // namespace ckptlab
