#include "panels/strategy_list.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include "ckptlab/strategy.h"
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
        for (const std::string& s : presetStrategies(name)) members << QString::fromStdString(s);
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

QStringList StrategyList::checkedStrategies() const { return m_table->checkedStrategies(); }

void StrategyList::setCheckedStrategies(const QStringList& strategies) {
    m_table->setCheckedStrategies(strategies);
}

QStringList StrategyList::invalidChecked() const { return m_table->invalidChecked(); }

QStringList StrategyList::allStrategies() const { return m_table->allStrategies(); }

void StrategyList::setForecast(const LivePrediction* prediction, std::int64_t capacity) {
    m_table->setForecast(prediction, capacity);
}

void StrategyList::followForecast(const LivePrediction& prediction) {
    m_table->followForecast(prediction);
}

void StrategyList::setModel(int depth, BlockKind block) { m_table->setModel(depth, block); }

QString StrategyList::addStrategy(const QString& text) {
    QString canonical;
    try {
        canonical = QString::fromStdString(
            parseStrategy(text.trimmed().toStdString(), m_table->depth(), m_table->block()).name());
    } catch (const std::exception& e) {
        return strategyErrorText(e.what());
    }
    const int row = m_table->ensureRow(canonical);
    m_table->item(row, 0)->setCheckState(Qt::Checked);  // emits strategiesChanged
    m_table->scrollToItem(m_table->item(row, 0));
    return {};
}

void StrategyList::applyPreset(const QString& preset) {
    QStringList strategies;
    for (const std::string& s : presetStrategies(preset.toStdString()))
        strategies << QString::fromStdString(s);
    if (!strategies.isEmpty()) setCheckedStrategies(strategies);
}

void StrategyList::onAddClicked() {
    const QString error = addStrategy(m_custom->text());
    m_customError->setText(error);
    if (error.isEmpty()) m_custom->clear();
}

}  // namespace ckptlab::ui
