#pragma once
// Several results files open at once (File → Open with several files, Add Results File…): each
// file's runs as read, the label of its machine from core's compareResults (comparison.h), and
// all of them merged into one set for the charts. In the merged set each run's name reads
// "<strategy> · <machine>" (RunResult::label, sourcedStrategyName), its strategy unchanged, so
// every chart keeps the files apart as groups,
// names the machine in its legend and selects a run by that name; the table reads each file's
// own runs instead.

#include <QCoreApplication>
#include <QString>
#include <QStringList>
#include <vector>

#include "charts/source_groups.h"
#include "ckptlab/formats/comparison.h"
#include "ckptlab/model/result.h"

namespace ckptlab::ui {

struct ResultSource {
    QString path;
    ResultSet results;                                // as read from the file
    std::vector<std::vector<TimelineEvent>> thinned;  // parallel to results.runs
    QString label;  // the comparison's label: the machine, with the file's stem when two share one
};

// Several sources as one set: the runs of every source in the sources' order.
struct CombinedSources {
    Comparison comparison;
    ResultSet results;                                // runs labelled by sourcedStrategyName
    std::vector<std::vector<TimelineEvent>> thinned;  // parallel to results.runs
};

// The sources as the charts see them (charts/source_groups.h).
std::vector<ChartSource> chartSources(const std::vector<ResultSource>& sources);

// Compares the sources (the first is the reference), sets their labels and merges them: the
// environment is the first source's, the set is cancelled when any was, each file's own notes
// are kept with its label in front, and a predicted frontier is dropped (it belongs to one
// file's planner). Throws ComparisonError (core) for fewer than two sources or the same path
// twice.
CombinedSources combineSources(std::vector<ResultSource>& sources);

}  // namespace ckptlab::ui
