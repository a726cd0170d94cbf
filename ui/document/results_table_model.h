#pragma once
// The summary table: one row per run, compared with the `none` baseline of the same set. A run
// that ran out of memory reads "out of memory at <phase/block>" in the gradient check column,
// its peak is marked partial and what it never measured is a dash.

#include <QAbstractTableModel>
#include <QStringList>
#include <vector>

#include "ckptlab/summary.h"

namespace ckptlab::ui {

class ResultsTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Columns {
        StrategyColumn,
        PeakMiBColumn,
        PredictedPeakColumn,  // the cost model's forecast, made before the run
        PeakErrorColumn,      // (predicted - measured) / measured
        ActivationsMiBColumn,
        StepMsColumn,
        FastestStepColumn,  // the fastest timed repeat
        PredictedStepColumn,
        StepErrorColumn,
        MemorySavedColumn,
        TimeAddedColumn,
        SavedPerAddedColumn,
        SlowerThanOptimalColumn,  // predicted, against the optimal schedule at the same peak
        GradCheckColumn,
        NumColumns
    };
    enum Roles {
        SortRole = Qt::UserRole + 1,  // raw number (or text) to sort by
        RunIndexRole,                 // index into ResultSet::runs
    };

    using QAbstractTableModel::QAbstractTableModel;

    // Recomputes every row: a later `none` run changes the relative columns of earlier rows.
    // In a scaling sweep each run is compared with the `none` run of its own size, and the
    // strategy column names the size ("sqrt (depth 8)").
    void setResults(const ResultSet& results);
    const SummaryRow& row(int index) const { return m_rows.at(size_t(index)); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    // Tab-separated text of the given source rows with a header line, for the clipboard.
    QString toTsv(const std::vector<int>& rows) const;

private:
    QVariant display(const SummaryRow& row, int column) const;
    QVariant sortValue(const SummaryRow& row, int column) const;

    std::vector<SummaryRow> m_rows;
    // Per row: the full out-of-memory description, for tooltips.
    QStringList m_oomDetails;
    QStringList m_runStrategy;  // each row's plain strategy name, for its colour
    QStringList m_strategies;   // the set's order, for colours
};

}  // namespace ckptlab::ui
