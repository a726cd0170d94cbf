#pragma once
// Open, Save and the results exports (CSV, Chrome trace). Opening parses and thins the files on
// a pool thread (QtConcurrent) so a large results file never freezes the window. Each action
// has a dialog-free variant taking a path, used by the dialogs, the command line and tests.
// Several files open side by side (ResultsDocument::resetSources): Open with several, or Add
// Results File… beside what is open. Save refuses them (each is a file already); the CSV export
// writes core's comparison CSV instead of one set's summary. Open, Add and Save take the
// document (DocumentBusy) for their dialogs, and a load keeps it until the files are on screen.

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>

#include "base/metatypes.h"
#include "document/document_busy.h"
#include "document/result_sources.h"

class QWidget;

namespace ckptlab::ui {

class ResultsDocument;
class Settings;

struct LoadedResults {
    QString path;
    ResultSet results;
    std::vector<std::vector<TimelineEvent>> thinned;
    QString error;  // set when the file could not be read
};

class FileController : public QObject {
    Q_OBJECT
public:
    // `busy`: the window's; without one (a controller on its own) it keeps its own.
    FileController(ResultsDocument* document, Settings* settings, QWidget* window,
                   DocumentBusy* busy = nullptr);
    ~FileController() override;

    bool isLoading() const { return m_loading.isRunning(); }

public Q_SLOTS:
    void openDialog();
    // Asynchronous: ends with opened() or openFailed().
    void open(const QString& path);
    // One file opens as open() does; several open side by side. Unsaved results measured here
    // are replaced only after the user confirms.
    void openFiles(const QStringList& paths);
    // Add Results File…: files beside the results on screen, which must come from a saved file.
    void addDialog();
    void addFiles(const QStringList& paths);
    void save();
    void saveAsDialog();
    bool saveTo(const QString& path);
    void exportCsvDialog();
    bool exportCsv(const QString& path);
    void exportTraceDialog();
    bool exportTrace(const QString& path);

Q_SIGNALS:
    // `path`: the file, or with several files the list of their names.
    void opened(const QString& path);
    void openFailed(const QString& path, const QString& message);

private:
    bool hasResults();
    bool mayReplaceResults();
    // The actions themselves, run while the caller holds the document.
    void openHeld(const QStringList& paths, DocumentHold& hold);
    void addHeld(const QStringList& paths, DocumentHold& hold);
    void saveAsHeld();
    bool saveHeld(const QString& path);
    // Loads `paths` beside `keep` (the sources already open when adding); the load keeps
    // `hold` until onLoaded.
    void load(const QStringList& paths, std::vector<ResultSource> keep, DocumentHold& hold);
    void showSources(std::vector<ResultSource> sources);
    // Checks the target, writes with `save`, reports a failure under `failureTitle`.
    bool exportWith(const QString& path, const QString& failureTitle,
                    const std::function<void(const ResultSet&, const std::string&)>& save);
    // With several files open: says Save cannot write them as one and returns true.
    bool refuseSeveral();
    void onLoaded();
    QString askSavePath(const QString& caption, const QString& suffix, const QString& filter);

    ResultsDocument* m_document;
    Settings* m_settings;
    DocumentBusy* m_busy;
    QWidget* m_window;
    QFutureWatcher<std::vector<LoadedResults>> m_loading;
    std::vector<ResultSource> m_keep;  // the sources kept beside the files loading
    DocumentAction m_loadAction = DocumentAction::Open;  // what holds the document while loading
};

}  // namespace ckptlab::ui
