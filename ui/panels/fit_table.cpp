#include "panels/fit_table.h"

#include <QCoreApplication>
#include <QHeaderView>
#include <QTableWidget>
#include <algorithm>

#include "charts/fit_chart.h"
#include "ckptlab/model/number_text.h"

namespace ckptlab::ui {

namespace {

class FitText {
    Q_DECLARE_TR_FUNCTIONS(FitText)
};

QString fitsText(const StrategyAtSize& row) {
    // A budget below the least peak has no schedule: its sizes are not numbers.
    if (row.least_peak)
        return FitText::tr("no schedule: the least peak is %1").arg(fitSizeText(*row.least_peak));
    return row.fits ? FitText::tr("yes, %1 spare").arg(fitSizeText(row.margin))
                    : FitText::tr("no, %1 short").arg(fitSizeText(-row.margin));
}

QString countText(int value) {
    //: a largest batch or longest sequence of 0: not even the smallest fits
    return value > 0 ? QString::number(value) : FitText::tr("none");
}

}  // namespace

QString fitSizeText(std::int64_t bytes) {
    // Core's rule, as the CLI prints: never 0.00 GB for a model under a gigabyte.
    return QString::fromStdString(readableSize(bytes));
}

QStringList fitTableHeaders() {
    return {FitText::tr("Strategy"),
            FitText::tr("Allocated"),
            FitText::tr("Reserved"),
            FitText::tr("Fits?"),
            FitText::tr("Largest batch"),
            FitText::tr("Longest sequence"),
            FitText::tr("Tokens/s on this machine")};
}

std::vector<QStringList> fitTableCells(const FullSizePlan& plan) {
    const QStringList names = fitRowNames(plan);
    const std::vector<const StrategyAtSize*> rows = fullSizeRows(plan);
    std::vector<QStringList> cells;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const StrategyAtSize& row = *rows[i];
        const QString none = QStringLiteral("—");
        cells.push_back({names[int(i)], row.least_peak ? none : fitSizeText(row.allocated),
                         row.least_peak ? none : fitSizeText(row.reserved), fitsText(row),
                         countText(row.largest_batch), countText(row.longest_seq),
                         row.tokens_per_s > 0 ? QString::number(row.tokens_per_s, 'f', 0)
                                              : QStringLiteral("—")});
    }
    return cells;
}

void fillFitTable(QTableWidget* table, const FullSizePlan& plan) {
    const QStringList headers = fitTableHeaders();
    const std::vector<QStringList> cells = fitTableCells(plan);
    const std::vector<const StrategyAtSize*> rows = fullSizeRows(plan);
    table->clearSelection();
    table->setColumnCount(int(headers.size()));
    table->setHorizontalHeaderLabels(headers);
    table->horizontalHeaderItem(4)->setToolTip(
        FitText::tr("At the sequence asked for, against the capacity"));
    table->horizontalHeaderItem(5)->setToolTip(
        FitText::tr("At the batch asked for, against the capacity"));
    table->horizontalHeaderItem(6)->setToolTip(
        FitText::tr("At the largest batch, from the times measured on this machine, not on the "
                    "GPU"));
    table->setRowCount(int(cells.size()));
    for (int r = 0; r < int(cells.size()); ++r)
        for (int c = 0; c < int(headers.size()); ++c) {
            auto* item = new QTableWidgetItem(cells[size_t(r)][c]);
            item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
            if (c > 0) item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            if (c == 3)
                item->setForeground(rows[size_t(r)]->fits ? QColor(0x1b, 0x7a, 0x2f)
                                                          : QColor(0xb3, 0x1b, 0x1b));
            table->setItem(r, c, item);
        }
    if (plan.fastest)
        table->item(int(cells.size()) - 1, 0)
            ->setToolTip(QString::fromStdString(describeSchedule(plan.fastest->plan)));
    table->resizeColumnsToContents();
    table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
}

QStringList fitVerdict(const FullSizePlan& plan) {
    QStringList lines;
    const QString capacity = fitSizeText(plan.capacity);
    if (plan.fastest_at_size) {
        const StrategyAtSize& fastest = *plan.fastest_at_size;
        if (fastest.strategy.kind == StrategyKind::Optimal)
            lines << FitText::tr(
                         "The fastest schedule that fits in %1 is the planner's for a "
                         "budget of %2 MiB above the step's start: %3 reserved, %4 "
                         "spare.")
                         .arg(capacity, QString::number(fastest.strategy.budget_mib, 'f', 0),
                              fitSizeText(fastest.reserved), fitSizeText(fastest.margin));
        else
            lines << FitText::tr(
                         "The fastest schedule that fits in %1 is %2: %3 reserved, %4 "
                         "spare.")
                         .arg(capacity, QString::fromStdString(fastest.strategy.name()),
                              fitSizeText(fastest.reserved), fitSizeText(fastest.margin));
    }
    const bool anyFits =
        plan.fastest_at_size || std::any_of(plan.strategies.begin(), plan.strategies.end(),
                                            [](const StrategyAtSize& s) { return s.fits; });
    if (plan.state_bytes > plan.capacity)
        lines << FitText::tr(
                     "Weights, gradients and optimizer state alone take %1, more than "
                     "the %2 capacity: no checkpointing schedule can make it fit.")
                     .arg(fitSizeText(plan.state_bytes), capacity);
    else if (!anyFits)
        lines << FitText::tr(
                     "Nothing fits in %1: even the schedule that keeps the least needs "
                     "more.")
                     .arg(capacity);
    if (!anyFits) {
        if (plan.would_fit)
            lines << FitText::tr("It would fit in %1 (%2).")
                         .arg(QLatin1String(plan.would_fit->name),
                              QLatin1String(plan.would_fit->examples));
        else if (!capacityPresets().empty())
            lines << FitText::tr("Not even the largest preset, %1, holds it.")
                         .arg(QLatin1String(capacityPresets().back().name));
    }
    return lines;
}

}  // namespace ckptlab::ui
