#include "panels/strategy_list.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "ckptlab/model/strategy.h"
#include "document/core_text.h"
#include "panels/strategy_table.h"

namespace ckptlab::ui {

StrategyList::StrategyList(QWidget* parent)
    : QWidget(parent),
      m_table(new StrategyTable(this)),
      m_custom(new QLineEdit(this)),
      m_customError(new QLabel(this)),
      m_presets(new QComboBox(this)) {
    setObjectName(QStringLiteral("strategies"));
    m_presets->setObjectName(QStringLiteral("presets"));
    m_presets->addItem(tr("Preset…"));
    for (const std::string& name : presetNames()) {
        QStringList members;
        for (const Strategy& s : presetStrategies(name))
            members << QString::fromStdString(s.name());
        m_presets->addItem(QString::fromStdString(name));
        m_presets->setItemData(m_presets->count() - 1, members.join(QStringLiteral(", ")),
                               Qt::ToolTipRole);
    }
    m_presets->setToolTip(tr("Check a named set of strategies, e.g. the seed's experiments"));
    connect(m_presets, &QComboBox::activated, this, [this](int index) {
        if (index > 0) applyPreset(m_presets->itemText(index));
        m_presets->setCurrentIndex(0);
    });

    m_custom->setObjectName(QStringLiteral("customStrategy"));
    m_custom->setPlaceholderText(tr("custom, e.g. segments:5"));
    m_custom->setClearButtonEnabled(true);
    m_custom->setToolTip(strategySyntaxText());
    auto* add = new QPushButton(tr("Add"), this);
    connect(add, &QPushButton::clicked, this, &StrategyList::onAddClicked);
    connect(m_custom, &QLineEdit::returnPressed, this, &StrategyList::onAddClicked);
    connect(m_custom, &QLineEdit::textChanged, m_customError, &QLabel::clear);
    m_customError->setObjectName(QStringLiteral("customError"));
    m_customError->setWordWrap(true);
    m_customError->setStyleSheet(QStringLiteral("color: #c01c28;"));

    auto* addRow = new QHBoxLayout;
    addRow->addWidget(m_custom, 1);
    addRow->addWidget(add);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_presets);
    layout->addWidget(m_table, 1);
    layout->addLayout(addRow);
    layout->addWidget(m_customError);

    connect(m_table, &StrategyTable::strategiesChanged, this, &StrategyList::strategiesChanged);
}

std::vector<Strategy> StrategyList::checkedStrategies() const {
    return m_table->checkedStrategies();
}

std::vector<StrategyProblem> StrategyList::checkedNotStrategies() const {
    return m_table->checkedNotStrategies();
}

QStringList StrategyList::checkedNames() const { return m_table->checkedNames(); }

void StrategyList::setCheckedStrategies(const QStringList& texts) {
    m_table->setCheckedStrategies(texts);
}

void StrategyList::setChecked(const std::vector<Strategy>& strategies) {
    m_table->setChecked(strategies);
}

std::vector<Strategy> StrategyList::allStrategies() const { return m_table->allStrategies(); }

void StrategyList::setForecast(const LivePrediction* prediction, std::int64_t capacity) {
    m_table->setForecast(prediction, capacity);
}

void StrategyList::followForecast(const LivePrediction& prediction) {
    m_table->followForecast(prediction);
}

void StrategyList::setModel(int depth, BlockKind block) { m_table->setModel(depth, block); }

QString StrategyList::addStrategy(const QString& text) {
    Strategy strategy;
    try {
        strategy = parseStrategy(text.trimmed().toStdString(), m_table->depth(), m_table->block());
    } catch (const std::exception& e) {
        return coreErrorText(e);
    }
    const int row = m_table->ensureRow(strategy);
    m_table->item(row, 0)->setCheckState(Qt::Checked);  // emits strategiesChanged
    m_table->scrollToItem(m_table->item(row, 0));
    return {};
}

void StrategyList::applyPreset(const QString& preset) {
    const std::vector<Strategy> strategies = presetStrategies(preset.toStdString());
    if (!strategies.empty()) setChecked(strategies);
}

void StrategyList::onAddClicked() {
    const QString error = addStrategy(m_custom->text());
    m_customError->setText(error);
    if (error.isEmpty()) m_custom->clear();
}

}  // namespace ckptlab::ui
