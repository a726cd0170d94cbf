#pragma once
// A lesson as a PDF handout (QPdfWriter, A4): the lesson's title, summary, the tutorial's
// headings it quotes and the machines the results came from, then each step in turn (a step
// starts a page only when little of the page is left): its title, what it runs, the prediction
// asked before the reveal, what to observe, the question, its chart drawn from the step's
// results, and the answer filled from them; the quiz at the end. In `lang` ("en" or "zh_CN"),
// Chinese in a CJK font. Needs a QApplication (charts are widgets); works headless with
// QT_QPA_PLATFORM=offscreen, as `ckptlab-cli lesson ID --pdf FILE` runs it.

#include <string>

#include "ckptlab/teaching/lesson.h"

namespace ckptlab::ui {

// Which handout (docs/LESSONS.md, "Handouts"). Neither: the answers filled in, each prediction
// with its measured value or right choice, the quiz with its answers.
struct HandoutOptions {
    // The students' sheet: the predictions to fill in (a blank with the unit, or the choices
    // with boxes), room to write, each chart as an empty frame to sketch in (every chart draws
    // the measurement a step asks about), measured numbers in the texts left blank, and the
    // quiz with boxes; no answers.
    bool noAnswers = false;
    // The teacher's key: everything, each choice's measured value beside it, and the machine
    // each step was recorded on.
    bool teacher = false;
};

// Writes through a temporary file, so a failure leaves no half handout. False with *error
// (may be null) when the path cannot be written or no QApplication exists.
bool writeLessonHandout(const Lesson& lesson, const LessonResults& results, const std::string& lang,
                        const std::string& path, std::string* error,
                        const HandoutOptions& options = {});

}  // namespace ckptlab::ui
