// Lesson mode for a class (tests/data/lessons_class, through CKPTLAB_LESSONS_DIR): a step that
// asks a prediction covers its chart and observe text until the class commits one, skips it or
// shows the answer; the panel then compares it with the measured value; the quiz at a lesson's
// last step marks the choice the results decide; a step's code stands side by side; a class
// path takes Previous and Next through its entries across lessons, with its minutes, and its
// plan prints; in Chinese, projector mode shows no English words around the lesson's texts.

#include <QAbstractButton>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QtTest>

#include "ui_test_support.h"

#include "base/language.h"
#include "base/projector_mode.h"
#include "panels/decimal_spin_box.h"
#include "teaching/lesson_mode.h"
#include "teaching/lesson_panel.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

namespace {

QString labelText(const QObject& window, const char* name) {
    QTextDocument document;
    document.setHtml(part<QLabel>(window, name)->text());
    return document.toPlainText();
}

bool shown(const QObject& window, const char* name) {
    return part<QWidget>(window, name)->isVisible();
}

}  // namespace

class TestLessonClass : public WindowTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void predictStepHidesTheAnswerUntilShow();
    void committedNumberIsComparedWithTheMeasurement();
    void committedChoiceIsComparedWithTheMeasurement();
    void skipShowsTheChartWithoutAPrediction();
    void quizMarksTheRightChoiceFromTheResults();
    void codeStandsSideBySide();
    void pathNextGoesToThePathsNextEntry();
    void pathPlanIsWritten();
    void chineseProjectorPanelHasNoEnglish();

private:
    std::unique_ptr<MainWindow> m_window;
    LessonMode* m_lessons = nullptr;
};

void TestLessonClass::initTestCase() {
    qputenv("CKPTLAB_LESSONS_DIR", CKPTLAB_TEST_LESSONS_DIR);
    installLanguage(QStringLiteral("en"));
}

void TestLessonClass::init() {
    WindowTest::init();
    m_window = std::make_unique<MainWindow>(lessonModeAddOn());
    m_window->resize(1280, 800);
    m_window->show();
    m_lessons = part<LessonMode>(*m_window, "lessons");
    QCOMPARE(m_lessons->library().ids(),
             QStringList({QStringLiteral("class-demo"), QStringLiteral("class-other")}));
}

void TestLessonClass::cleanup() {
    setProjectorMode(false);
    installLanguage(QStringLiteral("en"));
    m_window.reset();
}

void TestLessonClass::predictStepHidesTheAnswerUntilShow() {
    QVERIFY(m_lessons->openLesson(QStringLiteral("class-demo")));
    QVERIFY(shown(*m_window, "predictBox"));
    QVERIFY(labelText(*m_window, "predictPrompt").contains(QStringLiteral("run again")));
    QVERIFY(shown(*m_window, "predictNumber"));
    QCOMPARE(part<QLabel>(*m_window, "predictUnit")->text(), QStringLiteral("blocks"));
    // Nothing that gives the answer away: the observe text, the chart, the table, the answer.
    QVERIFY(!shown(*m_window, "observeText"));
    QVERIFY(shown(*m_window, "chartCover"));
    QVERIFY(shown(*m_window, "tableCover"));
    QVERIFY(!shown(*m_window, "answerText"));
    QVERIFY(m_lessons->panel()->comparisonText().isEmpty());

    part<QPushButton>(*m_window, "showAnswerButton")->click();
    QVERIFY(!shown(*m_window, "chartCover"));
    QVERIFY(!shown(*m_window, "tableCover"));
    QVERIFY(shown(*m_window, "observeText"));
    QVERIFY(labelText(*m_window, "observeText").contains(QStringLiteral("OBSERVE-TRADEOFF")));
    QCOMPARE(m_lessons->panel()->comparisonText(),
             QStringLiteral("Prediction: No prediction; measured 4 blocks."));
    // Once shown, the prediction can no longer be made.
    QVERIFY(!part<QWidget>(*m_window, "predictNumber")->isEnabled());
    QVERIFY(!shown(*m_window, "predictButton"));

    // A step without a prediction has no cover; coming back keeps the reveal.
    QVERIFY(m_lessons->openLesson(QStringLiteral("class-other")));
    QVERIFY(!shown(*m_window, "predictBox"));
    QVERIFY(!shown(*m_window, "chartCover"));
    QVERIFY(shown(*m_window, "observeText"));
    QVERIFY(m_lessons->goToStep(0, 0));
    QVERIFY(!shown(*m_window, "chartCover"));
    QVERIFY(m_lessons->panel()->comparisonText().contains(QStringLiteral("measured 4 blocks")));
}

void TestLessonClass::committedNumberIsComparedWithTheMeasurement() {
    QVERIFY(m_lessons->openLesson(QStringLiteral("class-demo")));
    auto* number = part<DecimalSpinBox>(*m_window, "predictNumber");
    number->setValue(3);
    part<QPushButton>(*m_window, "predictButton")->click();
    // Committed: the chart and observe text are out, the comparison waits for Show or Run.
    QVERIFY(!shown(*m_window, "chartCover"));
    QVERIFY(shown(*m_window, "observeText"));
    QVERIFY(m_lessons->panel()->comparisonText().isEmpty());
    QVERIFY(!number->isEnabled());
    part<QPushButton>(*m_window, "showAnswerButton")->click();
    QCOMPARE(m_lessons->panel()->comparisonText(),
             QStringLiteral("Prediction: You predicted 3 blocks; measured 4 blocks."));

    // The measurement decides: other results, another measured value.
    ResultSet results = *m_lessons->library().stepResults(0, "tradeoff");
    for (RunResult& run : results.runs)
        if (run.strategy.name() == "full") run.metrics.recomputed_blocks = 7;
    m_lessons->library().setLiveResults(0, "tradeoff", results);
    QVERIFY(m_lessons->goToStep(0, 0));
    QCOMPARE(m_lessons->panel()->comparisonText(),
             QStringLiteral("Prediction: You predicted 3 blocks; measured 7 blocks."));

    // In Chinese, the same comparison in Chinese words with the same numbers.
    QVERIFY(installLanguage(QStringLiteral("zh_CN")));
    QCoreApplication::processEvents();
    const QString chinese = m_lessons->panel()->comparisonText();
    QVERIFY2(chinese.contains(QStringLiteral("你预测 3 个块")) &&
                 chinese.contains(QStringLiteral("测得 7 个块")),
             qPrintable(chinese));
}

void TestLessonClass::committedChoiceIsComparedWithTheMeasurement() {
    QVERIFY(m_lessons->openLesson(QStringLiteral("class-demo")));
    QVERIFY(m_lessons->goToStep(0, 1));
    QVERIFY(shown(*m_window, "chartCover"));
    QVERIFY(!shown(*m_window, "predictNumber"));
    auto* none = part<QRadioButton>(*m_window, "predictChoice0");
    QCOMPARE(none->text(), QStringLiteral("none"));
    QCOMPARE(part<QRadioButton>(*m_window, "predictChoice1")->text(), QStringLiteral("segments:2"));
    // Predict without a choice does nothing.
    part<QPushButton>(*m_window, "predictButton")->click();
    QVERIFY(shown(*m_window, "chartCover"));
    none->click();
    part<QPushButton>(*m_window, "predictButton")->click();
    QVERIFY(!shown(*m_window, "chartCover"));
    part<QAction>(*m_window, "showAnswerAction")->trigger();
    QCOMPARE(m_lessons->panel()->comparisonText(),
             QStringLiteral("Prediction: You chose none; the measurement says segments:2."));
}

void TestLessonClass::skipShowsTheChartWithoutAPrediction() {
    QVERIFY(m_lessons->openLesson(QStringLiteral("class-demo")));
    part<QPushButton>(*m_window, "skipPredictionButton")->click();
    QVERIFY(!shown(*m_window, "chartCover"));
    QVERIFY(shown(*m_window, "observeText"));
    QVERIFY(!shown(*m_window, "answerText"));
    QVERIFY(m_lessons->panel()->comparisonText().isEmpty());
    part<QPushButton>(*m_window, "showAnswerButton")->click();
    QVERIFY(m_lessons->panel()->comparisonText().contains(QStringLiteral("No prediction")));
}

void TestLessonClass::quizMarksTheRightChoiceFromTheResults() {
    QVERIFY(m_lessons->openLesson(QStringLiteral("class-demo")));
    QVERIFY(!shown(*m_window, "quizBox"));  // not before the last step
    QVERIFY(m_lessons->goToStep(0, 1));
    QVERIFY(shown(*m_window, "quizBox"));
    QCOMPARE(labelText(*m_window, "quizQuestion0"),
             QStringLiteral("1. Which keeps fewer activations?"));
    part<QRadioButton>(*m_window, "quizChoice0_1")->click();  // full: right (fewer bytes)
    part<QRadioButton>(*m_window, "quizChoice1_1")->click();  // every:2: wrong (2 < 4)
    QVERIFY(m_lessons->panel()->quizResultText(0).isEmpty());
    part<QPushButton>(*m_window, "checkQuizButton")->click();
    const QString first = m_lessons->panel()->quizResultText(0);
    QVERIFY2(first.startsWith(QStringLiteral("Right.")) &&
                 first.contains(QStringLiteral("EXPLAIN-ACTIVATIONS")),
             qPrintable(first));
    const QString second = m_lessons->panel()->quizResultText(1);
    QVERIFY2(second.startsWith(QStringLiteral("Not quite.")) &&
                 second.contains(QStringLiteral("The measurement says: full.")) &&
                 second.contains(QStringLiteral("recomputes 4 blocks")),
             qPrintable(second));
    QVERIFY(part<QRadioButton>(*m_window, "quizChoice1_0")->font().bold());  // marked right

    // Other results decide otherwise: `full` keeping more than `none` makes `none` right.
    ResultSet results = *m_lessons->library().stepResults(0, "tradeoff");
    for (RunResult& run : results.runs)
        if (run.strategy.name() == "full") run.metrics.activation_bytes = 10 << 20;
    m_lessons->library().setLiveResults(0, "tradeoff", results);
    QVERIFY(m_lessons->goToStep(0, 1));  // the same quiz: the choices stay, the verdicts follow
    QVERIFY(part<QRadioButton>(*m_window, "quizChoice0_1")->isChecked());
    const QString redone = m_lessons->panel()->quizResultText(0);
    QVERIFY2(redone.contains(QStringLiteral("The measurement says: none.")), qPrintable(redone));
}

void TestLessonClass::codeStandsSideBySide() {
    QVERIFY(m_lessons->openLesson(QStringLiteral("class-demo")));
    QVERIFY(!shown(*m_window, "codeBlocks"));
    QVERIFY(m_lessons->goToStep(0, 1));
    QVERIFY(shown(*m_window, "codeBlocks"));
    auto* buggy = part<QPlainTextEdit>(*m_window, "codeBlock0");
    auto* fixed = part<QPlainTextEdit>(*m_window, "codeBlock1");
    QVERIFY(buggy->isReadOnly() && fixed->isReadOnly());
    QVERIFY(buggy->toPlainText().contains(QStringLiteral("lambda x: run(k, x)")));
    QVERIFY(fixed->toPlainText().contains(QStringLiteral("lambda x, k=k: run(k, x)")));
    QVERIFY(buggy->font().fixedPitch());
    QCOMPARE(labelText(*m_window, "codeCaption0"), QStringLiteral("The closure bug"));
    QCOMPARE(labelText(*m_window, "codeCaption1"), QStringLiteral("Fixed"));
    // Side by side: one row, the fixed code to the right of the buggy one.
    QWidget* panel = m_lessons->panel();
    QTRY_VERIFY(buggy->isVisible() && buggy->width() > 20);  // laid out
    const QPoint left = buggy->mapTo(panel, QPoint());
    const QPoint right = fixed->mapTo(panel, QPoint());
    QCOMPARE(left.y(), right.y());
    QVERIFY2(
        right.x() >= left.x() + buggy->width(),
        qPrintable(QStringLiteral("%1+%2 > %3").arg(left.x()).arg(buggy->width()).arg(right.x())));
    // Every line of the short pieces shows without scrolling down.
    QVERIFY(!buggy->verticalScrollBar()->isVisible());
    // For a projector: the same pieces side by side in a window of their own, as wide as the
    // main window.
    part<QPushButton>(*m_window, "enlargeCodeButton")->click();
    auto* large = part<QWidget>(*m_window, "codeWindow");
    QVERIFY(large->isVisible());
    QVERIFY(large->width() > m_window->width() / 2);
    const auto boxes = large->findChildren<QPlainTextEdit*>();
    QCOMPARE(boxes.size(), 2);
    QCOMPARE(boxes[1]->toPlainText(), fixed->toPlainText());
    large->close();
}

void TestLessonClass::pathNextGoesToThePathsNextEntry() {
    auto* picker = part<QComboBox>(*m_window, "pathPicker");
    QCOMPARE(picker->count(), 2);  // no path, then the one path
    QCOMPARE(picker->itemText(1), QStringLiteral("A 30-minute test class (30 min)"));
    QVERIFY(m_lessons->openLesson(QStringLiteral("class-demo")));
    QVERIFY(!shown(*m_window, "pathTiming"));
    picker->setCurrentIndex(1);
    // The path starts at its first entry: the demo's second step.
    QCOMPARE(m_lessons->currentPath(), 0);
    QCOMPARE(m_lessons->currentLesson(), 0);
    QCOMPARE(m_lessons->currentStep(), 1);
    QCOMPARE(labelText(*m_window, "pathTiming"),
             QStringLiteral("Path step 1/3: 10 min · 0 min done, 30 min left"));
    // That is the lesson's last step, but the path goes on: Next is enabled, and goes to the
    // other lesson.
    QVERIFY(part<QPushButton>(*m_window, "nextStepButton")->isEnabled());
    QVERIFY(!part<QPushButton>(*m_window, "previousStepButton")->isEnabled());
    part<QPushButton>(*m_window, "nextStepButton")->click();
    QCOMPARE(m_lessons->currentLesson(), 1);
    QCOMPARE(m_lessons->currentStep(), 0);
    QCOMPARE(m_lessons->currentPathEntry(), 1);
    QVERIFY(
        labelText(*m_window, "pathTiming").contains(QStringLiteral("10 min done, 20 min left")));
    // Then back to the demo's first step, the path's last entry.
    part<QAction>(*m_window, "nextStepAction")->trigger();
    QCOMPARE(m_lessons->currentLesson(), 0);
    QCOMPARE(m_lessons->currentStep(), 0);
    QVERIFY(!part<QAction>(*m_window, "nextStepAction")->isEnabled());
    QVERIFY(!m_lessons->nextStep());
    // The path's last stop in the demo lesson: the quiz comes here.
    QVERIFY(shown(*m_window, "quizBox"));
    part<QAction>(*m_window, "previousStepAction")->trigger();
    QCOMPARE(m_lessons->currentLesson(), 1);
    // Without the path, the lesson's own order again.
    picker->setCurrentIndex(0);
    QCOMPARE(m_lessons->currentPath(), -1);
    QVERIFY(!shown(*m_window, "pathTiming"));
    QVERIFY(!part<QAction>(*m_window, "nextStepAction")->isEnabled());  // its only step
}

void TestLessonClass::pathPlanIsWritten() {
    QVERIFY(!part<QAction>(*m_window, "printPlanAction")->isEnabled());
    QVERIFY(m_lessons->choosePath(0));
    QVERIFY(part<QAction>(*m_window, "printPlanAction")->isEnabled());
    QTemporaryDir dir;
    const QString markdown = dir.filePath(QStringLiteral("plan.md"));
    QVERIFY(m_lessons->writePathPlan(markdown));
    QFile md(markdown);
    QVERIFY(md.open(QIODevice::ReadOnly));
    const QString text = QString::fromUtf8(md.readAll());
    QVERIFY2(text.contains(QStringLiteral("A 30-minute test class")) &&
                 text.contains(QStringLiteral("Which blocks run twice")),
             qPrintable(text));
    const QString pdf = dir.filePath(QStringLiteral("plan.pdf"));
    QVERIFY(m_lessons->writePathPlan(pdf));
    QFile file(pdf);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(file.read(5) == "%PDF-");
    QVERIFY(file.size() > 1000);
    // Refused with a message where it cannot be written.
    QVERIFY(!m_lessons->writePathPlan(QStringLiteral("/nonexistent-folder/plan.pdf")));
    QCOMPARE(m_recorder.messages.size(), 1);
}

// What the class reads in projector mode, in Chinese, through a whole path: every label and
// button of the panel, revealed, answered and quizzed, holds no English word outside the code
// (strategy names in `code` marks, the code blocks).
void TestLessonClass::chineseProjectorPanelHasNoEnglish() {
    setProjectorMode(true);
    QVERIFY(m_window->setLanguage(QStringLiteral("zh_CN")));
    QCoreApplication::processEvents();
    m_lessons = part<LessonMode>(*m_window, "lessons");
    QVERIFY(m_lessons->openLesson(QStringLiteral("class-demo")));
    QVERIFY(m_lessons->choosePath(0));
    static const QRegularExpression code(QStringLiteral("<code>.*?</code>"));
    static const QRegularExpression word(QStringLiteral("[A-Za-z]{2,}"));
    // Units and names that read the same in Chinese texts.
    const QStringList allowed{QStringLiteral("min"), QStringLiteral("MiB"), QStringLiteral("PDF")};
    for (int entry = 0; entry < 3; ++entry) {
        QVERIFY(m_lessons->goToPathEntry(entry));
        m_lessons->panel()->setAnswerShown(true);
        if (auto* check = m_window->findChild<QPushButton*>(QStringLiteral("checkQuizButton"));
            check && check->isVisible())
            check->click();
        QCoreApplication::processEvents();
        for (QWidget* widget : m_lessons->panel()->findChildren<QWidget*>()) {
            if (!widget->isVisible()) continue;
            QString text;
            if (auto* label = qobject_cast<QLabel*>(widget))
                text = label->text();
            else if (auto* button = qobject_cast<QAbstractButton*>(widget))
                text = button->text();
            else if (auto* combo = qobject_cast<QComboBox*>(widget))
                text = combo->currentText();
            text.remove(code);
            text.remove(QRegularExpression(QStringLiteral("<[^>]*>")));  // the markup
            for (const QString& known : {QStringLiteral("none"), QStringLiteral("full"),
                                         QStringLiteral("every:2"), QStringLiteral("segments:2")})
                if (qobject_cast<QRadioButton*>(widget)) text.remove(known);  // a strategy
            auto it = word.globalMatch(text);
            while (it.hasNext()) {
                const QString found = it.next().captured();
                QVERIFY2(allowed.contains(found),
                         qPrintable(
                             QStringLiteral("%1 (%2): %3").arg(widget->objectName(), found, text)));
            }
        }
    }
}

QTEST_MAIN(TestLessonClass)
#include "test_lesson_class.moc"
