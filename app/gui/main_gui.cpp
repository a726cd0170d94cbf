// ckptlab: the Checkpoint Lab desktop app. Entry point only; the window lives in ui/window and
// its lesson mode, added to it here, in ui/teaching.
//
//   ckptlab [--lang en|zh_CN] [RESULTS.json ...]   (several files open side by side)

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <cstdio>
#include <cstring>

#include "base/app_setup.h"
#include "base/language.h"
#include "base/projector_mode.h"
#include "ckptlab/engine/blas_kernels.h"
#include "teaching/lesson_mode.h"
#include "window/main_window.h"

namespace {

// Names and version: QSettings' folder, the help and --version texts. Static, so they can be
// set before any application object exists.
void setIdentity() {
    QCoreApplication::setOrganizationName(QStringLiteral("checkpointlab"));
    QCoreApplication::setOrganizationDomain(QStringLiteral("checkpointlab.github.io"));
    QCoreApplication::setApplicationName(QStringLiteral("ckptlab"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CKPTLAB_VERSION));
}

struct Options {
    QCommandLineOption lang{QStringLiteral("lang"),
                            QStringLiteral("The language: en or zh_CN (default: the one chosen "
                                           "in View > Language, else the system's)."),
                            QStringLiteral("code")};
    QCommandLineOption projector{
        QStringLiteral("projector"),
        QStringLiteral("Start in projector mode: large fonts, thick lines, high-contrast charts.")};
    QCommandLineOption lesson{
        QStringLiteral("lesson"),
        QStringLiteral("Open straight into this lesson (its id, e.g. where-memory-goes)."),
        QStringLiteral("id")};
};

void describe(QCommandLineParser& parser, const Options& options) {
    parser.setApplicationDescription(
        QStringLiteral("Explore gradient checkpointing with real LibTorch measurements."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("results"),
                                 QStringLiteral("Results JSON files to open (optional); several "
                                                "open side by side to compare them."),
                                 QStringLiteral("[RESULTS.json ...]"));
    parser.addOption(options.lang);
    parser.addOption(options.projector);
    parser.addOption(options.lesson);
}

// --help and --version only print: they are answered before QApplication, which aborts where
// there is no display (a terminal over ssh, a packaging check).
bool asksOnlyForText(int argc, char* argv[]) {
    for (int i = 1; i < argc; ++i) {
        const char* arg = argv[i];
        if (std::strcmp(arg, "--") == 0) return false;
        for (const char* option : {"-h", "--help", "-?", "--help-all", "-v", "--version"})
            if (std::strcmp(arg, option) == 0) return true;
    }
    return false;
}

}  // namespace

int main(int argc, char* argv[]) {
    // First: it may run the program again on OpenBLAS kernels that fit the CPU (not worth a
    // second start for --help or --version).
    if (!asksOnlyForText(argc, argv)) ckptlab::useFittingBlasKernel(argc, argv);
    setIdentity();
    const Options options;
    if (asksOnlyForText(argc, argv)) {
        QCoreApplication core(argc, argv);
        QCommandLineParser parser;
        describe(parser, options);
        parser.process(core);  // prints the help or the version and exits 0
        return 0;
    }

    QApplication app(argc, argv);
    QApplication::setApplicationDisplayName(QStringLiteral("Checkpoint Lab"));
    // Must match the .desktop file's name so Wayland compositors find the icon and entry.
    QApplication::setDesktopFileName(QStringLiteral(CKPTLAB_APP_ID));

    ckptlab::ui::initializeUi();
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/ckptlab.svg")));

    QCommandLineParser parser;
    describe(parser, options);
    parser.process(app);
    const QCommandLineOption& langOption = options.lang;
    const QCommandLineOption& projectorOption = options.projector;
    const QCommandLineOption& lessonOption = options.lesson;
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
    ckptlab::ui::MainWindow window(ckptlab::ui::lessonModeAddOn());
    window.show();
    if (parser.isSet(lessonOption)) ckptlab::ui::openLesson(window, lesson);
    const QStringList files = parser.positionalArguments();
    if (!files.isEmpty()) window.openResultsFiles(files);
    return app.exec();
}
