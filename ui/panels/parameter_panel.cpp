#include "panels/parameter_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGridLayout>
#include <QLabel>
#include <algorithm>

#include "ckptlab/engine/runner.h"
#include "document/core_text.h"

namespace ckptlab::ui {

ParameterPanel::ParameterPanel(QWidget* parent) : QWidget(parent), m_grid(new QGridLayout(this)) {
    setObjectName(QStringLiteral("parameters"));
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setColumnStretch(1, 1);
    m_grid->setColumnStretch(3, 1);

    // Laid out by layoutFields once onChanged knows which fields the config reads; owned by
    // the panel meanwhile, so a field never laid out is not a window of its own.
    for (const ConfigField& field : configFields()) {
        Editor editor = makeEditor(field);
        for (QWidget* widget : {editor.label, editor.widget})
            if (widget) widget->setParent(this);
        m_editors.push_back(std::move(editor));
    }
    if (auto* limit = qobject_cast<QDoubleSpinBox*>(widgetOf("memory-limit")))
        watchMemoryLimit(limit);

    m_problems = new QLabel(this);
    m_problems->setObjectName("configProblems");
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet(QStringLiteral("color: #c01c28;"));

    // As wide whichever fields are shown: another block kind does not move the panel's edge
    // (the window fits its dock to the first one) nor send the fields under a scroll bar.
    int labelWidth = 0, fieldWidth = 0;
    for (const Editor& e : m_editors) {
        if (!e.label || !e.widget) continue;  // whole rows and unplaced parts
        labelWidth = std::max(labelWidth, e.label->sizeHint().width());
        fieldWidth = std::max(fieldWidth, e.widget->sizeHint().width());
    }
    for (int column : {0, 2}) m_grid->setColumnMinimumWidth(column, labelWidth);
    for (int column : {1, 3}) m_grid->setColumnMinimumWidth(column, fieldWidth);

    setConfig(ExperimentConfig{});
}

QWidget* ParameterPanel::widgetOf(std::string_view key) const {
    for (const Editor& e : m_editors)
        if (key == e.field->key) return e.widget;
    return nullptr;
}

// Editing the limit, even back to the value it kept, answers a refused one: the refusal goes
// before onChanged lists the problems, so the editor's own connection is replaced.
void ParameterPanel::watchMemoryLimit(QDoubleSpinBox* limit) {
    disconnect(limit, &QDoubleSpinBox::valueChanged, this, nullptr);
    connect(limit, &QDoubleSpinBox::valueChanged, this, [this] {
        if (!m_loading) m_refusedLimit.clear();
        onChanged();
    });
    connect(limit, &QDoubleSpinBox::editingFinished, this, [this] {
        if (m_refusedLimit.isEmpty()) return;
        m_refusedLimit.clear();
        onChanged();
    });
}

void ParameterPanel::layoutFields() {
    int placed = 0;
    std::vector<QWidget*> wholeRows;
    for (std::size_t i = 0; i < m_editors.size(); ++i) {
        const Editor& e = m_editors[i];
        if (!e.widget) continue;  // a part of another field's widget
        for (QWidget* widget : {e.label, e.widget}) {
            if (!widget) continue;
            m_grid->removeWidget(widget);
            widget->setVisible(m_shown[i]);
        }
        if (!m_shown[i]) continue;
        if (!e.label) {
            wholeRows.push_back(e.widget);
            continue;
        }
        const int row = placed / 2;
        const int column = (placed % 2) * 2;
        m_grid->addWidget(e.label, row, column);
        m_grid->addWidget(e.widget, row, column + 1);
        ++placed;
    }
    int row = (placed + 1) / 2;
    m_grid->removeWidget(m_problems);
    for (QWidget* whole : wholeRows) m_grid->addWidget(whole, row++, 0, 1, 4);
    m_grid->addWidget(m_problems, row, 0, 1, 4);
}

ExperimentConfig ParameterPanel::config() const {
    ExperimentConfig c;
    for (const Editor& e : m_editors) e.read(c);
    return c;
}

void ParameterPanel::setConfig(const ExperimentConfig& c) {
    m_loading = true;
    // The spin box would clamp an out-of-range limit into another, valid one without a word;
    // a run under a limit nobody asked for is worse than no run.
    m_refusedLimit.clear();
    ExperimentConfig limitOnly;
    limitOnly.memory_limit_mib = c.memory_limit_mib;
    auto* limit = qobject_cast<QDoubleSpinBox*>(widgetOf("memory-limit"));
    for (const FieldError& e : validate(limitOnly))
        if (e.field == "memory-limit" && limit)
            m_refusedLimit = tr("%1; the field kept %2. Set a limit in range (0 = none) to run.")
                                 .arg(fieldErrorText(e), limit->textFromValue(limit->value()));
    for (const Editor& e : m_editors)
        if (!(e.widget == limit && !m_refusedLimit.isEmpty())) e.write(c);
    m_loading = false;
    onChanged();
}

QStringList ParameterPanel::problems() const {
    QStringList list;
    const ExperimentConfig c = config();
    for (const FieldError& e : validate(c)) list << fieldErrorText(e);
    if (!m_refusedLimit.isEmpty()) list << m_refusedLimit;
    return list;
}

void ParameterPanel::onChanged() {
    if (m_loading) return;
    const ExperimentConfig c = config();
    std::vector<bool> shown;
    for (const Editor& e : m_editors) {
        const bool applies = fieldApplies(*e.field, c);
        // A field read by every config keeps its widget's own rule (the time limit: with auto).
        if (e.widget && e.field->applies) e.widget->setEnabled(applies);
        if (auto* toggle = qobject_cast<QCheckBox*>(e.label)) {
            // A switched field (vocab): its check box stays on, its value only while checked.
            toggle->setEnabled(applies);
            if (e.widget) e.widget->setEnabled(applies && toggle->isChecked());
        }
        shown.push_back(applies);
    }
    if (shown != m_shown) {
        m_shown = std::move(shown);
        layoutFields();
    }
    // CUDA's own caching allocator serves a GPU whatever this says.
    if (QWidget* allocator = widgetOf("allocator")) allocator->setEnabled(c.device == "cpu");
    m_problems->setText(problems().join(QLatin1Char('\n')));
    m_problems->setVisible(!m_problems->text().isEmpty());
    Q_EMIT configChanged();
}

}  // namespace ckptlab::ui
