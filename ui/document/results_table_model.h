#pragma once
// The summary table: one row per run, compared with the `none` baseline of the same set. A run
// that ran out of memory reads "out of memory at <phase/block>" in the gradient check column,
// its peak is marked partial and what it never measured is a dash.

#include <QAbstractTableModel>
#include <QStringList>
#include <vector>

#include "ckptlab/model/summary.h"
#include "document/result_sources.h"

namespace ckptlab::ui {

class ResultsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns {
        StrategyColumn,
        PeakMiBColumn,
        PredictedPeakColumn,  // the cost model's forecast, made before the run
        PeakErrorColumn,      // (predicted - measured) / measured
        // The caching allocator's reserved peak, whole (parameters, input and state included);
        // "—" with a tooltip saying why where a run has none (--allocator system, older files)
        ReservedPeakColumn,
        ActivationsMiBColumn,
        StepMsColumn,       // the median with its interval (time_text.h)
        StepCvColumn,       // the samples' coefficient of variation
        FastestStepColumn,  // the fastest timed repeat
        PredictedStepColumn,
        StepErrorColumn,
        GflopsColumn,  // matmul GFLOP/s at the median step time (flops.h)
        MemorySavedColumn,
        TimeAddedColumn,
        SavedPerAddedColumn,
        SlowerThanOptimalColumn,  // predicted, against the optimal schedule at the same peak
        GradCheckColumn,
        NumColumns,
        // With several results files only (setSources): the machine of each row's file. It is the
        // model's last column; the view shows it beside the strategy.
        SourceColumn = NumColumns
    };
    enum Roles {
        SortRole = Qt::UserRole + 1,  // raw number (or text) to sort by
        RunIndexRole,                 // index into ResultSet::runs
    };

    using QAbstractTableModel::QAbstractTableModel;

    // Recomputes every row: a later `none` run changes the relative columns of earlier rows.
    // In a scaling sweep each run is compared with the `none` run of its own size, and the
    // strategy column names the size ("sqrt (depth 8)").
    // `timesPending` (parallel to the runs, may be empty): runs shown after their traced step
    // whose times are still being measured read "…" where a time goes.
    void setResults(const ResultSet& results, const std::vector<bool>& timesPending = {});
    // Several results files: each file's runs compared with its own `none`, in the files' order
    // (so row = index into the document's merged runs), and a Source column naming each file's
    // machine (ResultSource::label). setResults ends it.
    void setSources(const std::vector<ResultSource>& sources);
    bool hasSourceColumn() const { return !m_sourceLabels.isEmpty(); }
    const SummaryRow& row(int index) const { return m_rows.at(size_t(index)); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // Tab-separated text of the given source rows with a header line, for the clipboard.
    QString toTsv(const std::vector<int>& rows) const;

private:
    // Rows parallel to `runs`; `sourceLabels` per row, empty for one set.
    void applyRows(std::vector<SummaryRow> rows, const QStringList& names,
                   const std::vector<const RunResult*>& runs, const QStringList& strategies,
                   const QStringList& sourceLabels);
    QVariant display(const SummaryRow& row, int column) const;
    // The reserved peak's tooltip: the allocator's whole counts and the forecast's, or why
    // the run has none (results_table_header.cpp).
    static QString reservedToolTip(const RunResult& run, const SummaryRow& row);
    QVariant sortValue(const SummaryRow& row, int column) const;

    std::vector<SummaryRow> m_rows;
    QStringList
        m_names;  // per row, as the strategy column shows it (with its size in a scaling sweep)
    // Per row: the full out-of-memory description, for tooltips.
    QStringList m_oomDetails;
    // Per row: the reserved peak's tooltip, or why the run has none.
    QStringList m_reservedTips;
    QStringList m_runStrategy;   // each row's plain strategy name, for its colour
    QStringList m_strategies;    // the set's order, for colours
    QStringList m_sourceLabels;  // per row, with several sources only
    // Per row: the step-time samples, GFLOP/s, and whether the times are still to come.
    struct Timing {
        int samples = 0;
        std::optional<double> gflops;
        bool pending = false;
    };
    std::vector<Timing> m_timing;
    QVariant timingDisplay(const SummaryRow& row, const Timing& timing, int column) const;
};

}  // namespace ckptlab::ui
