#pragma once
// The schedule diagram: one row per run, one cell per unit of the chain (a block, or a
// sub-block of a transformer), coloured by how often its forward runs in one step, and the
// chain's ends (embedding, LM head) as fixed cells at both ends; a marker
// where a checkpoint stores its input, and brackets under the cells for each recomputed
// segment, nested ones lower. Painted with QPainter so the window, PNG and SVG share it.

#include <QFont>
#include <QPainter>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <vector>

#include "ckptlab/model/result.h"
#include "ckptlab/model/strategy.h"

namespace ckptlab::ui {

struct CheckpointSpanView {
    int begin = 0;
    int end = 0;
    int level = 0;  // 0 = outermost
    // Whether its units ran again in backward (a bracket under them). False where the run's
    // counts say its recompute ran other units (seed-bug:K's recomputes run the last segment).
    bool recomputed = true;
};

struct ScheduleRow {
    QString strategy;
    QString note;  // why there is no schedule (failed run), else empty
    int units = 0;
    int unitsPerBlock = 1;
    // The chain's ends (ExperimentConfig::vocab): the embedding before unit 0 and the LM head
    // after the last, drawn as a block's width each, run once and never checkpointed.
    bool ends = false;
    std::vector<int> forwardCounts;
    // The counts are the plan's, not the run's: a prediction, or a file from before runs
    // recorded their forward counts. The summary says "planned".
    bool planned = false;
    std::vector<CheckpointSpanView> spans;
    // Checkpoints over the whole step: each keeps its input until its backward (Revolve's
    // slots bound how many are held at once, not this count).
    int storedInputs = 0;
    int extraForwards = 0;  // unit forwards beyond one per unit
};

// The schedule each run executed: how often each unit ran forward as the run counted it
// (RunResult::forward_counts), the stored inputs from its recorded schedule text (every run
// made since the planner exists), else rebuilt from the strategy name (files from before; not
// Optimal). Without counts (a prediction, an older file) the plan's counts, marked `planned`.
// A checkpoint whose units did not run again is drawn without its bracket. In schedule_rows.cpp.
std::vector<ScheduleRow> scheduleRows(const ResultSet& results);

class ScheduleDiagram {
public:
    explicit ScheduleDiagram(std::vector<ScheduleRow> rows, QStringList colourOrder = {});

    // Blank: the rows' stored inputs on empty cells, no counts, brackets or summaries (a
    // students' handout, where the class writes in how often each block runs).
    void setBlank(bool blank) { m_blank = blank; }

    // Height the diagram needs at `width` to show every row and the legend.
    qreal heightFor(qreal width) const;
    // `selected`: the row drawn highlighted (-1 none); `text`: the ink for words (the
    // palette's in the window, black on the white of files).
    void paint(QPainter& painter, const QRectF& area, int selected, const QColor& text) const;
    // Where paint() draws the cells [unitBegin, unitEnd) of `row` in `area`; empty when the row
    // has no such cells (playback outlines the block running). A row with ends has the
    // embedding at units [-unitsPerBlock, 0) and the LM head at [units, units + unitsPerBlock).
    QRectF cellsRect(const QRectF& area, int row, int unitBegin, int unitEnd) const;
    // The row under a point of `area`, or -1.
    int rowAt(const QRectF& area, const QPointF& point) const;
    const std::vector<ScheduleRow>& rows() const { return m_rows; }

private:
    // Sizes in the diagram's font (chart_style's legendFont when built: projector mode's is
    // larger), so labels, notes and the legend fit whatever the font.
    struct Geometry {
        qreal scale = 1;  // of the fixed sizes (markers, brackets, gaps), from the text height
        qreal labelWidth = 0;
        qreal noteWidth = 0;
        qreal cellHeight = 0;
        qreal markerHeight = 0;
        qreal bracketStep = 0;
        qreal rowGap = 0;
        qreal headerHeight = 0;
        qreal legendLine = 0;       // height of one legend line; the legend wraps
        bool twoLineNotes = false;  // "5 checkpoints" over "20 recomputed": one line too long
        qreal lineHeight = 0;
    };
    Geometry geometry(qreal width) const;
    struct Frame;  // paint()'s layout of the cells, shared by the parts below
    Frame frame(const QRectF& area, const QColor& text) const;
    void paintHeader(QPainter& painter, const Frame& f, qreal y) const;
    void paintRow(QPainter& painter, const Frame& f, const ScheduleRow& row, qreal y) const;
    void paintCells(QPainter& painter, const Frame& f, const ScheduleRow& row, qreal top) const;
    void paintEnds(QPainter& painter, const Frame& f, const ScheduleRow& row, qreal top) const;
    void paintCheckpoints(QPainter& painter, const Frame& f, const ScheduleRow& row, qreal y,
                          qreal cellsTop) const;
    void paintSummary(QPainter& painter, const Frame& f, const ScheduleRow& row,
                      qreal cellsTop) const;
    void paintLegend(QPainter& painter, const Frame& f, qreal y) const;
    qreal rowHeight(const ScheduleRow& row, const Geometry& g) const;
    bool hasEnds() const;  // some row has the chain's ends
    QString summary(const ScheduleRow& row) const;
    // The summary's two halves (checkpoints, recomputed), or the note alone.
    QStringList summaryLines(const ScheduleRow& row) const;
    // The legend's entries and how many lines they take at `width`.
    int legendLines(qreal width, const Geometry& g) const;

    std::vector<ScheduleRow> m_rows;
    QStringList m_colourOrder;
    QFont m_font;
    bool m_blank = false;
};

// Colour of a unit that runs `forwards` times (1 = stored, never recomputed).
QColor forwardCountColor(int forwards);
// Colour of the chain's ends (the embedding, the LM head): fixed, never checkpointed.
QColor chainEndColor();

// Files, at kExportSize width and as tall as the rows need; false with *error on failure.
// In schedule_export.cpp.
bool exportSchedulePng(const ResultSet& results, const QString& path, int scale, QString* error);
bool exportScheduleSvg(const ResultSet& results, const QString& path, const QString& description,
                       QString* error);

}  // namespace ckptlab::ui
