#pragma once
// Strategies to sweep together: the core's presets, the checkable strategy table and a field
// for custom strategies validated by parseStrategy.

#include <QStringList>
#include <QWidget>

#include "ckptlab/config.h"

class QComboBox;
class QLabel;
class QLineEdit;

namespace ckptlab::ui {

class StrategyTable;

class StrategyList : public QWidget {
    Q_OBJECT
public:
    explicit StrategyList(QWidget* parent = nullptr);

    StrategyTable* table() const { return m_table; }
    QStringList checkedStrategies() const;
    void setCheckedStrategies(const QStringList& strategies);
    QStringList invalidChecked() const;

    // Adds (or checks) a strategy typed by the user; returns parseStrategy's error, or empty.
    QString addStrategy(const QString& text);
    void applyPreset(const QString& preset);

public Q_SLOTS:
    // Strategies are validated against the model's depth and block kind.
    void setModel(int depth, ckptlab::BlockKind block);

Q_SIGNALS:
    void strategiesChanged();

private:
    void onAddClicked();

    StrategyTable* m_table;
    QLineEdit* m_custom;
    QLabel* m_customError;
    QComboBox* m_presets;
};

}  // namespace ckptlab::ui
