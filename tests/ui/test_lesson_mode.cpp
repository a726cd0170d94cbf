// Lesson mode: the Lesson dock reads lessons from a test folder (tests/data/lessons_ui, through
// CKPTLAB_LESSONS_DIR), stepping loads each step's recording into the document and brings its
// chart forward, answers are filled, the text follows the language, Run live re-measures a
// step, and the PDF handout is written (or refused) headless.

#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QtTest>

#include "ui_test_support.h"

#include "base/language.h"
#include "base/projector_mode.h"
#include "document/results_document.h"
#include "panels/charts_panel.h"
#include "strategy_text.h"
#include "teaching/handout.h"
#include "teaching/lesson_mode.h"
#include "teaching/lesson_panel.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

namespace {

QString labelText(const QObject& window, const char* name) {
    return part<QLabel>(window, name)->text();
}

int pdfPageCount(const QByteArray& pdf) {
    // Page objects: "/Type /Page" not followed by "s" (the "/Pages" tree).
    static const QRegularExpression page(QStringLiteral("/Type\\s*/Page(?!s)"));
    return int(QString::fromLatin1(pdf).count(page));
}

}  // namespace

class TestLessonMode : public WindowTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void panelLoadsLessons();
    void steppingChangesChartAndResults();
    void answersResolveFromTheRecording();
    void textFollowsTheLanguage();
    void languageSwitchKeepsTheStepAndAnswer();
    void projectorLayoutFitsUnscrolled();
    void unknownLessonListsTheIds();
    void unsavedResultsAreNotLostSilently();
    void lessonWithoutRecording();
    void runLiveReplacesTheAnswer();
    void handoutIsAPdf();
    void handoutToUnwritablePath();

private:
    std::unique_ptr<MainWindow> m_window;
    LessonMode* m_lessons = nullptr;
};

void TestLessonMode::initTestCase() {
    qputenv("CKPTLAB_LESSONS_DIR", CKPTLAB_TEST_LESSONS_DIR);
    installLanguage(QStringLiteral("en"));
}

void TestLessonMode::init() {
    WindowTest::init();
    m_window = std::make_unique<MainWindow>(lessonModeAddOn());
    m_window->show();
    m_lessons = part<LessonMode>(*m_window, "lessons");
}

void TestLessonMode::cleanup() {
    setProjectorMode(false);
    installLanguage(QStringLiteral("en"));
    m_window.reset();
}

void TestLessonMode::panelLoadsLessons() {
    QCOMPARE(m_lessons->library().ids(),
             QStringList({QStringLiteral("ui-demo"), QStringLiteral("ui-unrecorded")}));
    QVERIFY(part<QDockWidget>(*m_window, "lessonDock")->isHidden());
    QVERIFY(m_lessons->openLesson(QStringLiteral("ui-demo")));
    QVERIFY(!part<QDockWidget>(*m_window, "lessonDock")->isHidden());
    QVERIFY(labelText(*m_window, "lessonTitle").contains(QStringLiteral("Demo lesson")));
    QCOMPARE(labelText(*m_window, "stepCounter"), QStringLiteral("Step 1 of 3"));
    QVERIFY(labelText(*m_window, "tutorialQuote").contains(QStringLiteral("第四步")));
    QVERIFY(labelText(*m_window, "resultsSource").contains(QStringLiteral("Recorded on")));
    auto* document = part<ResultsDocument>(*m_window, "document");
    QCOMPARE(document->runCount(), 3);
    QVERIFY(!document->isModified());
    QVERIFY(document->filePath().isEmpty());  // Save never overwrites the recording
    QCOMPARE(QString::fromStdString(document->selected()->strategy.name()), QStringLiteral("full"));
    QCOMPARE(part<ChartsPanel>(*m_window, "charts")->currentKind(), ChartKind::Tradeoff);
    QVERIFY(!part<QPushButton>(*m_window, "previousStepButton")->isEnabled());
    QVERIFY(part<QPushButton>(*m_window, "nextStepButton")->isEnabled());
}

void TestLessonMode::steppingChangesChartAndResults() {
    QVERIFY(m_lessons->openLesson(QStringLiteral("ui-demo")));
    auto* document = part<ResultsDocument>(*m_window, "document");
    auto* charts = part<ChartsPanel>(*m_window, "charts");
    part<QPushButton>(*m_window, "nextStepButton")->click();
    QCOMPARE(m_lessons->currentStep(), 1);
    QCOMPARE(labelText(*m_window, "stepCounter"), QStringLiteral("Step 2 of 3"));
    QCOMPARE(charts->currentKind(), ChartKind::Schedule);
    QCOMPARE(document->strategyNames(),
             QStringList({QStringLiteral("none"), QStringLiteral("segments:2")}));
    QCOMPARE(QString::fromStdString(document->selected()->strategy.name()),
             QStringLiteral("segments:2"));

    part<QAction>(*m_window, "nextStepAction")->trigger();
    QCOMPARE(m_lessons->currentStep(), 2);
    QCOMPARE(charts->currentKind(), ChartKind::Scaling);
    QCOMPARE(document->runCount(), 6);
    QVERIFY(!part<QAction>(*m_window, "nextStepAction")->isEnabled());

    part<QAction>(*m_window, "previousStepAction")->trigger();
    QCOMPARE(m_lessons->currentStep(), 1);
    QCOMPARE(charts->currentKind(), ChartKind::Schedule);
}

void TestLessonMode::answersResolveFromTheRecording() {
    QVERIFY(m_lessons->openLesson(QStringLiteral("ui-demo")));
    auto* answer = part<QLabel>(*m_window, "answerText");
    QVERIFY(answer->isHidden());
    part<QPushButton>(*m_window, "showAnswerButton")->click();
    QVERIFY(!answer->isHidden());
    for (int step = 0; step < 3; ++step) {
        QVERIFY(m_lessons->goToStep(0, step));
        const QString text = m_lessons->panel()->answerText();
        QVERIFY2(!text.isEmpty() && !text.contains(QLatin1Char('{')), qPrintable(text));
    }
    // A new step hides the answer again: the class thinks first.
    QVERIFY(answer->isHidden());
}

void TestLessonMode::textFollowsTheLanguage() {
    QVERIFY(m_lessons->openLesson(QStringLiteral("ui-demo")));
    const QString english = m_lessons->panel()->answerText();
    QVERIFY(english.contains(QStringLiteral("saved")));
    QVERIFY(installLanguage(QStringLiteral("zh_CN")));
    QCoreApplication::processEvents();
    QVERIFY(labelText(*m_window, "lessonTitle").contains(QStringLiteral("界面测试的示例课程")));
    const QString chinese = m_lessons->panel()->answerText();
    QVERIFY2(chinese.contains(QStringLiteral("节省了")), qPrintable(chinese));
    QVERIFY(!chinese.contains(QLatin1Char('{')));
    QVERIFY(labelText(*m_window, "observeText").contains(QStringLiteral("每个点")));
    QVERIFY(installLanguage(QStringLiteral("en")));
    QCoreApplication::processEvents();
    QCOMPARE(m_lessons->panel()->answerText(), english);
}

// View → Language rebuilds the window's widgets; the lesson, its step and the shown answer
// come back in the new language.
void TestLessonMode::languageSwitchKeepsTheStepAndAnswer() {
    QVERIFY(m_lessons->openLesson(QStringLiteral("ui-demo")));
    QVERIFY(m_lessons->goToStep(0, 1));
    part<QPushButton>(*m_window, "showAnswerButton")->click();
    QVERIFY(m_window->setLanguage(QStringLiteral("zh_CN")));
    QCoreApplication::processEvents();
    m_lessons = part<LessonMode>(*m_window, "lessons");  // a new one
    QCOMPARE(m_lessons->currentLesson(), 0);
    QCOMPARE(m_lessons->currentStep(), 1);
    QVERIFY(m_lessons->panel()->isAnswerShown());
    QVERIFY(!part<QLabel>(*m_window, "answerText")->isHidden());
    QVERIFY(!part<QDockWidget>(*m_window, "lessonDock")->isHidden());
    QVERIFY(labelText(*m_window, "lessonTitle").contains(QStringLiteral("界面测试的示例课程")));
    QCOMPARE(part<ChartsPanel>(*m_window, "charts")->currentKind(), ChartKind::Schedule);
    QVERIFY(part<QAction>(*m_window, "previousStepAction")->isEnabled());
    // And on from there.
    QVERIFY(m_lessons->nextStep());
    QCOMPARE(m_lessons->currentStep(), 2);
    QVERIFY(m_window->setLanguage(QStringLiteral("en")));
    QCoreApplication::processEvents();
    m_lessons = part<LessonMode>(*m_window, "lessons");
    QCOMPARE(m_lessons->currentStep(), 2);
    QVERIFY(!m_lessons->panel()->isAnswerShown());  // the new step hid it
    // The menu's shortcut action shows and hides it wherever the focus is.
    part<QAction>(*m_window, "showAnswerAction")->trigger();
    QVERIFY(m_lessons->panel()->isAnswerShown());
    part<QAction>(*m_window, "showAnswerAction")->trigger();
    QVERIFY(!m_lessons->panel()->isAnswerShown());
    QVERIFY(labelText(*m_window, "lessonTitle").contains(QStringLiteral("Demo lesson")));
}

// Projector mode at 1280×720: the lesson takes about two fifths of the width (the Experiment
// dock behind it no longer holds it at its fields' width) and its text, answer shown, does not
// scroll.
void TestLessonMode::projectorLayoutFitsUnscrolled() {
    m_window.reset();
    setProjectorMode(true);
    m_window = std::make_unique<MainWindow>(lessonModeAddOn());
    m_window->resize(1280, 720);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_lessons = part<LessonMode>(*m_window, "lessons");
    QVERIFY(m_lessons->openLesson(QStringLiteral("ui-demo")));
    part<QPushButton>(*m_window, "showAnswerButton")->click();
    auto* dock = part<QDockWidget>(*m_window, "lessonDock");
    auto* scroll = part<QScrollArea>(*m_window, "lessonScroll");
    for (int step = 0; step < 3; ++step) {
        QVERIFY(m_lessons->goToStep(0, step));
        part<QPushButton>(*m_window, "showAnswerButton")->setChecked(true);
        QTRY_VERIFY(qAbs(dock->width() - 1280 * kProjectorDockShare) < 40);
        QTest::qWait(50);
        QVERIFY2(!scroll->verticalScrollBar()->isVisible(), qPrintable(QString::number(step)));
        QVERIFY(scroll->widget()->width() <= scroll->viewport()->width());  // nothing cut
    }
    setProjectorMode(false);
}

void TestLessonMode::unknownLessonListsTheIds() {
    QVERIFY(!m_lessons->openLesson(QStringLiteral("no-such-lesson")));
    QVERIFY(m_recorder.lastText().contains(QStringLiteral("ui-demo, ui-unrecorded")));
    QVERIFY(lessonIdProblem(QStringLiteral("no-such-lesson")).contains(QStringLiteral("ui-demo")));
    QVERIFY(lessonIdProblem(QStringLiteral("ui-demo")).isEmpty());
    QVERIFY(openLesson(*m_window, QStringLiteral("ui-unrecorded")));
}

void TestLessonMode::unsavedResultsAreNotLostSilently() {
    auto* document = part<ResultsDocument>(*m_window, "document");
    MeasuredRun run;
    run.run.strategy = ckptlab::test::strategy("none");
    run.run.config = tinyConfig();
    document->addRun(run);  // as a sweep does: measured here, not saved
    QVERIFY(document->isModified());
    m_recorder.answer = false;
    QVERIFY(!m_lessons->openLesson(QStringLiteral("ui-demo")));
    QCOMPARE(m_recorder.messages.size(), 1);
    QCOMPARE(m_recorder.messages.first().kind, MessageKind::Question);
    QCOMPARE(document->runCount(), 1);
    m_recorder.answer = true;
    QVERIFY(m_lessons->openLesson(QStringLiteral("ui-demo")));
    QCOMPARE(document->runCount(), 3);
}

void TestLessonMode::lessonWithoutRecording() {
    QVERIFY(m_lessons->openLesson(QStringLiteral("ui-unrecorded")));
    QVERIFY(part<ResultsDocument>(*m_window, "document")->isEmpty());
    QVERIFY(labelText(*m_window, "resultsSource").contains(QStringLiteral("Run live")));
    QCOMPARE(part<ChartsPanel>(*m_window, "charts")->currentKind(), ChartKind::Timeline);
}

void TestLessonMode::runLiveReplacesTheAnswer() {
    QVERIFY(m_lessons->openLesson(QStringLiteral("ui-unrecorded")));
    QVERIFY(m_lessons->panel()->answerText().contains(QLatin1Char('{')));
    QSignalSpy ended(m_window.get(), &MainWindow::sweepEnded);
    part<QPushButton>(*m_window, "runLiveButton")->click();
    QVERIFY2(!ended.isEmpty() || ended.wait(120000), qPrintable(m_recorder.lastText()));
    QCOMPARE(ended.first().at(0).toBool(), false);
    QCOMPARE(ended.first().at(1).toBool(), false);
    auto* document = part<ResultsDocument>(*m_window, "document");
    QCOMPARE(document->strategyNames(),
             QStringList({QStringLiteral("none"), QStringLiteral("full")}));
    QVERIFY(!document->isModified());  // the lesson keeps them
    const QString answer = m_lessons->panel()->answerText();
    QVERIFY2(!answer.contains(QLatin1Char('{')), qPrintable(answer));
    QVERIFY(labelText(*m_window, "resultsSource").contains(QStringLiteral("live")));
    // Going away and back keeps the live results.
    QVERIFY(m_lessons->openLesson(QStringLiteral("ui-demo")));
    QVERIFY(m_lessons->openLesson(QStringLiteral("ui-unrecorded")));
    QCOMPARE(document->runCount(), 2);
    QCOMPARE(m_recorder.messages.size(), 0);
}

void TestLessonMode::handoutIsAPdf() {
    LessonLibrary library;
    QString error;
    QVERIFY2(library.load(QStringLiteral(CKPTLAB_TEST_LESSONS_DIR), &error), qPrintable(error));
    const Lesson& lesson = library.lesson(0);
    QTemporaryDir dir;
    // CKPTLAB_TEST_KEEP_DIR=folder keeps the handouts there, to look at them.
    const QString keep = qEnvironmentVariable("CKPTLAB_TEST_KEEP_DIR");
    for (const char* lang : {"en", "zh_CN"}) {
        const QString path = (keep.isEmpty() ? dir.path() : keep) + QLatin1Char('/') +
                             QStringLiteral("handout-%1.pdf").arg(QLatin1String(lang));
        std::string message;
        QVERIFY2(writeLessonHandout(lesson, library.results(0), lang,
                                    QFile::encodeName(path).toStdString(), &message),
                 message.c_str());
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray pdf = file.readAll();
        QVERIFY(pdf.startsWith("%PDF-"));
        QVERIFY(pdf.trimmed().endsWith("%%EOF"));
        QVERIFY2(pdf.size() > 20000, qPrintable(QString::number(pdf.size())));
        // The steps follow the title on its first page instead of a page each after a page
        // that is mostly blank.
        QVERIFY2(pdfPageCount(pdf) >= 1 && pdfPageCount(pdf) <= int(lesson.steps.size()),
                 qPrintable(QString::number(pdfPageCount(pdf))));
    }
    QCOMPARE(currentLanguage(), QStringLiteral("en"));  // the handout's language was undone

    // From the window, in its language.
    QVERIFY(m_lessons->openLesson(QStringLiteral("ui-demo")));
    QVERIFY(m_lessons->exportHandout(dir.filePath(QStringLiteral("window.pdf"))));
    QVERIFY(QFile::exists(dir.filePath(QStringLiteral("window.pdf"))));
}

void TestLessonMode::handoutToUnwritablePath() {
    LessonLibrary library;
    QString error;
    QVERIFY(library.load(QStringLiteral(CKPTLAB_TEST_LESSONS_DIR), &error));
    QTemporaryDir dir;
    const QString blocker = dir.filePath(QStringLiteral("file"));
    QFile file(blocker);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.close();
    for (const QString& path : {blocker + QStringLiteral("/inside.pdf"),
                                QStringLiteral("/nonexistent-folder/handout.pdf"), dir.path()}) {
        std::string message;
        QVERIFY(!writeLessonHandout(library.lesson(0), library.results(0), "en",
                                    QFile::encodeName(path).toStdString(), &message));
        QVERIFY2(!message.empty(), qPrintable(path));
    }
    QVERIFY(m_lessons->openLesson(QStringLiteral("ui-demo")));
    QVERIFY(!m_lessons->exportHandout(blocker + QStringLiteral("/inside.pdf")));
    QCOMPARE(m_recorder.messages.size(), 1);
    QCOMPARE(m_recorder.messages.first().kind, MessageKind::Error);
}

QTEST_MAIN(TestLessonMode)
#include "test_lesson_mode.moc"
