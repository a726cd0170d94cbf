#include "base/projector_mode.h"

#include <QApplication>
#include <QFont>

namespace ckptlab::ui {

namespace {

bool projectorOn = false;

QFont& normalFont() {
    static QFont font;
    return font;
}

QFont scaled(QFont font) {
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * kProjectorFontScale);
    else if (font.pixelSize() > 0)
        font.setPixelSize(qRound(font.pixelSize() * kProjectorFontScale));
    return font;
}

}  // namespace

ProjectorMode* projectorMode() {
    static ProjectorMode* notifier = new ProjectorMode(qApp);
    return notifier;
}

void setProjectorMode(bool on) {
    if (on == projectorOn) return;
    projectorOn = on;
    if (on) {
        normalFont() = QApplication::font();
        QApplication::setFont(scaled(normalFont()));
    } else {  // the normal size, keeping the families the language may have set since
        QFont font = QApplication::font();
        if (normalFont().pointSizeF() > 0)
            font.setPointSizeF(normalFont().pointSizeF());
        else if (normalFont().pixelSize() > 0)
            font.setPixelSize(normalFont().pixelSize());
        QApplication::setFont(font);
    }
    Q_EMIT projectorMode()->changed(on);
}

bool isProjectorMode() { return projectorOn; }

}  // namespace ckptlab::ui
