// One broken lesson file hides only itself: beside it, every other lesson loads (the library,
// the window's lesson mode, `ckptlab --lesson`), and the broken file is named.

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include "ui_test_support.h"

#include "base/language.h"
#include "teaching/lesson_library.h"
#include "teaching/lesson_mode.h"
#include "window/main_window.h"

using namespace ckptlab;
using namespace ckptlab::ui;
using namespace ckptlab::ui::test;

class TestLessonFolder : public WindowTest {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();

    void libraryLoadsTheOthers();
    void windowOpensALessonAndNamesTheBrokenFile();
    void commandLineNamesTheBrokenFile();

private:
    QTemporaryDir m_dir;
    int m_good = 0;  // the lessons copied from the source tree
    const QString m_broken = QStringLiteral("07-broken.json");
};

void TestLessonFolder::initTestCase() {
    installLanguage(QStringLiteral("en"));
    QVERIFY(m_dir.isValid());
    const QDir source(QStringLiteral(CKPTLAB_LESSONS_SOURCE_DIR));
    for (const QString& file : source.entryList({QStringLiteral("*.json")}, QDir::Files)) {
        QVERIFY(QFile::copy(source.filePath(file), m_dir.filePath(file)));
        ++m_good;
    }
    QVERIFY(m_good >= 2);
    // Cut off in the middle, as an editor's crash or a bad merge leaves it; sorted among them.
    QFile broken(m_dir.filePath(m_broken));
    QVERIFY(broken.open(QIODevice::WriteOnly));
    broken.write("{\n  \"id\": \"broken\",\n  \"order\": 7,\n  \"title\": {\"en\": ");
    broken.close();
    qputenv("CKPTLAB_LESSONS_DIR", QFile::encodeName(m_dir.path()));
}

void TestLessonFolder::libraryLoadsTheOthers() {
    LessonLibrary library;
    QString error;
    QVERIFY2(library.load(m_dir.path(), &error), qPrintable(error));
    QCOMPARE(library.count(), m_good);
    QCOMPARE(library.problems().size(), 1);
    QVERIFY2(library.problems().first().contains(m_broken), qPrintable(library.problems().first()));
    QCOMPARE(library.indexOf(QStringLiteral("broken")), -1);
}

void TestLessonFolder::windowOpensALessonAndNamesTheBrokenFile() {
    MainWindow window(lessonModeAddOn());
    auto* lessons = part<LessonMode>(window, "lessons");
    QCOMPARE(lessons->library().count(), m_good);
    const QString first = QString::fromStdString(lessons->library().lesson(0).id);
    QVERIFY(lessons->openLesson(first));
    QCOMPARE(lessons->currentLesson(), 0);
    QCOMPARE(m_recorder.messages.size(), 1);  // named once, as a warning
    QCOMPARE(m_recorder.messages.first().kind, MessageKind::Warning);
    QVERIFY2(m_recorder.messages.first().text.contains(m_broken),
             qPrintable(m_recorder.lastText()));
    QVERIFY(lessons->openLesson(QString::fromStdString(lessons->library().lesson(1).id)));
    QCOMPARE(m_recorder.messages.size(), 1);
}

void TestLessonFolder::commandLineNamesTheBrokenFile() {
    LessonLibrary library;
    QString error;
    QVERIFY(library.load(m_dir.path(), &error));
    QCOMPARE(lessonIdProblem(QString::fromStdString(library.lesson(0).id)), QString());
    const QString problem = lessonIdProblem(QStringLiteral("broken"));
    QVERIFY2(problem.contains(m_broken), qPrintable(problem));
}

QTEST_MAIN(TestLessonFolder)
#include "test_lesson_folder.moc"
