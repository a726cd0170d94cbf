#pragma once
// The lesson panel's widget makers (lesson_panel.cpp and lesson_panel_build.cpp).

#include <QLabel>
#include <QLayout>
#include <QLayoutItem>
#include <QPushButton>
#include <QTextDocument>
#include <QWidget>
#include <QtMath>

namespace ckptlab::ui::lesson_widgets {

// Wrapped rich text, selectable, top-left.
inline QLabel* textLabel(const char* name) {
    auto* label = new QLabel;
    label->setObjectName(QLatin1String(name));
    label->setWordWrap(true);
    label->setTextFormat(Qt::RichText);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    return label;
}

inline QPushButton* button(const char* name) {
    auto* b = new QPushButton;
    b->setObjectName(QLatin1String(name));
    return b;
}

// ◀ and ▶ only a little wider than their arrow (styles make a push button at least about
// 80 px wide), so the row of controls fits a narrow dock. Again when the font changes.
inline void fitArrow(QPushButton* button) {
    button->setMaximumWidth(qRound(button->fontMetrics().height() * 2.6));
}

// A heading in bold, then the text: "<b>Observe</b> …".
inline QString headed(const QString& heading, const QString& html) {
    return QStringLiteral("<b>%1</b> %2").arg(heading.toHtmlEscaped(), html);
}

inline QString plainOf(const QString& html) {
    QTextDocument document;
    document.setHtml(html);
    return document.toPlainText();
}

inline void clearLayout(QLayout* layout) {
    while (QLayoutItem* item = layout->takeAt(0)) {
        if (QWidget* widget = item->widget()) delete widget;
        if (QLayout* inner = item->layout()) {
            clearLayout(inner);
            delete inner;  // its widgets are gone; the layout itself is not a widget's
            continue;
        }
        delete item;
    }
}

}  // namespace ckptlab::ui::lesson_widgets
