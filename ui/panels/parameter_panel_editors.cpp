// The parameter panel's widget for one config field, made from the registry's entry: a spin box
// for a number in its range (0 under its special text where 0 means something), a check box for
// a flag, a list for a choice, and a check box beside the value for a field whose 0 switches a
// feature off (vocab). Each reads into and writes from a config through the registry
// (valueOf, setValue), so config() and setConfig() are loops.
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSpinBox>
#include <algorithm>
#include <climits>
#include <cmath>

#include "base/config_field_text.h"
#include "panels/decimal_spin_box.h"
#include "panels/parameter_panel.h"
#include "panels/repeats_field.h"

namespace ckptlab::ui {
namespace {

QLabel* labelFor(const QString& text, QWidget* buddy) {
    auto* label = new QLabel(text);
    label->setBuddy(buddy);
    return label;
}

// The label the form shows: the look's, else the registry's in the user's language.
QString labelText(const ConfigField& field, const ParameterPanel::FieldLook& look) {
    if (!look.label.isEmpty()) return look.label;
    QString text = configFieldLabel(field.key);
    if (!text.isEmpty()) text[0] = text[0].toUpper();
    return text;
}

QString widgetName(const ConfigField& field, const ParameterPanel::FieldLook& look) {
    return look.widgetName.isEmpty() ? QString::fromUtf8(field.settings) : look.widgetName;
}

// The range a spin box offers: the registry's, with 0 where 0 means something else.
std::pair<double, double> boxRange(const ConfigField& field, double fallbackMax) {
    double low = field.range ? field.range->min : 0, high = field.range ? field.range->max : 0;
    if (!field.range) high = fallbackMax;
    if (*field.zero_means && !field.zero_is_unset) low = std::min(low, 0.0);
    return {low, high};
}

long long wholeNumber(const FieldValue& value) {
    if (const auto* i = std::get_if<long long>(&value)) return *i;
    if (const auto* u = std::get_if<std::uint64_t>(&value))
        return static_cast<long long>(std::min<std::uint64_t>(*u, LLONG_MAX));
    return 0;
}

}  // namespace

ParameterPanel::Editor ParameterPanel::makeEditor(const ConfigField& field) {
    const FieldLook look = lookOf(field.key);
    if (look.inRepeatsField) return makeRepeatsEditor(field, look);
    switch (typeOf(field)) {
    case FieldType::Int:
    case FieldType::Seed:
    case FieldType::Real: return makeNumberEditor(field, look);
    case FieldType::Choice:
    case FieldType::Text: return makeChoiceEditor(field, look);
    case FieldType::Bool: {
        auto* box = new QCheckBox(look.wholeRow ? labelText(field, look) : QString());
        box->setObjectName(widgetName(field, look));
        box->setToolTip(look.tip);
        connect(box, &QCheckBox::toggled, this, &ParameterPanel::onChanged);
        return {&field, look.wholeRow ? nullptr : labelFor(labelText(field, look), box), box,
                [&field, box](ExperimentConfig& c) { setValue(field, c, box->isChecked()); },
                [&field, box](const ExperimentConfig& c) {
                    box->setChecked(std::get<bool>(valueOf(field, c)));
                }};
    }
    }
    return {&field, nullptr, nullptr, [](ExperimentConfig&) {}, [](const ExperimentConfig&) {}};
}

ParameterPanel::Editor ParameterPanel::makeNumberEditor(const ConfigField& field,
                                                        const FieldLook& look) {
    const bool real = typeOf(field) == FieldType::Real;
    const auto [low, high] = boxRange(field, INT_MAX);
    QAbstractSpinBox* box;
    std::function<double()> value;
    std::function<void(double)> show;
    if (real) {
        auto* spin = new DecimalSpinBox;
        spin->setTrimmedZeros(true);  // "62", "0.25", not "62.000"
        spin->setDecimals(look.decimals);
        spin->setRange(low, high);
        spin->setSingleStep(look.step);
        spin->setSuffix(look.suffix);
        connect(spin, &QDoubleSpinBox::valueChanged, this, &ParameterPanel::onChanged);
        value = [spin] { return spin->value(); };
        show = [spin](double v) { spin->setValue(v); };
        box = spin;
    } else {
        auto* spin = new QSpinBox;
        spin->setRange(int(low), int(std::min<double>(high, INT_MAX)));
        spin->setSuffix(look.suffix);
        connect(spin, &QSpinBox::valueChanged, this, &ParameterPanel::onChanged);
        value = [spin] { return double(spin->value()); };
        show = [spin](double v) { spin->setValue(int(std::min<double>(v, INT_MAX))); };
        box = spin;
    }
    box->setObjectName(widgetName(field, look));
    box->setToolTip(look.tip);
    box->setAccelerated(true);
    // No update per keystroke of "4096": wait until the value is complete.
    box->setKeyboardTracking(false);
    if (!look.zeroText.isEmpty()) box->setSpecialValueText(look.zeroText);

    const auto number = [&field, real](double v) {
        if (real) return FieldValue(v);
        if (typeOf(field) == FieldType::Seed) return FieldValue(std::uint64_t(std::llround(v)));
        return FieldValue(std::llround(v));
    };
    if (!field.zero_is_unset) {
        return {
            &field, labelFor(labelText(field, look), box), box,
            [&field, value, number](ExperimentConfig& c) { setValue(field, c, number(value())); },
            [&field, show, real](const ExperimentConfig& c) {
                const FieldValue v = valueOf(field, c);
                show(real ? std::get<double>(v) : double(wholeNumber(v)));
            }};
    }
    // 0 switches the feature off: a check box in the label's place, the value kept while off.
    auto* toggle = new QCheckBox(labelText(field, look));
    toggle->setObjectName(look.switchName);
    toggle->setToolTip(look.tip);
    connect(toggle, &QCheckBox::toggled, this, &ParameterPanel::onChanged);
    if (look.firstValue > 0) show(look.firstValue);
    return {&field, toggle, box,
            [&field, value, number, toggle](ExperimentConfig& c) {
                setValue(field, c, toggle->isChecked() ? number(value()) : number(0));
            },
            [&field, show, toggle](const ExperimentConfig& c) {
                const long long v = wholeNumber(valueOf(field, c));
                toggle->setChecked(v > 0);
                if (v > 0) show(double(v));  // off: the box keeps the last value
            }};
}

ParameterPanel::Editor ParameterPanel::makeChoiceEditor(const ConfigField& field,
                                                        const FieldLook& look) {
    auto* combo = new QComboBox;
    combo->setObjectName(widgetName(field, look));
    combo->setToolTip(look.tip);
    const std::vector<std::string> choices = look.choices ? look.choices() : choicesOf(field);
    for (std::size_t i = 0; i < choices.size(); ++i) {
        const QString name = QString::fromStdString(choices[i]);
        const bool described = i < look.items.size();
        combo->addItem(described && !look.items[i].first.isEmpty() ? look.items[i].first : name,
                       name);
        if (described && !look.items[i].second.isEmpty())
            combo->setItemData(int(i), look.items[i].second, Qt::ToolTipRole);
    }
    connect(combo, &QComboBox::currentIndexChanged, this, &ParameterPanel::onChanged);
    return {&field, labelFor(labelText(field, look), combo), combo,
            [&field, combo](ExperimentConfig& c) {
                setValue(field, c, combo->currentData().toString().toStdString());
            },
            [&field, combo](const ExperimentConfig& c) {
                // A value the list lacks (a device this machine has not) keeps the current one.
                const int index = combo->findData(QString::fromStdString(valueText(field, c)));
                if (index >= 0) combo->setCurrentIndex(index);
            }};
}

// Repeats, their "auto" and the time limit are one RepeatsField: the repeats' editor reads and
// writes all three, the time limit's places its box, and "auto" has no widget of its own.
ParameterPanel::Editor ParameterPanel::makeRepeatsEditor(const ConfigField& field,
                                                         const FieldLook& look) {
    if (!m_repeats) {
        m_repeats = new RepeatsField;
        connect(m_repeats, &RepeatsField::changed, this, &ParameterPanel::onChanged);
    }
    RepeatsField* repeats = m_repeats;
    const auto none = [](ExperimentConfig&) {};
    const auto noneWritten = [](const ExperimentConfig&) {};
    switch (typeOf(field)) {
    case FieldType::Int:
        return {&field, labelFor(labelText(field, look), repeats), repeats,
                [repeats](ExperimentConfig& c) { repeats->read(c); },
                [repeats](const ExperimentConfig& c) { repeats->write(c); }};
    case FieldType::Real:
        return {&field, labelFor(labelText(field, look), repeats->timeLimitBox()),
                repeats->timeLimitBox(), none, noneWritten};
    default: return {&field, nullptr, nullptr, none, noneWritten};
    }
}

}  // namespace ckptlab::ui
