#include "document/results_document.h"

#include <algorithm>

#include "document/run_identity.h"

namespace ckptlab::ui {

QStringList ResultsDocument::strategyNames() const {
    QStringList names;
    for (const RunResult& run : m_results.runs) names << QString::fromStdString(run.name());
    return names;
}

int ResultsDocument::firstRunOf(const Strategy& strategy) const {
    for (int i = 0; i < runCount(); ++i)
        if (m_results.runs[size_t(i)].strategy == strategy) return i;
    return -1;
}

const RunResult* ResultsDocument::selected() const {
    return m_selected >= 0 && m_selected < runCount() ? &m_results.runs[size_t(m_selected)]
                                                      : nullptr;
}

void ResultsDocument::setFilePath(const QString& path) {
    if (path == m_filePath) return;
    m_filePath = path;
    Q_EMIT filePathChanged(path);
}

std::vector<Strategy> ResultsDocument::experimentStrategies() const {
    const ResultSet& measured = m_sources.empty() ? m_results : m_sources.front().results;
    std::vector<Strategy> strategies;
    for (const RunResult& run : measured.runs) strategies.push_back(run.strategy);
    return strategies;
}

void ResultsDocument::resetSources(std::vector<ResultSource> sources) {
    CombinedSources combined = combineSources(sources);  // throws before anything changes
    m_sources = std::move(sources);
    m_comparison = std::move(combined.comparison);
    m_results = std::move(combined.results);
    m_thinned = std::move(combined.thinned);
    m_timesPending.assign(m_results.runs.size(), false);
    m_selected = -1;
    m_modified = false;
    setFilePath({});
    Q_EMIT resetDone();
    Q_EMIT selectionChanged(m_selected);
}

void ResultsDocument::clear() {
    reset({}, {});
    setFilePath({});
}

void ResultsDocument::reset(ResultSet results, std::vector<std::vector<TimelineEvent>> thinned) {
    m_sources.clear();
    m_comparison = {};
    m_results = std::move(results);
    m_thinned = std::move(thinned);
    m_thinned.resize(m_results.runs.size());
    m_timesPending.assign(m_results.runs.size(), false);
    m_selected = -1;
    m_modified = false;
    Q_EMIT resetDone();
    Q_EMIT selectionChanged(m_selected);
}

void ResultsDocument::addRun(const MeasuredRun& run) {
    if (!run.timesPending) {
        const int waiting = waitingRunFor(m_results.runs, m_timesPending, run.run);
        if (waiting >= 0) {  // its times arrived: the same run, complete, in the same place
            m_results.runs[size_t(waiting)] = run.run;
            m_thinned[size_t(waiting)] = run.thinned;
            m_timesPending[size_t(waiting)] = false;
            m_modified = true;
            Q_EMIT runAdded(waiting);
            return;
        }
    }
    m_results.runs.push_back(run.run);
    m_thinned.push_back(run.thinned);
    m_timesPending.push_back(run.timesPending);
    m_modified = true;
    const int index = runCount() - 1;
    Q_EMIT runAdded(index);
    // Follow the newest run until the user picks one, so its lifetimes show as it arrives.
    if (m_selected < 0 || m_selected == index - 1) select(index);
}

bool ResultsDocument::isTimesPending(int runIndex) const {
    return runIndex >= 0 && runIndex < int(m_timesPending.size()) &&
           m_timesPending[size_t(runIndex)];
}

void ResultsDocument::stopWaitingForTimes() {
    if (std::find(m_timesPending.begin(), m_timesPending.end(), true) == m_timesPending.end())
        return;
    m_timesPending.assign(m_results.runs.size(), false);
    Q_EMIT runAdded(runCount() - 1);  // the rows read "not measured" now, not "timing"
}

void ResultsDocument::setTiming(const TimingRounds& timing) {
    m_results.timing = timing;
    m_modified = true;
}

void ResultsDocument::setEnvironment(const Environment& environment, bool cancelled) {
    m_results.environment = environment;
    m_results.cancelled = cancelled;
}

void ResultsDocument::setPredictedFrontier(const std::vector<FrontierPoint>& frontier) {
    m_results.predicted_frontier = frontier;
    m_modified = true;
    Q_EMIT frontierChanged();
}

void ResultsDocument::setNotes(const std::vector<std::string>& notes) {
    m_results.notes = notes;
    m_modified = true;
    Q_EMIT notesChanged();
}

void ResultsDocument::select(int runIndex) {
    if (runIndex < -1 || runIndex >= runCount()) runIndex = -1;
    if (runIndex == m_selected) return;
    m_selected = runIndex;
    Q_EMIT selectionChanged(runIndex);
}

}  // namespace ckptlab::ui
