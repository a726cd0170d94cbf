// LessonMode: the Lesson menu, the dock's toggle in View, the handout export, the class path's
// chooser and printable plan, and the command line's --lesson.
#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QPdfWriter>
#include <QSaveFile>
#include <QStatusBar>
#include <QTextDocument>

#include "base/language.h"
#include "base/messages.h"
#include "controllers/sweep_controller.h"
#include "document/settings.h"
#include "teaching/handout.h"
#include "teaching/lesson_mode.h"
#include "teaching/lesson_panel.h"
#include "teaching/lesson_strings.h"
#include "window/main_window.h"

namespace ckptlab::ui {

void LessonMode::createActions(QMenu* viewMenu) {
    auto make = [this](const char* name, const QString& text, const QKeySequence& keys) {
        auto* action = new QAction(text, this);
        action->setObjectName(QLatin1String(name));
        if (!keys.isEmpty()) action->setShortcut(keys);
        return action;
    };
    m_openAction =
        make("openLessonAction", tr("&Open Lesson…"), QKeySequence(Qt::CTRL | Qt::Key_L));
    connect(m_openAction, &QAction::triggered, this, &LessonMode::openLessonDialog);
    m_previousAction =
        make("previousStepAction", tr("&Previous Step"), QKeySequence(Qt::ALT | Qt::Key_Left));
    connect(m_previousAction, &QAction::triggered, this, &LessonMode::previousStep);
    m_nextAction = make("nextStepAction", tr("&Next Step"), QKeySequence(Qt::ALT | Qt::Key_Right));
    connect(m_nextAction, &QAction::triggered, this, &LessonMode::nextStep);
    m_runLiveAction =
        make("runLiveAction", tr("Run &Live"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_L));
    m_runLiveAction->setToolTip(tr("Measure the lesson's step again on this machine"));
    connect(m_runLiveAction, &QAction::triggered, this, &LessonMode::runLive);
    // The panel's button has a mnemonic too; a menu shortcut works wherever the focus is.
    auto* answerAction = make("showAnswerAction", tr("Show or Hide the &Answer"),
                              QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    connect(answerAction, &QAction::triggered, this,
            [this] { m_panel->setAnswerShown(!m_panel->isAnswerShown()); });
    m_exportAction = make("exportHandoutAction", tr("Export &Handout (PDF)…"), {});
    connect(m_exportAction, &QAction::triggered, this, &LessonMode::exportHandoutDialog);
    auto* pathAction = make("choosePathAction", tr("Class P&ath…"), {});
    pathAction->setToolTip(tr("Follow a class path through the lessons"));
    connect(pathAction, &QAction::triggered, this, [this] {
        if (!ensureLibrary()) return;
        QStringList titles{tr("No path (free)")};
        for (const LessonPath& path : m_library.paths())
            titles << pathTitle(path, currentLanguage());
        bool ok = false;
        const QString chosen = QInputDialog::getItem(m_window, tr("Class path"), tr("Path:"),
                                                     titles, m_path + 1, false, &ok);
        if (ok && !choosePath(int(titles.indexOf(chosen)) - 1)) refreshPaths();
    });
    m_printPlanAction = make("printPlanAction", tr("&Print Class Plan…"), {});
    m_printPlanAction->setToolTip(tr("The chosen path's class plan as a PDF (or Markdown)"));
    connect(m_printPlanAction, &QAction::triggered, this, &LessonMode::printPlanDialog);

    auto* menu = new QMenu(tr("&Lesson"), m_window);
    menu->setObjectName(QStringLiteral("lessonMenu"));
    menu->addAction(m_openAction);
    menu->addSeparator();
    menu->addAction(m_previousAction);
    menu->addAction(m_nextAction);
    menu->addAction(answerAction);
    menu->addAction(m_runLiveAction);
    menu->addSeparator();
    menu->addAction(pathAction);
    menu->addAction(m_printPlanAction);
    menu->addSeparator();
    menu->addAction(m_exportAction);
    // Before Help, which stays last.
    QMenuBar* bar = m_window->menuBar();
    const QList<QAction*> menus = bar->actions();
    bar->insertMenu(menus.isEmpty() ? nullptr : menus.last(), menu);

    // The dock's toggle goes with the other docks' (before View's first separator).
    QAction* before = nullptr;
    for (QAction* action : viewMenu->actions())
        if (action->isSeparator()) {
            before = action;
            break;
        }
    viewMenu->insertAction(before, m_dock->toggleViewAction());
}

void LessonMode::updateActions() {
    const bool running = m_busy->isBusy();  // anything replacing the results, a sweep included
    const bool open = m_lesson >= 0;
    const int steps = open ? int(m_library.lesson(m_lesson).steps.size()) : 0;
    m_openAction->setEnabled(!running);
    const bool path = m_path >= 0;
    m_previousAction->setEnabled(open && !running && (path ? pathTarget(false) >= 0 : m_step > 0));
    m_nextAction->setEnabled(open && !running &&
                             (path ? pathTarget(true) >= 0 : m_step + 1 < steps));
    m_printPlanAction->setEnabled(path);
    m_runLiveAction->setEnabled(open && !running &&
                                !m_library.lesson(m_lesson).steps[size_t(m_step)].experiment.plan);
    m_exportAction->setEnabled(open && !running);
    m_panel->setBusy(running);
}

void LessonMode::openLessonDialog() {
    if (!ensureLibrary()) return;
    QStringList titles;
    for (int i = 0; i < m_library.count(); ++i)
        titles << lessonTitleText(m_library.lesson(i), m_library.results(i), currentLanguage());
    bool ok = false;
    const QString chosen = QInputDialog::getItem(m_window, tr("Open lesson"), tr("Lesson:"), titles,
                                                 qMax(0, m_lesson), false, &ok);
    if (ok) goToStep(int(titles.indexOf(chosen)), 0);
}

void LessonMode::exportHandoutDialog() {
    if (m_lesson < 0) return;
    Settings settings;
    const QString suggested = settings.lastFolder(FolderKind::Export) + QLatin1Char('/') +
                              QString::fromStdString(m_library.lesson(m_lesson).id) +
                              QStringLiteral(".pdf");
    QString path =
        QFileDialog::getSaveFileName(m_window, tr("Export handout"), suggested, tr("PDF (*.pdf)"));
    if (path.isEmpty()) return;
    if (!path.endsWith(QStringLiteral(".pdf"), Qt::CaseInsensitive)) path += QStringLiteral(".pdf");
    if (exportHandout(path)) settings.setLastFolder(FolderKind::Export, path);
}

bool LessonMode::exportHandout(const QString& path) {
    if (m_lesson < 0) return false;
    const QString title = tr("Cannot export the handout");
    if (!refuseUnwritableFile(m_window, path, title).isEmpty()) return false;
    std::string error;
    if (!writeLessonHandout(m_library.lesson(m_lesson), m_library.results(m_lesson),
                            currentLanguage().toStdString(), QFile::encodeName(path).toStdString(),
                            &error)) {
        showMessage(m_window, MessageKind::Error, title, QString::fromStdString(error));
        return false;
    }
    m_window->statusBar()->showMessage(
        tr("Handout written to %1").arg(QDir::toNativeSeparators(path)), 8000);
    return true;
}

void LessonMode::printPlanDialog() {
    if (m_path < 0) return;
    Settings settings;
    const QString suggested = settings.lastFolder(FolderKind::Export) + QLatin1Char('/') +
                              QString::fromStdString(m_library.paths()[size_t(m_path)].id) +
                              QStringLiteral("-plan.pdf");
    QString path = QFileDialog::getSaveFileName(m_window, tr("Print class plan"), suggested,
                                                tr("PDF (*.pdf);;Markdown (*.md)"));
    if (path.isEmpty()) return;
    if (!path.endsWith(QStringLiteral(".pdf"), Qt::CaseInsensitive) &&
        !path.endsWith(QStringLiteral(".md"), Qt::CaseInsensitive))
        path += QStringLiteral(".pdf");
    if (writePathPlan(path)) settings.setLastFolder(FolderKind::Export, path);
}

bool LessonMode::writePathPlan(const QString& file) {
    if (m_path < 0) return false;
    const QString title = tr("Cannot write the class plan");
    if (!refuseUnwritableFile(m_window, file, title).isEmpty()) return false;
    const LessonPath& path = m_library.paths()[size_t(m_path)];
    // The recordings fill what the titles and questions measure ({term(memory)} among them).
    std::map<std::string, LessonResults> recordings;
    for (const LessonPathEntry& entry : path.entries) {
        const int lesson = m_library.indexOf(QString::fromStdString(entry.lesson));
        if (lesson >= 0 && !recordings.count(entry.lesson))
            recordings[entry.lesson] = m_library.results(lesson);
    }
    const QString markdown = QString::fromStdString(
        lessonPathPlan(path, m_library.lessons(), currentLanguage().toStdString(), recordings));
    bool written = false;
    if (file.endsWith(QStringLiteral(".md"), Qt::CaseInsensitive)) {
        QSaveFile out(file);
        written =
            out.open(QIODevice::WriteOnly) && out.write(markdown.toUtf8()) >= 0 && out.commit();
    } else {
        QTextDocument document;
        QFont font = document.defaultFont();
        font.setPointSizeF(10);         // paper, not the projector: the screen's font size does not
        document.setDefaultFont(font);  // carry over
        document.setMarkdown(markdown);
        QPdfWriter writer(file);
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
        writer.setTitle(localized(path.title, currentLanguage()));
        writer.setCreator(QStringLiteral("Checkpoint Lab"));
        document.print(&writer);
        written = QFileInfo(file).size() > 0;
    }
    if (!written) {
        showMessage(m_window, MessageKind::Error, title,
                    tr("%1 could not be written.").arg(QDir::toNativeSeparators(file)));
        return false;
    }
    m_window->statusBar()->showMessage(
        tr("Class plan written to %1").arg(QDir::toNativeSeparators(file)), 8000);
    return true;
}

QString lessonIdProblem(const QString& id) {
    LessonLibrary library;
    QString error;
    if (!library.load(QString::fromStdString(
                          lessonsDirectory(QCoreApplication::applicationFilePath().toStdString())),
                      &error))
        return LessonMode::tr("Cannot open lesson \"%1\": %2").arg(id, error);
    if (library.indexOf(id) >= 0) return {};
    if (!library.problems().isEmpty())  // perhaps the one asked for
        return LessonMode::tr(
                   "There is no lesson \"%1\" that could be read. The lessons are: "
                   "%2. These lesson files could not be read:\n%3")
            .arg(id, library.ids().join(QStringLiteral(", ")),
                 library.problems().join(QLatin1Char('\n')));
    return LessonMode::tr("There is no lesson \"%1\". The lessons are: %2")
        .arg(id, library.ids().join(QStringLiteral(", ")));
}

bool openLesson(QMainWindow& window, const QString& id) {
    auto* mode = window.findChild<LessonMode*>(QStringLiteral("lessons"));
    return mode && mode->openLesson(id);
}

}  // namespace ckptlab::ui
