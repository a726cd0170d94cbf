#pragma once
// The results the window shows: the ResultSet, each run's thinned timeline, the selected run
// and where the set came from. Table, charts and files all read from here.

#include <QObject>
#include <QString>
#include <QStringList>

#include "base/metatypes.h"
#include "document/result_sources.h"

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
    // Each run's name (RunResult::name), as the charts name their series.
    QStringList strategyNames() const;
    // The index of the first run of `strategy`, -1 when none.
    int firstRunOf(const Strategy& strategy) const;

    // -1 when nothing is selected.
    int selectedRun() const { return m_selected; }
    const RunResult* selected() const;

    // Set when the results were opened from or saved to a file.
    QString filePath() const { return m_filePath; }
    void setFilePath(const QString& path);
    bool isModified() const { return m_modified; }
    void setModified(bool modified) { m_modified = modified; }

    // Several results files side by side (result_sources.h): results() then holds every file's
    // runs, labelled "<strategy> · <machine>", and a run's index is its place in that merged set.
    // Throws ComparisonError (nothing changed) for fewer than two sources or a file twice.
    // Never modified: every run came from a file. clear(), reset() and a sweep end it.
    void resetSources(std::vector<ResultSource> sources);
    // 0 for a sweep or a single file, else the number of files.
    int sourceCount() const { return int(m_sources.size()); }
    const std::vector<ResultSource>& sources() const { return m_sources; }
    // The comparison of the sources (nullptr with fewer than two).
    const Comparison* comparison() const { return m_sources.empty() ? nullptr : &m_comparison; }
    // The strategies Run would measure again: every run's, or the first file's with several.
    std::vector<Strategy> experimentStrategies() const;

    // Starts a new, empty set (a new sweep begins).
    void clear();
    // Replaces everything, e.g. with a file's contents; thinned must be parallel to runs.
    void reset(ResultSet results, std::vector<std::vector<TimelineEvent>> thinned);
    // A run with timesPending is added and waits for its times; a complete run replaces the
    // waiting run of the same strategy and config in place (runAdded with its index), else it
    // is added.
    void addRun(const MeasuredRun& run);
    // Whether run `runIndex` came from its traced step and its times are still being measured.
    bool isTimesPending(int runIndex) const;
    // Parallel to results().runs: isTimesPending of each (the table shows "…" for those).
    const std::vector<bool>& timesPending() const { return m_timesPending; }
    // The sweep ended: whatever still waits will get no times ("not measured").
    void stopWaitingForTimes();
    // How the sweep's timed rounds went (ResultSet::timing), saved with the runs.
    void setTiming(const TimingRounds& timing);
    void setEnvironment(const Environment& environment, bool cancelled);
    // A Pareto sweep's predicted frontier, drawn on the tradeoff chart and saved with the runs.
    void setPredictedFrontier(const std::vector<FrontierPoint>& frontier);
    // What the sweep left out and why (ResultSet::notes), shown under the table and saved.
    void setNotes(const std::vector<std::string>& notes);

public Q_SLOTS:
    void select(int runIndex);

Q_SIGNALS:
    void resetDone();
    // A run was added at runIndex, or the run there got its times (replaced in place).
    void runAdded(int runIndex);
    void frontierChanged();
    void notesChanged();
    void selectionChanged(int runIndex);
    void filePathChanged(const QString& path);

private:
    ResultSet m_results;
    std::vector<std::vector<TimelineEvent>> m_thinned;
    std::vector<bool> m_timesPending;  // parallel to m_results.runs
    int m_selected = -1;
    QString m_filePath;
    bool m_modified = false;
    std::vector<ResultSource> m_sources;  // empty unless several files are open
    Comparison m_comparison;
};

}  // namespace ckptlab::ui
