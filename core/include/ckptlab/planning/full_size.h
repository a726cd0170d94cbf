#pragma once
// A model at its real size without running it whole: the cost model of one layer and of the
// chain's ends measured at a few small shapes (batch, sequence, vocabulary), every byte count
// fitted exactly as a polynomial in them and every time by least squares, then the chain of
// all layers replayed at the real shape (predict.cpp). Plain C++: measureCostFit (runner.h)
// runs LibTorch to take the measurements; everything here is arithmetic on them.

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/core_message.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/cost_model.h"
#include "ckptlab/planning/planner.h"

namespace ckptlab {

// One shape a cost model was measured at. `timed`: its times were measured too (the others
// measure memory only, which is what the byte fits need and is much quicker).
struct MeasuredShape {
    int batch = 1;
    int seq = 1;
    int vocab = 0;
    bool timed = false;
    bool bytes = true;  // its bytes enter the byte fits (a shape may be there for times only)
    // A memory-efficient attention's chunk at this shape; 0: the config's. The byte shapes
    // keep the target's number of chunks (chunk = S / chunks), so that every shape runs the same
    // allocations in the same order and only their sizes change.
    int attention_chunk = 0;
};

// The terms every byte count is a sum of: 1 (a layer's weights), V (embedding and head
// weights), S (rotary tables), S² (a chunked attention's causal mask, its chunk in proportion
// to S), B (per-sequence tensors), B·S (activations), B·S² (eager scores, a chunk pair of
// scores), B·S·V (logits).
inline constexpr int kFitTerms = 8;
using FitCoefficients = std::array<double, kFitTerms>;

// Each field of a UnitCost as coefficients of the terms, so that a UnitCost at any
// (batch, seq) can be made (unitCostAt). Vectors (parameter sizes, optimizer state, allocation
// scripts) are fitted element by element when every measured shape has the same structure.
struct UnitFit {
    UnitCost shape;  // the measured cost at the first shape: flags and the vectors' structure
    // output, kept, forward peak, nograd peak, backward peak, param grads, optimizer peak,
    // weight copies
    std::array<FitCoefficients, 8> bytes{};
    // The peaks are the highest prefix sums of the fitted allocation scripts (exact at any
    // shape: a peak is the largest of several moments' sums, which no polynomial is), when the
    // scripts fit and give the measured peaks at every measured shape.
    bool peaks_from_scripts = false;
    // forward, nograd, backward, kept backward, optimizer (least squares over timed shapes)
    std::array<FitCoefficients, 5> ms{};
    std::vector<FitCoefficients> parameter_tensors, optimizer_state_tensors;
    // Allocation scripts fitted step by step; false when the shapes' scripts differ in
    // structure (chunked attention runs one loop pass per chunk, so its scripts grow with S):
    // the reserved bytes are then replayed from the aggregates, and the plan says so.
    bool scripts_fitted = false;
    std::vector<FitCoefficients> forward_script, backward_script, nograd_script, optimizer_script;
};

struct CostFit {
    ExperimentConfig config;  // the target (depth, width, batch, seq, vocab... as asked)
    std::vector<MeasuredShape> shapes;
    // One fit per family of shapes: batch 1, and batches from 2. LibTorch allocates
    // differently for one sequence (a loss chunk's slice of it is contiguous, of several it
    // is copied), so each family has its own allocations, fitted on its own shapes.
    struct Family {
        std::vector<UnitFit> layer;  // one per unit of a block (attention, MLP)
        std::optional<UnitFit> first, last;
        FitCoefficients input_bytes{};
    };
    Family one, many;
    CostModel measured;  // the first shape's cost model: unitsPerBlock, checkpoint bytes, ...
    // The largest difference, in bytes, between a fitted byte count and its measurement over
    // the shapes that were not used to solve the fit (0 when the fit is exact); the check
    // measureCostFit runs on itself.
    std::int64_t check_residual_bytes = 0;
    int check_shapes = 0;  // how many shapes that check used
    // How the numbers were obtained, in words, for the output ("measured at B=1 S=256,512,768
    // V=4096,8192 ...").
    std::string method;
};

// The cost model at (batch, seq) over `depth` layers, the fit's vocabulary.
CostModel costsAt(const CostFit& fit, int batch, int seq, int depth);

// Fits `models` (each measured at `shapes[i]`, depth 1) exactly: the solving shapes first
// (see measureCostFit), then any number of check shapes. Throws std::invalid_argument when the
// shapes do not determine the terms.
CostFit fitCosts(const ExperimentConfig& target, const std::vector<MeasuredShape>& shapes,
                 const std::vector<CostModel>& models);

// The shapes measureCostFit measures for `target`: small enough to be quick, large enough that
// every term is in its regime (a memory-efficient attention's chunk, the loss chunks), the
// solving shapes first, then one check shape.
std::vector<MeasuredShape> fitShapes(const ExperimentConfig& target);

// What measuring `target` at its small shapes (fitShapes) holds at its peak, estimated before
// anything runs: per shape, the analytic estimate (estimate.h) of one layer and the chain's
// ends without checkpoints, with the gradients, optimizer state (where measureCostFit measures
// it), Adam's step temporaries and autocast's bf16 weight copies of its largest probe (a layer,
// or an embedding table). The chain measureCostFit times a kept layer's backward on is built
// only when it fits a quarter of the free memory, so it is not counted. Measured: at or above
// the allocated peak, within twice it. 0 for a config validate() refuses.
std::int64_t fitMeasurePeakEstimate(const ExperimentConfig& target);

// The one check run before any full-size measurement (measureCostFit, the CLI, the app):
// nothing when fitMeasurePeakEstimate fits in `available` bytes (available <= 0: unknown, no
// refusal), else "one layer needs X GB to measure, Y GB are available" (FitMeasureTooLarge).
std::optional<CoreMessage> fitMeasureRefusal(const ExperimentConfig& target,
                                             std::int64_t available);

// GPU capacities with names, for --capacity and the app's picker.
struct CapacityPreset {
    const char* name;  // "80GB"
    std::int64_t bytes;
    const char* examples;  // "A100 80GB, H100 80GB"
};
const std::vector<CapacityPreset>& capacityPresets();
// A unit of bytes as SI and IEC write it: B, kB, MB, GB, TB (powers of 1000), KiB, MiB, GiB,
// TiB (powers of 1024). parseCapacity reads these and byteSizeText writes them, so a size the
// program prints reads back as the same bytes.
struct ByteUnit {
    const char* name;  // "GiB"
    double bytes;      // 1073741824
};
const std::vector<ByteUnit>& byteUnits();
// "80.00 GB", "74.51 GiB", "512.00 MB": `bytes` in `unit` (a byteUnits name) with `decimals`,
// classic-locale digits. Throws std::invalid_argument for another unit.
std::string byteSizeText(std::int64_t bytes, const std::string& unit, int decimals = 2);
// A size alone, in the largest of B, kB, MB and GB that keeps it at 1 or more, two decimals
// ("512.00 MB", "80.00 GB"; bytes whole): never 0.00 for a size that is not 0. With `binary`,
// in the power-of-1024 unit of that scale, as a companion ("74.51 GiB" beside "80.00 GB",
// "0.93 GiB" beside "1.00 GB").
std::string readableSize(std::int64_t bytes, bool binary = false);
// A size as typed: a number (digits, an optional point and digits), an optional run of spaces
// and a unit of byteUnits in its own case ("80GB", "80 GB", "79.5GiB", "93132.26 GiB",
// "512 MB"); blanks around the whole are dropped. Refused: a lowercase b (bits: "80Gb", "80gb"),
// KB (1000 or 1024), another case ("80gB"), blanks inside the number or the unit ("8 0 G B"),
// signs, exponents, fractions of a byte, 0, and more than 100000 GB unless the text rounds to it
// (a printed 93132.26 GiB is 100000 GB). Throws std::invalid_argument naming --capacity, the
// forms it takes and why.
std::int64_t parseCapacity(const std::string& text);

// What one strategy's step holds at its peak, split as the breakdown splits a measured run.
struct PeakSplit {
    std::int64_t weights = 0;        // parameters as stored (fp32 masters with mixed-bf16)
    std::int64_t weight_copies = 0;  // bf16 copies alive at the peak
    std::int64_t gradients = 0;
    std::int64_t optimizer_state = 0;
    std::int64_t activations = 0;
    std::int64_t logits = 0;
    std::int64_t other = 0;  // input, temporaries
};

// One strategy at the asked size and capacity.
struct StrategyAtSize {
    Strategy strategy;
    Prediction prediction;       // at the asked batch and sequence, with the allocator replay
    std::int64_t allocated = 0;  // baseline + peak
    std::int64_t reserved = 0;   // the caching allocator's peak reservation
    PeakSplit split;
    bool fits = false;        // reserved within the capacity
    std::int64_t margin = 0;  // capacity - reserved (negative: short by)
    int largest_batch = 0;    // at the asked sequence; 0: not even batch 1
    int longest_seq = 0;      // at the asked batch; 0: not even the shortest
    double step_ms_at_largest_batch = 0;
    double tokens_per_s = 0;  // at the largest batch, on the machine the costs are from
    // Set when the strategy has no schedule at the asked size: an optimal:MiB budget below the
    // least peak above the step's start, which this is. Its prediction, sizes, split and
    // margin are then not numbers (left 0); the largest batch and longest sequence still are.
    std::optional<std::int64_t> least_peak;
};

// What every schedule holds whatever it checkpoints, at the planned size.
struct HeldState {
    std::int64_t weights = 0, gradients = 0, optimizer = 0;
    std::int64_t parameters = 0;  // the weights in elements of the config's parameter type
    std::int64_t total() const { return weights + gradients + optimizer; }
};
HeldState heldState(const CostModel& costs, DType dtype);

struct FullSizePlan {
    ExperimentConfig config;
    std::int64_t capacity = 0;
    HeldState held;
    // Weights, gradients and optimizer state: held whatever the schedule (held.total()).
    std::int64_t state_bytes = 0;
    std::vector<StrategyAtSize> strategies;
    // The fastest schedule that fits (the optimal planner at the capacity), if any.
    std::optional<PlannedSchedule> fastest;
    std::optional<StrategyAtSize> fastest_at_size;
    // Nothing fits: the smallest capacity preset that would, for the least-memory schedule
    // (none when even the largest preset is too small), and what that schedule reserves.
    std::optional<CapacityPreset> would_fit;
    std::int64_t least_reserved = 0;
    // What the plan could not do, in words (the optimal planner's chain limit, ...).
    std::vector<std::string> notes;
    std::string machine;  // where the times come from, "this machine" or a results file's
};

struct FullSizeProgress {
    std::function<void(const std::string& stage, int done, int total)> step;
    // Set by another thread (Ctrl+C, the app's Stop) to stop planning: planFullSize then throws
    // PlanningCancelled at its next size, within one plan of the optimal planner.
    const std::atomic<bool>* cancel = nullptr;
};

// planFullSize stopped by FullSizeProgress::cancel: nothing was planned.
struct PlanningCancelled : std::runtime_error {
    PlanningCancelled() : std::runtime_error("planning cancelled") {}
};

// The strategies a full-size plan compares unless told otherwise (the CLI and the app): none,
// full, the blocks' selective ones (attn, ffn), every:2 and sqrt, less those the model cannot
// take.
std::vector<Strategy> fullSizeStrategies(const ExperimentConfig& config);
const std::vector<Strategy>& fullSizeDefaultStrategies();  // the same, before the model

// The step a full-size plan asks about unless told otherwise, the CLI's plan --capacity and the
// app's "Will it fit?" alike: training with Adam, one sequence of 2048 tokens. A model gives
// neither (its precision comes from its torch_dtype).
inline constexpr int kFullSizeSeq = 2048;
inline constexpr int kFullSizeBatch = 1;
inline constexpr Optimizer kFullSizeOptimizer = Optimizer::Adam;
// Sets seq, batch and optimizer to them, each unless `given` says the user chose it (called with
// the config field's key: "seq", "batch", "optimizer"); without `given`, all three.
void applyFullSizeDefaults(ExperimentConfig& config,
                           const std::function<bool(const std::string& key)>& given = {});
// The same in words for a help text: "Adam, batch 1, sequence 2048".
std::string fullSizeDefaultsText();

// A full-size plan as the CLI's plan --capacity and the app's "Will it fit?" ask for it.
struct FullSizeRequest {
    ExperimentConfig config;    // the model applied, with the asked sequence, batch, precision...
    std::int64_t capacity = 0;  // bytes; its range is its reader's (parseCapacity, the panel)
    std::vector<Strategy> strategies;  // empty: fullSizeStrategies(config)
};

// What a full-size request is refused for before anything is measured, and what it plans.
struct FullSizeCheck {
    enum class Verdict { Ok, InvalidConfig, InvalidStrategy, StrategyListedTwice };
    Verdict verdict = Verdict::Ok;
    std::vector<FieldError> config_errors;  // InvalidConfig: every problem, validate's order
    std::optional<CoreMessage> problem;     // the first refusal
    std::vector<Strategy> strategies;       // Ok: what the plan compares
    bool ok() const { return verdict == Verdict::Ok; }
};

// The one check of a full-size request, for the CLI and the app alike: the config, each
// strategy against this model, none twice. Measuring memory is measureCostFit's own check
// (checkFitMeasurable, runner.h).
FullSizeCheck checkFullSize(const FullSizeRequest& request);

// Every strategy of `strategies` at the fit's batch and sequence against `capacity` bytes,
// the planner's fastest schedule that fits, and each one's largest batch and longest sequence.
FullSizePlan planFullSize(const CostFit& fit, std::int64_t capacity,
                          const std::vector<Strategy>& strategies,
                          const FullSizeProgress& progress = {});

}  // namespace ckptlab
