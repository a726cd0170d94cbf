#include "teaching/lesson_strings.h"

#include <QDateTime>
#include <cmath>

#include "charts/chart_export.h"
#include "ckptlab/teaching/lesson_time_checks.h"

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

QString lessonTitleText(const Lesson& lesson, const LessonResults& results, const QString& lang) {
    // A lesson-level text names no step: its words come from the lesson's first recorded step.
    return qs(fillPlaceholders(lesson.title.in(lang.toStdString()), lesson, {}, results,
                               lang.toStdString()));
}

QString stepCounter(int index, int count) {
    return LessonStrings::tr("Step %1 of %2").arg(index + 1).arg(count);
}

QString experimentSummary(const LessonStep& step, bool fullConfig) {
    const LessonExperiment& e = step.experiment;
    // Timed as its recording and a live run time it (adaptive repeats), not as the file says.
    const QString model =
        fullConfig ? describeConfig(timedAsLesson(e.config)) : shortConfig(e.config);
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

QString measuredNumber(double value) {
    const double whole = std::round(value);
    if (std::abs(value - whole) < 1e-9 && std::abs(whole) < 1e15)
        return QString::number(qint64(whole));
    return QString::number(value, 'f', 1);
}

QString numberComparison(std::optional<double> predicted, std::optional<double> measured,
                         const QString& unit) {
    // The unit stands after its number with a space ("38.2 %", "12 MiB"), in both languages.
    if (!measured)
        return predicted ? LessonStrings::tr(
                               "You predicted %1 %2; the measurement has no value "
                               "for it yet (run the step live).")
                               .arg(measuredNumber(*predicted), unit)
                         : LessonStrings::tr(
                               "The measurement has no value for this prediction "
                               "yet (run the step live).");
    if (!predicted)
        return LessonStrings::tr("No prediction; measured %1 %2.")
            .arg(measuredNumber(*measured), unit);
    return LessonStrings::tr("You predicted %1 %2; measured %3 %2.")
        .arg(measuredNumber(*predicted), unit, measuredNumber(*measured));
}

QString choiceComparison(const QString& chosen, const QString& right) {
    // The words are escaped and the choices, already HTML, go in as they are.
    if (right.isEmpty())
        return chosen.isEmpty() ? LessonStrings::tr(
                                      "The measurement does not decide between the "
                                      "choices yet (run the step live).")
                                      .toHtmlEscaped()
                                : LessonStrings::tr(
                                      "You chose %1; the measurement does not "
                                      "decide between the choices yet.")
                                      .toHtmlEscaped()
                                      .arg(chosen);
    if (chosen.isEmpty())
        return LessonStrings::tr("No prediction; the measurement says %1.")
            .toHtmlEscaped()
            .arg(right);
    return LessonStrings::tr("You chose %1; the measurement says %2.")
        .toHtmlEscaped()
        .arg(chosen, right);
}

QString pathTitle(const LessonPath& path, const QString& lang) {
    return LessonStrings::tr("%1 (%2 min)")
        .arg(localized(path.title, lang))
        .arg(path.totalMinutes());
}

QString pathTiming(const LessonPath& path, int entry) {
    const int total = path.totalMinutes();
    const int count = int(path.entries.size());
    if (entry < 0 || entry >= count)
        return LessonStrings::tr(
                   "This step is not on the path (%1 min in all); Next goes back "
                   "to it.")
            .arg(total);
    int done = 0;
    for (int i = 0; i < entry; ++i) done += path.entries[size_t(i)].minutes;
    return LessonStrings::tr("Path step %1/%2: %3 min · %4 min done, %5 min left")
        .arg(entry + 1)
        .arg(count)
        .arg(path.entries[size_t(entry)].minutes)
        .arg(done)
        .arg(total - done);
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
