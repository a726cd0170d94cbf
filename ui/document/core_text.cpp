#include "document/core_text.h"

#include <QStringList>

#include "base/config_field_text.h"

namespace ckptlab::ui {

namespace {

// A field's word in a message: the config fields' labels, and the Pareto sweep's points.
QString fieldName(const std::string& field) {
    if (field == "points") return CoreText::tr("points", "Pareto sweep: optimal budgets to run");
    return configFieldLabel(field);
}

// Each code's translation; the source text is core's English pattern (messagePattern), which
// test_translations checks. Null for a code not translated yet: core's English is shown.
const char* translatablePattern(MessageCode code) {
    using C = MessageCode;
    switch (code) {
    case C::FieldOutOfRange:
        return QT_TRANSLATE_NOOP("CoreText", "%1 must be between %2 and %3 (got %4)");
    case C::FieldOutOfRangeSeconds:
        return QT_TRANSLATE_NOOP("CoreText", "%1 must be between %2 and %3 seconds (got %4)");
    case C::FieldZeroOrRangeMib:
        return QT_TRANSLATE_NOOP("CoreText",
                                 "%1 must be 0 (no limit) or between %2 and %3 MiB (got %4)");
    case C::HeadsMustDivideWidth:
        return QT_TRANSLATE_NOOP("CoreText", "heads must divide width (width %1, heads %2)");
    case C::KvHeadsMustDivideHeads:
        return QT_TRANSLATE_NOOP("CoreText", "kv-heads must divide heads (heads %1, kv-heads %2)");
    case C::DeviceUnknown:
        return QT_TRANSLATE_NOOP(
            "CoreText", "device must be cpu, cuda or cuda:N with N from 0 to %1 (got \"%2\")");
    case C::DeviceWithoutCuda:
        return QT_TRANSLATE_NOOP(
            "CoreText", "device must be cpu: this LibTorch has no usable CUDA (got \"%1\")");
    case C::DeviceIndexTooHigh:
        return QT_TRANSLATE_NOOP("CoreText",
                                 "device must be cuda:0 to cuda:%1 on this machine (got \"%2\")");
    case C::HeadDimMustBeEven:
        return QT_TRANSLATE_NOOP(
            "CoreText", "head-dim must be even: rotary embeddings turn pairs of features (got %1)");
    case C::HeadDimNotFormed:
        return QT_TRANSLATE_NOOP(
            "CoreText", "head-dim: width %1 is not a whole number of heads (%2); give --head-dim");
    case C::LossChunksAboveTokens:
        return QT_TRANSLATE_NOOP("CoreText", "loss-chunks must be at most seq (%1 tokens, got %2)");
    case C::NeedsVocab:
        return QT_TRANSLATE_NOOP("CoreText",
                                 "%1 applies to the LM head: give vocab too (got %1 %2)");
    case C::AttentionWithoutDropout:
        return QT_TRANSLATE_NOOP("CoreText",
                                 "attention %1 runs without dropout: set dropout to 0 (got %2)");
    case C::AttentionScoresOverflow:
        return QT_TRANSLATE_NOOP("CoreText",
                                 "%1 is too large: the scores eager attention keeps of all layers "
                                 "(depth x batch x heads x seq x seq) would need more than 2^63 "
                                 "bytes");
    case C::SdpaNeedsLibTorch2:
        return QT_TRANSLATE_NOOP("CoreText",
                                 "attention sdpa needs LibTorch 2.0 or later (this one is %1)");
    case C::DeviceWithoutBf16:
        return QT_TRANSLATE_NOOP("CoreText",
                                 "precision %1 needs bf16 arithmetic on the device; %2 has none");
    case C::UnknownStrategy:
        return QT_TRANSLATE_NOOP("CoreText", "unknown strategy \"%1\" (known: %2)");
    case C::StrategyTakesNoParameter:
        return QT_TRANSLATE_NOOP("CoreText", "strategy \"%1\" takes no parameter (got \"%2\")");
    case C::StrategyNeedsInteger:
        return QT_TRANSLATE_NOOP(
            "CoreText", "strategy \"%1\" needs an integer parameter, e.g. %2 (got \"%3\")");
    case C::OptimalBudgetOutOfRange:
        return QT_TRANSLATE_NOOP("CoreText",
                                 "optimal:MiB needs a memory budget between %1 and %2 MiB above "
                                 "the step's start, e.g. %3 (got \"%4\")");
    case C::StrategyParameterOutOfRange:
        return QT_TRANSLATE_NOOP("CoreText",
                                 "%1:N needs N between %2 and %3 for depth %4 (got %5)");
    case C::StrategyNeedsTransformer:
        return QT_TRANSLATE_NOOP("CoreText",
                                 "strategy \"%1\" checkpoints a sub-block of an attention "
                                 "block; use block transformer or llama");
    case C::NoStrategy:
        return QT_TRANSLATE_NOOP("CoreText", "strategies: give at least one strategy");
    case C::StrategyListedTwice:
        return QT_TRANSLATE_NOOP("CoreText", "strategies: %1 is listed twice (items %2 and %3)");
    case C::PlannerTooManyUnits:
        return QT_TRANSLATE_NOOP("CoreText",
                                 "%1 plans at most %2 units (depth x sub-blocks per block: 1 for "
                                 "ffn, 2 for transformer); depth %3 of %4 blocks is %5 units: use "
                                 "depth 1 to %6");
    case C::ParetoTooManyUnits:
        return QT_TRANSLATE_NOOP("CoreText",
                                 "a Pareto sweep plans at most %1 units (depth x sub-blocks per "
                                 "block: 1 for ffn, 2 for transformer); depth %2 of %3 blocks is "
                                 "%4 units: use depth 1 to %5");
    case C::ScalingNeedsTwoValues:
        return QT_TRANSLATE_NOOP("CoreText", "values: give at least two values to fit");
    case C::ScalingValueListedTwice:
        return QT_TRANSLATE_NOOP(
            "CoreText", "values: %1 is listed twice (items %2 and %3); a fit needs distinct sizes");
    case C::AtScalingValue: return QT_TRANSLATE_NOOP("CoreText", "at %1=%2: %3");
    case C::DoesNotFit:
        return QT_TRANSLATE_NOOP("CoreText",
                                 "config does not fit: strategy %1 is predicted to need %2 but "
                                 "only %3 are available on %4");
    case C::DoesNotFitBudgetBound:
        return QT_TRANSLATE_NOOP("CoreText",
                                 "config does not fit: strategy %1 (its budget taken as the upper "
                                 "bound of its peak) is predicted to need %2 but only %3 are "
                                 "available on %4");
    case C::BudgetBelowMinimum:
        return QT_TRANSLATE_NOOP("CoreText",
                                 "optimal:%1 MiB is below the smallest feasible schedule, which "
                                 "needs %2 MiB above the step's start");
    case C::NoScheduleFits: return QT_TRANSLATE_NOOP("CoreText", "no schedule fits %1 bytes");
    case C::FitMeasureTooLarge:
        return QT_TRANSLATE_NOOP("CoreText",
                                 "one layer needs %1 GB to measure, %2 GB are available");
    case C::AtLessonStep: return QT_TRANSLATE_NOOP("CoreText", "lesson %1, step %2: %3");
    case C::BuildingModel: return QT_TRANSLATE_NOOP("CoreText", "building the model");
    case C::MeasuringCostModel: return QT_TRANSLATE_NOOP("CoreText", "measuring the cost model");
    case C::ReferenceGradients: return QT_TRANSLATE_NOOP("CoreText", "reference gradients (none)");
    case C::OptimizerState: return QT_TRANSLATE_NOOP("CoreText", "%1: optimizer state");
    case C::PreviousStepKept:
        return QT_TRANSLATE_NOOP("CoreText", "%1: previous step, its gradients kept");
    case C::BaselineStartsClean:
        return QT_TRANSLATE_NOOP(
            "CoreText", "%1: the baseline starts without gradients, as the tutorial's did");
    case C::RanOutOfMemory: return QT_TRANSLATE_NOOP("CoreText", "%1: out of memory");
    case C::RunFailed: return QT_TRANSLATE_NOOP("CoreText", "%1: failed");
    case C::TracedStep: return QT_TRANSLATE_NOOP("CoreText", "%1: traced step");
    case C::WarmUpStep: return QT_TRANSLATE_NOOP("CoreText", "%1: warm-up %2/%3");
    case C::TimedStep: return QT_TRANSLATE_NOOP("CoreText", "%1: timed step %2/%3");
    case C::TimedRoundAuto: return QT_TRANSLATE_NOOP("CoreText", "timed round %1 (auto)");
    case C::TimedRoundsDone: return QT_TRANSLATE_NOOP("CoreText", "timed rounds done");
    case C::AtScalingSize: return QT_TRANSLATE_NOOP("CoreText", "%1 %2: %3");
    }
    return nullptr;
}

// Whether argument `index` of `code` is a config field's CLI name, shown by its label.
bool isFieldArgument(MessageCode code, std::size_t index) {
    switch (code) {
    case MessageCode::FieldOutOfRange:
    case MessageCode::FieldOutOfRangeSeconds:
    case MessageCode::FieldZeroOrRangeMib:
    case MessageCode::AtScalingValue:
    case MessageCode::AtScalingSize:
    case MessageCode::NeedsVocab:
    case MessageCode::AttentionScoresOverflow: return index == 0;
    default: return false;
    }
}

// Puts args[i] for each %(i+1) of `pattern` in one pass, as core's fillPattern does: an
// argument's own "%1" stays as it is, which chained QString::arg calls would not keep.
QString fill(const QString& pattern, const QStringList& args) {
    QString text;
    for (qsizetype i = 0; i < pattern.size(); ++i) {
        qsizetype end = i + 1;
        int number = 0;
        while (pattern[i] == QLatin1Char('%') && end < pattern.size() && pattern[end].isDigit())
            number = number * 10 + pattern[end++].digitValue();
        if (end > i + 1 && number >= 1 && number <= args.size()) {
            text += args[number - 1];
            i = end - 1;
        } else {
            text += pattern[i];
        }
    }
    return text;
}

// The description of a kind of core's table in the user's language; null for a kind not
// translated yet.
const char* kindDescription(StrategyKind kind) {
    using K = StrategyKind;
    switch (kind) {
    case K::None: return QT_TRANSLATE_NOOP("CoreText", "keep every activation (the baseline)");
    case K::Full: return QT_TRANSLATE_NOOP("CoreText", "checkpoint every block");
    case K::Every:
        return QT_TRANSLATE_NOOP("CoreText", "checkpoint blocks 0, N, 2N, ... (seed experiment 1)");
    case K::Segments:
        return QT_TRANSLATE_NOOP("CoreText",
                                 "K contiguous checkpointed segments (seed experiment 2)");
    case K::From:
        return QT_TRANSLATE_NOOP("CoreText", "checkpoint blocks K.. only (seed experiment 3)");
    case K::UpTo:
        return QT_TRANSLATE_NOOP("CoreText",
                                 "checkpoint blocks 0..K-1 only (the other half of from:K)");
    case K::Sqrt: return QT_TRANSLATE_NOOP("CoreText", "ceil(sqrt(L)) segments (Chen et al. 2016)");
    case K::Attn:
        return QT_TRANSLATE_NOOP("CoreText",
                                 "transformer, llama: checkpoint only the attention sub-block");
    case K::FfnOnly:
        return QT_TRANSLATE_NOOP("CoreText",
                                 "transformer, llama: checkpoint only the MLP (FFN) sub-block");
    case K::SeedBug:
        return QT_TRANSLATE_NOOP("CoreText",
                                 "segments with the tutorial's closure bug: wrong gradients "
                                 "before the last segment, as in PyTorch (fails the gradient "
                                 "check)");
    case K::Optimal:
        return QT_TRANSLATE_NOOP(
            "CoreText", "fastest schedule whose predicted peak fits MiB (dynamic program)");
    case K::Revolve:
        return QT_TRANSLATE_NOOP("CoreText", "Griewank's binomial schedule with S stored states");
    }
    return nullptr;
}

QString descriptionText(const StrategyKindInfo& kind) {
    const char* source = kindDescription(kind.kind);
    return source ? CoreText::tr(source) : QString::fromStdString(kind.description);
}

}  // namespace

QString coreMessageText(const CoreMessage& message) {
    const char* source = translatablePattern(message.code);
    if (!source) return QString::fromStdString(message.english);
    QStringList args;
    for (std::size_t i = 0; i < message.args.size(); ++i)
        args << (isFieldArgument(message.code, i) ? fieldName(message.args[i])
                                                  : QString::fromStdString(message.args[i]));
    for (const CoreMessage& nested : message.nested) args << coreMessageText(nested);
    return fill(CoreText::tr(source), args);
}

QString coreErrorText(const std::exception& error) {
    if (const CoreMessage* message = coreMessageOf(error)) return coreMessageText(*message);
    return QString::fromStdString(error.what());
}

QString fieldErrorText(const FieldError& error) { return coreMessageText(error.message); }

QString scalingAxisText(ScalingAxis axis) { return fieldName(toString(axis)); }

QString strategyHelpText(StrategyKind kind) {
    const StrategyKindInfo& info = strategyKindInfo(kind);
    return QStringLiteral("%1  %2").arg(QString::fromStdString(info.syntax), descriptionText(info));
}

QString strategySyntaxText() {
    QStringList lines;
    for (const StrategyKindInfo& kind : strategyKinds())
        lines << QString::fromStdString(kind.syntax).leftJustified(13) + QLatin1Char(' ') +
                     descriptionText(kind);
    return lines.join(QLatin1Char('\n'));
}

}  // namespace ckptlab::ui
