// `ckptlab-cli lesson ID --pdf FILE [--no-answers | --teacher]`: the handout through the app's
// own renderer, headless.
#include "base/language.h"
#include "cli_commands.h"
#include "cli_lesson.h"
#include "teaching/handout.h"

namespace ckptlab::cli {

bool writeLessonPdf(const Lesson& lesson, const LessonResults& results, const LessonOptions& o,
                    std::string* error) {
    ui::HandoutOptions options;
    options.noAnswers = o.noAnswers;
    options.teacher = o.teacher;
    return withHeadlessApp([&] {
        ui::installLanguage(QString::fromStdString(o.lang));  // the handout's, for the whole run
        return ui::writeLessonHandout(lesson, results, o.lang, o.pdfPath, error, options);
    });
}

}  // namespace ckptlab::cli
