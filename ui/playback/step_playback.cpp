#include "playback/step_playback.h"

#include <QStringList>
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "charts/chart_builders.h"
#include "ckptlab/planning/plan_of_strategy.h"
#include "ckptlab/planning/planner.h"

namespace ckptlab::ui {

namespace {

// Phase spans without Idle, repeated ones merged, a backward's entry folded into the recompute
// it starts, and nothing of zero length.
std::vector<PlaybackEvent> eventsOf(const std::vector<PhaseSpan>& spans, double stop) {
    std::vector<PlaybackEvent> events;
    for (const PhaseSpan& s : spans) {
        if (s.phase == Phase::Idle || !(s.begin_ms < stop)) continue;
        const double end = std::min(s.end_ms, stop);
        if (!events.empty() && events.back().phase == s.phase && events.back().block == s.block &&
            s.phase != Phase::Recompute) {
            events.back().end_ms = std::max(events.back().end_ms, end);
            continue;
        }
        // A backward that enters a checkpoint first recomputes: its short entry span belongs
        // to the recompute it starts.
        if (s.phase == Phase::Recompute && !events.empty() &&
            events.back().phase == Phase::Backward &&
            events.back().end_ms - events.back().begin_ms <= end - s.begin_ms) {
            events.back() = PlaybackEvent{s.phase, s.block, events.back().begin_ms, end, -1};
            continue;
        }
        events.push_back(PlaybackEvent{s.phase, s.block, s.begin_ms, end, -1});
    }
    events.erase(std::remove_if(events.begin(), events.end(),
                                [](const PlaybackEvent& e) { return !(e.end_ms > e.begin_ms); }),
                 events.end());
    return events;
}

bool isChainEndEvent(const PlaybackEvent& e) {
    return e.block == kEmbeddingBlock || e.block == kHeadBlock;
}

}  // namespace

QString blockRangeText(const std::vector<int>& blocks) {
    const std::set<int> sorted(blocks.begin(), blocks.end());
    if (sorted.empty()) return {};
    if (sorted.size() == 1) return QString::number(*sorted.begin());
    const int lo = *sorted.begin(), hi = *sorted.rbegin();
    if (hi - lo + 1 == int(sorted.size()))
        return QStringLiteral("%1\u2013%2").arg(lo).arg(hi);  // en dash
    QStringList parts;
    for (int b : sorted) parts << QString::number(b);
    return parts.join(QStringLiteral(", "));
}

StepPlayback::StepPlayback(const RunResult& run) : m_strategy(QString::fromStdString(run.name())) {
    double stop = std::numeric_limits<double>::infinity();
    if (run.out_of_memory && std::isfinite(run.out_of_memory->t_ms)) {
        stop = run.out_of_memory->t_ms;
        m_outOfMemory = true;
    }
    m_events = eventsOf(run.phases, stop);
    for (const TimelineEvent& e : run.timeline) {
        if (e.t_ms > stop) break;
        m_times.push_back(e.t_ms);
        m_totals.push_back(e.total);
    }
    m_duration = m_events.empty() ? 0 : m_events.back().end_ms;
    if (!m_times.empty()) m_duration = std::max(m_duration, m_times.back());
    if (m_outOfMemory) m_duration = std::min(m_duration, stop);

    // Recompute groups: recompute events back to back, and the backward right after them.
    for (std::size_t i = 0; i < m_events.size(); ++i) {
        if (m_events[i].phase != Phase::Recompute) continue;
        if (i == 0 || m_events[i - 1].phase != Phase::Recompute) {
            m_groups.push_back(RecomputeGroup{-1, {}, m_events[i].begin_ms});
        }
        m_groups.back().blocks.push_back(m_events[i].block);
        m_events[i].group = int(m_groups.size()) - 1;
        const bool last = i + 1 == m_events.size() || m_events[i + 1].phase != Phase::Recompute;
        if (last && i + 1 < m_events.size() && m_events[i + 1].phase == Phase::Backward) {
            m_groups.back().backward_block = m_events[i + 1].block;
            m_events[i + 1].group = m_events[i].group;
        }
    }

    // What the schedule stores and frees in the forward pass.
    m_unitsPerBlock = unitsPerBlockOf(run.config.block);
    m_units = run.config.depth * m_unitsPerBlock;
    m_ends = hasChainEnds(run.config);
    m_headRow = lifetimeBlockRows(run);
    try {
        for (const CheckpointSpan& s : checkpointSpans(recordedPlan(run)))
            m_checkpoints.emplace_back(s.begin, s.end);
    } catch (const std::exception&) {
        // A file without a schedule for a planned strategy: the forward text says less.
    }
}

int StepPlayback::eventAt(double t) const {
    auto it = std::upper_bound(m_events.begin(), m_events.end(), t,
                               [](double v, const PlaybackEvent& e) { return v < e.begin_ms; });
    if (it == m_events.begin()) return -1;
    --it;
    const bool last = it + 1 == m_events.end();
    if (t < it->end_ms || (last && t <= it->end_ms)) return int(it - m_events.begin());
    return -1;
}

std::int64_t StepPlayback::memoryAt(double t) const {
    auto it = std::upper_bound(m_times.begin(), m_times.end(), t);
    if (it == m_times.begin()) return 0;
    return m_totals[std::size_t(it - m_times.begin()) - 1];
}

double StepPlayback::nextEventStart(double t) const {
    for (const PlaybackEvent& e : m_events)
        if (e.begin_ms > t) return e.begin_ms;
    return m_duration;
}

double StepPlayback::previousEventStart(double t) const {
    double found = 0;
    for (const PlaybackEvent& e : m_events) {
        if (e.begin_ms >= t) break;
        found = e.begin_ms;
    }
    return found;
}

std::optional<int> StepPlayback::lifetimeRow(int block) const {
    if (block >= 0) return block;
    if (block == kEmbeddingBlock) return -1;
    if (block == kHeadBlock) return m_headRow;
    return std::nullopt;
}

bool StepPlayback::inputStored(int block) const {
    const int first = block * m_unitsPerBlock, last = first + m_unitsPerBlock;
    for (const auto& [begin, end] : m_checkpoints)
        if (begin >= first && begin < last) return true;
    return false;
}

int StepPlayback::freedUnits(int block) const {
    int freed = 0;
    for (int u = block * m_unitsPerBlock; u < (block + 1) * m_unitsPerBlock; ++u)
        for (const auto& [begin, end] : m_checkpoints)
            if (begin <= u && u < end) {
                ++freed;
                break;
            }
    return freed;
}

// The block whose stored input the checkpoint holding `block` starts from (outermost).
int StepPlayback::checkpointStartFor(int block) const {
    const int unit = block * m_unitsPerBlock;
    int start = -1;
    for (const auto& [begin, end] : m_checkpoints)
        if (begin <= unit && unit < end && (start < 0 || begin < start)) start = begin;
    return start < 0 ? -1 : start / m_unitsPerBlock;
}

QString StepPlayback::forwardText(int block) const {
    const int freed = freedUnits(block);
    if (freed == 0)
        return tr("forward of block %1: its activations are kept for the backward pass").arg(block);
    if (freed < m_unitsPerBlock)
        return tr("forward of block %1: the checkpointed part of the block frees its "
                  "activations, the rest are kept for the backward pass")
            .arg(block);
    if (inputStored(block))
        return tr("forward of block %1: its input is stored as a checkpoint; its activations "
                  "are freed and will be recomputed in the backward pass")
            .arg(block);
    return tr("forward of block %1: inside the checkpoint that starts at block %2, its "
              "activations are freed and will be recomputed in the backward pass")
        .arg(block)
        .arg(std::max(0, checkpointStartFor(block)));
}

// The embedding's and the LM head's events: they run once in forward and are never
// checkpointed, but loss chunks recompute the head's logits chunk by chunk in its backward.
QString StepPlayback::chainEndText(const PlaybackEvent& event) const {
    const bool head = event.block == kHeadBlock;
    switch (event.phase) {
    case Phase::Forward:
        return head ? tr("forward of the LM head: the final norm and the LM head turn the last "
                         "block's output into logits over the vocabulary, and the loss is "
                         "their cross-entropy against the next tokens")
                    : tr("forward of the embedding: each token id picks its row of the "
                         "embedding table, the first block's input");
    case Phase::Loss:
        return tr(
            "loss: cross-entropy of the logits against the next tokens; the backward "
            "pass starts next");
    case Phase::Recompute:
        return head ? tr("backward of the LM head: recomputing a chunk's logits from the last "
                         "block's output")
                    : QString();
    case Phase::Backward:
        if (head)
            return event.group >= 0
                       ? tr("backward of the LM head: gradients through the logits just "
                            "recomputed, into the last block's output and the head's weight")
                       : tr("backward of the LM head: gradients of the logits into the last "
                            "block's output and the head's weight");
        return tr(
            "backward of the embedding: each token's gradient is added to its row of the "
            "embedding table's gradient");
    case Phase::Optimizer:
    case Phase::Idle: break;
    }
    return {};
}

QString StepPlayback::groupText(const RecomputeGroup& group) const {
    const int source = group.blocks.empty() ? -1 : group.blocks.front();
    const std::set<int> distinct(group.blocks.begin(), group.blocks.end());
    if (group.backward_block < 0)
        return tr("recomputing blocks %1 from the stored input of block %2")
            .arg(blockRangeText(group.blocks))
            .arg(source);
    if (distinct.size() == 1 && source == group.backward_block)
        return tr("backward of block %1: recomputing block %1 from its stored input")
            .arg(group.backward_block);
    return tr("backward of block %1: recomputing blocks %2 from the stored input of block %3")
        .arg(group.backward_block)
        .arg(blockRangeText(group.blocks))
        .arg(source);
}

QString StepPlayback::backwardText(const PlaybackEvent& event) const {
    if (event.group >= 0) {
        const RecomputeGroup& group = m_groups[std::size_t(event.group)];
        return tr("backward of block %1: gradients through the activations just recomputed "
                  "(blocks %2)")
            .arg(event.block)
            .arg(blockRangeText(group.blocks));
    }
    // Recomputed earlier, for the backward of a later block, and kept since.
    for (auto it = m_groups.rbegin(); it != m_groups.rend(); ++it) {
        if (it->begin_ms > event.begin_ms) continue;
        if (std::find(it->blocks.begin(), it->blocks.end(), event.block) != it->blocks.end())
            return tr("backward of block %1: its activations were recomputed during the "
                      "backward of block %2 and kept until now")
                .arg(event.block)
                .arg(it->backward_block);
    }
    return tr("backward of block %1: its activations were kept since the forward pass")
        .arg(event.block);
}

QString StepPlayback::narrationOf(int index) const {
    if (index < 0 || index >= int(m_events.size())) return {};
    const PlaybackEvent& e = m_events[std::size_t(index)];
    if (isChainEndEvent(e) || (m_ends && e.phase == Phase::Loss)) return chainEndText(e);
    switch (e.phase) {
    case Phase::Forward: return forwardText(e.block);
    case Phase::Loss:
        return tr(
            "loss: the output of the last block is summed into the loss; the "
            "backward pass starts next");
    case Phase::Recompute:
        return e.group >= 0 ? groupText(m_groups[std::size_t(e.group)]) : QString();
    case Phase::Backward: return backwardText(e);
    case Phase::Optimizer: return tr("optimizer: the parameters are updated with their gradients");
    case Phase::Idle: break;
    }
    return {};
}

QString StepPlayback::narration(double t) const {
    if (m_events.empty()) return {};
    if (m_outOfMemory && t >= m_duration) return tr("the step ran out of memory here");
    const int index = eventAt(t);
    if (index >= 0) return narrationOf(index);
    if (t < m_events.front().begin_ms)
        return tr("the step begins: parameters, input and optimizer state are already allocated");
    if (t >= m_events.back().end_ms) return tr("the step is over");
    return narrationOf(std::max(0, eventAt(previousEventStart(t))));
}

}  // namespace ckptlab::ui
