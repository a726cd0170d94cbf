// ckptlab: the Checkpoint Lab desktop app. Entry point only; the window lives in ui/window.
//
//   ckptlab [--lang en|zh_CN] [RESULTS.json ...]   (several files open side by side)

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <cstdio>

#include "window/app_setup.h"
#include "window/language.h"
#include "teaching/lesson_mode.h"
#include "window/main_window.h"
#include "window/projector_mode.h"

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("checkpointlab"));
    QApplication::setOrganizationDomain(QStringLiteral("checkpointlab.github.io"));
    QApplication::setApplicationName(QStringLiteral("ckptlab"));
    QApplication::setApplicationDisplayName(QStringLiteral("Checkpoint Lab"));
    QApplication::setApplicationVersion(QStringLiteral(CKPTLAB_VERSION));
    // Must match the .desktop file's name so Wayland compositors find the icon and entry.
    QApplication::setDesktopFileName(QStringLiteral(CKPTLAB_APP_ID));

    ckptlab::ui::initializeUi();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/ckptlab.svg")));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Explore gradient checkpointing with real LibTorch measurements."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("results"),
                                 QStringLiteral("Results JSON files to open (optional); several "
                                                "open side by side to compare them."),
                                 QStringLiteral("[RESULTS.json ...]"));
    const QCommandLineOption langOption(
        QStringLiteral("lang"),
        QStringLiteral("The language: en or zh_CN (default: the one chosen in View > Language, "
                       "else the system's)."),
        QStringLiteral("code"));
    parser.addOption(langOption);
    const QCommandLineOption projectorOption(
        QStringLiteral("projector"),
        QStringLiteral("Start in projector mode: large fonts, thick lines, high-contrast charts."));
    parser.addOption(projectorOption);
    const QCommandLineOption lessonOption(
        QStringLiteral("lesson"),
        QStringLiteral("Open straight into this lesson (its id, e.g. where-memory-goes)."),
        QStringLiteral("id"));
    parser.addOption(lessonOption);
    parser.process(app);
    QString language = ckptlab::ui::startupLanguage();
    if (parser.isSet(langOption)) {
        language = parser.value(langOption);
        if (!ckptlab::ui::availableLanguages().contains(language)) {
            std::fprintf(stderr, "ckptlab: unknown --lang \"%s\"; allowed: %s\n",
                         qPrintable(language),
                         qPrintable(ckptlab::ui::availableLanguages().join(QStringLiteral(", "))));
            return 2;
        }
    }
    ckptlab::ui::installLanguage(language);

    if (parser.isSet(projectorOption)) ckptlab::ui::setProjectorMode(true);

    const QString lesson = parser.value(lessonOption);
    if (parser.isSet(lessonOption)) {
        const QString problem = ckptlab::ui::lessonIdProblem(lesson);
        if (!problem.isEmpty()) {
            std::fprintf(stderr, "ckptlab: %s\n", qPrintable(problem));
            return 2;
        }
    }
    ckptlab::ui::MainWindow window;
    window.show();
    if (parser.isSet(lessonOption)) ckptlab::ui::openLesson(window, lesson);
    const QStringList files = parser.positionalArguments();
    if (!files.isEmpty()) window.openResultsFiles(files);
    return app.exec();
}
