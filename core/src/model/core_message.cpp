#include "ckptlab/model/core_message.h"

#include <cctype>

namespace ckptlab {

const char* messagePattern(MessageCode code) {
    switch (code) {
    case MessageCode::FieldOutOfRange: return "%1 must be between %2 and %3 (got %4)";
    case MessageCode::FieldOutOfRangeSeconds:
        return "%1 must be between %2 and %3 seconds (got %4)";
    case MessageCode::FieldZeroOrRangeMib:
        return "%1 must be 0 (no limit) or between %2 and %3 MiB (got %4)";
    case MessageCode::HeadsMustDivideWidth: return "heads must divide width (width %1, heads %2)";
    case MessageCode::KvHeadsMustDivideHeads:
        return "kv-heads must divide heads (heads %1, kv-heads %2)";
    case MessageCode::DeviceUnknown:
        return "device must be cpu, cuda or cuda:N with N from 0 to %1 (got \"%2\")";
    case MessageCode::DeviceWithoutCuda:
        return "device must be cpu: this LibTorch has no usable CUDA (got \"%1\")";
    case MessageCode::DeviceIndexTooHigh:
        return "device must be cuda:0 to cuda:%1 on this machine (got \"%2\")";
    case MessageCode::HeadDimMustBeEven:
        return "head-dim must be even: rotary embeddings turn pairs of features (got %1)";
    case MessageCode::HeadDimNotFormed:
        return "head-dim: width %1 is not a whole number of heads (%2); give --head-dim";
    case MessageCode::LossChunksAboveTokens:
        return "loss-chunks must be at most seq (%1 tokens, got %2)";
    case MessageCode::NeedsVocab: return "%1 applies to the LM head: give vocab too (got %1 %2)";
    case MessageCode::AttentionWithoutDropout:
        return "attention %1 runs without dropout: set dropout to 0 (got %2)";
    case MessageCode::AttentionScoresOverflow:
        return "%1 is too large: the scores eager attention keeps of all layers (depth x batch x "
               "heads x seq x seq) would need more than 2^63 bytes";
    case MessageCode::SdpaNeedsLibTorch2:
        return "attention sdpa needs LibTorch 2.0 or later (this one is %1)";
    case MessageCode::DeviceWithoutBf16:
        return "precision %1 needs bf16 arithmetic on the device; %2 has none";
    case MessageCode::UnknownStrategy: return "unknown strategy \"%1\" (known: %2)";
    case MessageCode::StrategyTakesNoParameter:
        return "strategy \"%1\" takes no parameter (got \"%2\")";
    case MessageCode::StrategyNeedsInteger:
        return "strategy \"%1\" needs an integer parameter, e.g. %2 (got \"%3\")";
    case MessageCode::OptimalBudgetOutOfRange:
        return "optimal:MiB needs a memory budget between %1 and %2 MiB above the step's start, "
               "e.g. %3 (got \"%4\")";
    case MessageCode::StrategyParameterOutOfRange:
        return "%1:N needs N between %2 and %3 for depth %4 (got %5)";
    case MessageCode::StrategyNeedsTransformer:
        return "strategy \"%1\" checkpoints a sub-block of an attention block; use block "
               "transformer or llama";
    case MessageCode::NoStrategy: return "strategies: give at least one strategy";
    case MessageCode::StrategyListedTwice:
        return "strategies: %1 is listed twice (items %2 and %3)";
    case MessageCode::PlannerTooManyUnits:
        return "%1 plans at most %2 units (depth x sub-blocks per block: 1 for ffn, 2 for "
               "transformer); depth %3 of %4 blocks is %5 units: use depth 1 to %6";
    case MessageCode::ParetoTooManyUnits:
        return "a Pareto sweep plans at most %1 units (depth x sub-blocks per block: 1 for ffn, "
               "2 for transformer); depth %2 of %3 blocks is %4 units: use depth 1 to %5";
    case MessageCode::ScalingNeedsTwoValues: return "values: give at least two values to fit";
    case MessageCode::ScalingValueListedTwice:
        return "values: %1 is listed twice (items %2 and %3); a fit needs distinct sizes";
    case MessageCode::AtScalingValue: return "at %1=%2: %3";
    case MessageCode::DoesNotFit:
        return "config does not fit: strategy %1 is predicted to need %2 but only %3 are "
               "available on %4";
    case MessageCode::DoesNotFitBudgetBound:
        return "config does not fit: strategy %1 (its budget taken as the upper bound of its "
               "peak) is predicted to need %2 but only %3 are available on %4";
    case MessageCode::BudgetBelowMinimum:
        return "optimal:%1 MiB is below the smallest feasible schedule, which needs %2 MiB above "
               "the step's start";
    case MessageCode::NoScheduleFits: return "no schedule fits %1 bytes";
    case MessageCode::FitMeasureTooLarge:
        return "one layer needs %1 GB to measure, %2 GB are available";
    case MessageCode::AtLessonStep: return "lesson %1, step %2: %3";
    case MessageCode::BuildingModel: return "building the model";
    case MessageCode::MeasuringCostModel: return "measuring the cost model";
    case MessageCode::ReferenceGradients: return "reference gradients (none)";
    case MessageCode::OptimizerState: return "%1: optimizer state";
    case MessageCode::PreviousStepKept: return "%1: previous step, its gradients kept";
    case MessageCode::BaselineStartsClean:
        return "%1: the baseline starts without gradients, as the tutorial's did";
    case MessageCode::RanOutOfMemory: return "%1: out of memory";
    case MessageCode::RunFailed: return "%1: failed";
    case MessageCode::TracedStep: return "%1: traced step";
    case MessageCode::WarmUpStep: return "%1: warm-up %2/%3";
    case MessageCode::TimedStep: return "%1: timed step %2/%3";
    case MessageCode::TimedRoundAuto: return "timed round %1 (auto)";
    case MessageCode::TimedRoundsDone: return "timed rounds done";
    case MessageCode::AtScalingSize: return "%1 %2: %3";
    }
    return "";
}

std::string fillPattern(const std::string& pattern, const std::vector<std::string>& args) {
    std::string text;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const bool placeholder = pattern[i] == '%' && i + 1 < pattern.size() &&
                                 std::isdigit(static_cast<unsigned char>(pattern[i + 1]));
        if (!placeholder) {
            text += pattern[i];
            continue;
        }
        std::size_t end = i + 1;
        std::size_t number = 0;
        while (end < pattern.size() && std::isdigit(static_cast<unsigned char>(pattern[end])))
            number = number * 10 + static_cast<std::size_t>(pattern[end++] - '0');
        if (number >= 1 && number <= args.size())
            text += args[number - 1];
        else
            text.append(pattern, i, end - i);  // no such argument: kept, so it shows
        i = end - 1;
    }
    return text;
}

CoreMessage::CoreMessage(MessageCode code, std::vector<std::string> args,
                         std::vector<CoreMessage> nested)
    : code(code), args(std::move(args)), nested(std::move(nested)) {
    std::vector<std::string> all = this->args;
    for (const CoreMessage& inner : this->nested) all.push_back(inner.english);
    english = fillPattern(messagePattern(code), all);
}

const CoreMessage* coreMessageOf(const std::exception& error) {
    const auto* carrier = dynamic_cast<const CarriesMessage*>(&error);
    return carrier ? &carrier->message : nullptr;
}

}  // namespace ckptlab
