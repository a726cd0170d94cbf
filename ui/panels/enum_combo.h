#pragma once
// A combo box of one of the config's enums, each item its core name ("llama", "mixed-bf16")
// with the enum's value as its data: the parameter panel's choices.

#include <QComboBox>
#include <initializer_list>

namespace ckptlab::ui {

template <typename Enum>
QComboBox* enumCombo(const QString& name, std::initializer_list<Enum> values) {
    auto* combo = new QComboBox;
    combo->setObjectName(name);
    for (Enum v : values) combo->addItem(QString::fromStdString(toString(v)), int(v));
    return combo;
}

template <typename Enum>
Enum comboValue(const QComboBox* combo) {
    return Enum(combo->currentData().toInt());
}

// Selects the item of `data`; an unknown value leaves the selection as it is.
inline void setComboData(QComboBox* combo, const QVariant& data) {
    const int index = combo->findData(data);
    if (index >= 0) combo->setCurrentIndex(index);
}

}  // namespace ckptlab::ui
