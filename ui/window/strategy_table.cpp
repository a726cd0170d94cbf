#include "strategy_table.h"

#include <QAction>
#include <QHeaderView>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyledItemDelegate>

#include "ckptlab/strategy.h"

namespace ckptlab::ui {

namespace {

enum Column { NameColumn, ParamColumn };
constexpr int kHasParamRole = Qt::UserRole + 1;
constexpr int kCustomRole = Qt::UserRole + 2;
constexpr int kErrorRole = Qt::UserRole + 3;

// Parameters are block indices or counts: keep the editor inside the model's range.
class ParamDelegate : public QStyledItemDelegate {
public:
    using QStyledItemDelegate::QStyledItemDelegate;
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem&,
                          const QModelIndex&) const override
    {
        auto* spin = new QSpinBox(parent);
        spin->setRange(0, int(limits::depth.max));
        return spin;
    }
};

// Defaults shown for the kinds that take a parameter.
int defaultParam(StrategyKind kind)
{
    switch (kind) {
    case StrategyKind::Every: return 2;
    case StrategyKind::Segments: return 4;
    case StrategyKind::From: return 10;
    case StrategyKind::SeedBug: return 4;
    default: return 0;
    }
}

QString helpFor(const QString& label)
{
    const QStringList lines = QString::fromStdString(strategySyntaxHelp()).split(QLatin1Char('\n'));
    for (const QString& line : lines)
        if (line.section(QLatin1Char(' '), 0, 0).section(QLatin1Char(':'), 0, 0) == label)
            return line.simplified();
    return {};
}

}  // namespace

StrategyTable::StrategyTable(QWidget* parent)
    : QTableWidget(0, 2, parent)
{
    setObjectName(QStringLiteral("strategyTable"));
    setHorizontalHeaderLabels({tr("Strategy"), tr("Parameter")});
    verticalHeader()->hide();
    horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
    horizontalHeader()->setSectionResizeMode(ParamColumn, QHeaderView::ResizeToContents);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setItemDelegateForColumn(ParamColumn, new ParamDelegate(this));

    auto* remove = new QAction(tr("Remove custom strategy"), this);
    connect(remove, &QAction::triggered, this, &StrategyTable::removeCurrentCustomRow);
    addAction(remove);
    setContextMenuPolicy(Qt::ActionsContextMenu);

    for (StrategyKind kind : {StrategyKind::None, StrategyKind::Full, StrategyKind::Every,
                              StrategyKind::Segments, StrategyKind::From, StrategyKind::Sqrt,
                              StrategyKind::Attn, StrategyKind::FfnOnly, StrategyKind::SeedBug})
        appendRow(QString::fromStdString(Strategy{kind, defaultParam(kind)}.name()), false);
    connect(this, &QTableWidget::itemChanged, this, &StrategyTable::onItemChanged);
}

int StrategyTable::insertionRow(const QString& label, int value) const
{
    bool sameKindSeen = false;
    for (int r = 0; r < rowCount(); ++r) {
        if (item(r, NameColumn)->text() != label) {
            if (sameKindSeen)
                return r;  // just after the last row of this kind
            continue;
        }
        sameKindSeen = true;
        if (item(r, ParamColumn)->data(Qt::EditRole).toInt() > value)
            return r;
    }
    return rowCount();
}

int StrategyTable::appendRow(const QString& canonical, bool custom)
{
    const QSignalBlocker blocker(this);
    const int colon = canonical.indexOf(QLatin1Char(':'));
    const QString label = colon < 0 ? canonical : canonical.left(colon);
    const int value = colon < 0 ? 0 : canonical.mid(colon + 1).toInt();
    const int row = insertionRow(label, value);
    insertRow(row);

    auto* name = new QTableWidgetItem(label);
    name->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
    name->setCheckState(Qt::Unchecked);
    name->setData(kHasParamRole, colon >= 0);
    name->setData(kCustomRole, custom);
    setItem(row, NameColumn, name);

    auto* param = new QTableWidgetItem;
    param->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    if (colon >= 0) {
        param->setData(Qt::EditRole, value);
        param->setFlags(param->flags() | Qt::ItemIsEditable);
    }
    setItem(row, ParamColumn, param);
    validateRow(row);
    return row;
}

QString StrategyTable::rowText(int row) const
{
    const QTableWidgetItem* name = item(row, NameColumn);
    if (!name->data(kHasParamRole).toBool())
        return name->text();
    return name->text() + QLatin1Char(':')
        + QString::number(item(row, ParamColumn)->data(Qt::EditRole).toInt());
}

int StrategyTable::findRow(const QString& text) const
{
    for (int row = 0; row < rowCount(); ++row)
        if (rowText(row) == text)
            return row;
    return -1;
}

int StrategyTable::ensureRow(const QString& canonical)
{
    const int row = findRow(canonical);
    return row >= 0 ? row : appendRow(canonical, true);
}

void StrategyTable::validateRow(int row)
{
    QString error;
    try {
        parseStrategy(rowText(row).toStdString(), m_depth, m_block);
    } catch (const std::exception& e) {
        error = QString::fromStdString(e.what());
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
    const QString help = helpFor(name->text());
    for (int column : {NameColumn, ParamColumn}) {
        QTableWidgetItem* cell = item(row, column);
        cell->setData(kErrorRole, error);
        cell->setForeground(brush);
        cell->setToolTip(error.isEmpty() ? help : error);
    }
}

QStringList StrategyTable::checkedStrategies() const
{
    QStringList list;
    for (int row = 0; row < rowCount(); ++row)
        if (item(row, NameColumn)->checkState() == Qt::Checked)
            list << rowText(row);
    list.removeDuplicates();
    return list;
}

QStringList StrategyTable::invalidChecked() const
{
    QStringList list;
    for (int row = 0; row < rowCount(); ++row) {
        const QTableWidgetItem* name = item(row, NameColumn);
        const QString error = name->data(kErrorRole).toString();
        if (name->checkState() == Qt::Checked && !error.isEmpty())
            list << rowText(row) + QStringLiteral(": ") + error;
    }
    return list;
}

void StrategyTable::setCheckedStrategies(const QStringList& strategies)
{
    m_updating = true;
    {
        const QSignalBlocker blocker(this);
        for (int row = 0; row < rowCount(); ++row)
            item(row, NameColumn)->setCheckState(Qt::Unchecked);
    }
    for (const QString& text : strategies) {
        // Canonical form when it parses; else the user's text, whose row then says why.
        QString canonical = text.trimmed();
        try {
            canonical = QString::fromStdString(
                parseStrategy(canonical.toStdString(), m_depth, m_block).name());
        } catch (const std::exception&) {
        }
        const int row = ensureRow(canonical);
        const QSignalBlocker blocker(this);
        item(row, NameColumn)->setCheckState(Qt::Checked);
    }
    for (int row = 0; row < rowCount(); ++row)
        validateRow(row);  // colours depend on the check state
    m_updating = false;
    Q_EMIT strategiesChanged();
}

void StrategyTable::setModel(int depth, BlockKind block)
{
    if (depth == m_depth && block == m_block)
        return;
    m_depth = depth;
    m_block = block;
    for (int row = 0; row < rowCount(); ++row)
        validateRow(row);
    Q_EMIT strategiesChanged();
}

void StrategyTable::onItemChanged(QTableWidgetItem* changed)
{
    if (m_updating)
        return;
    validateRow(changed->row());
    Q_EMIT strategiesChanged();
}

void StrategyTable::removeCurrentCustomRow()
{
    const int row = currentRow();
    if (row < 0 || !item(row, NameColumn)->data(kCustomRole).toBool())
        return;
    removeRow(row);
    Q_EMIT strategiesChanged();
}

}  // namespace ckptlab::ui
