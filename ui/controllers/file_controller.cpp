#include "controllers/file_controller.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

#include "ckptlab/results_io.h"
#include "ckptlab/summary.h"
#include "document/results_document.h"
#include "document/settings.h"
#include "window/messages.h"

namespace ckptlab::ui {

namespace {

LoadedResults loadAndThin(const QString& path) {
    LoadedResults loaded;
    loaded.path = path;
    try {
        loaded.results = loadResults(QFile::encodeName(path).toStdString());
        for (const RunResult& run : loaded.results.runs)
            loaded.thinned.push_back(downsampleTimeline(run.timeline, kTimelinePoints));
    } catch (const std::exception& e) {
        loaded.error = QString::fromStdString(e.what());
    }
    return loaded;
}

std::string localPath(const QString& path) { return QFile::encodeName(path).toStdString(); }

}  // namespace

FileController::FileController(ResultsDocument* document, Settings* settings, QWidget* window)
    : QObject(window), m_document(document), m_settings(settings), m_window(window) {
    setObjectName(QStringLiteral("files"));
    connect(&m_loading, &QFutureWatcher<LoadedResults>::finished, this, &FileController::onLoaded);
}

FileController::~FileController() {
    m_loading.waitForFinished();  // the task holds no pointer to us, but finish it cleanly
}

void FileController::openDialog() {
    const QString path = QFileDialog::getOpenFileName(
        m_window, tr("Open results"), m_settings->lastFolder(FolderKind::Results),
        tr("Checkpoint Lab results (*.json);;All files (*)"));
    if (!path.isEmpty()) open(path);
}

void FileController::open(const QString& path) {
    if (m_loading.isRunning()) return;  // one load at a time; the first one's result wins
    m_settings->setLastFolder(FolderKind::Results, path);
    m_loading.setFuture(QtConcurrent::run(loadAndThin, path));
}

void FileController::onLoaded() {
    LoadedResults loaded = m_loading.result();
    if (!loaded.error.isEmpty()) {
        showMessage(m_window, MessageKind::Error, tr("Cannot open results"),
                    tr("%1\n\n%2").arg(QDir::toNativeSeparators(loaded.path), loaded.error));
        Q_EMIT openFailed(loaded.path, loaded.error);
        return;
    }
    m_document->reset(std::move(loaded.results), std::move(loaded.thinned));
    m_document->setFilePath(loaded.path);
    Q_EMIT opened(loaded.path);
}

bool FileController::hasResults() {
    if (!m_document->isEmpty()) return true;
    showMessage(m_window, MessageKind::Information, tr("Nothing to save"),
                tr("Run a sweep or open a results file first."));
    return false;
}

QString FileController::askSavePath(const QString& caption, const QString& suffix,
                                    const QString& filter) {
    const QString base = m_document->filePath().isEmpty()
                             ? QStringLiteral("ckptlab-results")
                             : QFileInfo(m_document->filePath()).completeBaseName();
    const QString suggested =
        m_settings->lastFolder(FolderKind::Export) + QLatin1Char('/') + base + suffix;
    QString path = QFileDialog::getSaveFileName(m_window, caption, suggested, filter);
    if (!path.isEmpty() && QFileInfo(path).suffix().isEmpty()) path += suffix;
    return path;
}

void FileController::save() {
    if (m_document->filePath().isEmpty())
        saveAsDialog();
    else
        saveTo(m_document->filePath());
}

void FileController::saveAsDialog() {
    if (!hasResults()) return;
    const QString path = askSavePath(tr("Save results"), QStringLiteral(".json"),
                                     tr("Checkpoint Lab results (*.json)"));
    if (!path.isEmpty()) saveTo(path);
}

bool FileController::saveTo(const QString& path) {
    if (!hasResults()) return false;
    if (!refuseUnwritableFile(m_window, path, tr("Cannot save results")).isEmpty()) return false;
    try {
        saveResults(m_document->results(), localPath(path));
    } catch (const std::exception& e) {
        showMessage(m_window, MessageKind::Error, tr("Cannot save results"),
                    QString::fromStdString(e.what()));
        return false;
    }
    m_settings->setLastFolder(FolderKind::Results, path);
    m_document->setFilePath(path);
    m_document->setModified(false);
    return true;
}

void FileController::exportCsvDialog() {
    if (!hasResults()) return;
    const QString path =
        askSavePath(tr("Export summary as CSV"), QStringLiteral(".csv"), tr("CSV (*.csv)"));
    if (!path.isEmpty()) exportCsv(path);
}

bool FileController::exportCsv(const QString& path) {
    return exportWith(path, tr("Cannot export CSV"), &saveSummaryCsv);
}

bool FileController::exportWith(const QString& path, const QString& failureTitle,
                                void (*save)(const ResultSet&, const std::string&)) {
    if (!hasResults()) return false;
    if (!refuseUnwritableFile(m_window, path, failureTitle).isEmpty()) return false;
    try {
        save(m_document->results(), localPath(path));
    } catch (const std::exception& e) {
        showMessage(m_window, MessageKind::Error, failureTitle, QString::fromStdString(e.what()));
        return false;
    }
    m_settings->setLastFolder(FolderKind::Export, path);
    return true;
}

void FileController::exportTraceDialog() {
    if (!hasResults()) return;
    const QString path = askSavePath(tr("Export Chrome trace (open in Perfetto)"),
                                     QStringLiteral(".trace.json"), tr("Chrome trace (*.json)"));
    if (!path.isEmpty()) exportTrace(path);
}

bool FileController::exportTrace(const QString& path) {
    return exportWith(path, tr("Cannot export trace"), &saveChromeTrace);
}

}  // namespace ckptlab::ui
