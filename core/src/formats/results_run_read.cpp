// Reading one run of a results file: what results_json_read.cpp's header says the reader
// refuses, for the values of a run.
#include "formats/results_run_read.h"

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/planner.h"
#include "formats/allocator_json.h"
#include "formats/config_json.h"
#include "formats/shard_json.h"
#include "formats/timing_json.h"

namespace ckptlab::detail {
namespace {

Metrics readMetrics(const Json& j, const Path& at) {
    const Fields f(j, at);
    Metrics m;
    m.peak_bytes = f.bytes("peak_bytes");
    m.activation_bytes = f.bytes("activation_bytes");
    m.baseline_bytes = f.bytes("baseline_bytes");
    m.step_ms = f.duration("step_ms");
    m.forward_ms = f.duration("forward_ms");
    m.backward_ms = f.duration("backward_ms");
    m.recompute_ms = f.duration("recompute_ms");
    m.optimizer_ms = f.duration("optimizer_ms");
    m.recomputed_blocks = f.integer("recomputed_blocks", 0, kIntMax);
    const Path samplesAt = at.member("step_samples_ms");
    const Json& samples = arrayAt(f.get("step_samples_ms"), samplesAt);
    for (std::size_t i = 0; i < samples.size(); ++i) {
        m.step_samples_ms.push_back(readDuration(samples[i], samplesAt.item(i)));
    }
    // Added with flops.h and the caching allocator: optional, finite and not negative.
    for (auto [key, field] :
         {std::pair{"step_gflop", &m.step_gflop}, std::pair{"gflop_per_s", &m.gflop_per_s},
          std::pair{"minor_faults_per_step", &m.minor_faults_per_step}}) {
        if (!f.find(key)) continue;
        const double value = f.number(key);
        if (!(value >= 0) || !std::isfinite(value))
            fail(at.member(key), "expected a finite number of 0 or more, got " + numberText(value));
        *field = value;
    }
    readStepSpread(f, m);  // the step-time keys (timing_json.cpp)
    return m;
}

GradCheck readGradCheck(const Json& j, const Path& at) {
    const Fields f(j, at);
    GradCheck g;
    g.checked = f.boolean("checked");
    // NaN or +Inf when gradients went non-finite: the check then fails.
    auto nonNegative = [&](const char* key) {
        const double value = f.number(key);
        if (value < 0)
            fail(at.member(key),
                 "expected 0 or more (or \"nan\", \"inf\"), got " + numberText(value));
        return value;
    };
    g.max_abs_diff = nonNegative("max_abs_diff");
    g.tolerance = nonNegative("tolerance");
    f.boolean("passed");  // must be well-formed, but passed() is recomputed from the numbers
    if (f.find("note")) g.note = f.text("note");
    if (f.find("bitwise_equal")) g.bitwise_equal = f.boolean("bitwise_equal");
    return g;
}

Breakdown readBreakdown(const Json& j, const Path& at) {
    const Fields f(j, at);
    Breakdown b;
    b.parameters = f.bytes("parameters");
    b.input = f.bytes("input");
    b.optimizer_state = f.bytes("optimizer_state");
    b.gradients = f.bytes("gradients");
    b.activations = f.bytes("activations");
    b.other = f.bytes("other");
    if (f.find("weight_copies")) b.weight_copies = f.bytes("weight_copies");
    if (f.find("logits")) b.logits = f.bytes("logits");
    return b;
}

// Which block indices a run's model has: its blocks 0..depth-1, and the chain's two ends
// (kEmbeddingBlock, kHeadBlock) only when its config has them (ExperimentConfig::vocab).
struct BlockIndices {
    int depth = 0;
    bool ends = false;
};

// A block index of the run's model; -1 (no block: loss, optimizer) only where `none` allows it.
int readBlockIndex(const Json& j, const Path& at, const BlockIndices& blocks, bool none) {
    const int lowest = blocks.ends ? kHeadBlock : none ? -1 : 0;
    const int block = readInt(j, at, lowest, blocks.depth - 1);
    if (block == -1 && !none) {
        fail(at, "expected a block from 0 to " + std::to_string(blocks.depth - 1) +
                     ", the embedding (" + std::to_string(kEmbeddingBlock) + ") or the LM head (" +
                     std::to_string(kHeadBlock) + "), got -1");
    }
    return block;
}

std::vector<BlockLifetime> readBlocks(const Json& j, const Path& at, const BlockIndices& indices) {
    const Json& list = arrayAt(j, at);
    std::vector<BlockLifetime> blocks;
    blocks.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Path itemAt = at.item(i);
        const Fields f(list[i], itemAt);
        BlockLifetime b;
        b.block = readBlockIndex(f.get("block"), itemAt.member("block"), indices, false);
        b.phase = f.phase("phase");
        if (b.phase != Phase::Forward && b.phase != Phase::Recompute) {
            fail(itemAt.member("phase"),
                 "expected forward or recompute, got \"" + toString(b.phase) + "\"");
        }
        b.saved_ms = f.time("saved_ms");
        b.freed_ms = f.time("freed_ms");
        b.bytes = f.bytes("bytes");
        blocks.push_back(b);
    }
    return blocks;
}

std::vector<PhaseSpan> readPhases(const Json& j, const Path& at, const BlockIndices& blocks) {
    const Json& list = arrayAt(j, at);
    std::vector<PhaseSpan> spans;
    spans.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
        const Path itemAt = at.item(i);
        const Fields f(list[i], itemAt);
        PhaseSpan s;
        s.phase = f.phase("phase");
        s.block = readBlockIndex(f.get("block"), itemAt.member("block"), blocks, true);
        s.begin_ms = f.time("begin_ms");
        s.end_ms = f.time("end_ms");
        spans.push_back(s);
    }
    return spans;
}

std::vector<TimelineEvent> readTimeline(const Json& j, const Path& at, const BlockIndices& blocks) {
    const Fields f(j, at);
    const Path codesAt = at.member("phase_codes");
    const Json& codes = arrayAt(f.get("phase_codes"), codesAt);
    std::vector<Phase> legend;
    for (std::size_t i = 0; i < codes.size(); ++i) {
        legend.push_back(readPhase(codes[i], codesAt.item(i)));
    }
    if (legend.size() > 1000) fail(codesAt, "has more than 1000 entries");

    const Path tAt = at.member("t_ms"), deltaAt = at.member("delta"), totalAt = at.member("total"),
               phaseAt = at.member("phase"), blockAt = at.member("block");
    const Json& t = arrayAt(f.get("t_ms"), tAt);
    const Json& delta = arrayAt(f.get("delta"), deltaAt);
    const Json& total = arrayAt(f.get("total"), totalAt);
    const Json& phase = arrayAt(f.get("phase"), phaseAt);
    const Json& block = arrayAt(f.get("block"), blockAt);
    const std::size_t n = t.size();
    const std::pair<const Json*, const Path*> others[] = {
        {&delta, &deltaAt}, {&total, &totalAt}, {&phase, &phaseAt}, {&block, &blockAt}};
    for (const auto& [column, columnAt] : others) {
        if (column->size() != n) {
            fail(*columnAt, "has " + std::to_string(column->size()) + " values but t_ms has " +
                                std::to_string(n));
        }
    }
    if (n > 0 && legend.empty()) fail(codesAt, "is empty but the timeline has events");

    std::vector<TimelineEvent> events(n);
    for (std::size_t i = 0; i < n; ++i) {
        TimelineEvent& e = events[i];
        e.t_ms = readTime(t[i], tAt.item(i));
        e.delta = readInt64(delta[i], deltaAt.item(i), -kMaxBytes, kMaxBytes);
        e.total = readInt64(total[i], totalAt.item(i), -kMaxBytes, kMaxBytes);
        e.phase = legend[static_cast<std::size_t>(
            readInt(phase[i], phaseAt.item(i), 0, static_cast<int>(legend.size()) - 1))];
        e.block = readBlockIndex(block[i], blockAt.item(i), blocks, true);
    }
    return events;
}

std::optional<OutOfMemory> readOutOfMemory(const Json& j, const Path& at,
                                           const BlockIndices& blocks) {
    const Fields f(j, at);
    OutOfMemory o;
    o.requested_bytes = f.bytes("requested_bytes");
    o.allocated_bytes = f.bytes("allocated_bytes");
    o.limit_bytes = f.bytes("limit_bytes");
    o.phase = f.phase("phase");
    o.block = readBlockIndex(f.get("block"), at.member("block"), blocks, true);
    o.t_ms = f.time("t_ms");
    return o;
}

// The schedule is parsed and drawn, so it must describe this run's model: at most as deep as
// it has units (a deeper nesting would only repeat a checkpoint inside itself) and covering
// exactly its units. Checked before parsing, since the parser recurses per level.
void checkSchedule(const std::string& schedule, const ExperimentConfig& c, const Path& at) {
    const int units = c.depth * unitsPerBlockOf(c.block);
    int level = 0;
    for (const char ch : schedule) {
        if (ch == '{' && ++level > units) {
            fail(at, "checkpoints nested more than " + std::to_string(units) +
                         " deep, deeper than the model has units");
        }
        if (ch == '}') --level;
    }
    Plan plan;
    try {
        plan = parseSchedule(schedule);
    } catch (const std::exception& e) {
        fail(at, clip(e.what(), 200));
    }
    const int end = plan.segments.empty() ? 0 : plan.segments.back().end;
    if (end != units) {
        fail(at, "covers units 0.." + std::to_string(end - 1) + " but the model has " +
                     std::to_string(units) + " units");
    }
}

// The run's strategy, parsed once for its own model: a text that is not one refuses the file,
// naming the field and the syntax (a results file is written from parsed strategies, so such
// a text is damage or a hand edit; every reader of a run needs the parsed value). Its
// printable check and length come first, for a clearer message than the parser's.
Strategy readStrategy(const Fields& f, const Path& at, const ExperimentConfig& config) {
    std::string strategy = f.string("strategy");
    if (strategy.empty()) fail(at.member("strategy"), "expected a strategy name, got \"\"");
    for (std::size_t i = 0; i < strategy.size(); ++i) {
        if (unprintableAt(strategy, i, false)) {
            char code[16];
            const auto c = static_cast<unsigned char>(strategy[i]);
            const unsigned point = c < 0x20                                              ? c
                                   : static_cast<unsigned char>(strategy[i + 2]) == 0xbe ? 0xfffe
                                                                                         : 0xffff;
            std::snprintf(code, sizeof code, "U+%04X", point);
            fail(at.member("strategy"), "the strategy name \"" + clip(strategy, 40) + "\" holds " +
                                            code + ", which is not printable text");
        }
    }
    if (strategy.size() > kMaxStrategyBytes) {
        fail(at.member("strategy"), "expected a strategy name of at most " +
                                        std::to_string(kMaxStrategyBytes) + " bytes, got " +
                                        std::to_string(strategy.size()));
    }
    try {
        return parseStrategy(strategy, config.depth, config.block);
    } catch (const StrategyError& e) {
        // The parser's message names the syntax: the known kinds, or the kind's range here.
        fail(at.member("strategy"), "expected a strategy of this run's model, got \"" +
                                        clip(strategy, 40) + "\": " + clip(e.what(), 400));
    }
}

PredictedMetrics readPrediction(const Json& j, const Path& at) {
    const Fields pf(j, at);
    PredictedMetrics prediction{pf.bytes("peak_bytes"), pf.bytes("activation_bytes"),
                                pf.duration("step_ms"), std::nullopt, std::nullopt};
    if (pf.find("optimal_step_ms")) prediction.optimal_step_ms = pf.duration("optimal_step_ms");
    if (pf.find("reserved_peak_bytes"))
        prediction.reserved_peak_bytes = pf.bytes("reserved_peak_bytes");
    return prediction;
}

// One count per unit of the model (or none).
std::vector<int> readForwardCounts(const Json& j, const Path& countsAt,
                                   const ExperimentConfig& config) {
    const Json& list = arrayAt(j, countsAt);
    const std::size_t units =
        static_cast<std::size_t>(config.depth) * unitsPerBlockOf(config.block);
    if (!list.empty() && list.size() != units) {
        fail(countsAt, "has " + std::to_string(list.size()) + " values but the model has " +
                           std::to_string(units) + " units");
    }
    std::vector<int> counts;
    counts.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i)
        counts.push_back(readInt(list[i], countsAt.item(i), 0, 1 << 20));
    return counts;
}

}  // namespace

RunResult readRun(const Json& j, const Path& at) {
    const Fields f(j, at);
    RunResult run;
    run.config = configFromJson(f.get("config"), at.member("config"));
    run.strategy = readStrategy(f, at, run.config);
    run.metrics = readMetrics(f.get("metrics"), at.member("metrics"));
    run.grad_check = readGradCheck(f.get("grad_check"), at.member("grad_check"));
    run.breakdown = readBreakdown(f.get("breakdown"), at.member("breakdown"));
    // Blocks of the chain, and its ends' labels only when the run's model has them.
    const BlockIndices indices{run.config.depth, hasChainEnds(run.config)};
    run.blocks = readBlocks(f.get("blocks"), at.member("blocks"), indices);
    run.timeline = readTimeline(f.get("timeline"), at.member("timeline"), indices);
    run.phases = readPhases(f.get("phases"), at.member("phases"), indices);
    if (const Json* p = f.find("prediction"))
        run.prediction = readPrediction(*p, at.member("prediction"));
    if (f.find("schedule")) {
        run.schedule = f.string("schedule");
        if (!run.schedule.empty()) checkSchedule(run.schedule, run.config, at.member("schedule"));
    }
    if (const Json* counts = f.find("forward_counts"))
        run.forward_counts = readForwardCounts(*counts, at.member("forward_counts"), run.config);
    const Json& error = f.get("error");
    if (!error.is_null()) {
        if (!error.is_string()) {
            fail(at.member("error"), "expected null or a string, got " + describe(error));
        }
        run.error = readText(error, at.member("error"));
    }
    if (const Json* oom = f.find("out_of_memory")) {
        run.out_of_memory = readOutOfMemory(*oom, at.member("out_of_memory"), indices);
    }
    readAllocator(f, at, run);  // "allocator" (or "cuda_allocator"), "allocator_trace"
    readRunShard(f, run);       // a shard's place, a merged file's machine (shard_json.cpp)
    return run;
}

}  // namespace ckptlab::detail
