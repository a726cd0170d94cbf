#include "charts/run_text.h"

#include "charts/chart_style.h"
#include "ckptlab/summary.h"

namespace ckptlab::ui {

namespace {
QString percent(const std::optional<double>& value) {
    return value ? QStringLiteral("%1 %").arg(*value, 0, 'f', 1) : QStringLiteral("n/a");
}
}  // namespace

QString gradCheckText(const GradCheck& check) {
    if (!check.checked) return QStringLiteral("gradient check not run");
    const QString diff = QString::number(check.max_abs_diff, 'g', 3);
    if (check.passed()) return QStringLiteral("gradient check passed (max |Δ| %1)").arg(diff);
    return QStringLiteral("gradient check FAILED (max |Δ| %1 > %2)")
        .arg(diff, QString::number(check.tolerance, 'g', 3));
}

QString runTooltip(const RunResult& run, const RunResult* baseline) {
    const SummaryRow row = summarizeRun(run, baseline);
    QStringList lines;
    lines << QString::fromStdString(run.strategy);
    // The chart's own numbers, so the tooltip matches the point's position exactly.
    lines << QStringLiteral("peak %1 · step %2")
                 .arg(formatMiB(double(run.metrics.peak_bytes) / kMiB), formatMs(run.metrics.step_ms));
    lines << QStringLiteral("memory saved %1 · time added %2")
                 .arg(percent(row.memory_saved_pct), percent(row.time_added_pct));
    if (row.saved_per_added)
        lines << QStringLiteral("saved/added ratio %1").arg(*row.saved_per_added, 0, 'f', 2);
    lines << gradCheckText(run.grad_check);
    if (run.prediction) lines << predictionText(run);
    return lines.join(QLatin1Char('\n'));
}

double predictionErrorPct(double predicted, double measured) {
    return measured != 0 ? (predicted - measured) / measured * 100.0 : 0.0;
}

QString predictionText(const RunResult& run) {
    if (!run.prediction) return {};
    const PredictedMetrics& p = *run.prediction;
    auto line = [](const QString& what, const QString& predicted, const QString& measured,
                   double error) {
        return QStringLiteral("predicted %1 %2 · measured %3 (error %4%5 %)")
            .arg(what, predicted, measured, error > 0 ? QStringLiteral("+") : QString())
            .arg(error, 0, 'f', 1);
    };
    QStringList lines;
    lines << line(QStringLiteral("peak"), formatMiB(double(p.peak_bytes) / kMiB),
                  formatMiB(double(run.metrics.peak_bytes) / kMiB),
                  predictionErrorPct(double(p.peak_bytes), double(run.metrics.peak_bytes)));
    lines << line(QStringLiteral("activations"), formatMiB(double(p.activation_bytes) / kMiB),
                  formatMiB(double(run.metrics.activation_bytes) / kMiB),
                  predictionErrorPct(double(p.activation_bytes),
                                     double(run.metrics.activation_bytes)));
    lines << line(QStringLiteral("step"), formatMs(p.step_ms), formatMs(run.metrics.step_ms),
                  predictionErrorPct(p.step_ms, run.metrics.step_ms));
    return lines.join(QLatin1Char('\n'));
}

}  // namespace ckptlab::ui
