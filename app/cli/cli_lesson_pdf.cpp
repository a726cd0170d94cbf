// `ckptlab-cli lesson ID --pdf FILE`: the handout through the app's own renderer, headless.
#include <QApplication>

#include <cstdlib>

#include "cli_lesson.h"
#include "teaching/handout.h"

namespace ckptlab::cli {

bool writeLessonPdf(const Lesson& lesson, const LessonResults& results, const std::string& lang,
                    const std::string& path, std::string* error) {
    // Charts are widgets; without a display render offscreen.
    if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY") &&
        !std::getenv("QT_QPA_PLATFORM"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    int argc = 1;
    char name[] = "ckptlab-cli";
    char* argv[] = {name, nullptr};
    QApplication app(argc, argv);
    return ui::writeLessonHandout(lesson, results, lang, path, error);
}

}  // namespace ckptlab::cli
