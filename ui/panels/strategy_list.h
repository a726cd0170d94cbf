#pragma once
// Strategies to sweep together: the core's presets, the checkable strategy table and a field
// for custom strategies, each text parsed once (parseStrategy) where it comes in.

#include <QStringList>
#include <QWidget>

#include "ckptlab/model/config.h"
#include "ckptlab/planning/sweep_memory.h"
#include "controllers/live_prediction.h"

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
    // StrategyTable's: the checked strategies as values, the checked rows that are no strategy,
    // every checked row's text (for the settings).
    std::vector<Strategy> checkedStrategies() const;
    std::vector<StrategyProblem> checkedNotStrategies() const;
    QStringList checkedNames() const;
    // Texts (the settings', a test's) are parsed once, in the table.
    void setCheckedStrategies(const QStringList& texts);
    void setChecked(const std::vector<Strategy>& strategies);
    // Every row's strategy, checked or not: what the live forecast predicts.
    std::vector<Strategy> allStrategies() const;
    // The live forecast beside each row; `capacity`: bytes the memory limit leaves (0 none).
    void setForecast(const LivePrediction* prediction, std::int64_t capacity = 0);
    // Moves the planner's budget row to fit the forecast model (until the user sets one).
    void followForecast(const LivePrediction& prediction);

    // Adds (or checks) a strategy typed by the user, parsed once; returns why it is not one of
    // this model's, or empty.
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
