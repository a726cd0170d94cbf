#pragma once
// How sure a step time is, in the user's language: the median with its interval, the time added
// against `none` ("≈ 0 [−4.1, +6.3] %" within noise), why a ratio is left blank, the noisy
// machine's warnings (core noise.h) and what stopped the timed rounds. For the table, the
// status bar and the notes under the table; never says one time beats another within noise.

#include <QCoreApplication>
#include <QString>
#include <QStringList>
#include <optional>

#include "ckptlab/model/noise.h"
#include "ckptlab/model/summary.h"

namespace ckptlab::ui {

class TimeText {
    Q_DECLARE_TR_FUNCTIONS(TimeText)
};

// "457.2 [454.9, 466.0]", with a '*' when the range is only the min-max of fewer than 6
// samples; the median alone without an interval (or when all samples are equal).
QString stepIntervalText(const SummaryRow& row);
// What the interval is: "95% distribution-free interval of the median from 12 samples taken in
// interleaved rounds" (or the min-max range of fewer than 6), with the CV and the fastest.
QString stepIntervalToolTip(const SummaryRow& row, int samples);
// "3.4 %"; "—" without samples.
QString cvText(const SummaryRow& row);
// "≈ 0 [−4.1, +6.3] %" within noise, "+12.3 [+8.1, +16.0] %" outside it, "+12.3 %" without
// intervals, "—" without a baseline.
QString timeAddedText(const SummaryRow& row);
QString timeAddedToolTip(const SummaryRow& row);
// Why "Saved / added" is blank, or what it means; empty when nothing needs saying.
QString savedPerAddedToolTip(const SummaryRow& row);
// A signed percentage with a real minus sign: "+6.3", "−4.1", "0.0".
QString signedPercentNumber(double value);

// One warning (noise.h) as a short phrase: "CV of full 14 %", "CPU steal 5.1 %",
// "load 4.5 on 2 CPUs".
QString noiseWarningText(const NoiseWarning& warning);
// "Noisy machine: CV of full 14 %; load 4.5 on 2 CPUs", then the generic-BLAS-kernel warning as
// a sentence of its own; empty for a quiet machine on fitting kernels.
QString noiseVerdict(const ResultSet& results);
// "12 interleaved rounds in 8.3 s; adaptive repeats stopped by precision (every median's
// interval within ±5 %)"; empty without ResultSet::timing.
QString roundsText(const TimingRounds& timing);

}  // namespace ckptlab::ui
