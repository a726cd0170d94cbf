#pragma once
// The words the app puts around a lesson, shared by the Lesson panel and the PDF handout: a
// lesson text in a language with its placeholders filled, what a step runs, where its results
// came from. Lesson texts come from the lesson file; the words around them go through tr().

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <optional>

#include "ckptlab/teaching/lesson.h"
#include "ckptlab/teaching/lesson_path.h"
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

// The lesson's title in `lang`, its placeholders ({term(memory)}) filled from `results`.
QString lessonTitleText(const Lesson& lesson, const LessonResults& results, const QString& lang);

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

// A measured number as a comparison quotes it: a whole number as such, else one decimal.
QString measuredNumber(double value);

// The class's prediction against the measurement (LessonPrediction), as the panel shows it
// after Show answer or a live run: "You predicted 40 %; measured 38.2 %", "You chose …; the
// measurement says …", or the measurement alone when the prediction was skipped. `unit` may be
// empty; `measured` is nullopt when the results give no value. Plain text.
QString numberComparison(std::optional<double> predicted, std::optional<double> measured,
                         const QString& unit);
// The same for a multiple choice, as HTML: `chosen` and `right` are the choices' HTML
// (lessonHtml), empty when the class skipped or the results do not decide.
QString choiceComparison(const QString& chosen, const QString& right);

// A class path in a picker: "90-minute class (90 min)".
QString pathTitle(const LessonPath& path, const QString& lang);
// Where the class is on its path, as planned: "Path step 3/8: 10 min · 25 min done, 65 min
// left". `entry` -1: the step shown is not on the path.
QString pathTiming(const LessonPath& path, int entry);

// Lesson texts mark strategy names with backticks: `full`. As HTML for labels (escaped, names
// in code) and as plain text for print (marks removed).
QString lessonHtml(const QString& text);
QString lessonPlain(const QString& text);

}  // namespace ckptlab::ui
