#pragma once
// StepPlayback: one traced training step as a sequence of events to play back, with the memory
// and a narration at any moment. Built once from a RunResult (it copies what it needs), then
// read-only; no widgets, so tests drive it directly.
//
//   StepPlayback step(run);
//   for (const PlaybackEvent& e : step.events()) ...        // forward 0, ..., loss, backward 7
//   step.memoryAt(12.5);                                      // bytes above the step's start
//   step.narration(12.5);  // "backward of block 7: recomputing blocks 4–7 from the stored ..."
//
// Events come from the run's phase spans, in time order: Idle spans are left out, repeated
// spans of one phase and block are merged, and the short backward entry that starts a
// recompute (autograd reaching a checkpoint) joins the first recompute it triggers. The blocks
// a backward recomputes are read from the Recompute spans that precede it, so playback shows
// what really ran, not what the strategy's name promises.

#include <QCoreApplication>
#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

#include "ckptlab/model/result.h"

namespace ckptlab::ui {

struct PlaybackEvent {
    Phase phase = Phase::Idle;
    // -1 for the loss and the optimizer; kEmbeddingBlock and kHeadBlock for the chain's ends
    int block = -1;
    double begin_ms = 0;
    double end_ms = 0;
    int group = -1;  // index into StepPlayback::groups() for recomputes and the backward they serve
};

// Recompute spans run back to back before one backward.
struct RecomputeGroup {
    int backward_block = -1;  // the backward they serve; -1 when none follows
    std::vector<int> blocks;  // in the order they ran
    double begin_ms = 0;
};

class StepPlayback {
    Q_DECLARE_TR_FUNCTIONS(StepPlayback)

public:
    StepPlayback() = default;
    explicit StepPlayback(const RunResult& run);

    bool isEmpty() const { return m_events.empty(); }
    const QString& strategy() const { return m_strategy; }
    // Milliseconds from the step's start to its last event (to where it stopped for a run that
    // ran out of memory).
    double duration() const { return m_duration; }
    const std::vector<PlaybackEvent>& events() const { return m_events; }
    const std::vector<RecomputeGroup>& groups() const { return m_groups; }

    // The event running at t (the last to begin at or before t while it lasts); -1 before the
    // first, in a gap, or after the last.
    int eventAt(double t) const;
    // Bytes allocated above the step's start at t: the timeline's total after its last event
    // at or before t (0 before the first).
    std::int64_t memoryAt(double t) const;
    // Where stepping by event lands: the start of the first event beginning after t (else
    // duration()), and the start of the last event beginning before t (else 0).
    double nextEventStart(double t) const;
    double previousEventStart(double t) const;

    QString narration(double t) const;
    QString narrationOf(int event) const;

    // What the schedule did in the forward pass, per block: its input kept as a checkpoint,
    // and how many of its units' activations a checkpoint frees (0 = all kept).
    bool inputStored(int block) const;
    int freedUnits(int block) const;
    int unitsPerBlock() const { return m_unitsPerBlock; }
    // The chain's units (depth x unitsPerBlock): the schedule's LM head cell comes after them.
    int units() const { return m_units; }
    // The lifetimes chart's row of a block label (lifetimeRow); nullopt for none.
    std::optional<int> lifetimeRow(int block) const;

private:
    QString forwardText(int block) const;
    QString chainEndText(const PlaybackEvent& event) const;
    QString backwardText(const PlaybackEvent& event) const;
    QString groupText(const RecomputeGroup& group) const;
    int checkpointStartFor(int block) const;

    QString m_strategy;
    double m_duration = 0;
    std::vector<PlaybackEvent> m_events;
    std::vector<RecomputeGroup> m_groups;
    std::vector<double> m_times;                     // the timeline's event times
    std::vector<std::int64_t> m_totals;              // and its totals after each
    std::vector<std::pair<int, int>> m_checkpoints;  // stored-input spans [begin, end) in units
    int m_unitsPerBlock = 1;
    int m_units = 0;
    int m_headRow = 0;    // the lifetimes chart's row of the LM head
    bool m_ends = false;  // the chain has an embedding and an LM head
    bool m_outOfMemory = false;
};

// "4–7", "7", or "0, 2, 5": the blocks of a group, sorted, as one argument for a sentence.
QString blockRangeText(const std::vector<int>& blocks);

}  // namespace ckptlab::ui
