#include "document/results_document.h"

namespace ckptlab::ui {

QStringList ResultsDocument::strategyNames() const {
    QStringList names;
    for (const RunResult& run : m_results.runs) names << QString::fromStdString(run.strategy);
    return names;
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

void ResultsDocument::clear() {
    reset({}, {});
    setFilePath({});
}

void ResultsDocument::reset(ResultSet results, std::vector<std::vector<TimelineEvent>> thinned) {
    m_results = std::move(results);
    m_thinned = std::move(thinned);
    m_thinned.resize(m_results.runs.size());
    m_selected = -1;
    m_modified = false;
    Q_EMIT resetDone();
    Q_EMIT selectionChanged(m_selected);
}

void ResultsDocument::addRun(const MeasuredRun& run) {
    m_results.runs.push_back(run.run);
    m_thinned.push_back(run.thinned);
    m_modified = true;
    const int index = runCount() - 1;
    Q_EMIT runAdded(index);
    // Follow the newest run until the user picks one, so its lifetimes show as it arrives.
    if (m_selected < 0 || m_selected == index - 1) select(index);
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
