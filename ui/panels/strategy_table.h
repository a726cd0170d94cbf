#pragma once
// The checkable table of strategies: one row per kind (its parameter editable) plus the custom
// ones, each a Strategy checked against the current model (checkStrategy). One kind's rows stay
// together, ordered by parameter. The app's strategies are parsed here, once, at the boundary.

#include <QStringList>
#include <QTableWidget>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/sweep_memory.h"

namespace ckptlab::ui {

struct LivePrediction;

class StrategyTable : public QTableWidget {
    Q_OBJECT
public:
    explicit StrategyTable(QWidget* parent = nullptr);

    // The checked rows that are strategies, in row order, each once. Rows hold their kind and
    // parameter, so nothing is parsed here: a text is parsed once, when its row is added.
    std::vector<Strategy> checkedStrategies() const;
    // Checked rows whose text is no strategy at all (a hand-edited settings file), and why.
    std::vector<StrategyProblem> checkedNotStrategies() const;
    // Every checked row's text ("every:2"), for the settings.
    QStringList checkedNames() const;
    // Every row that is a strategy, checked or not (the live forecast predicts them all).
    std::vector<Strategy> allStrategies() const;
    // Fills the Predicted column; null marks it as being measured. Peaks predicted above
    // `capacity` bytes over the step's start (the memory limit less the baseline; 0 = no
    // limit) are marked as predicted to run out of memory.
    void setForecast(const LivePrediction* prediction, std::int64_t capacity = 0);
    // Until the user edits it, moves the built-in optimal row's budget halfway between the
    // smallest feasible peak and the no-checkpoint peak of this forecast, so that it fits
    // whatever the model. Emits strategiesChanged when it moved (a new strategy to forecast).
    void followForecast(const LivePrediction& prediction);
    // Checks exactly these texts (the settings', the user's), each parsed once here; rows are
    // added for any not listed yet, a text that is no strategy as a row that says why.
    void setCheckedStrategies(const QStringList& texts);
    // Checks exactly these strategies, adding rows for any not listed yet.
    void setChecked(const std::vector<Strategy>& strategies);
    // The row of this strategy, added (unchecked, custom) if missing.
    int ensureRow(const Strategy& strategy);
    // The row's strategy (text that is none has no value) and its text.
    std::optional<Strategy> rowStrategy(int row) const;
    QString rowText(int row) const;

    int depth() const { return m_depth; }
    BlockKind block() const { return m_block; }
    void setModel(int depth, BlockKind block);

Q_SIGNALS:
    void strategiesChanged();

private:
    int findRow(const Strategy& strategy) const;
    int insertionRow(const QString& label, double value) const;
    int appendRow(const Strategy& strategy, bool custom);
    int appendTextRow(const QString& text, const CoreMessage& why);
    int insertItems(const QString& label, std::optional<Strategy> strategy, bool custom);
    void checkOnly(const std::vector<int>& rows);
    void validateRow(int row);
    void onItemChanged(QTableWidgetItem* item);
    void removeCurrentCustomRow();
    int builtInOptimalRow() const;

    int m_depth = 20;
    BlockKind m_block = BlockKind::Ffn;
    bool m_updating = false;             // many rows changing at once: one signal at the end
    bool m_optimalBudgetEdited = false;  // by the user: the forecast no longer moves it
    // Why each text row's text is no strategy, kept from the one parse of its text.
    std::map<QString, CoreMessage> m_notStrategies;
};

}  // namespace ckptlab::ui
