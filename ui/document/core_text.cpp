#include "document/core_text.h"

#include <QRegularExpression>
#include <QStringList>
#include <cmath>

namespace ckptlab::ui {

namespace {

QString fieldName(const std::string& field) {
    if (field == "depth") return CoreText::tr("depth");
    if (field == "width") return CoreText::tr("width");
    if (field == "seq") return CoreText::tr("seq", "sequence length");
    if (field == "batch") return CoreText::tr("batch");
    if (field == "heads") return CoreText::tr("heads");
    if (field == "threads") return CoreText::tr("threads");
    if (field == "warmup") return CoreText::tr("warmup");
    if (field == "repeats") return CoreText::tr("repeats");
    if (field == "dropout") return CoreText::tr("dropout");
    if (field == "device") return CoreText::tr("device");
    if (field == "memory-limit") return CoreText::tr("memory limit");
    return QString::fromStdString(field);
}

QString rangeText(const std::string& field, IntRange range, long long value) {
    return CoreText::tr("%1 must be between %2 and %3 (got %4)")
        .arg(fieldName(field))
        .arg(range.min)
        .arg(range.max)
        .arg(value);
}

const char* kindDescription(StrategyKind kind) {
    switch (kind) {
    case StrategyKind::None: return QT_TRANSLATE_NOOP("CoreText", "keep every activation (the baseline)");
    case StrategyKind::Full: return QT_TRANSLATE_NOOP("CoreText", "checkpoint every block");
    case StrategyKind::Every:
        return QT_TRANSLATE_NOOP("CoreText", "checkpoint blocks 0, N, 2N, ... (seed experiment 1)");
    case StrategyKind::Segments:
        return QT_TRANSLATE_NOOP("CoreText", "K contiguous checkpointed segments (seed experiment 2)");
    case StrategyKind::From:
        return QT_TRANSLATE_NOOP("CoreText", "checkpoint blocks K.. only (seed experiment 3)");
    case StrategyKind::UpTo:
        return QT_TRANSLATE_NOOP("CoreText",
                                 "checkpoint blocks 0..K-1 only (the other half of from:K)");
    case StrategyKind::Sqrt:
        return QT_TRANSLATE_NOOP("CoreText", "ceil(sqrt(L)) segments (Chen et al. 2016)");
    case StrategyKind::Attn:
        return QT_TRANSLATE_NOOP("CoreText", "transformer: checkpoint only the attention sub-block");
    case StrategyKind::FfnOnly:
        return QT_TRANSLATE_NOOP("CoreText", "transformer: checkpoint only the FFN sub-block");
    case StrategyKind::SeedBug:
        return QT_TRANSLATE_NOOP(
            "CoreText", "segments with the tutorial's closure bug (fails the gradient check)");
    case StrategyKind::Optimal:
        return QT_TRANSLATE_NOOP(
            "CoreText", "fastest schedule whose predicted peak fits MiB (dynamic program)");
    case StrategyKind::Revolve:
        return QT_TRANSLATE_NOOP("CoreText", "Griewank's binomial schedule with S stored states");
    }
    return "";
}

// The syntax column of the help: "every:N", "optimal:MiB", "sqrt".
QString kindSyntax(StrategyKind kind) {
    const QString name = QString::fromStdString(kindName(kind));
    switch (kind) {
    case StrategyKind::Every: return name + QStringLiteral(":N");
    case StrategyKind::Segments:
    case StrategyKind::From:
    case StrategyKind::UpTo:
    case StrategyKind::SeedBug: return name + QStringLiteral(":K");
    case StrategyKind::Optimal: return name + QStringLiteral(":MiB");
    case StrategyKind::Revolve: return name + QStringLiteral(":S");
    default: return name;
    }
}

const StrategyKind kKinds[] = {
    StrategyKind::None,    StrategyKind::Full,    StrategyKind::Every,   StrategyKind::Segments,
    StrategyKind::From,    StrategyKind::UpTo,    StrategyKind::Sqrt,    StrategyKind::Attn,
    StrategyKind::FfnOnly, StrategyKind::SeedBug, StrategyKind::Optimal, StrategyKind::Revolve};

// One known shape of a core message: the pattern, and the translation its captures fill.
struct Shape {
    const char* pattern;
    const char* text;  // in the CoreText context
};

QString translateShapes(const std::string& message, const Shape* shapes, std::size_t count) {
    const QString text = QString::fromStdString(message);
    for (std::size_t i = 0; i < count; ++i) {
        const QRegularExpression re(QString::fromLatin1(shapes[i].pattern));
        const QRegularExpressionMatch m = re.match(text);
        if (!m.hasMatch()) continue;
        QString translated = CoreText::tr(shapes[i].text);
        for (int c = 1; c <= m.lastCapturedIndex(); ++c) translated = translated.arg(m.captured(c));
        return text.left(m.capturedStart(0)) + translated + text.mid(m.capturedEnd(0));
    }
    return text;
}

}  // namespace

QString fieldErrorText(const FieldError& error, const ExperimentConfig& c) {
    const std::string& f = error.field;
    if (f == "depth") return rangeText(f, limits::depth, c.depth);
    if (f == "width") return rangeText(f, limits::width, c.width);
    if (f == "seq") return rangeText(f, limits::seq, c.seq);
    if (f == "batch") return rangeText(f, limits::batch, c.batch);
    if (f == "threads") return rangeText(f, limits::threads, c.threads);
    if (f == "warmup") return rangeText(f, limits::warmup, c.warmup);
    if (f == "repeats") return rangeText(f, limits::repeats, c.repeats);
    if (f == "heads") {
        if (c.heads < limits::heads.min || c.heads > limits::heads.max)
            return rangeText(f, limits::heads, c.heads);
        return CoreText::tr("heads must divide width (width %1, heads %2)")
            .arg(c.width)
            .arg(c.heads);
    }
    if (f == "dropout")
        return CoreText::tr("dropout must be between 0 and %1 (got %2)")
            .arg(limits::dropoutMax)
            .arg(c.dropout);
    if (f == "device")
        return CoreText::tr("device must be cpu, cuda or cuda:N with N from 0 to %1 (got \"%2\")")
            .arg(limits::cudaDeviceMax)
            .arg(QString::fromStdString(c.device));
    if (f == "memory-limit")
        return CoreText::tr("memory limit must be 0 (no limit) or between %1 and %2 MiB (got %3)")
            .arg(limits::memoryLimitMinMib)
            .arg(qlonglong(limits::memoryLimitMaxMib))
            .arg(c.memory_limit_mib);
    if (f == "time-limit")
        return CoreText::tr("time limit must be between %1 and %2 seconds (got %3)")
            .arg(limits::timeLimitMinS)
            .arg(limits::timeLimitMaxS)
            .arg(c.time_limit_s);
    return QString::fromStdString(error.message);
}

QString configErrorText(const std::string& message) {
    const QString text = QString::fromStdString(message);
    static const QRegularExpression limit(
        QStringLiteral(R"re(^memory-limit must be 0 \(no limit\) or between (\S+) and (\S+) MiB \(got (.*)\)$)re"));
    static const QRegularExpression timeLimit(
        QStringLiteral(R"re(^time-limit must be between (\S+) and (\S+) seconds \(got (.*)\)$)re"));
    static const QRegularExpression range(
        QStringLiteral(R"re(^(\S+) must be between (\S+) and (\S+) \(got (.*)\)$)re"));
    static const QRegularExpression heads(
        QStringLiteral(R"re(^heads must divide width \(width (\d+), heads (\d+)\)$)re"));
    static const QRegularExpression device(
        QStringLiteral(R"re(^device must be cpu, cuda or cuda:N with N from 0 to (\d+) \(got "(.*)"\)$)re"));
    QRegularExpressionMatch m;
    if ((m = limit.match(text)).hasMatch())
        return CoreText::tr("memory limit must be 0 (no limit) or between %1 and %2 MiB (got %3)")
            .arg(m.captured(1), m.captured(2), m.captured(3));
    if ((m = timeLimit.match(text)).hasMatch())
        return CoreText::tr("time limit must be between %1 and %2 seconds (got %3)")
            .arg(m.captured(1), m.captured(2), m.captured(3));
    if ((m = range.match(text)).hasMatch())
        return CoreText::tr("%1 must be between %2 and %3 (got %4)")
            .arg(fieldName(m.captured(1).toStdString()), m.captured(2), m.captured(3),
                 m.captured(4));
    if ((m = heads.match(text)).hasMatch())
        return CoreText::tr("heads must divide width (width %1, heads %2)")
            .arg(m.captured(1), m.captured(2));
    if ((m = device.match(text)).hasMatch())
        return CoreText::tr("device must be cpu, cuda or cuda:N with N from 0 to %1 (got \"%2\")")
            .arg(m.captured(1), m.captured(2));
    return strategyErrorText(message);
}

QString scalingAxisText(ScalingAxis axis) { return fieldName(toString(axis)); }

QString strategyHelpText(StrategyKind kind) {
    return QStringLiteral("%1  %2").arg(kindSyntax(kind), CoreText::tr(kindDescription(kind)));
}

QString strategySyntaxText() {
    QStringList lines;
    for (StrategyKind kind : kKinds)
        lines << kindSyntax(kind).leftJustified(13) + QLatin1Char(' ') +
                     CoreText::tr(kindDescription(kind));
    return lines.join(QLatin1Char('\n'));
}

QString strategyErrorText(const std::string& message) {
    static const Shape shapes[] = {
        {R"re(unknown strategy "(.*)" \(known: (.*)\))re",
         QT_TRANSLATE_NOOP("CoreText", "unknown strategy \"%1\" (known: %2)")},
        {R"re(strategy "([^"]*)" takes no parameter \(got "(.*)"\))re",
         QT_TRANSLATE_NOOP("CoreText", "strategy \"%1\" takes no parameter (got \"%2\")")},
        {R"re(optimal:MiB needs a memory budget between (\S+) and (\S+) MiB above the step's start, e\.g\. (\S+) \(got "(.*)"\))re",
         QT_TRANSLATE_NOOP("CoreText",
                           "optimal:MiB needs a memory budget between %1 and %2 MiB above the "
                           "step's start, e.g. %3 (got \"%4\")")},
        {R"re(strategy "([^"]*)" needs an integer parameter, e\.g\. (\S+) \(got "(.*)"\))re",
         QT_TRANSLATE_NOOP("CoreText",
                           "strategy \"%1\" needs an integer parameter, e.g. %2 (got \"%3\")")},
        {R"re((\S+):N needs N between (-?\d+) and (-?\d+) for depth (\d+) \(got (-?\d+)\))re",
         QT_TRANSLATE_NOOP("CoreText", "%1:N needs N between %2 and %3 for depth %4 (got %5)")},
        {R"re(strategy "([^"]*)" checkpoints a sub-block of the transformer block; use block transformer)re",
         QT_TRANSLATE_NOOP("CoreText",
                           "strategy \"%1\" checkpoints a sub-block of the transformer block; use "
                           "block transformer")},
    };
    return translateShapes(message, shapes, std::size(shapes));
}

QString progressText(const std::string& message) {
    static const Shape shapes[] = {
        {R"re(^building the model$)re", QT_TRANSLATE_NOOP("CoreText", "building the model")},
        {R"re(^measuring the cost model$)re", QT_TRANSLATE_NOOP("CoreText", "measuring the cost model")},
        {R"re(^(.+): optimizer state$)re", QT_TRANSLATE_NOOP("CoreText", "%1: optimizer state")},
        {R"re(^(.+): previous step \(kept gradients\)$)re",
         QT_TRANSLATE_NOOP("CoreText", "%1: previous step (kept gradients)")},
        {R"re(^(.+): out of memory$)re", QT_TRANSLATE_NOOP("CoreText", "%1: out of memory")},
        {R"re(^(.+): traced step$)re", QT_TRANSLATE_NOOP("CoreText", "%1: traced step")},
        {R"re(^(.+): warm-up (\d+)/(\d+)$)re", QT_TRANSLATE_NOOP("CoreText", "%1: warm-up %2/%3")},
        {R"re(^(.+): timed step (\d+)/(\d+)$)re",
         QT_TRANSLATE_NOOP("CoreText", "%1: timed step %2/%3")},
        {R"re(^timed round (\d+) \(auto\)$)re",
         QT_TRANSLATE_NOOP("CoreText", "timed round %1 (adaptive repeats)")},
        {R"re(^timed rounds done$)re", QT_TRANSLATE_NOOP("CoreText", "timed rounds done")},
    };
    // A scaling sweep puts "depth 8: " before the message of each size.
    static const QRegularExpression scaling(QStringLiteral("^(depth|seq|width|batch) (\\d+): (.*)$"));
    const QRegularExpressionMatch m = scaling.match(QString::fromStdString(message));
    if (m.hasMatch()) {
        QString axis = m.captured(1);
        if (axis == QLatin1String("depth")) axis = CoreText::tr("depth");
        else if (axis == QLatin1String("seq")) axis = CoreText::tr("seq", "sequence length");
        else if (axis == QLatin1String("width")) axis = CoreText::tr("width");
        else axis = CoreText::tr("batch");
        return CoreText::tr("%1 %2: %3")
            .arg(axis, m.captured(2), progressText(m.captured(3).toStdString()));
    }
    return translateShapes(message, shapes, std::size(shapes));
}

}  // namespace ckptlab::ui
