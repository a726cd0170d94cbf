#include "controllers/file_controller.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QScopeGuard>
#include <QtConcurrent/QtConcurrentRun>

#include "base/messages.h"
#include "charts/source_groups.h"
#include "ckptlab/formats/comparison.h"
#include "ckptlab/formats/results_io.h"
#include "ckptlab/formats/results_merge.h"
#include "ckptlab/model/summary.h"
#include "document/results_document.h"
#include "document/settings.h"

namespace ckptlab::ui {

namespace {

LoadedResults loadAndThin(const QString& path) {
    LoadedResults loaded;
    loaded.path = path;
    try {
        loaded.results = loadResults(QFile::encodeName(path).toStdString());
        // A file merged from shards that ran on machines of several names: each run is named by
        // its machine, as in the view of several files (result_sources.h).
        const std::vector<std::string> machines = runMachineNames(loaded.results);
        for (size_t r = 0; r < machines.size(); ++r) {
            RunResult& run = loaded.results.runs[r];
            run.label = sourcedStrategyName(QString::fromStdString(run.strategy.name()),
                                            QString::fromStdString(machines[r]))
                            .toStdString();
        }
        for (const RunResult& run : loaded.results.runs)
            loaded.thinned.push_back(downsampleTimeline(run.timeline, kTimelinePoints));
    } catch (const std::exception& e) {
        loaded.error = QString::fromStdString(e.what());
    }
    return loaded;
}

std::string localPath(const QString& path) { return QFile::encodeName(path).toStdString(); }

std::vector<LoadedResults> loadAll(const QStringList& paths) {
    std::vector<LoadedResults> loaded;
    for (const QString& path : paths) {
        loaded.push_back(loadAndThin(path));
        if (!loaded.back().error.isEmpty()) break;  // the first that fails is reported
    }
    return loaded;
}

// Core's reason why these files cannot be compared (the same file twice, also under two names);
// empty when they can.
QString comparisonProblem(const QStringList& paths) {
    std::vector<std::string> local;
    for (const QString& path : paths) local.push_back(localPath(path));
    return QString::fromStdString(checkComparisonFiles(local));
}

}  // namespace

FileController::FileController(ResultsDocument* document, Settings* settings, QWidget* window,
                               DocumentBusy* busy)
    : QObject(window),
      m_document(document),
      m_settings(settings),
      m_busy(busy ? busy : new DocumentBusy(this)),
      m_window(window) {
    setObjectName(QStringLiteral("files"));
    connect(&m_loading, &QFutureWatcher<std::vector<LoadedResults>>::finished, this,
            &FileController::onLoaded);
}

FileController::~FileController() {
    m_loading.waitForFinished();  // the task holds no pointer to us, but finish it cleanly
}

void FileController::openDialog() {
    DocumentHold hold(m_busy, DocumentAction::Open, m_window);
    if (!hold) return;
    const QStringList paths =
        QFileDialog::getOpenFileNames(m_window, tr("Open results (several to compare them)"),
                                      m_settings->lastFolder(FolderKind::Results),
                                      tr("Checkpoint Lab results (*.json);;All files (*)"));
    if (!paths.isEmpty()) openHeld(paths, hold);
}

void FileController::open(const QString& path) { openFiles({path}); }

void FileController::openFiles(const QStringList& paths) {
    if (paths.isEmpty()) return;
    DocumentHold hold(m_busy, DocumentAction::Open, m_window);
    if (hold) openHeld(paths, hold);
}

void FileController::openHeld(const QStringList& paths, DocumentHold& hold) {
    if (paths.size() > 1) {
        const QString problem = comparisonProblem(paths);
        if (!problem.isEmpty()) {
            showMessage(m_window, MessageKind::Error, tr("Cannot open these files together"),
                        problem);
            return;
        }
    }
    if (!mayReplaceResults()) return;
    load(paths, {}, hold);
}

void FileController::addDialog() {
    DocumentHold hold(m_busy, DocumentAction::AddFile, m_window);
    if (!hold) return;
    const QStringList paths = QFileDialog::getOpenFileNames(
        m_window, tr("Add results to compare"), m_settings->lastFolder(FolderKind::Results),
        tr("Checkpoint Lab results (*.json);;All files (*)"));
    if (!paths.isEmpty()) addHeld(paths, hold);
}

void FileController::addFiles(const QStringList& paths) {
    if (paths.isEmpty()) return;
    DocumentHold hold(m_busy, DocumentAction::AddFile, m_window);
    if (hold) addHeld(paths, hold);
}

void FileController::addHeld(const QStringList& paths, DocumentHold& hold) {
    if (m_document->isEmpty()) {
        openHeld(paths, hold);
        return;
    }
    std::vector<ResultSource> keep = m_document->sources();
    if (keep.empty()) {
        // Only a file compares: results measured or shown here are saved first.
        if (m_document->filePath().isEmpty() || m_document->isModified()) {
            showMessage(m_window, MessageKind::Information, tr("Save the results first"),
                        tr("Adding a results file compares files side by side, and the results "
                           "on screen are not saved in one. Save them first, then add the files "
                           "to compare them with."));
            return;
        }
        keep.push_back(
            {m_document->filePath(), m_document->results(), m_document->thinnedTimelines(), {}});
    }
    QStringList all;
    for (const ResultSource& source : keep) all << source.path;
    all << paths;
    const QString problem = comparisonProblem(all);
    if (!problem.isEmpty()) {
        showMessage(m_window, MessageKind::Error, tr("Cannot add these files"), problem);
        return;
    }
    load(paths, std::move(keep), hold);
}

bool FileController::mayReplaceResults() {
    if (m_document->isEmpty() || !m_document->isModified()) return true;
    return confirm(m_window, tr("Replace the results?"),
                   tr("The results on screen were measured here and are not saved. Opening "
                      "replaces them.\n\nReplace them anyway?"));
}

void FileController::load(const QStringList& paths, std::vector<ResultSource> keep,
                          DocumentHold& hold) {
    m_settings->setLastFolder(FolderKind::Results, paths.front());
    m_keep = std::move(keep);
    m_loadAction = hold.action();
    m_loading.setFuture(QtConcurrent::run(loadAll, paths));
    hold.keep();  // until onLoaded has put the files on screen
}

void FileController::onLoaded() {
    const auto release = qScopeGuard([this] { m_busy->end(m_loadAction); });
    std::vector<LoadedResults> loaded = m_loading.result();
    std::vector<ResultSource> sources = std::move(m_keep);
    m_keep.clear();
    for (const LoadedResults& file : loaded) {
        if (file.error.isEmpty()) continue;
        showMessage(m_window, MessageKind::Error, tr("Cannot open results"),
                    tr("%1\n\n%2").arg(QDir::toNativeSeparators(file.path), file.error));
        Q_EMIT openFailed(file.path, file.error);
        return;
    }
    if (loaded.empty()) return;
    if (sources.empty() && loaded.size() == 1) {
        LoadedResults& file = loaded.front();
        m_document->reset(std::move(file.results), std::move(file.thinned));
        m_document->setFilePath(file.path);
        Q_EMIT opened(file.path);
        return;
    }
    for (LoadedResults& file : loaded)
        sources.push_back({file.path, std::move(file.results), std::move(file.thinned), {}});
    showSources(std::move(sources));
}

void FileController::showSources(std::vector<ResultSource> sources) {
    QStringList names;
    for (const ResultSource& source : sources) names << QDir::toNativeSeparators(source.path);
    try {
        m_document->resetSources(std::move(sources));
    } catch (const std::exception& e) {  // ComparisonError: nothing changed
        const QString message = QString::fromStdString(e.what());
        showMessage(m_window, MessageKind::Error, tr("Cannot open these files together"), message);
        Q_EMIT openFailed(names.front(), message);
        return;
    }
    Q_EMIT opened(QLocale().createSeparatedList(names));
}

bool FileController::refuseSeveral() {
    if (m_document->sourceCount() < 2) return false;
    showMessage(m_window, MessageKind::Information, tr("Several files are open"),
                tr("The results on screen come from several files, each of them saved already. "
                   "To save one under another name, open it alone; to keep the comparison, use "
                   "Export Summary as CSV."));
    return true;
}

bool FileController::hasResults() {
    if (!m_document->isEmpty()) return true;
    showMessage(m_window, MessageKind::Information, tr("Nothing to save"),
                tr("Run a sweep or open a results file first."));
    return false;
}

QString FileController::askSavePath(const QString& caption, const QString& suffix,
                                    const QString& filter) {
    QString base = m_document->filePath().isEmpty() ? QStringLiteral("ckptlab-results")
                                                    : QFileInfo(m_document->filePath()).fileName();
    for (const QString& known : {QStringLiteral(".ckptlab.json"), QStringLiteral(".json")})
        if (base.endsWith(known, Qt::CaseInsensitive)) {
            base.chop(known.size());
            break;
        }
    const QString suggested =
        m_settings->lastFolder(FolderKind::Export) + QLatin1Char('/') + base + suffix;
    QString path = QFileDialog::getSaveFileName(m_window, caption, suggested, filter);
    if (!path.isEmpty() && QFileInfo(path).suffix().isEmpty()) path += suffix;
    return path;
}

void FileController::save() {
    DocumentHold hold(m_busy, DocumentAction::Save, m_window);
    if (!hold || refuseSeveral()) return;
    if (m_document->filePath().isEmpty())
        saveAsHeld();
    else
        saveHeld(m_document->filePath());
}

void FileController::saveAsDialog() {
    DocumentHold hold(m_busy, DocumentAction::Save, m_window);
    if (hold) saveAsHeld();
}

void FileController::saveAsHeld() {
    if (!hasResults() || refuseSeveral()) return;
    // .ckptlab.json: the name the desktop's MIME type (packaging/) knows as a results file.
    const QString path = askSavePath(tr("Save results"), QStringLiteral(".ckptlab.json"),
                                     tr("Checkpoint Lab results (*.json)"));
    if (!path.isEmpty()) saveHeld(path);
}

bool FileController::saveTo(const QString& path) {
    DocumentHold hold(m_busy, DocumentAction::Save, m_window);
    return hold && saveHeld(path);
}

bool FileController::saveHeld(const QString& path) {
    if (!hasResults() || refuseSeveral()) return false;
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
    // Several files: core's comparison, one line per strategy and file with the ratios.
    if (const Comparison* comparison = m_document->comparison())
        return exportWith(path, tr("Cannot export CSV"),
                          [comparison](const ResultSet&, const std::string& file) {
                              saveComparisonCsv(*comparison, file);
                          });
    return exportWith(path, tr("Cannot export CSV"), &saveSummaryCsv);
}

bool FileController::exportWith(
    const QString& path, const QString& failureTitle,
    const std::function<void(const ResultSet&, const std::string&)>& save) {
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
