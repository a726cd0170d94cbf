#pragma once
// The experiment's parameters, one widget per field of the config registry (config_fields.h),
// built from the field's type and range (parameter_panel_editors.cpp) and its label and tip
// (parameter_panel_looks.cpp), so a value out of range cannot be typed and a field added to the
// registry appears here without an edit. Cross-field rules (heads divide width) are shown below
// the form. A field appears only where the config reads it (fieldApplies: the heads for
// attention blocks, the Llama block's fields for llama, the LM head's with an embedding and LM
// head). A memory limit out of range handed to setConfig (a file, stale settings) is refused:
// the field keeps its value and problems() names the field until it is edited.

#include <QString>
#include <QWidget>
#include <functional>
#include <string_view>
#include <utility>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/config_fields.h"

class QDoubleSpinBox;
class QGridLayout;
class QLabel;

namespace ckptlab::ui {

class ParameterPanel : public QWidget {
    Q_OBJECT
public:
    explicit ParameterPanel(QWidget* parent = nullptr);

    ExperimentConfig config() const;
    void setConfig(const ExperimentConfig& config);
    // Messages of ckptlab::validate for the current values, and of a memory limit refused by
    // setConfig until the field is edited; empty when runnable.
    QStringList problems() const;

    // How the form shows a field beyond what the registry says: its label with its shortcut,
    // its tip, the texts of its special values and choices. A field without one shows under
    // its registry label (configFieldLabel).
    struct FieldLook {
        QString label;     // "&Depth"; of a field switched by a check box, the check box's text
        QString tip;       // the widget's tool tip
        QString zeroText;  // the spin box's text at 0 where 0 means something ("same as heads")
        QString suffix;    // " MiB"
        int decimals = 2;  // a real field's
        double step = 1;
        int firstValue = 0;     // a switched field's value when first switched on
        QString switchName;     // its check box's object name ("chainEnds")
        QString widgetName;     // the widget's object name; empty: the field's settings key
        bool wholeRow = false;  // a flag whose check box, with the label, takes a whole row
        // Repeats, their "auto" and the time limit: one RepeatsField, its time limit placed
        // as a field of its own.
        bool inRepeatsField = false;
        // A choice's items: shown text (empty: the choice's own name) and tip, in the order
        // of choicesOf; a Text field's choices come from `choices`.
        std::vector<std::pair<QString, QString>> items;
        std::vector<std::string> (*choices)() = nullptr;
    };
    static FieldLook lookOf(std::string_view key);

Q_SIGNALS:
    void configChanged();

private:
    // One field's widgets, read into and written from a config.
    struct Editor {
        const ConfigField* field;
        QWidget* label;  // a QLabel, or a check box that switches the field; null: whole row
        QWidget* widget;
        std::function<void(ExperimentConfig&)> read;
        std::function<void(const ExperimentConfig&)> write;
    };
    void onChanged();
    // The field's editor, made from its type (parameter_panel_editors.cpp).
    Editor makeEditor(const ConfigField& field);
    Editor makeNumberEditor(const ConfigField& field, const FieldLook& look);
    Editor makeChoiceEditor(const ConfigField& field, const FieldLook& look);
    Editor makeRepeatsEditor(const ConfigField& field, const FieldLook& look);
    // The field's widget, or null (the memory limit's, for its refusal).
    QWidget* widgetOf(std::string_view key) const;
    // The fields in rows of two (label, field, label, field) in the registry's order, those
    // the config does not read left out, then the whole-row ones.
    void layoutFields();
    void watchMemoryLimit(QDoubleSpinBox* limit);

    std::vector<Editor> m_editors;  // in the registry's order
    class RepeatsField* m_repeats = nullptr;
    std::vector<bool> m_shown;  // of each editor, as last laid out
    QString m_refusedLimit;     // validate's message for a limit setConfig refused
    QLabel* m_problems;
    QGridLayout* m_grid;
    bool m_loading = true;  // being built, or setConfig in progress: emit once at the end
};

}  // namespace ckptlab::ui
