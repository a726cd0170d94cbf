#include "teaching/lesson_strings.h"

#include <QDateTime>

#include "charts/chart_export.h"

namespace ckptlab::ui {

namespace {

QString qs(const std::string& text) { return QString::fromStdString(text); }

QString joined(const std::vector<Strategy>& strategies) {
    QStringList list;
    for (const Strategy& strategy : strategies) list << qs(strategy.name());
    return list.join(QStringLiteral(", "));
}

QString shortConfig(const ExperimentConfig& c) {
    QString text = LessonStrings::tr("%1 model, %2 blocks, width %3, seq %4, batch %5")
                       .arg(qs(toString(c.block)))
                       .arg(c.depth)
                       .arg(c.width)
                       .arg(c.seq)
                       .arg(c.batch);
    if (c.keep_grads) text = LessonStrings::tr("%1, previous step's gradients kept").arg(text);
    if (c.memory_limit_mib > 0)
        text = LessonStrings::tr("%1, device capacity %2 MiB").arg(text).arg(c.memory_limit_mib);
    return text;
}

QString dateOf(const std::string& utc) {
    const QDateTime when = QDateTime::fromString(qs(utc), Qt::ISODate);
    if (!when.isValid()) return qs(utc);
    return when.date().toString(Qt::ISODate);  // reads the same in every language
}

}  // namespace

QString localized(const LocalizedText& text, const QString& lang) {
    return qs(text.in(lang.toStdString()));
}

QString filledText(const LocalizedText& text, const Lesson& lesson, const LessonStep& step,
                   const LessonResults& results, const QString& lang, QStringList* unresolved) {
    std::vector<std::string> missing;
    const std::string filled = fillPlaceholders(text.in(lang.toStdString()), lesson, step.id,
                                                results, lang.toStdString(), &missing);
    if (unresolved)
        for (const std::string& m : missing) *unresolved << qs(m);
    return qs(filled);
}

QString stepCounter(int index, int count) {
    return LessonStrings::tr("Step %1 of %2").arg(index + 1).arg(count);
}

QString experimentSummary(const LessonStep& step, bool fullConfig) {
    const LessonExperiment& e = step.experiment;
    const QString model = fullConfig ? describeConfig(e.config) : shortConfig(e.config);
    if (e.scaling_axis) {
        QStringList values;
        for (int v : e.scaling_values) values << QString::number(v);
        return LessonStrings::tr("Runs %1 at %2 = %3 on %4")
            .arg(joined(e.strategies), qs(toString(*e.scaling_axis)),
                 values.join(QStringLiteral(", ")), model);
    }
    return LessonStrings::tr("Runs %1 on %2").arg(joined(e.strategies), model);
}

QString sourceDescription(ResultsSource source, const ResultSet* results) {
    switch (source) {
    case ResultsSource::Live: return LessonStrings::tr("Measured live on this machine.");
    case ResultsSource::Recorded:
        if (results)
            return LessonStrings::tr("Recorded on %1 at %2.")
                .arg(qs(results->environment.device_name),
                     dateOf(results->environment.created_utc));
        break;
    case ResultsSource::None: break;
    }
    return LessonStrings::tr("No results for this step yet: press Run live to measure it.");
}

QString machineDescription(const ResultSet& results) {
    const Environment& env = results.environment;
    return LessonStrings::tr("%1 (%2, %n thread(s)), %3", nullptr, env.threads)
        .arg(qs(env.device_name), qs(env.device), dateOf(env.created_utc));
}

QString lessonHtml(const QString& text) {
    const QStringList parts = text.split(QLatin1Char('`'));
    QString html;
    for (int i = 0; i < parts.size(); ++i) {
        const QString escaped = parts[i].toHtmlEscaped();
        // Odd pieces sit between a pair of backticks (an unpaired last one stays plain).
        const bool code = i % 2 == 1 && i + 1 < parts.size();
        html += code ? QStringLiteral("<code>%1</code>").arg(escaped)
                     : (i % 2 == 1 ? QStringLiteral("`") + escaped : escaped);
    }
    return html.replace(QLatin1Char('\n'), QStringLiteral("<br>"));
}

QString lessonPlain(const QString& text) { return QString(text).remove(QLatin1Char('`')); }

}  // namespace ckptlab::ui
