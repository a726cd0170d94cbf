#include "document/comparison_text.h"

#include <QLocale>

#include "base/config_field_text.h"

namespace ckptlab::ui {

namespace {

QString labelOf(const Comparison& c, int source) {
    return source >= 0 && source < int(c.sources.size())
               ? QString::fromStdString(c.sources[size_t(source)].label)
               : QString();
}

QString differenceLine(const Comparison& c, const ConfigDifference& d) {
    QStringList values;
    for (size_t s = 0; s < d.values.size() && s < c.sources.size(); ++s)
        values << ComparisonText::tr("%1 in %2", "a config value in one file")
                      .arg(d.values[s].empty() ? ComparisonText::tr("no runs")
                                               : QString::fromStdString(d.values[s]),
                           labelOf(c, int(s)));
    const QString field = configFieldLabel(d.field);
    const QString list = QLocale().createSeparatedList(values);
    return d.changes_work
               ? ComparisonText::tr(
                     "%1 differs: %2. It changes the work itself, so these files' memory and "
                     "time do not compare run by run.")
                     .arg(field, list)
               : ComparisonText::tr("%1 differs: %2.").arg(field, list);
}

QString noteLine(const Comparison& c, const ComparisonNote& n) {
    const QString first = labelOf(c, n.sources.empty() ? -1 : n.sources.front());
    const QString second = labelOf(c, n.sources.size() > 1 ? n.sources[1] : -1);
    const QString row = QString::fromStdString(n.row);
    switch (n.kind) {
    case NoteKind::NoRuns: return ComparisonText::tr("%1 holds no runs.").arg(first);
    case NoteKind::Cancelled:
        return ComparisonText::tr("The sweep of %1 was cancelled: some of its runs may be missing.")
            .arg(first);
    case NoteKind::MissingRun:
        return ComparisonText::tr("%1 is not in %2: nothing to compare it with there.")
            .arg(row, first);
    case NoteKind::WorkDiffers:
        return ComparisonText::tr(
                   "Memory and time do not compare between %1 and %2: their runs differ in the "
                   "work (model shape, dtype, optimizer or kept gradients).")
            .arg(first, second);
    case NoteKind::OtherDevice:
        return ComparisonText::tr(
                   "%1 and %2 are different machines: their step times compare only as a ratio "
                   "of the same work, not as a property of a strategy.")
            .arg(second, first);
    case NoteKind::ThreadsDiffer:
        return ComparisonText::tr(
                   "%1 ran with another thread count than %2 on the same machine: the step "
                   "times include it.")
            .arg(second, first);
    case NoteKind::Failed:
        return ComparisonText::tr("%1 failed in %2: not compared.").arg(row, first);
    case NoteKind::OutOfMemory:
        return ComparisonText::tr("%1 ran out of memory in %2: not compared.").arg(row, first);
    case NoteKind::Infeasible:
        return ComparisonText::tr(
                   "%1 has no schedule at the size %2 plans for (its budget is below the least "
                   "peak): not compared.")
            .arg(row, first);
    case NoteKind::GradCheck:
        return ComparisonText::tr(
                   "%1 in %2 did not pass its gradient check: its numbers are shown, but it did "
                   "not compute the right gradients.")
            .arg(row, first);
    case NoteKind::DuplicateRun:
        return ComparisonText::tr("%1 appears more than once in %2: the first run is compared.")
            .arg(row, first);
    }
    return QString::fromStdString(n.text);
}

}  // namespace

QStringList comparisonLines(const Comparison& comparison) {
    QStringList lines;
    for (const ConfigDifference& d : comparison.differences) lines << differenceLine(comparison, d);
    for (const ComparisonNote& n : comparison.notes) lines << noteLine(comparison, n);
    return lines;
}

}  // namespace ckptlab::ui
