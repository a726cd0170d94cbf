#include "sweep_summary.h"

#include <QObject>
#include <QStringList>

#include "charts/chart_builders.h"
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
