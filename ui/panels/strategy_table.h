#pragma once
// The checkable table of strategies: one row per kind (its parameter editable) plus the custom
// ones, each validated by parseStrategy for the current model. One kind's rows stay together,
// ordered by parameter.

#include <QStringList>
#include <QTableWidget>
#include <cstdint>
#include <optional>

#include "ckptlab/config.h"
#include "ckptlab/strategy.h"

namespace ckptlab::ui {

struct LivePrediction;

class StrategyTable : public QTableWidget {
    Q_OBJECT
public:
    explicit StrategyTable(QWidget* parent = nullptr);

    // Texts such as "every:2", in row order.
    QStringList checkedStrategies() const;
    // Every row's text, checked or not (the live forecast predicts them all).
    QStringList allStrategies() const;
    // Fills the Predicted column; null marks it as being measured. Peaks predicted above
    // `capacity` bytes over the step's start (the memory limit less the baseline; 0 = no
    // limit) are marked as predicted to run out of memory.
    void setForecast(const LivePrediction* prediction, std::int64_t capacity = 0);
    // Until the user edits it, moves the built-in optimal row's budget halfway between the
    // smallest feasible peak and the no-checkpoint peak of this forecast, so that it fits
    // whatever the model. Emits strategiesChanged when it moved (a new strategy to forecast).
    void followForecast(const LivePrediction& prediction);
    // Checks exactly these, adding rows for any not listed yet.
    void setCheckedStrategies(const QStringList& strategies);
    // Checked strategies parseStrategy rejects for the current model, as "text: why".
    QStringList invalidChecked() const;
    // The row showing this canonical text, added (unchecked) if missing.
    int ensureRow(const QString& canonical);
    // The row's strategy (text that is none has no value) and its canonical text.
    std::optional<Strategy> rowStrategy(int row) const;
    QString rowText(int row) const;

    int depth() const { return m_depth; }
    BlockKind block() const { return m_block; }
    void setModel(int depth, BlockKind block);

Q_SIGNALS:
    void strategiesChanged();

private:
    int findRow(const QString& text) const;
    int insertionRow(const QString& label, double value) const;
    int appendRow(const QString& canonical, bool custom);
    void validateRow(int row);
    void onItemChanged(QTableWidgetItem* item);
    void removeCurrentCustomRow();
    int builtInOptimalRow() const;

    int m_depth = 20;
    BlockKind m_block = BlockKind::Ffn;
    bool m_updating = false;             // many rows changing at once: one signal at the end
    bool m_optimalBudgetEdited = false;  // by the user: the forecast no longer moves it
};

}  // namespace ckptlab::ui
