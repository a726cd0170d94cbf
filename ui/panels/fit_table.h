#pragma once
// The "Will it fit?" table: one row per strategy of the plan and one for the fastest schedule
// that fits (core's fullSizeRows, full_size_record.h), and the sentences under it. The same
// rows as CSV are core's (fullSizePlanCsv).

#include <QString>
#include <QStringList>
#include <string>
#include <vector>

#include "ckptlab/planning/full_size.h"

class QTableWidget;

namespace ckptlab::ui {

// A size as the panel shows it, in the unit that shows its value (readableSize): GB (10^9
// bytes) from 1 GB, MB (10^6) from 1 MB, then kB, B; two decimals ("18.62 GB", "270.34 MB").
QString fitSizeText(std::int64_t bytes);

QStringList fitTableHeaders();
// The cells of each row as shown, in fullSizeRows' order.
std::vector<QStringList> fitTableCells(const FullSizePlan& plan);
// Fills `table` (headers, cells, the fits column coloured), keeping no selection.
void fillFitTable(QTableWidget* table, const FullSizePlan& plan);

// What the table cannot say in a cell: the fastest schedule that fits, or why nothing can fit
// (weights, gradients and optimizer state alone above the capacity) and which capacity would.
QStringList fitVerdict(const FullSizePlan& plan);

}  // namespace ckptlab::ui
