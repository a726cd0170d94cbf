#pragma once
// The results table: sortable through a proxy, Ctrl+C copies the selected rows as TSV, and the
// current row follows (and sets) the selected run.

#include <QTableView>

class QSortFilterProxyModel;

namespace ckptlab::ui {

class ResultsTableModel;

class ResultsView : public QTableView {
    Q_OBJECT
public:
    explicit ResultsView(ResultsTableModel* model, QWidget* parent = nullptr);

    QSortFilterProxyModel* proxy() const { return m_proxy; }
    // Source rows of the selection, in view order.
    std::vector<int> selectedSourceRows() const;

public Q_SLOTS:
    void copySelection();
    void selectRun(int runIndex);

Q_SIGNALS:
    void runSelected(int runIndex);

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    ResultsTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    bool m_syncing = false;  // true while following the document, so we do not echo it back
};

}  // namespace ckptlab::ui
