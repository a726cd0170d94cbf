// Headless chart rendering for ckptlab-cli, through the same builders the window uses.
#include <QApplication>
#include <QDir>

#include <cstdlib>

#include "base/app_setup.h"
#include "base/language.h"
#include "charts/chart_export.h"
#include "cli_commands.h"

namespace ckptlab::cli {
namespace {

bool exportInto(const ResultSet& results, const std::string& dir, bool png, int scale,
                std::string* error) {
    if (dir.empty()) return true;
    const QString path = QString::fromStdString(dir);
    if (!QDir().mkpath(path)) {
        *error = "cannot create folder " + dir;
        return false;
    }
    QString message;
    const QStringList written = ui::exportAllCharts(results, path, png, !png, scale, &message);
    if (written.isEmpty() || !message.isEmpty()) {
        *error = message.isEmpty() ? "no charts written to " + dir : message.toStdString();
        return false;
    }
    return true;
}

}  // namespace

bool withHeadlessApp(const std::function<bool()>& work) {
    // Charts are widgets-based; without a display render offscreen.
    if (!std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY") &&
        !std::getenv("QT_QPA_PLATFORM"))
        setenv("QT_QPA_PLATFORM", "offscreen", 1);
    int argc = 1;
    char name[] = "ckptlab-cli";
    char* argv[] = {name, nullptr};
    QApplication app(argc, argv);
    ui::initializeUi();
    // The charts' plural forms ("1 checkpoint", "3 checkpoints") come from the English .qm.
    ui::installLanguage(QStringLiteral("en"));
    return work();
}

bool exportCharts(const ResultSet& results, const std::string& pngDir, const std::string& svgDir,
                  int scale, std::string* error) {
    return withHeadlessApp([&] {
        return exportInto(results, pngDir, true, scale, error) &&
               exportInto(results, svgDir, false, scale, error);
    });
}

}  // namespace ckptlab::cli
