#pragma once
// Open, Save and the results exports (CSV, Chrome trace). Opening parses and thins the file on
// a pool thread (QtConcurrent) so a large results file never freezes the window. Each action
// has a dialog-free variant taking a path, used by the dialogs, the command line and tests.

#include <QFutureWatcher>
#include <QObject>
#include <QString>

#include "document/metatypes.h"

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
    FileController(ResultsDocument* document, Settings* settings, QWidget* window);
    ~FileController() override;

    bool isLoading() const { return m_loading.isRunning(); }

public Q_SLOTS:
    void openDialog();
    // Asynchronous: ends with opened() or openFailed().
    void open(const QString& path);
    void save();
    void saveAsDialog();
    bool saveTo(const QString& path);
    void exportCsvDialog();
    bool exportCsv(const QString& path);
    void exportTraceDialog();
    bool exportTrace(const QString& path);

Q_SIGNALS:
    void opened(const QString& path);
    void openFailed(const QString& path, const QString& message);

private:
    bool hasResults();
    // Checks the target, writes with `save`, reports a failure under `failureTitle`.
    bool exportWith(const QString& path, const QString& failureTitle,
                    void (*save)(const ResultSet&, const std::string&));
    void onLoaded();
    QString askSavePath(const QString& caption, const QString& suffix, const QString& filter);

    ResultsDocument* m_document;
    Settings* m_settings;
    QWidget* m_window;
    QFutureWatcher<LoadedResults> m_loading;
};

}  // namespace ckptlab::ui
