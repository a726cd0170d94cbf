#include "charts/run_text.h"

#include <QCoreApplication>
#include <cmath>

#include "charts/chart_style.h"
#include "ckptlab/model/summary.h"

namespace ckptlab::ui {

namespace {
QString percent(const std::optional<double>& value) {
    return value ? QStringLiteral("%1 %").arg(*value, 0, 'f', 1) : ChartText::tr("n/a");
}
}  // namespace

QString gradCheckText(const GradCheck& check) {
    if (!check.checked) return ChartText::tr("gradient check not run");
    const QString diff = QString::number(check.max_abs_diff, 'g', 3);
    if (check.passed()) return ChartText::tr("gradient check passed (max |Δ| %1)").arg(diff);
    return ChartText::tr("gradient check FAILED (max |Δ| %1 > %2)")
        .arg(diff, QString::number(check.tolerance, 'g', 3));
}

QString whereText(Phase phase, int block) {
    QString name;
    switch (phase) {
    case Phase::Forward: name = QCoreApplication::translate("ckptlab", "forward"); break;
    case Phase::Loss: name = QCoreApplication::translate("ckptlab", "loss"); break;
    case Phase::Recompute: name = QCoreApplication::translate("ckptlab", "recompute"); break;
    case Phase::Backward: name = QCoreApplication::translate("ckptlab", "backward"); break;
    case Phase::Optimizer: name = QCoreApplication::translate("ckptlab", "optimizer step"); break;
    case Phase::Idle: name = QCoreApplication::translate("ckptlab", "the start of the step"); break;
    }
    if (isChainEnd(block)) return chainEndPhaseText(name, block);
    if (block < 0) return name;
    //: %1 is a phase of the step (forward, backward, ...), %2 a block number
    return QCoreApplication::translate("ckptlab", "%1 of block %2").arg(name).arg(block);
}

bool isChainEnd(int block) { return block == kEmbeddingBlock || block == kHeadBlock; }

QString chainEndName(int block) {
    if (block == kEmbeddingBlock) return ChartText::tr("embedding", "the chain's token embedding");
    if (block == kHeadBlock)
        return ChartText::tr("LM head", "the chain's final norm, head and loss");
    return {};
}

QString chainEndPhaseText(const QString& phase, int block) {
    //: %1 is a phase of the step (forward, backward, ...)
    if (block == kEmbeddingBlock)
        return QCoreApplication::translate("ckptlab", "%1 of the embedding").arg(phase);
    //: %1 is a phase of the step (forward, backward, ...); the LM head is the chain's last part
    if (block == kHeadBlock)
        return QCoreApplication::translate("ckptlab", "%1 of the LM head").arg(phase);
    return {};
}

QString outOfMemoryText(const OutOfMemory& oom) {
    return QCoreApplication::translate("ckptlab", "out of memory at %1")
        .arg(whereText(oom.phase, oom.block));
}

QString outOfMemoryDetails(const RunResult& run) {
    if (!run.out_of_memory) return run.error ? QString::fromStdString(*run.error) : QString();
    const OutOfMemory& oom = *run.out_of_memory;
    auto mib = [](std::int64_t bytes) { return formatMiB(double(bytes) / kMiB); };
    QStringList lines;
    lines << QCoreApplication::translate("ckptlab", "%1 ran out of memory at %2, %3 into the step:")
                 .arg(QString::fromStdString(run.name()), whereText(oom.phase, oom.block),
                      formatMs(oom.t_ms));
    lines << (oom.limit_bytes > 0
                  ? QCoreApplication::translate("ckptlab",
                                                "it tried to allocate %1 with %2 allocated, over "
                                                "the %3 limit.")
                        .arg(mib(oom.requested_bytes), mib(oom.allocated_bytes),
                             mib(oom.limit_bytes))
                  : QCoreApplication::translate("ckptlab",
                                                "it tried to allocate %1 with %2 allocated, and "
                                                "the allocator failed.")
                        .arg(mib(oom.requested_bytes), mib(oom.allocated_bytes)));
    lines << QCoreApplication::translate("ckptlab",
                                         "Peak %1 above the step's start: the highest it reached "
                                         "before it stopped.")
                 .arg(mib(run.metrics.peak_bytes));
    lines << QCoreApplication::translate("ckptlab", "Not timed; gradients not checked.");
    return lines.join(QLatin1Char('\n'));
}

double capacityAboveStartMiB(const std::vector<const RunResult*>& runs) {
    double limit = 0;
    std::int64_t baseline = -1;
    for (const RunResult* run : runs) {
        const double l = run->config.memory_limit_mib;
        if (!(l > 0)) return 0;  // a run without a limit: no single capacity
        if (limit > 0 && l != limit) return 0;
        limit = l;
        // A run that failed before its trace has no baseline; the others say it.
        if (run->metrics.baseline_bytes <= 0) continue;
        if (baseline >= 0 && run->metrics.baseline_bytes != baseline) return 0;
        baseline = run->metrics.baseline_bytes;
    }
    if (!(limit > 0) || baseline < 0) return 0;
    const double capacity = limit - double(baseline) / kMiB;
    return std::isfinite(capacity) && capacity > 0 ? capacity : 0;
}

QString runTooltip(const RunResult& run, const RunResult* baseline) {
    const SummaryRow row = summarizeRun(run, baseline);
    QStringList lines;
    lines << QString::fromStdString(run.name());
    // The chart's own numbers, so the tooltip matches the point's position exactly.
    lines << ChartText::tr("peak %1 · step %2")
                 .arg(formatMiB(double(run.metrics.peak_bytes) / kMiB),
                      formatMs(run.metrics.step_ms));
    if (row.time_within_noise.value_or(false) && row.time_added_low_pct && row.time_added_high_pct)
        // The intervals overlap none's: no sign to claim (summary.h).
        lines << ChartText::tr("memory saved %1 · time added ≈ 0 [%2, %3] % (within noise)")
                     .arg(percent(row.memory_saved_pct))
                     .arg(*row.time_added_low_pct, 0, 'f', 1)
                     .arg(*row.time_added_high_pct, 0, 'f', 1);
    else
        lines << ChartText::tr("memory saved %1 · time added %2")
                     .arg(percent(row.memory_saved_pct), percent(row.time_added_pct));
    if (row.saved_per_added)
        lines << ChartText::tr("saved/added ratio %1").arg(*row.saved_per_added, 0, 'f', 2);
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
    auto line = [](const QString& format, const QString& predicted, const QString& measured,
                   double error) {
        const QString signedError =
            (error > 0 ? QStringLiteral("+") : QString()) + QString::number(error, 'f', 1);
        return format.arg(predicted, measured, signedError);
    };
    QStringList lines;
    lines << line(ChartText::tr("predicted peak %1 · measured %2 (error %3 %)"),
                  formatMiB(double(p.peak_bytes) / kMiB),
                  formatMiB(double(run.metrics.peak_bytes) / kMiB),
                  predictionErrorPct(double(p.peak_bytes), double(run.metrics.peak_bytes)));
    lines << line(
        ChartText::tr("predicted activations %1 · measured %2 (error %3 %)"),
        formatMiB(double(p.activation_bytes) / kMiB),
        formatMiB(double(run.metrics.activation_bytes) / kMiB),
        predictionErrorPct(double(p.activation_bytes), double(run.metrics.activation_bytes)));
    lines << line(ChartText::tr("predicted step %1 · measured %2 (error %3 %)"),
                  formatMs(p.step_ms), formatMs(run.metrics.step_ms),
                  predictionErrorPct(p.step_ms, run.metrics.step_ms));
    return lines.join(QLatin1Char('\n'));
}

}  // namespace ckptlab::ui
