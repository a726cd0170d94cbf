#pragma once
// A QDoubleSpinBox that reads a typed '.' or ',' as the decimal point and shows no thousands
// separators, in the widget's locale otherwise ("12,5 MiB" in German). Qt's own box takes the
// other mark for a thousands separator: "3.25" typed under de_DE is 325, "3,25" under en_US
// is 325. Here neither can be misread, whichever notation the user types.

#include <QDoubleSpinBox>

namespace ckptlab::ui {

class DecimalSpinBox : public QDoubleSpinBox {
public:
    explicit DecimalSpinBox(QWidget* parent = nullptr);

    // Without trailing zeros: "62", "0.25", not "62.000".
    void setTrimmedZeros(bool trimmed) { m_trimmedZeros = trimmed; }

    QValidator::State validate(QString& text, int& pos) const override;
    double valueFromText(const QString& text) const override;
    QString textFromValue(double value) const override;

private:
    bool m_trimmedZeros = false;
};

// `value` in `locale` without thousands separators (QLocale::toString's format and precision).
QString decimalText(const QLocale& locale, double value, char format, int precision);

}  // namespace ckptlab::ui
