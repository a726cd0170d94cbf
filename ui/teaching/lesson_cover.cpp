#include "teaching/lesson_cover.h"

#include <QEvent>

namespace ckptlab::ui {

LessonCover::LessonCover(QWidget* target) : QLabel(target) {
    setObjectName(QStringLiteral("predictCover"));
    setAlignment(Qt::AlignCenter);
    setWordWrap(true);
    setMargin(24);
    setAutoFillBackground(true);  // opaque: nothing of the chart shows through
    setBackgroundRole(QPalette::Window);
    hide();
    target->installEventFilter(this);
    setGeometry(target->rect());
}

bool LessonCover::eventFilter(QObject* watched, QEvent* event) {
    if (watched == parent()) {
        if (event->type() == QEvent::Resize) setGeometry(parentWidget()->rect());
        if (event->type() == QEvent::ChildAdded || event->type() == QEvent::Show) raise();
    }
    return QLabel::eventFilter(watched, event);
}

}  // namespace ckptlab::ui
