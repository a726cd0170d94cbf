#include "panels/strategy_table.h"

#include <QAction>
#include <QDoubleSpinBox>
#include <QHeaderView>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyledItemDelegate>
#include <algorithm>
#include <cmath>

#include "ckptlab/model/strategy.h"
#include "ckptlab/model/summary.h"
#include "ckptlab/planning/pareto.h"
#include "controllers/live_prediction.h"
#include "document/core_text.h"
#include "document/format.h"
#include "panels/decimal_spin_box.h"

namespace ckptlab::ui {

namespace {

enum Column { NameColumn, ParamColumn, PredictedColumn, ColumnCount };
constexpr int kHasParamRole = Qt::UserRole + 1;
constexpr int kCustomRole = Qt::UserRole + 2;
constexpr int kErrorRole = Qt::UserRole + 3;
constexpr int kKindRole = Qt::UserRole + 4;  // the row's StrategyKind, or -1: text that is none

// Rows whose parameter is a memory budget in MiB (a double), not a count or a block.
bool isBudgetRow(const QModelIndex& nameIndex) {
    const int kind = nameIndex.data(kKindRole).toInt();
    return kind >= 0 && hasMemoryBudget(makeStrategy(StrategyKind(kind), 0));
}

// Parameters are block indices or counts, kept inside the model's range; optimal's is a
// budget in MiB.
class ParamDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&,
                          const QModelIndex& index) const override {
        if (isBudgetRow(index.siblingAtColumn(NameColumn))) {
            auto* spin = new DecimalSpinBox(parent);
            spin->setRange(0.01, 1e7);
            spin->setDecimals(2);
            spin->setSuffix(QStringLiteral(" MiB"));
            return spin;
        }
        auto* spin = new QSpinBox(parent);
        spin->setRange(0, int(limits::depth.max));
        return spin;
    }
    // Only optimal's budget is a double: shown short, with its unit.
    QString displayText(const QVariant& value, const QLocale& locale) const override {
        if (value.typeId() == QMetaType::Double)
            return decimalText(locale, value.toDouble(), 'g', 4) + QStringLiteral(" MiB");
        return QStyledItemDelegate::displayText(value, locale);
    }
};

// The syntax help line of the row's kind; empty for text that is no strategy.
QString helpFor(const QTableWidgetItem* name) {
    const int kind = name->data(kKindRole).toInt();
    return kind < 0 ? QString() : strategyHelpText(StrategyKind(kind));
}

}  // namespace

StrategyTable::StrategyTable(QWidget* parent) : QTableWidget(0, ColumnCount, parent) {
    setObjectName(QStringLiteral("strategyTable"));
    setHorizontalHeaderLabels({tr("Strategy"), tr("Parameter"), tr("Predicted")});
    horizontalHeaderItem(PredictedColumn)
        ->setToolTip(tr("Peak above the step's start and step time, predicted from the measured "
                        "costs of one block before anything runs"));
    verticalHeader()->hide();
    horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
    horizontalHeader()->setSectionResizeMode(ParamColumn, QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(PredictedColumn, QHeaderView::ResizeToContents);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setItemDelegateForColumn(ParamColumn, new ParamDelegate(this));

    auto* remove = new QAction(tr("Remove custom strategy"), this);
    connect(remove, &QAction::triggered, this, &StrategyTable::removeCurrentCustomRow);
    addAction(remove);
    setContextMenuPolicy(Qt::ActionsContextMenu);

    // Every kind with its default parameter; the planner's budget row is moved to fit the
    // model by each live forecast until the user sets one.
    for (const Strategy& strategy : strategyCatalog()) appendRow(strategy, false);
    connect(this, &QTableWidget::itemChanged, this, &StrategyTable::onItemChanged);
}

int StrategyTable::insertionRow(const QString& label, double value) const {
    bool sameKindSeen = false;
    for (int r = 0; r < rowCount(); ++r) {
        if (item(r, NameColumn)->text() != label) {
            if (sameKindSeen) return r;  // just after the last row of this kind
            continue;
        }
        sameKindSeen = true;
        if (item(r, ParamColumn)->data(Qt::EditRole).toDouble() > value) return r;
    }
    return rowCount();
}

int StrategyTable::appendRow(const Strategy& strategy, bool custom) {
    return insertItems(QString::fromStdString(kindName(strategy.kind)), strategy, custom);
}

int StrategyTable::appendTextRow(const QString& text, const CoreMessage& why) {
    // Text that is no strategy at all (a hand-edited settings file) stays as it is, marked
    // invalid by validateRow with the reason its one parse gave.
    m_notStrategies.insert_or_assign(text, why);
    return insertItems(text, std::nullopt, true);
}

int StrategyTable::insertItems(const QString& label, std::optional<Strategy> strategy,
                               bool custom) {
    const QSignalBlocker blocker(this);
    const bool hasParam = strategy && takesParam(strategy->kind);
    const double value = strategy ? paramOf(*strategy) : 0;
    const int row = insertionRow(label, value);
    insertRow(row);

    auto* name = new QTableWidgetItem(label);
    name->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
    name->setCheckState(Qt::Unchecked);
    name->setData(kHasParamRole, hasParam);
    name->setData(kKindRole, strategy ? int(strategy->kind) : -1);
    name->setData(kCustomRole, custom);
    setItem(row, NameColumn, name);

    auto* param = new QTableWidgetItem;
    param->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    if (hasParam) {
        param->setData(Qt::EditRole,
                       hasMemoryBudget(*strategy) ? QVariant(value) : QVariant(int(value)));
        param->setFlags(param->flags() | Qt::ItemIsEditable);
    }
    setItem(row, ParamColumn, param);
    auto* predicted = new QTableWidgetItem;
    predicted->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    predicted->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    setItem(row, PredictedColumn, predicted);
    validateRow(row);
    return row;
}

std::optional<Strategy> StrategyTable::rowStrategy(int row) const {
    const int kind = item(row, NameColumn)->data(kKindRole).toInt();
    if (kind < 0) return std::nullopt;
    return makeStrategy(StrategyKind(kind), item(row, ParamColumn)->data(Qt::EditRole).toDouble());
}

QString StrategyTable::rowText(int row) const {
    const std::optional<Strategy> strategy = rowStrategy(row);
    return strategy ? QString::fromStdString(strategy->name()) : item(row, NameColumn)->text();
}

int StrategyTable::findRow(const Strategy& strategy) const {
    for (int row = 0; row < rowCount(); ++row)
        if (rowStrategy(row) == strategy) return row;
    return -1;
}

int StrategyTable::ensureRow(const Strategy& strategy) {
    const int row = findRow(strategy);
    return row >= 0 ? row : appendRow(strategy, true);
}

void StrategyTable::validateRow(int row) {
    QString error;
    if (const std::optional<Strategy> strategy = rowStrategy(row)) {
        try {
            checkStrategy(*strategy, m_depth, m_block);
        } catch (const std::exception& e) {
            error = coreErrorText(e);
        }
    } else if (const auto why = m_notStrategies.find(item(row, NameColumn)->text());
               why != m_notStrategies.end()) {
        error = coreMessageText(why->second);
    }
    const QSignalBlocker blocker(this);
    QTableWidgetItem* name = item(row, NameColumn);
    // Checked and invalid is an error (red); unchecked and invalid only does not apply to this
    // model, e.g. attn for ffn blocks (grey).
    QBrush brush;
    if (!error.isEmpty())
        brush = name->checkState() == Qt::Checked
                    ? QBrush(QColor(0xc0, 0x1c, 0x28))
                    : palette().brush(QPalette::Disabled, QPalette::Text);
    const QString help = helpFor(name);
    for (int column : {NameColumn, ParamColumn}) {
        QTableWidgetItem* cell = item(row, column);
        cell->setData(kErrorRole, error);
        cell->setForeground(brush);
        cell->setToolTip(error.isEmpty() ? help : error);
    }
}

std::vector<Strategy> StrategyTable::checkedStrategies() const {
    std::vector<Strategy> checked;
    for (int row = 0; row < rowCount(); ++row) {
        const std::optional<Strategy> strategy = rowStrategy(row);
        if (!strategy || item(row, NameColumn)->checkState() != Qt::Checked) continue;
        if (std::find(checked.begin(), checked.end(), *strategy) == checked.end())
            checked.push_back(*strategy);
    }
    return checked;
}

std::vector<StrategyProblem> StrategyTable::checkedNotStrategies() const {
    std::vector<StrategyProblem> problems;
    for (int row = 0; row < rowCount(); ++row) {
        const QString text = item(row, NameColumn)->text();
        const auto why = m_notStrategies.find(text);
        if (rowStrategy(row) || item(row, NameColumn)->checkState() != Qt::Checked ||
            why == m_notStrategies.end())
            continue;
        problems.push_back({text.toStdString(), why->second});
    }
    return problems;
}

QStringList StrategyTable::checkedNames() const {
    QStringList list;
    for (int row = 0; row < rowCount(); ++row)
        if (item(row, NameColumn)->checkState() == Qt::Checked) list << rowText(row);
    list.removeDuplicates();
    return list;
}

void StrategyTable::setCheckedStrategies(const QStringList& texts) {
    std::vector<int> rows;
    for (const QString& text : texts) {
        const QString trimmed = text.trimmed();
        try {
            rows.push_back(ensureRow(parseStrategies({trimmed.toStdString()}).front()));
        } catch (const StrategyError& e) {
            const int row = [&] {
                for (int r = 0; r < rowCount(); ++r)
                    if (!rowStrategy(r) && item(r, NameColumn)->text() == trimmed) return r;
                return -1;
            }();
            rows.push_back(row >= 0 ? row : appendTextRow(trimmed, e.message));
        }
    }
    checkOnly(rows);
}

void StrategyTable::setChecked(const std::vector<Strategy>& strategies) {
    std::vector<int> rows;
    for (const Strategy& strategy : strategies) rows.push_back(ensureRow(strategy));
    checkOnly(rows);
}

void StrategyTable::checkOnly(const std::vector<int>& rows) {
    // Rows added above shift the rows found before them: compare items, not indices.
    std::vector<QTableWidgetItem*> names;
    for (int row : rows) names.push_back(item(row, NameColumn));
    m_updating = true;
    {
        const QSignalBlocker blocker(this);
        for (int row = 0; row < rowCount(); ++row) {
            QTableWidgetItem* name = item(row, NameColumn);
            const bool wanted = std::find(names.begin(), names.end(), name) != names.end();
            name->setCheckState(wanted ? Qt::Checked : Qt::Unchecked);
        }
    }
    for (int row = 0; row < rowCount(); ++row)
        validateRow(row);  // colours depend on the check state
    m_updating = false;
    Q_EMIT strategiesChanged();
}

void StrategyTable::setModel(int depth, BlockKind block) {
    if (depth == m_depth && block == m_block) return;
    m_depth = depth;
    m_block = block;
    for (int row = 0; row < rowCount(); ++row) validateRow(row);
    Q_EMIT strategiesChanged();
}

std::vector<Strategy> StrategyTable::allStrategies() const {
    std::vector<Strategy> all;
    for (int row = 0; row < rowCount(); ++row) {
        const std::optional<Strategy> strategy = rowStrategy(row);
        if (strategy && std::find(all.begin(), all.end(), *strategy) == all.end())
            all.push_back(*strategy);
    }
    return all;
}

int StrategyTable::builtInOptimalRow() const {
    for (int row = 0; row < rowCount(); ++row) {
        const QTableWidgetItem* name = item(row, NameColumn);
        if (isBudgetRow(indexFromItem(name)) && !name->data(kCustomRole).toBool()) return row;
    }
    return -1;
}

void StrategyTable::followForecast(const LivePrediction& prediction) {
    const int row = builtInOptimalRow();
    if (m_optimalBudgetEdited || row < 0 || !prediction.valid || prediction.minimum_peak <= 0 ||
        prediction.none_peak < prediction.minimum_peak)
        return;
    // Named in the Pareto sweep's readable steps, rounded up so the budget stays feasible.
    const double step = budgetStepMib(prediction.none_peak);
    const double middle = double(prediction.minimum_peak + prediction.none_peak) / 2 / kMiB;
    const double budget = std::ceil(middle / step - 1e-9) * step;
    QTableWidgetItem* param = item(row, ParamColumn);
    if (std::abs(param->data(Qt::EditRole).toDouble() - budget) < step / 2) return;
    {
        const QSignalBlocker blocker(this);
        param->setData(Qt::EditRole, budget);
        param->setToolTip(
            tr("Halfway between the smallest feasible peak (%1) and the peak "
               "without checkpointing (%2); follows the model until you edit it")
                .arg(formatBytes(prediction.minimum_peak), formatBytes(prediction.none_peak)));
    }
    Q_EMIT strategiesChanged();
}

void StrategyTable::setForecast(const LivePrediction* prediction, std::int64_t capacity) {
    const QSignalBlocker blocker(this);
    for (int row = 0; row < rowCount(); ++row) {
        QTableWidgetItem* cell = item(row, PredictedColumn);
        const std::optional<Strategy> strategy = rowStrategy(row);
        const StrategyForecast* f = prediction && strategy ? prediction->find(*strategy) : nullptr;
        if (!f || !item(row, NameColumn)->data(kErrorRole).toString().isEmpty()) {
            cell->setText(prediction ? QString() : QStringLiteral("…"));
            cell->setToolTip({});
            cell->setForeground(QBrush());
            continue;
        }
        if (f->ok) {
            cell->setText(tr("%1 · %2 ms")
                              .arg(formatBytes(f->peak_bytes))
                              .arg(f->step_ms, 0, 'f', f->step_ms < 100 ? 1 : 0));
            QString tip = tr("Predicted peak %1 above the step's start (activations %2), "
                             "step %3 ms")
                              .arg(formatBytes(f->peak_bytes), formatBytes(f->activation_bytes))
                              .arg(f->step_ms, 0, 'f', 1);
            const bool over = capacity > 0 && f->peak_bytes > capacity;
            if (over)
                tip += QLatin1Char('\n') +
                       tr("Over the memory limit, which leaves %1 for the step: predicted to run "
                          "out of memory (it will fail where it passes the limit; the other runs "
                          "go on)")
                           .arg(formatBytes(capacity));
            cell->setToolTip(tip);
            // Amber, not red: running it to watch it fail is the point of a limit.
            cell->setForeground(over ? QBrush(QColor(0x9c, 0x6a, 0x00)) : QBrush());
        } else {
            cell->setText(tr("does not fit"));
            cell->setToolTip(f->error);
            cell->setForeground(QBrush(QColor(0xc0, 0x1c, 0x28)));
        }
    }
}

void StrategyTable::onItemChanged(QTableWidgetItem* changed) {
    if (m_updating || changed->column() == PredictedColumn) return;
    if (changed->column() == ParamColumn && changed->row() == builtInOptimalRow())
        m_optimalBudgetEdited = true;
    validateRow(changed->row());
    Q_EMIT strategiesChanged();
}

void StrategyTable::removeCurrentCustomRow() {
    const int row = currentRow();
    if (row < 0 || !item(row, NameColumn)->data(kCustomRole).toBool()) return;
    removeRow(row);
    Q_EMIT strategiesChanged();
}

}  // namespace ckptlab::ui
