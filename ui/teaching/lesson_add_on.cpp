// lessonModeAddOn: the window's lesson mode, built from the parts the window hands over and
// carried across a language switch, which deletes the window's widgets and builds them again.
#include <QPointer>
#include <memory>
#include <optional>

#include "teaching/lesson_mode.h"

namespace ckptlab::ui {

MainWindow::AddOn lessonModeAddOn() {
    // Between a language switch's teardown and the rebuild: what the old lesson mode showed.
    auto carried = std::make_shared<std::optional<LessonMode::Carried>>();
    return [carried](MainWindow& window, const MainWindow::Parts& parts) {
        auto* mode = new LessonMode(window, parts);
        if (*carried) {
            mode->restore(std::move(**carried));
            carried->reset();
        }
        const QPointer<LessonMode> current(mode);
        QObject::connect(
            &window, &MainWindow::widgetsAboutToRebuild, &window,
            [carried, current] {
                if (!current) return;
                *carried = current->carry();
                delete current.data();  // its dock and menus go with the window's widgets
            },
            Qt::SingleShotConnection);
    };
}

}  // namespace ckptlab::ui
