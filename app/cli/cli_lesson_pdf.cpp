// `ckptlab-cli lesson ID --pdf FILE`: the handout through the app's own renderer, headless.
#include "base/language.h"
#include "cli_commands.h"
#include "cli_lesson.h"
#include "teaching/handout.h"

namespace ckptlab::cli {

bool writeLessonPdf(const Lesson& lesson, const LessonResults& results, const std::string& lang,
                    const std::string& path, std::string* error) {
    return withHeadlessApp([&] {
        ui::installLanguage(QString::fromStdString(lang));  // the handout's, for the whole run
        return ui::writeLessonHandout(lesson, results, lang, path, error);
    });
}

}  // namespace ckptlab::cli
