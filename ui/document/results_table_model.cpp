#include "document/results_table_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <cmath>
#include <limits>

#include "charts/chart_builders.h"
#include "charts/run_text.h"
#include "charts/source_groups.h"
#include "ckptlab/planning/curve_standing.h"
#include "document/format.h"
#include "document/time_text.h"

namespace ckptlab::ui {

namespace {

QString optionalNumber(const std::optional<double>& value, int decimals, const char* suffix = "") {
    return value ? formatDecimals(*value, decimals) + QLatin1String(suffix) : QStringLiteral("—");
}

// Errors read as signed percentages: "+2.1 %" predicted too high, "−0.4 %" too low.
QString signedPercent(const std::optional<double>& value) {
    if (!value) return QStringLiteral("—");
    const QString text = formatDecimals(std::abs(*value), 1) + QStringLiteral(" %");
    if (text.startsWith(QStringLiteral("0.0 "))) return text;
    return (*value < 0 ? QStringLiteral("−") : QStringLiteral("+")) + text;
}

// Each run's name in the strategy column: a scaling sweep's rows say their size, a merged
// file's runs on machines of several names their machine (RunResult::label).
QStringList rowNames(const ResultSet& results) {
    ScalingAxis axis = ScalingAxis::Depth;
    const bool scaling = detectScaling(results, &axis);
    QStringList names;
    for (const RunResult& run : results.runs) {
        std::string name = run.name();
        if (scaling)
            name += " (" + toString(axis) + " " + std::to_string(axisValue(run.config, axis)) + ")";
        names << QString::fromStdString(name);
    }
    return names;
}

// "nan" and "inf" spelled the same whatever the locale and the sign bit.
QString gradDiff(double value, int precision) {
    if (std::isnan(value)) return QStringLiteral("nan");
    if (std::isinf(value)) return value > 0 ? QStringLiteral("inf") : QStringLiteral("-inf");
    return QString::number(value, 'g', precision);
}

QString gradText(const SummaryRow& row) {
    if (row.out_of_memory) return outOfMemoryText(*row.out_of_memory);
    if (row.error) return QObject::tr("error");
    return row.grad_ok ? QObject::tr("ok (%1)").arg(gradDiff(row.max_abs_diff, 2))
                       : QObject::tr("FAILED (%1)").arg(gradDiff(row.max_abs_diff, 3));
}

// A run that ran out of memory shows only what the step measured before it stopped; invalid
// where the column shows its usual text.
QVariant outOfMemoryDisplay(const SummaryRow& row, int column) {
    using Model = ResultsTableModel;
    // A partial peak says so.
    if (column == Model::PeakMiBColumn)
        return ResultsTableModel::tr("%1 (partial)").arg(formatDecimals(row.peak_mib, 2));
    // Where the missing time would be, in view without scrolling to the last column.
    if (column == Model::StepMsColumn) return ResultsTableModel::tr("out of memory");
    // So is the allocator's reserved peak, up to where the step stopped.
    if (column == Model::ReservedPeakColumn && row.reserved_peak_mib)
        return ResultsTableModel::tr("%1 (partial)").arg(formatDecimals(*row.reserved_peak_mib, 2));
    if (column != Model::StrategyColumn && column != Model::GradCheckColumn &&
        column != Model::PredictedPeakColumn && column != Model::PredictedStepColumn)
        return QStringLiteral("—");
    return {};
}

// Columns that need the timed rounds.
bool isTimeColumn(int column) {
    using Model = ResultsTableModel;
    return column == Model::StepMsColumn || column == Model::StepCvColumn ||
           column == Model::FastestStepColumn || column == Model::GflopsColumn ||
           column == Model::TimeAddedColumn || column == Model::SavedPerAddedColumn ||
           column == Model::StepErrorColumn;
}

// Red where something is wrong: the missing step time, a failed gradient check, a run faster
// than the optimal schedule.
QVariant foreground(const SummaryRow& row, int column) {
    using Model = ResultsTableModel;
    if (row.out_of_memory && column == Model::StepMsColumn) return QBrush(QColor(0xc0, 0x1c, 0x28));
    if (column == Model::GradCheckColumn && (!row.grad_ok || row.error))
        return QBrush(QColor(0xc0, 0x1c, 0x28));
    // Below the optimal curve cannot happen unless the planner or cost model is wrong.
    if (column == Model::SlowerThanOptimalColumn && row.slower_than_optimal_pct &&
        standingFor(*row.slower_than_optimal_pct) == CurveStanding::Below)
        return QBrush(QColor(0xc0, 0x1c, 0x28));
    return {};
}

QVariant toolTip(const SummaryRow& row, int column, const QString& outOfMemoryDetails) {
    using Model = ResultsTableModel;
    if (row.out_of_memory) return outOfMemoryDetails;
    if (row.error) return QString::fromStdString(*row.error);
    if (column == Model::GradCheckColumn) {
        QString tip = ResultsTableModel::tr("Largest difference from the `none` gradients: %1")
                          .arg(gradDiff(row.max_abs_diff, 3));
        if (row.grad_bitwise)
            tip += QLatin1Char('\n') + ResultsTableModel::tr(
                                           "Bitwise equal to the `none` gradients: every bit of "
                                           "every gradient is the same.");
        if (!row.grad_note.empty())
            tip += QLatin1Char('\n') + QString::fromStdString(row.grad_note);
        return tip;
    }
    if (column == Model::SavedPerAddedColumn) return savedPerAddedToolTip(row);
    if (column == Model::PredictedPeakColumn && row.predicted_reserved_peak_mib)
        return ResultsTableModel::tr(
                   "The forecast of the caching allocator's reserved peak, whole: %1 MiB")
            .arg(formatDecimals(*row.predicted_reserved_peak_mib, 2));
    if (column == Model::TimeAddedColumn) return timeAddedToolTip(row);
    if (column == Model::SlowerThanOptimalColumn && row.optimal_step_ms)
        return ResultsTableModel::tr(
                   "The optimal schedule within this peak is predicted to take %1 ms")
            .arg(*row.optimal_step_ms, 0, 'f', 1);
    return {};
}

}  // namespace

void ResultsTableModel::setResults(const ResultSet& results,
                                   const std::vector<bool>& timesPending) {
    std::vector<const RunResult*> runs;
    for (const RunResult& run : results.runs) runs.push_back(&run);
    applyRows(summarize(results), rowNames(results), runs, strategyOrder(results), {});
    for (size_t i = 0; i < m_timing.size() && i < timesPending.size(); ++i)
        m_timing[i].pending = timesPending[i];
}

void ResultsTableModel::setSources(const std::vector<ResultSource>& sources) {
    std::vector<SummaryRow> rows;
    std::vector<const RunResult*> runs;
    QStringList names;
    QStringList strategies;
    QStringList labels;
    for (const ResultSource& source : sources) {
        for (SummaryRow& row : summarize(source.results)) rows.push_back(std::move(row));
        names << rowNames(source.results);
        for (const RunResult& run : source.results.runs) {
            runs.push_back(&run);
            labels << source.label;
        }
        for (const QString& strategy : strategyOrder(source.results))
            if (!strategies.contains(strategy)) strategies << strategy;
    }
    applyRows(std::move(rows), names, runs, strategies, labels);
}

void ResultsTableModel::applyRows(std::vector<SummaryRow> rows, const QStringList& names,
                                  const std::vector<const RunResult*>& runs,
                                  const QStringList& strategies, const QStringList& sourceLabels) {
    const bool columnsChange = sourceLabels.isEmpty() != m_sourceLabels.isEmpty();
    m_strategies = strategies;
    m_names = names;
    m_runStrategy.clear();
    m_oomDetails.clear();
    m_reservedTips.clear();
    m_timing.assign(runs.size(), {});
    for (size_t i = 0; i < runs.size(); ++i) {
        const RunResult& run = *runs[i];
        m_timing[i].samples = int(run.metrics.step_samples_ms.size());
        m_timing[i].gflops = run.metrics.gflop_per_s;
        m_runStrategy << QString::fromStdString(run.strategy.name());
        m_oomDetails << (run.out_of_memory ? outOfMemoryDetails(run) : QString());
        // A run that ran out of memory keeps its forecast (what it would have needed); only
        // the errors against its partial measurement are left out.
        if (run.out_of_memory && run.prediction && i < rows.size()) {
            rows[i].predicted_peak_mib = double(run.prediction->peak_bytes) / kMiB;
            rows[i].predicted_step_ms = run.prediction->step_ms;
            if (const auto& reserved = run.prediction->reserved_peak_bytes)
                rows[i].predicted_reserved_peak_mib = double(*reserved) / kMiB;
        }
        m_reservedTips << (i < rows.size() ? reservedToolTip(run, rows[i]) : QString());
    }

    const int before = int(m_rows.size());
    const int after = int(rows.size());
    if (after < before || before == 0 || columnsChange || !sourceLabels.isEmpty()) {
        beginResetModel();
        m_rows = std::move(rows);
        m_sourceLabels = sourceLabels;
        endResetModel();
        return;
    }
    // Growing keeps the views' selection and scroll position.
    if (after > before) beginInsertRows({}, before, after - 1);
    m_rows = std::move(rows);
    if (after > before) endInsertRows();
    if (before > 0) Q_EMIT dataChanged(index(0, 0), index(before - 1, columnCount() - 1));
}

int ResultsTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ResultsTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : NumColumns + (hasSourceColumn() ? 1 : 0);
}

QVariant ResultsTableModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const SummaryRow& row = m_rows[size_t(index.row())];
    const int column = index.column();
    if (column == SourceColumn) {
        const QString label = m_sourceLabels.value(index.row());
        switch (role) {
        case Qt::DisplayRole:
        case SortRole:
        case Qt::ToolTipRole: return label;
        case RunIndexRole: return index.row();
        case Qt::TextAlignmentRole: return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
        default: return {};
        }
    }
    const Timing timing =
        index.row() < int(m_timing.size()) ? m_timing[size_t(index.row())] : Timing{};
    switch (role) {
    case Qt::DisplayRole:
        if (row.out_of_memory) {
            const QVariant text = outOfMemoryDisplay(row, column);
            if (text.isValid()) return text;
        }
        if (const QVariant text = timingDisplay(row, timing, column); text.isValid()) return text;
        return display(row, column);
    case SortRole: return sortValue(row, column);
    case RunIndexRole: return index.row();
    case Qt::TextAlignmentRole:
        return column == StrategyColumn || column == GradCheckColumn
                   ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::DecorationRole:
        if (column == StrategyColumn) {
            const QColor color = strategyColor(m_runStrategy.value(index.row()), m_strategies);
            if (!hasSourceColumn()) return color;
            // The shade the charts give this file's runs (charts/source_groups.h).
            int source = 0;
            for (int r = 1; r <= index.row(); ++r)
                if (m_sourceLabels.value(r) != m_sourceLabels.value(r - 1)) ++source;
            return sourceShade(color, source);
        }
        return {};
    case Qt::FontRole:
        if (row.out_of_memory && column == PeakMiBColumn) {
            QFont italic;
            italic.setItalic(true);
            return italic;
        }
        return {};
    case Qt::BackgroundRole:
        // The whole row reads as failed at a glance, in light and dark themes.
        if (row.out_of_memory) return QBrush(QColor(0xc0, 0x1c, 0x28, 40));
        return {};
    case Qt::ForegroundRole: return foreground(row, column);
    case Qt::ToolTipRole:
        if (timing.pending && isTimeColumn(column) && !row.error)
            return tr(
                "Timing: the timed steps of every strategy run after all traced steps, "
                "interleaved in rounds; this row's times arrive then");
        if (column == StepMsColumn && !row.out_of_memory && !row.error)
            return stepIntervalToolTip(row, timing.samples);
        if (column == ReservedPeakColumn && (!row.error || row.reserved_peak_mib))
            return m_reservedTips.value(index.row());
        return toolTip(row, column, m_oomDetails.value(index.row()));
    default: return {};
    }
}

// The time columns that need the timed rounds: "…" while they run, the median with its
// interval, the CV, GFLOP/s and the time added as a range (time_text.h). Invalid elsewhere.
QVariant ResultsTableModel::timingDisplay(const SummaryRow& row, const Timing& timing,
                                          int column) const {
    if (!isTimeColumn(column) || row.out_of_memory) return {};
    if (timing.pending && !row.error) return QStringLiteral("…");
    switch (column) {
    case StepMsColumn: return stepIntervalText(row);
    case StepCvColumn: return cvText(row);
    case FastestStepColumn:
        return std::isfinite(row.step_fastest_ms) ? formatDecimals(row.step_fastest_ms, 2)
                                                  : QStringLiteral("—");
    case GflopsColumn:
        return timing.gflops && std::isfinite(*timing.gflops)
                   ? formatDecimals(*timing.gflops, *timing.gflops < 100 ? 2 : 1)
                   : QStringLiteral("—");
    case TimeAddedColumn: return timeAddedText(row);
    default: return {};
    }
}

QVariant ResultsTableModel::display(const SummaryRow& row, int column) const {
    switch (column) {
    case StrategyColumn: return m_names.value(int(&row - m_rows.data()));
    case PeakMiBColumn: return formatDecimals(row.peak_mib, 2);
    case PredictedPeakColumn: return optionalNumber(row.predicted_peak_mib, 2);
    case PeakErrorColumn: return signedPercent(row.peak_error_pct);
    case ReservedPeakColumn: return optionalNumber(row.reserved_peak_mib, 2);
    case ActivationsMiBColumn: return formatDecimals(row.activations_mib, 2);
    case StepMsColumn: return formatDecimals(row.step_ms, 2);
    case FastestStepColumn: return formatDecimals(row.step_fastest_ms, 2);
    case PredictedStepColumn: return optionalNumber(row.predicted_step_ms, 1);
    case StepErrorColumn: return signedPercent(row.step_error_pct);
    case SlowerThanOptimalColumn:  // core's verdict: on the curve reads "optimal"
        return row.slower_than_optimal_pct &&
                       standingFor(*row.slower_than_optimal_pct) == CurveStanding::OnCurve
                   ? tr("optimal")
                   : signedPercent(row.slower_than_optimal_pct);
    case MemorySavedColumn: return optionalNumber(row.memory_saved_pct, 1, " %");
    case TimeAddedColumn: return optionalNumber(row.time_added_pct, 1, " %");
    case SavedPerAddedColumn: return optionalNumber(row.saved_per_added, 2);
    case GradCheckColumn: return gradText(row);
    }
    return {};
}

QVariant ResultsTableModel::sortValue(const SummaryRow& row, int column) const {
    // Missing values sort below every number.
    const auto opt = [](const std::optional<double>& v) { return v ? *v : -1e300; };
    // A run that ran out of memory measured its partial peak and nothing else.
    if (row.out_of_memory && column != StrategyColumn && column != PeakMiBColumn &&
        column != GradCheckColumn && column != PredictedPeakColumn &&
        column != PredictedStepColumn && column != ReservedPeakColumn)
        return -1e300;
    switch (column) {
    case StrategyColumn: return m_names.value(int(&row - m_rows.data()));
    case PeakMiBColumn: return row.peak_mib;
    case PredictedPeakColumn: return opt(row.predicted_peak_mib);
    case PeakErrorColumn: return opt(row.peak_error_pct);
    case ReservedPeakColumn: return opt(row.reserved_peak_mib);
    case ActivationsMiBColumn: return row.activations_mib;
    case StepMsColumn: return std::isfinite(row.step_ms) ? row.step_ms : -1e300;
    case StepCvColumn: return opt(row.step_cv_pct);
    case FastestStepColumn:
        return std::isfinite(row.step_fastest_ms) ? row.step_fastest_ms : -1e300;
    case GflopsColumn: {
        const size_t i = size_t(&row - m_rows.data());
        return i < m_timing.size() ? opt(m_timing[i].gflops) : -1e300;
    }
    case PredictedStepColumn: return opt(row.predicted_step_ms);
    case StepErrorColumn: return opt(row.step_error_pct);
    case SlowerThanOptimalColumn: return opt(row.slower_than_optimal_pct);
    case MemorySavedColumn: return opt(row.memory_saved_pct);
    case TimeAddedColumn: return opt(row.time_added_pct);
    case SavedPerAddedColumn: return opt(row.saved_per_added);
    // NaN would break the sort's ordering: it sorts with the infinite differences.
    case GradCheckColumn:
        return row.error                      ? 1e300
               : std::isnan(row.max_abs_diff) ? std::numeric_limits<double>::infinity()
                                              : row.max_abs_diff;
    }
    return {};
}

QString ResultsTableModel::toTsv(const std::vector<int>& rows) const {
    QStringList lines;
    QStringList header;
    for (int c = 0; c < columnCount(); ++c) header << headerData(c, Qt::Horizontal).toString();
    lines << header.join(QLatin1Char('\t'));
    for (int r : rows) {
        if (r < 0 || r >= rowCount()) continue;
        QStringList cells;
        for (int c = 0; c < columnCount(); ++c)
            cells << data(index(r, c), Qt::DisplayRole).toString();
        lines << cells.join(QLatin1Char('\t'));
    }
    return lines.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

}  // namespace ckptlab::ui
