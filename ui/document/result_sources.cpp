#include "document/result_sources.h"

#include <QFile>

#include "charts/chart_builders.h"

namespace ckptlab::ui {

std::vector<ChartSource> chartSources(const std::vector<ResultSource>& sources) {
    std::vector<ChartSource> charts;
    for (const ResultSource& source : sources)
        charts.push_back({source.label, strategyOrder(source.results)});
    return charts;
}

CombinedSources combineSources(std::vector<ResultSource>& sources) {
    std::vector<ComparisonInput> inputs;
    inputs.reserve(sources.size());
    for (const ResultSource& source : sources)
        inputs.push_back({QFile::encodeName(source.path).toStdString(), source.results});
    CombinedSources combined;
    combined.comparison = compareResults(inputs);
    for (size_t s = 0; s < sources.size(); ++s)
        sources[s].label = QString::fromStdString(combined.comparison.sources[s].label);

    ResultSet& merged = combined.results;
    merged.environment = sources.front().results.environment;
    for (size_t s = 0; s < sources.size(); ++s) {
        const ResultSource& source = sources[s];
        // A file merged from shards keeps each run's time against its own shard's none
        // (baselineFor): its machines are numbered after the files' before it.
        const int firstMachine = int(merged.machines.size());
        merged.machines.insert(merged.machines.end(), source.results.machines.begin(),
                               source.results.machines.end());
        for (RunResult baseline : source.results.machine_baselines) {
            if (baseline.machine) *baseline.machine += firstMachine;
            merged.machine_baselines.push_back(std::move(baseline));
        }
        merged.cancelled = merged.cancelled || source.results.cancelled;
        for (const std::string& note : source.results.notes)
            merged.notes.push_back(SourceText::tr("%1: %2", "a file's machine and one of its notes")
                                       .arg(source.label, QString::fromStdString(note))
                                       .toStdString());
        for (size_t r = 0; r < source.results.runs.size(); ++r) {
            RunResult run = source.results.runs[r];
            if (run.machine) *run.machine += firstMachine;
            run.label =
                sourcedStrategyName(QString::fromStdString(run.strategy.name()), source.label)
                    .toStdString();
            merged.runs.push_back(std::move(run));
            combined.thinned.push_back(r < source.thinned.size() ? source.thinned[r]
                                                                 : std::vector<TimelineEvent>{});
        }
    }
    return combined;
}

}  // namespace ckptlab::ui
