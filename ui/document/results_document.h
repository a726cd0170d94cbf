#pragma once
// The results the window shows: the ResultSet, each run's thinned timeline, the selected run
// and where the set came from. Table, charts and files all read from here.

#include <QObject>
#include <QString>
#include <QStringList>

#include "document/metatypes.h"

namespace ckptlab::ui {

class ResultsDocument : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    const ResultSet& results() const { return m_results; }
    // Parallel to results().runs.
    const std::vector<std::vector<TimelineEvent>>& thinnedTimelines() const { return m_thinned; }
    int runCount() const { return int(m_results.runs.size()); }
    bool isEmpty() const { return m_results.runs.empty(); }
    QStringList strategyNames() const;

    // -1 when nothing is selected.
    int selectedRun() const { return m_selected; }
    const RunResult* selected() const;

    // Set when the results were opened from or saved to a file.
    QString filePath() const { return m_filePath; }
    void setFilePath(const QString& path);
    bool isModified() const { return m_modified; }
    void setModified(bool modified) { m_modified = modified; }

    // Starts a new, empty set (a new sweep begins).
    void clear();
    // Replaces everything, e.g. with a file's contents; thinned must be parallel to runs.
    void reset(ResultSet results, std::vector<std::vector<TimelineEvent>> thinned);
    void addRun(const MeasuredRun& run);
    void setEnvironment(const Environment& environment, bool cancelled);
    // A Pareto sweep's predicted frontier, drawn on the tradeoff chart and saved with the runs.
    void setPredictedFrontier(const std::vector<FrontierPoint>& frontier);
    // What the sweep left out and why (ResultSet::notes), shown under the table and saved.
    void setNotes(const std::vector<std::string>& notes);

public Q_SLOTS:
    void select(int runIndex);

Q_SIGNALS:
    void resetDone();
    void runAdded(int runIndex);
    void frontierChanged();
    void notesChanged();
    void selectionChanged(int runIndex);
    void filePathChanged(const QString& path);

private:
    ResultSet m_results;
    std::vector<std::vector<TimelineEvent>> m_thinned;
    int m_selected = -1;
    QString m_filePath;
    bool m_modified = false;
};

}  // namespace ckptlab::ui
