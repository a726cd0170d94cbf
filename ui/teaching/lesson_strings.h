#pragma once
// The words the app puts around a lesson, shared by the Lesson panel and the PDF handout: a
// lesson text in a language with its placeholders filled, what a step runs, where its results
// came from. Lesson texts come from the lesson file; the words around them go through tr().

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include "ckptlab/lesson.h"
#include "teaching/lesson_library.h"

namespace ckptlab::ui {

struct LessonStrings {
    Q_DECLARE_TR_FUNCTIONS(LessonStrings)
};

// The lesson text in `lang` ("en" or "zh_CN").
QString localized(const LocalizedText& text, const QString& lang);

// The text in `lang` with its placeholders filled from `results` for `step`; each placeholder
// that does not resolve stays as written and goes to *unresolved (may be null).
QString filledText(const LocalizedText& text, const Lesson& lesson, const LessonStep& step,
                   const LessonResults& results, const QString& lang,
                   QStringList* unresolved = nullptr);

// "Step 2 of 4".
QString stepCounter(int index, int count);

// What the step runs, in a line: its strategies and the model ("none, full on ffn model,
// 12 blocks, …"; a scaling step names its axis and values). `fullConfig` adds every field of
// the measurement (describeConfig), for the handout.
QString experimentSummary(const LessonStep& step, bool fullConfig = false);

// Where the step's results come from: "recorded on <machine> at <date>", "measured live on
// this machine", or that there are none yet.
QString sourceDescription(ResultsSource source, const ResultSet* results);

// "<machine>, <date>" of a results file's environment, for the handout's title page.
QString machineDescription(const ResultSet& results);

// Lesson texts mark strategy names with backticks: `full`. As HTML for labels (escaped, names
// in code) and as plain text for print (marks removed).
QString lessonHtml(const QString& text);
QString lessonPlain(const QString& text);

}  // namespace ckptlab::ui
