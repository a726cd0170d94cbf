// Which runs the charts show, in what colour, and the thinned timelines they draw.
#include <QSet>
#include <algorithm>
#include <cmath>

#include "charts/chart_builders.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/model/summary.h"

namespace ckptlab::ui {

namespace {

// Tableau 10 without its grey (kept for `none`), then darker and softer hues that stay apart
// from the first nine, for sweeps of a dozen or more strategies.
const QColor kPalette[] = {
    QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c),
    QColor(0xd6, 0x27, 0x28), QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b),
    QColor(0xe3, 0x77, 0xc2), QColor(0x17, 0xbe, 0xcf), QColor(0xbc, 0xbd, 0x22),
    QColor(0x39, 0x3b, 0x79), QColor(0x84, 0x3c, 0x39), QColor(0xbd, 0x9e, 0x39),
    QColor(0x7b, 0x41, 0x73), QColor(0x63, 0x79, 0x39), QColor(0xe7, 0x96, 0x9c),
    QColor(0x6b, 0x6e, 0xcf), QColor(0x5f, 0xd3, 0xb3),
};
constexpr int kPaletteSize = int(sizeof(kPalette) / sizeof(kPalette[0]));
// The baseline every comparison is made against, by its canonical name (Strategy::name()).
const QString kBaseline = QString::fromStdString(Strategy{}.name());

QColor colorForIndex(int index) {
    if (index < kPaletteSize) return kPalette[index];
    // Beyond the palette: golden-angle hues stay apart from their neighbours.
    const int hue = int(std::fmod(30.0 + 137.508 * index, 360.0));
    return QColor::fromHsv(hue, 170, 200);
}

bool recomputes(const RunResult& run) {
    if (run.metrics.recomputed_blocks > 0) return true;
    return std::any_of(run.blocks.begin(), run.blocks.end(),
                       [](const BlockLifetime& b) { return b.phase == Phase::Recompute; });
}

bool keepsSome(const RunResult& run) {
    return std::any_of(run.blocks.begin(), run.blocks.end(),
                       [](const BlockLifetime& b) { return b.phase == Phase::Forward; });
}

}  // namespace

QColor strategyColor(const QString& strategy, const QStringList& allStrategies) {
    // The baseline is neutral so every real strategy stands out against it.
    if (strategy == kBaseline) return QColor(0x4d, 0x4d, 0x4d);
    int index = 0;
    for (const QString& name : allStrategies) {
        if (name == strategy) return colorForIndex(index);
        if (name != kBaseline) ++index;
    }
    // Unknown to the list: still stable for the same name.
    return colorForIndex(int(qHash(strategy) % 1000u) + kPaletteSize);
}

QStringList strategyOrder(const ResultSet& results) {
    QStringList order;
    for (const RunResult& run : results.runs) {
        const QString name = QString::fromStdString(run.name());
        if (!order.contains(name)) order.append(name);
    }
    return order;
}

std::vector<const RunResult*> plottedRuns(const ResultSet& results) {
    std::vector<const RunResult*> runs;
    for (const RunResult& run : results.runs)
        if (!run.error) runs.push_back(&run);
    return runs;
}

bool hasPartialTrace(const RunResult& run) { return run.out_of_memory && !run.timeline.empty(); }

const RunResult* representativeRun(const ResultSet& results) {
    const auto runs = plottedRuns(results);
    // Best: a correct run with both kept and recomputed activations, so its lifetimes chart
    // shows the forward bars and the recompute bursts side by side.
    for (const RunResult* run : runs)
        if (recomputes(*run) && keepsSome(*run) && run->ok()) return run;
    for (const RunResult* run : runs)
        if (recomputes(*run) && run->ok()) return run;
    for (const RunResult* run : runs)
        if (recomputes(*run)) return run;
    return runs.empty() ? nullptr : runs.front();
}

const RunResult* chartFocus(const ResultSet& results, const RunResult* wanted) {
    if (wanted && (!wanted->error || hasPartialTrace(*wanted))) return wanted;
    return representativeRun(results);
}

std::vector<TimelineData> makeTimelineData(const ResultSet& results, const RunResult* first,
                                           std::size_t maxPoints, std::size_t maxRuns,
                                           const std::vector<std::vector<TimelineEvent>>* thinned) {
    std::vector<const RunResult*> runs;
    for (const RunResult& run : results.runs)
        if (!run.error || hasPartialTrace(run)) runs.push_back(&run);
    std::vector<const RunResult*> chosen;
    auto take = [&](const RunResult* run) {
        if (run && chosen.size() < maxRuns &&
            std::find(runs.begin(), runs.end(), run) != runs.end() &&
            std::find(chosen.begin(), chosen.end(), run) == chosen.end())
            chosen.push_back(run);
    };
    take(first);
    // Beside it, the `none` of the same size (a scaling sweep has one per size).
    take(first ? baselineFor(results, *first) : results.find(Strategy{}));
    for (const RunResult* run : runs) take(run);

    const bool given = thinned && thinned->size() == results.runs.size();
    std::vector<TimelineData> data;
    for (const RunResult* run : chosen)
        data.push_back(TimelineData{run, given ? (*thinned)[std::size_t(run - results.runs.data())]
                                               : downsampleTimeline(run->timeline, maxPoints)});
    return data;
}

}  // namespace ckptlab::ui
