// ckptlab: the Checkpoint Lab desktop app. Entry point only; the window lives in ui/window.
//
//   ckptlab [RESULTS.json]

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>

#include "window/app_setup.h"
#include "window/main_window.h"

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
                                 QStringLiteral("A results JSON file to open (optional)."),
                                 QStringLiteral("[RESULTS.json]"));
    parser.process(app);

    ckptlab::ui::MainWindow window;
    window.show();
    const QStringList files = parser.positionalArguments();
    if (!files.isEmpty()) window.openResultsFile(files.first());
    return app.exec();
}
