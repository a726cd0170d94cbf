#include "panels/decimal_spin_box.h"

namespace ckptlab::ui {
namespace {

// Both marks read as the locale's decimal point; the same length, so the cursor stays.
QString withLocalePoint(QString text, const QLocale& locale) {
    const QString point = locale.decimalPoint();
    for (const QString mark : {QStringLiteral("."), QStringLiteral(",")})
        if (mark != point) text.replace(mark, point);
    return text;
}

}  // namespace

QString decimalText(const QLocale& locale, double value, char format, int precision) {
    QLocale plain = locale;
    plain.setNumberOptions(plain.numberOptions() | QLocale::OmitGroupSeparator);
    return plain.toString(value, format, precision);
}

DecimalSpinBox::DecimalSpinBox(QWidget* parent) : QDoubleSpinBox(parent) {}

QValidator::State DecimalSpinBox::validate(QString& text, int& pos) const {
    if (locale().decimalPoint().size() == 1) text = withLocalePoint(text, locale());
    return QDoubleSpinBox::validate(text, pos);
}

double DecimalSpinBox::valueFromText(const QString& text) const {
    return QDoubleSpinBox::valueFromText(withLocalePoint(text, locale()));
}

QString DecimalSpinBox::textFromValue(double value) const {
    QString text = decimalText(locale(), value, 'f', decimals());
    const QString point = locale().decimalPoint();
    if (m_trimmedZeros && text.contains(point)) {
        while (text.endsWith(QLatin1Char('0'))) text.chop(1);
        if (text.endsWith(point)) text.chop(point.size());
    }
    return text;
}

}  // namespace ckptlab::ui
