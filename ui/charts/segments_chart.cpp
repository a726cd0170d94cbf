// The reserved segments chart: for one run, the caching allocator's segments over the traced
// step and the blocks cut from them, coloured by the phase that allocated them (segment_map.h
// draws them). A run without the allocator's trace gets an empty chart saying why.
#include <QAreaSeries>
#include <QChart>
#include <QLineSeries>
#include <QValueAxis>
#include <array>

#include "charts/chart_builders.h"
#include "charts/chart_interaction.h"
#include "charts/chart_style.h"
#include "charts/segment_map.h"
#include "ckptlab/model/summary.h"

namespace ckptlab::ui {

namespace {

constexpr double kGiB = 1024.0 * kMiB;

// Why a run has no segments to show: the allocator it ran with, its device, or its file's age.
QString whyNoSegments(const RunResult& run) {
    const QString name = QString::fromStdString(run.name());
    if (run.error) return ChartText::tr("No results for %1: the run failed").arg(name);
    if (run.config.allocator == AllocatorKind::System)
        return ChartText::tr("No segments for %1: it ran with the system allocator (malloc)")
            .arg(name);
    if ((run.allocator && run.allocator->source == AllocatorSource::Cuda) ||
        run.config.device != "cpu")
        return ChartText::tr("No segments for %1: CUDA's allocator does not list them").arg(name);
    return ChartText::tr("No segments for %1: its file is older than the allocator's trace")
        .arg(name);
}

QString titleOf(const RunResult& run) {
    const QString name = QString::fromStdString(run.name());
    const QString title = chartTitle(ChartKind::Segments);
    if (isProjectorLook() || !run.allocator) return ChartText::tr("%1: %2").arg(title, name);
    return ChartText::tr("%1: %2 (reserved peak %3, allocated peak %4)")
        .arg(title, name, formatMiB(double(run.allocator->reserved_peak) / kMiB),
             formatMiB(double(run.allocator->allocated_peak) / kMiB));
}

// A legend entry: an area series without points in the layer's colour.
void addLegendEntry(QChart* chart, QValueAxis* x, QValueAxis* y, const QString& label,
                    const QColor& fill, const QColor& rim) {
    auto* area = new QAreaSeries(new QLineSeries);
    area->setName(label);
    area->setBrush(fill);
    area->setPen(QPen(rim, 1));
    attachArea(chart, area, x, y);
}

}  // namespace

QChart* buildSegmentsChart(const ResultSet&, const RunResult& run) {
    if (!run.allocator_trace) return makeEmptyChart(whyNoSegments(run));
    const AllocatorTrace& trace = *run.allocator_trace;
    if (trace.segments.empty())
        return makeEmptyChart(ChartText::tr("No segments for %1: its traced step reserved none")
                                  .arg(QString::fromStdString(run.name())));

    double reserved = 0;
    for (const SegmentRecord& s : trace.segments) reserved += double(s.size);
    const bool gib = reserved >= 4 * kGiB;
    SegmentLayout layout = layoutSegments(trace, stepEndMs(run), gib ? kGiB : kMiB);

    auto* chart = new QChart;
    styleChart(chart, titleOf(run));
    const bool big = isProjectorLook();
    auto* x = makeValueAxis(big ? ChartText::tr("Time (ms)")
                                : ChartText::tr("Time since the step began (ms)"));
    auto* y = makeValueAxis(
        big ? (gib ? ChartText::tr("Reserved (GiB)") : ChartText::tr("Reserved (MiB)"))
            : (gib ? ChartText::tr("Reserved segments, stacked in the order reserved (GiB)")
                   : ChartText::tr("Reserved segments, stacked in the order reserved (MiB)")));
    chart->addAxis(x, Qt::AlignBottom);
    chart->addAxis(y, Qt::AlignLeft);

    std::array<bool, kSegmentLayerCount> used{};
    for (const BlockRect& block : layout.blocks) used[std::size_t(block.layer)] = true;
    for (std::size_t layer = 0; layer < kSegmentLayerCount; ++layer)
        if (used[layer])
            addLegendEntry(chart, x, y, layerLabel(SegmentLayer(layer)),
                           layerColor(SegmentLayer(layer)), layerColor(SegmentLayer(layer)));
    addLegendEntry(chart, x, y, ChartText::tr("reserved, free (fragmentation)"), freeSpaceColor(),
                   segmentRimColor());
    placeLegend(chart);

    // After the series: attaching one would reset the ranges.
    setNiceRange(x, 0, layout.stepEndMs, 0.01, true, big ? 7 : 12, false);
    setNiceRange(y, 0, layout.top, 0.02, true, big ? 5 : 8, false);
    new ChartInteraction(chart);  // carries the map's hover texts to the view
    new SegmentMapItem(chart, x, y, std::move(layout));
    return chart;
}

}  // namespace ckptlab::ui
