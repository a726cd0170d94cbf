#pragma once
// A lesson as a PDF handout (QPdfWriter, A4): a title page (title, summary, the tutorial's
// headings it quotes, the machines the results came from), then one page or more per step:
// its title, what it runs, what to observe, the question, its chart drawn from the step's
// results, and the answer filled from them. In `lang` ("en" or "zh_CN"), Chinese in a CJK font.
// Needs a QApplication (charts are widgets); works headless with QT_QPA_PLATFORM=offscreen,
// as `ckptlab-cli lesson ID --pdf FILE` runs it.

#include <string>

#include "ckptlab/lesson.h"

namespace ckptlab::ui {

// Writes through a temporary file, so a failure leaves no half handout. False with *error
// (may be null) when the path cannot be written or no QApplication exists.
bool writeLessonHandout(const Lesson& lesson, const LessonResults& results, const std::string& lang,
                        const std::string& path, std::string* error);

}  // namespace ckptlab::ui
