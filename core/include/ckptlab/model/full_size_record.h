#pragma once
// A full-size plan (planning/full_size.h) as plain values that a file keeps: what `ckptlab-cli
// plan --capacity --json` writes, and what a lesson's plan step records under its results
// file's "plan" key (ResultSet::plan). Made and written by formats/full_size_files.h.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/strategy.h"

namespace ckptlab {

// One strategy's row of the plan (StrategyAtSize without the replayed timeline).
struct FullSizePlanRow {
    Strategy strategy;
    std::int64_t allocated_bytes = 0;  // baseline + peak
    std::int64_t reserved_bytes = 0;   // the caching allocator's peak reservation
    std::int64_t peak_bytes = 0;       // above the step's start
    std::int64_t baseline_bytes = 0;
    // What the peak holds, as PeakSplit.
    std::int64_t weights = 0, weight_copies = 0, gradients = 0, optimizer_state = 0,
                 activations = 0, logits = 0, other = 0;
    bool fits = false;
    std::int64_t margin_bytes = 0;  // capacity - reserved (negative: short by)
    double step_ms = 0;             // at the asked batch and sequence
    int largest_batch = 0;          // at the asked sequence; 0: not even batch 1
    int longest_seq = 0;            // at the asked batch; 0: not even the shortest
    double step_ms_at_largest_batch = 0;
    double tokens_per_s = 0;  // at the largest batch
    // Set when the strategy has no schedule at the asked size (StrategyAtSize::least_peak):
    // the least peak above the step's start, above its budget. The file then holds null for
    // every number at the asked size (the bytes, the split, the margin, step_ms), which read
    // back as 0 here; fits is false.
    std::optional<std::int64_t> least_peak_bytes;
};

// Times predicted for another machine, scaled by its measured `none` step (plan --costs-from).
struct FullSizeTimeScale {
    std::string machine;
    double ratio = 1;
    double measured_none_ms = 0;
    double predicted_none_ms = 0;
    int batch = 0, seq = 0, depth = 0;
};

struct FullSizePlanRecord {
    std::string model;  // a preset's name, a config.json's path, or the block and width
    std::int64_t parameters = 0;
    ExperimentConfig config;  // the whole config, by the registry of its fields
    std::int64_t capacity_bytes = 0;
    std::int64_t state_bytes = 0;  // weights, gradients and optimizer state
    std::string method;            // how the costs were measured and fitted, in words
    int check_shapes = 0;
    std::int64_t check_residual_bytes = 0;
    std::string times_label;  // "predicted on this machine (CPU, 4 threads)"
    std::optional<FullSizeTimeScale> scaled;
    std::vector<FullSizePlanRow> strategies;
    // The fastest schedule that fits (the optimal planner at the capacity) and its schedule in
    // words (describeSchedule).
    std::optional<FullSizePlanRow> fastest;
    std::string fastest_schedule;
    std::string would_fit;  // the smallest capacity preset that would hold it; empty: none
    const FullSizePlanRow* row(const Strategy& strategy) const;  // nullptr when not planned
};

}  // namespace ckptlab
