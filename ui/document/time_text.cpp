#include "document/time_text.h"

#include <cmath>

#include "ckptlab/model/step_stats.h"
#include "document/format.h"

namespace ckptlab::ui {

namespace {

bool hasRange(const SummaryRow& row) {
    return row.step_ci_low_ms && row.step_ci_high_ms && *row.step_ci_low_ms != *row.step_ci_high_ms;
}

}  // namespace

QString signedPercentNumber(double value) {
    const QString digits = formatDecimals(std::abs(value), 1);
    if (digits == QLatin1String("0.0")) return digits;
    return (value < 0 ? QStringLiteral("−") : QStringLiteral("+")) + digits;
}

QString stepIntervalText(const SummaryRow& row) {
    if (!std::isfinite(row.step_ms)) return QStringLiteral("—");
    if (!row.step_ci_low_ms) return formatDecimals(row.step_ms, 2);  // a file without samples
    if (!hasRange(row)) return formatDecimals(row.step_ms, 1);
    return TimeText::tr("%1 [%2, %3]%4", "a median step time and its interval")
        .arg(formatDecimals(row.step_ms, 1), formatDecimals(*row.step_ci_low_ms, 1),
             formatDecimals(*row.step_ci_high_ms, 1),
             row.step_ci_95 ? QString() : QStringLiteral("*"));
}

QString stepIntervalToolTip(const SummaryRow& row, int samples) {
    if (!std::isfinite(row.step_ms)) return TimeText::tr("Not timed");
    QString tip;
    if (!row.step_ci_low_ms) {
        tip = TimeText::tr("Median of the timed repeats (no samples kept in this file)");
    } else if (row.step_ci_95) {
        tip = TimeText::tr(
                  "Median %1 ms; [%2, %3] is the 95% distribution-free interval of the "
                  "median (order statistics) from %4 samples taken in interleaved "
                  "rounds, one step of every strategy per round")
                  .arg(formatDecimals(row.step_ms, 1), formatDecimals(*row.step_ci_low_ms, 1),
                       formatDecimals(*row.step_ci_high_ms, 1))
                  .arg(samples);
    } else {
        tip = TimeText::tr(
                  "Median %1 ms; * [%2, %3] is only the min–max range of %4 samples: "
                  "fewer than %5 give no 95% interval of the median. Set more repeats "
                  "or Repeats: auto")
                  .arg(formatDecimals(row.step_ms, 1), formatDecimals(*row.step_ci_low_ms, 1),
                       formatDecimals(*row.step_ci_high_ms, 1))
                  .arg(samples)
                  .arg(kAutoMinRounds);
    }
    if (row.step_cv_pct)
        tip +=
            QLatin1Char('\n') +
            TimeText::tr("Coefficient of variation %1 %, fastest repeat %2 ms")
                .arg(formatDecimals(*row.step_cv_pct, 1), formatDecimals(row.step_fastest_ms, 1));
    return tip;
}

QString cvText(const SummaryRow& row) {
    if (!row.step_cv_pct || !std::isfinite(row.step_ms)) return QStringLiteral("—");
    return TimeText::tr("%1 %").arg(formatDecimals(*row.step_cv_pct, 1));
}

QString timeAddedText(const SummaryRow& row) {
    if (!row.time_added_pct) return QStringLiteral("—");
    if (!row.time_within_noise || !row.time_added_low_pct || !row.time_added_high_pct)
        return TimeText::tr("%1 %").arg(formatDecimals(*row.time_added_pct, 1));  // no intervals
    const QString low = signedPercentNumber(*row.time_added_low_pct);
    const QString high = signedPercentNumber(*row.time_added_high_pct);
    if (*row.time_within_noise)
        return TimeText::tr("≈ 0 [%1, %2] %", "time added within noise, with its range")
            .arg(low, high);
    return TimeText::tr("%1 [%2, %3] %", "time added with its range")
        .arg(signedPercentNumber(*row.time_added_pct), low, high);
}

QString timeAddedToolTip(const SummaryRow& row) {
    if (!row.time_added_pct) return {};
    if (!row.time_within_noise || !row.time_added_low_pct || !row.time_added_high_pct)
        return TimeText::tr("Median step time against none's, in % of none's median");
    const QString range = TimeText::tr(
                              "[%1, %2] % runs from this run's interval low less none's "
                              "high to its high less none's low (in % of none's median)")
                              .arg(signedPercentNumber(*row.time_added_low_pct),
                                   signedPercentNumber(*row.time_added_high_pct));
    if (*row.time_within_noise)
        return TimeText::tr(
                   "Within noise: the step-time intervals of this run and none overlap, "
                   "so whether it is slower or faster is not known (the medians differ "
                   "by %1 %).\n%2")
            .arg(signedPercentNumber(*row.time_added_pct), range);
    return TimeText::tr(
               "Outside noise: the step-time intervals of this run and none do not "
               "overlap.\n%1")
        .arg(range);
}

QString savedPerAddedToolTip(const SummaryRow& row) {
    if (row.saved_per_added)
        return TimeText::tr("Memory saved % per time added % (higher is better)");
    if (row.time_within_noise.value_or(false))
        return TimeText::tr(
            "No ratio: the time added is within noise (the step-time intervals "
            "overlap none's), and a ratio over a time that may be 0 means "
            "nothing");
    if (row.time_added_pct && *row.time_added_pct <= 0)
        return TimeText::tr("No ratio: this run adds no time against none");
    return TimeText::tr("Memory saved % per time added % (higher is better)");
}

QString noiseWarningText(const NoiseWarning& w) {
    switch (w.kind) {
    case NoiseWarning::Kind::Cv:
        return TimeText::tr("CV of %1 %2 %")
            .arg(QString::fromStdString(w.strategy), formatDecimals(w.value, 0));
    case NoiseWarning::Kind::Steal:
        return TimeText::tr("CPU steal %1 %").arg(formatDecimals(w.value, 1));
    case NoiseWarning::Kind::Load:
        return TimeText::tr("load %1 on %n CPU(s)", nullptr, int(w.threshold))
            .arg(formatDecimals(w.value, 1));
    case NoiseWarning::Kind::GenericBlasKernel:
        return TimeText::tr(
                   "OpenBLAS ran its generic %1 kernels on a CPU with %2: matmuls are "
                   "several times slower than this machine can do")
            .arg(QString::fromStdString(w.kernel), QString::fromStdString(w.instructions));
    }
    return QString::fromStdString(w.message);
}

QString noiseVerdict(const ResultSet& results) {
    QStringList parts;
    QString slowKernels;  // not noise: every time is slower alike, so said on its own
    for (const NoiseWarning& w : noiseWarnings(results)) {
        if (w.kind == NoiseWarning::Kind::GenericBlasKernel)
            slowKernels = noiseWarningText(w);
        else
            parts << noiseWarningText(w);
    }
    QStringList verdict;
    if (!parts.isEmpty())
        verdict << TimeText::tr("Noisy machine: %1").arg(parts.join(QStringLiteral("; ")));
    if (!slowKernels.isEmpty()) verdict << slowKernels;
    return verdict.join(QStringLiteral(". "));
}

QString roundsText(const TimingRounds& t) {
    const QString taken = TimeText::tr("%n interleaved round(s) in %1", nullptr, t.rounds)
                              .arg(formatDuration(t.seconds));
    switch (t.stopped_by) {
    case RoundsStop::Precision:
        return TimeText::tr(
                   "%1; adaptive repeats stopped by precision: every median's interval "
                   "within ±%2 %")
            .arg(taken)
            .arg(kAutoPrecision * 100, 0, 'f', 0);
    case RoundsStop::TimeLimit:
        return TimeText::tr(
                   "%1; adaptive repeats stopped by the %2 time limit before every "
                   "median's interval was within ±%3 %")
            .arg(taken, formatDuration(t.time_limit_s))
            .arg(kAutoPrecision * 100, 0, 'f', 0);
    case RoundsStop::RoundLimit:
        return TimeText::tr("%1; adaptive repeats stopped by the limit of %2 rounds")
            .arg(taken)
            .arg(qlonglong(limits::repeats.max));
    case RoundsStop::Cancelled:
        return t.rounds == 0
                   ? TimeText::tr(
                         "Cancelled before a timed round ended: memory "
                         "measured, times not")
                   : TimeText::tr("Cancelled after %1: times are over those rounds").arg(taken);
    case RoundsStop::Repeats:
    case RoundsStop::Continue: break;
    }
    return taken;
}

}  // namespace ckptlab::ui
