#include "document/sweep_summary.h"

#include <algorithm>

#include <QObject>
#include <QStringList>

#include "charts/chart_style.h"

#include "charts/chart_builders.h"
#include "charts/run_text.h"
#include "ckptlab/model/summary.h"
#include "ckptlab/planning/curve_standing.h"
#include "ckptlab/planning/scaling.h"
#include "ckptlab/planning/sweep_strategies.h"
#include "document/core_text.h"
#include "document/format.h"
#include "document/time_text.h"

namespace ckptlab::ui {

// The fitted exponents of activation memory, one per strategy: the scaling sweep's answer.
QString scalingVerdict(const ResultSet& results) {
    ScalingAxis axis = ScalingAxis::Depth;
    if (!detectScaling(results, &axis)) return {};
    QStringList parts;
    QStringList seen;
    for (const RunResult& run : results.runs) {
        // By name: the runs of several files merged keep their own fits.
        const QString name = QString::fromStdString(run.name());
        if (seen.contains(name)) continue;
        seen << name;
        std::vector<const RunResult*> runs;
        for (const RunResult& other : results.runs)
            if (other.name() == run.name()) runs.push_back(&other);
        const PowerFit fit = fitRuns(runs, axis, ScalingMetric::ActivationBytes);
        if (fit.points >= 2) parts << QObject::tr("%1 k=%2").arg(name).arg(fit.exponent, 0, 'f', 2);
    }
    return QObject::tr("Activation memory ∝ %1^k: %2")
        .arg(scalingAxisText(axis), parts.join(QStringLiteral(", ")));
}

QString outOfMemoryVerdict(const ResultSet& results) {
    QStringList failed;
    int others = 0;
    double limit = 0;
    bool oneLimit = true;
    for (const RunResult& run : results.runs) {
        if (run.out_of_memory) {
            failed << QObject::tr("%1 at %2")
                          .arg(QString::fromStdString(run.name()),
                               whereText(run.out_of_memory->phase, run.out_of_memory->block));
            const double l = run.config.memory_limit_mib;
            if (limit > 0 && l != limit) oneLimit = false;
            limit = l;
        } else if (!run.error) {
            ++others;
        }
    }
    if (failed.isEmpty()) return {};
    const QString where = failed.join(QObject::tr(", ", "between the runs that ran out of memory"));
    const QString fit = QObject::tr("%n other run(s) fit.", nullptr, others);
    // Chinese says 显存 for a GPU's memory and 内存 for the CPU's: the two need their own texts.
    const bool onGpu = std::any_of(results.runs.begin(), results.runs.end(), [](const auto& r) {
        return r.out_of_memory && r.config.device.rfind("cuda", 0) == 0;
    });
    if (oneLimit && limit > 0)
        return (onGpu
                    ? QObject::tr("Under the %1 memory limit, out of memory: %2. %3", "on a GPU")
                    : QObject::tr("Under the %1 memory limit, out of memory: %2. %3", "on the CPU"))
            .arg(formatMiB(limit), where, fit);
    return (onGpu ? QObject::tr("Out of memory: %1. %2", "on a GPU")
                  : QObject::tr("Out of memory: %1. %2", "on the CPU"))
        .arg(where, fit);
}

namespace {

// The runner's English note on the timed rounds (timed_rounds.cpp), which roundsText says in
// the user's language from ResultSet::timing.
bool isRoundsNote(const std::string& note) {
    return note.rfind("adaptive repeats: ", 0) == 0 ||
           note.rfind("cancelled before a timed round ended", 0) == 0 ||
           note.rfind("cancelled after ", 0) == 0;
}

// What stopped the rounds, when something other than the fixed repeats did.
QString roundsVerdict(const ResultSet& results) {
    if (!results.timing || results.timing->stopped_by == RoundsStop::Repeats) return {};
    return roundsText(*results.timing);
}

}  // namespace

QStringList resultNotes(const ResultSet& results) {
    QStringList lines;
    const QString oom = outOfMemoryVerdict(results);
    if (!oom.isEmpty()) lines << oom;
    const QString noise = noiseVerdict(results);
    if (!noise.isEmpty()) lines << noise;
    const QString rounds = roundsVerdict(results);
    if (!rounds.isEmpty()) lines << rounds;
    // The runner's note on kept gradients (keep_grads), said in the user's language.
    const bool keptGradients = std::any_of(results.runs.begin(), results.runs.end(),
                                           [](const RunResult& r) { return r.config.keep_grads; });
    if (keptGradients)
        lines << QObject::tr(
            "No predictions for runs that start with kept gradients: the cost "
            "model replays a step that starts without them.");
    for (const std::string& note : results.notes) {
        if (!rounds.isEmpty() && isRoundsNote(note)) continue;  // said above, translated
        if (keptGradients && note.rfind("no predictions for runs that start with kept", 0) == 0)
            continue;
        lines << QObject::tr("Note: %1").arg(QString::fromStdString(note));
    }
    return lines;
}

// Hand-written strategies landed against the optimal curve (predicted,
// at each one's own peak).
QString paretoVerdict(const ResultSet& results) {
    int onCurve = 0;
    int above = 0;
    QStringList below;
    double worst = 0;
    QString worstName;
    const std::vector<SummaryRow> rows = summarize(results);
    for (const HandWrittenStanding& s : standingsAgainstOptimal(results, rows)) {
        const SummaryRow& row = rows[s.row];
        const double slower = s.slower_pct;
        switch (s.standing) {
        case CurveStanding::Below: below << QString::fromStdString(row.strategy.name()); break;
        case CurveStanding::OnCurve: ++onCurve; break;
        case CurveStanding::Above: ++above; break;
        }
        if (slower > worst) {
            worst = slower;
            worstName = QString::fromStdString(row.strategy.name());
        }
    }
    if (!below.isEmpty())
        return QObject::tr("BELOW the optimal curve: %1 (the planner or cost model is wrong)")
            .arg(below.join(QStringLiteral(", ")));
    QString text =
        QObject::tr("Hand-written: %1 on the optimal curve, %2 above it").arg(onCurve).arg(above);
    if (!worstName.isEmpty())
        text += QObject::tr(" (%1 farthest: optimal is %2 % faster at its peak)")
                    .arg(worstName)
                    .arg(worst, 0, 'f', 0);
    return text;
}

QString sweepStartMessage(SweepKind kind, int strategies, int sizes) {
    switch (kind) {
    case SweepKind::Pareto: return QObject::tr("Measuring the cost model for the Pareto curve…");
    case SweepKind::Scaling:
        return QObject::tr("Preparing a scaling sweep over %n size(s)…", nullptr, sizes);
    case SweepKind::Sweep: break;
    }
    return QObject::tr("Preparing %n strategie(s)…", nullptr, strategies);
}

QString sweepEndMessage(SweepKind kind, bool cancelled, int runs, double elapsedSeconds,
                        const ResultSet& results) {
    const QString elapsed = formatDuration(elapsedSeconds);
    QString message =
        cancelled ? QObject::tr("Cancelled after %n run(s), %1", nullptr, runs).arg(elapsed)
                  : QObject::tr("Sweep finished: %n run(s) in %1", nullptr, runs).arg(elapsed);
    if (kind == SweepKind::Pareto && !cancelled)
        message += QStringLiteral(". ") + paretoVerdict(results);
    if (kind == SweepKind::Scaling && !cancelled)
        message += QStringLiteral(". ") + scalingVerdict(results);
    if (runs > 0) {
        const QString oom = outOfMemoryVerdict(results);
        if (!oom.isEmpty()) message += QStringLiteral(". ") + oom;
        // A noisy machine and what stopped adaptive repeats (noise.h, ResultSet::timing).
        const QString noise = noiseVerdict(results);
        if (!noise.isEmpty()) message += QStringLiteral(". ") + noise;
        const QString rounds = roundsVerdict(results);
        if (!rounds.isEmpty()) message += QStringLiteral(". ") + rounds;
    }
    return message;
}

}  // namespace ckptlab::ui
