#include "panels/results_view.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QKeyEvent>
#include <QSortFilterProxyModel>
#include <algorithm>

#include "document/results_table_model.h"

namespace ckptlab::ui {

ResultsView::ResultsView(ResultsTableModel* model, QWidget* parent)
    : QTableView(parent), m_model(model), m_proxy(new QSortFilterProxyModel(this)) {
    setObjectName(QStringLiteral("resultsView"));
    m_proxy->setSourceModel(model);
    m_proxy->setSortRole(ResultsTableModel::SortRole);
    setModel(m_proxy);
    setSortingEnabled(true);
    sortByColumn(-1, Qt::AscendingOrder);  // run order until the user clicks a header
    setSelectionBehavior(SelectRows);
    setSelectionMode(ExtendedSelection);
    setAlternatingRowColors(true);
    setWordWrap(false);
    verticalHeader()->hide();
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setStretchLastSection(true);

    auto* copy = new QAction(tr("Copy rows"), this);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetShortcut);
    connect(copy, &QAction::triggered, this, &ResultsView::copySelection);
    addAction(copy);
    setContextMenuPolicy(Qt::ActionsContextMenu);

    // With several results files the Source column (the model's last) reads beside the strategy.
    connect(m_proxy, &QAbstractItemModel::modelReset, this, [this] {
        if (!m_model->hasSourceColumn()) return;
        QHeaderView* header = horizontalHeader();
        header->moveSection(header->visualIndex(ResultsTableModel::SourceColumn), 1);
    });

    connect(selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) {
                if (m_syncing || !current.isValid()) return;
                Q_EMIT runSelected(m_proxy->mapToSource(current).row());
            });
}

std::vector<int> ResultsView::selectedSourceRows() const {
    QModelIndexList rows = selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(),
              [](const QModelIndex& a, const QModelIndex& b) { return a.row() < b.row(); });
    std::vector<int> source;
    for (const QModelIndex& index : rows) source.push_back(m_proxy->mapToSource(index).row());
    return source;
}

void ResultsView::copySelection() {
    const std::vector<int> rows = selectedSourceRows();
    if (!rows.empty()) QApplication::clipboard()->setText(m_model->toTsv(rows));
}

void ResultsView::selectRun(int runIndex) {
    m_syncing = true;
    if (runIndex < 0 || runIndex >= m_model->rowCount()) {
        clearSelection();
    } else {
        const QModelIndex index = m_proxy->mapFromSource(m_model->index(runIndex, 0));
        // Keep a multi-row selection the user made for copying if it holds this run.
        if (!selectionModel()->isRowSelected(index.row(), {}))
            selectionModel()->setCurrentIndex(
                index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        scrollTo(index);
    }
    m_syncing = false;
}

void ResultsView::keyPressEvent(QKeyEvent* event) {
    // The Copy action handles Ctrl+C; QTableView's own copy would take only one cell.
    if (event->matches(QKeySequence::Copy)) {
        copySelection();
        event->accept();
        return;
    }
    QTableView::keyPressEvent(event);
}

}  // namespace ckptlab::ui
