#include "document/sweep_summary.h"

#include <QObject>
#include <QStringList>

#include "charts/chart_style.h"

#include "charts/chart_builders.h"
#include "charts/run_text.h"
#include "ckptlab/scaling.h"
#include "ckptlab/summary.h"

namespace ckptlab::ui {

// The fitted exponents of activation memory, one per strategy: the scaling sweep's answer.
QString scalingVerdict(const ResultSet& results)
{
    ScalingAxis axis = ScalingAxis::Depth;
    if (!detectScaling(results, &axis))
        return {};
    QStringList parts;
    QStringList seen;
    for (const RunResult& run : results.runs) {
        const QString name = QString::fromStdString(run.strategy);
        if (seen.contains(name))
            continue;
        seen << name;
        const PowerFit fit = fitRuns(results, run.strategy, axis, ScalingMetric::ActivationBytes);
        if (fit.points >= 2)
            parts << QObject::tr("%1 k=%2").arg(name).arg(fit.exponent, 0, 'f', 2);
    }
    return QObject::tr("Activation memory ∝ %1^k: %2")
        .arg(QString::fromStdString(toString(axis)), parts.join(QStringLiteral(", ")));
}

QString outOfMemoryVerdict(const ResultSet& results)
{
    QStringList failed;
    int others = 0;
    double limit = 0;
    bool oneLimit = true;
    for (const RunResult& run : results.runs) {
        if (run.out_of_memory) {
            failed << QObject::tr("%1 at %2")
                          .arg(QString::fromStdString(run.strategy),
                               whereText(run.out_of_memory->phase, run.out_of_memory->block));
            const double l = run.config.memory_limit_mib;
            if (limit > 0 && l != limit)
                oneLimit = false;
            limit = l;
        } else if (!run.error) {
            ++others;
        }
    }
    if (failed.isEmpty())
        return {};
    const QString where = failed.join(QStringLiteral(", "));
    const QString fit = QObject::tr("%n other run(s) fit.", nullptr, others);
    if (oneLimit && limit > 0)
        return QObject::tr("Under the %1 memory limit, out of memory: %2. %3")
            .arg(formatMiB(limit), where, fit);
    return QObject::tr("Out of memory: %1. %2").arg(where, fit);
}

QStringList resultNotes(const ResultSet& results)
{
    QStringList lines;
    const QString oom = outOfMemoryVerdict(results);
    if (!oom.isEmpty())
        lines << oom;
    for (const std::string& note : results.notes)
        lines << QObject::tr("Note: %1").arg(QString::fromStdString(note));
    return lines;
}

// Hand-written strategies landed against the optimal curve (predicted,
// at each one's own peak).
QString paretoVerdict(const ResultSet& results)
{
    int onCurve = 0;
    int above = 0;
    QStringList below;
    double worst = 0;
    QString worstName;
    const std::vector<SummaryRow> rows = summarize(results);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const SummaryRow& row = rows[i];
        if (results.runs[i].strategy.rfind("optimal:", 0) == 0 || !row.slower_than_optimal_pct)
            continue;
        const double slower = *row.slower_than_optimal_pct;
        if (slower < -1e-6)
            below << QString::fromStdString(row.strategy);
        else if (slower < 0.05)
            ++onCurve;
        else
            ++above;
        if (slower > worst) {
            worst = slower;
            worstName = QString::fromStdString(row.strategy);
        }
    }
    if (!below.isEmpty())
        return QObject::tr("BELOW the optimal curve: %1 (the planner or cost model is wrong)")
            .arg(below.join(QStringLiteral(", ")));
    QString text = QObject::tr("Hand-written: %1 on the optimal curve, %2 above it")
                       .arg(onCurve).arg(above);
    if (!worstName.isEmpty())
        text += QObject::tr(" (%1 farthest: optimal is %2 % faster at its peak)")
                    .arg(worstName).arg(worst, 0, 'f', 0);
    return text;
}

}  // namespace ckptlab::ui
