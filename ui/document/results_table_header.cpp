// The summary table's column headers and their tooltips (ResultsTableModel::headerData), and
// the reserved peak's tooltip of each row.
#include "document/results_table_model.h"

#include "document/format.h"

namespace ckptlab::ui {

QVariant ResultsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    if (section == SourceColumn) {
        if (role == Qt::DisplayRole) return tr("Source");
        if (role == Qt::ToolTipRole)
            return tr(
                "The machine of the results file the run comes from (its file's name too "
                "when two files were made on the same machine)");
        return {};
    }
    if (role == Qt::DisplayRole) {
        switch (section) {
        case StrategyColumn: return tr("Strategy");
        case PeakMiBColumn: return tr("Peak (MiB)");
        case PredictedPeakColumn: return tr("Predicted peak");
        case PeakErrorColumn: return tr("Peak error");
        case ReservedPeakColumn: return tr("Reserved peak (MiB)");
        case ActivationsMiBColumn: return tr("Activations (MiB)");
        case StepMsColumn: return tr("Step (ms) [95% CI]");
        case StepCvColumn: return tr("CV");
        case GflopsColumn: return tr("GFLOP/s");
        case FastestStepColumn: return tr("Fastest (ms)");
        case PredictedStepColumn: return tr("Predicted step");
        case StepErrorColumn: return tr("Step error");
        case SlowerThanOptimalColumn: return tr("vs optimal");
        case MemorySavedColumn: return tr("Memory saved");
        case TimeAddedColumn: return tr("Time added");
        case SavedPerAddedColumn: return tr("Saved / added");
        case GradCheckColumn: return tr("Gradient check");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case PeakMiBColumn: return tr("Highest allocation above the step's start");
        case ReservedPeakColumn:
            return tr(
                "What the caching allocator held from the device at its peak, cached free "
                "blocks included: on a GPU, the memory that runs out. Whole, with parameters, "
                "input and optimizer state, where Peak counts only what the step added. — "
                "with the system allocator and in older files");
        case StepMsColumn:
            return tr(
                "Median of the timed repeats and, in brackets, its 95% distribution-free "
                "interval (order statistics of the samples, taken in interleaved rounds); "
                "* marks a min–max range of fewer than 6 samples");
        case StepCvColumn:
            return tr(
                "Coefficient of variation of the timed repeats: their spread in % of the "
                "mean");
        case GflopsColumn:
            return tr(
                "Matmul work of one step (forward, recompute, backward) over the median "
                "step time");
        case TimeAddedColumn:
            return tr(
                "Median step time against none's, with the range of the difference; "
                "≈ 0 when the two intervals overlap (within noise)");
        case SavedPerAddedColumn:
            return tr(
                "Memory saved % per time added %; blank when the time added is within "
                "noise or not positive");
        case FastestStepColumn:
            return tr(
                "The fastest timed repeat: on a shared machine the one least disturbed by "
                "other work");
        case PredictedPeakColumn:
            return tr("Peak predicted before the run from the costs of one measured block (MiB)");
        case PredictedStepColumn:
            return tr("Step time predicted from the costs of one measured block (ms)");
        case PeakErrorColumn:
        case StepErrorColumn:
            return tr("Prediction error in % of the measurement (+ predicted too high)");
        case SlowerThanOptimalColumn:
            return tr(
                "How much slower than the optimal schedule within the same peak this run "
                "is predicted to be (negative would mean the planner is wrong)");
        }
    }
    return {};
}

// The reserved peak's tooltip: the allocator's whole counts and the forecast's, or why the run
// has none.
QString ResultsTableModel::reservedToolTip(const RunResult& run, const SummaryRow& row) {
    auto mib = [](double value) { return formatDecimals(value, 2); };
    if (!row.reserved_peak_mib) {
        if (run.config.allocator == AllocatorKind::System)
            return tr(
                "No reserved bytes: this run used the system allocator (malloc), which keeps "
                "no cache of its own. Choose the caching allocator to measure them.");
        return tr(
            "No reserved bytes: the file was written before the lab counted the caching "
            "allocator's.");
    }
    QStringList lines;
    lines << tr("The caching allocator held %1 MiB from the device at its peak, cached free "
                "blocks included; %2 MiB when the step began. Its allocated peak: %3 MiB.")
                 .arg(mib(*row.reserved_peak_mib), mib(row.reserved_start_mib.value_or(0)),
                      mib(row.allocated_peak_mib.value_or(0)));
    lines << (row.allocator_source == AllocatorSource::Cuda
                  ? tr("Counted by CUDA's caching allocator.")
                  : tr("Counted by the CPU allocator that follows the rules of CUDA's "
                       "caching allocator."));
    if (row.predicted_reserved_peak_mib)
        lines << tr("Forecast before the run: %1 MiB reserved at the peak.")
                     .arg(mib(*row.predicted_reserved_peak_mib));
    return lines.join(QLatin1Char('\n'));
}

}  // namespace ckptlab::ui
