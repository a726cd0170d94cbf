#pragma once
// What one measured run produces, as plain values the CLI, GUI and files share.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/full_size_record.h"
#include "ckptlab/model/step_stats.h"
#include "ckptlab/model/strategy.h"

namespace ckptlab {

enum class Phase { Idle, Forward, Loss, Recompute, Backward, Optimizer };
std::string toString(Phase phase);
std::optional<Phase> parsePhase(const std::string& text);

// One allocation (delta > 0) or free (delta < 0) seen by the allocator during the traced step.
struct TimelineEvent {
    double t_ms = 0;         // since the step began
    std::int64_t delta = 0;  // bytes
    std::int64_t total = 0;  // bytes allocated above the step's start, after this event
    Phase phase = Phase::Idle;
    // -1 when the event belongs to no block (loss, optimizer); kEmbeddingBlock, kHeadBlock for
    // the chain's ends
    int block = -1;
};

// A stretch of the step with one label: forward of block 3, recompute of block 7, ...
struct PhaseSpan {
    Phase phase = Phase::Idle;
    int block = -1;
    double begin_ms = 0;
    double end_ms = 0;
};

// Bytes a block's forward (or one of its recomputes) left allocated when it finished,
// and when the last of them was freed: the activation lifetime.
struct BlockLifetime {
    int block = 0;
    Phase phase = Phase::Forward;  // Forward or Recompute
    double saved_ms = 0;
    double freed_ms = 0;
    std::int64_t bytes = 0;
};

// Where a block index goes (timeline events, spans, lifetimes, out of memory), the chain's two
// ends (ExperimentConfig::vocab): the token embedding, and the final norm, LM head and loss.
inline constexpr int kEmbeddingBlock = -2;
inline constexpr int kHeadBlock = -3;

// Memory at the moment of the step's peak, by what it holds.
struct Breakdown {
    std::int64_t parameters = 0;  // as stored: with mixed-bf16 the fp32 master weights
    std::int64_t input = 0;       // the chain's input (token ids with an embedding)
    std::int64_t optimizer_state = 0;
    std::int64_t gradients = 0;    // parameter and input gradients alive at the peak
    std::int64_t activations = 0;  // saved by forward or recompute, alive at the peak
    std::int64_t other = 0;        // backward temporaries and everything else
    // mixed-bf16: autocast's bf16 copies of the weights alive at the peak.
    std::int64_t weight_copies = 0;
    // The LM head's and loss's tensors alive at the peak (logits, log-probabilities and their
    // gradients), kept apart from the blocks' activations: often the step's largest.
    std::int64_t logits = 0;
    std::int64_t total() const {
        return parameters + input + optimizer_state + gradients + activations + other +
               weight_copies + logits;
    }
};

struct Metrics {
    std::int64_t peak_bytes = 0;        // highest allocation above the step's start
    std::int64_t activation_bytes = 0;  // allocated by forward, still allocated when it ends
    std::int64_t baseline_bytes = 0;    // parameters + input + optimizer state
    double step_ms = 0;                 // medians over the timed repeats
    double forward_ms = 0;
    double backward_ms = 0;  // includes recompute
    double recompute_ms = 0;
    double optimizer_ms = 0;
    int recomputed_blocks = 0;            // block forwards run again during backward
    std::vector<double> step_samples_ms;  // every timed repeat, for spread
    // The round each sample was taken in, beside it (same length): the timed steps of all
    // strategies run interleaved, round r one step of each in turn. Empty in older files.
    std::vector<int> step_sample_rounds;
    // The median's interval and the samples' coefficient of variation (a fraction) as the
    // runner recorded them (step_stats.h); empty in files from before (stepStats() then
    // computes them from the samples).
    std::optional<MedianInterval> step_ms_ci;
    std::optional<double> step_ms_cv;
    // Median CPU time of the calling thread per timed step (CLOCK_THREAD_CPUTIME_ID), CPU runs
    // only. Below step_ms when the thread waited: for other work, or for the intra-op threads.
    std::optional<double> step_cpu_ms;
    // Matmul work of one step (forward, recompute, backward; flops.h says what is counted) in
    // GFLOP, and that over the median step time: how hard the step drives the machine. Empty
    // in files written before they existed.
    std::optional<double> step_gflop;
    std::optional<double> gflop_per_s;
    // Median minor page faults of the process per timed step (getrusage): memory the C library
    // gave back and the step touched again. Empty where unreadable and in older files.
    std::optional<double> minor_faults_per_step;
};

// What the cost model predicted for this run before it ran (cost_model.h).
struct PredictedMetrics {
    std::int64_t peak_bytes = 0;
    std::int64_t activation_bytes = 0;
    double step_ms = 0;
    // The optimal schedule's predicted step time within this run's predicted peak (plus the
    // planner's rounding): a hand-written strategy predicted faster than this would mean the
    // planner or the cost model is wrong. Empty when not planned.
    std::optional<double> optimal_step_ms;
    // The caching allocator's reserved bytes at the step's peak, baseline included, from the
    // same replay through CachingAllocatorModel; empty in older files.
    std::optional<std::int64_t> reserved_peak_bytes;
};

struct GradCheck {
    bool checked = false;
    // Largest |difference| over input and parameter gradients, against `none`. NaN when an
    // element is NaN in one run and not the other; Inf when an infinity differs. Elements that
    // are NaN (or the same infinity) in both runs count as equal, and `note` names them.
    double max_abs_diff = 0;
    double tolerance = 0;
    // Empty when every gradient of both runs is finite. Otherwise which gradients hold NaN or
    // Inf, in how many elements and in which run: "NaN in 12 of 4096 elements of block 3
    // ffn.up.weight where the reference has numbers; ...".
    std::string note;
    // Every gradient has the reference's bits exactly (a recompute that replays the same kernels
    // on the same shapes gives that). Written to the results file only when true.
    bool bitwise_equal = false;
    // False for a NaN or infinite difference, whatever the tolerance.
    bool passed() const {
        return checked && max_abs_diff >= 0 && max_abs_diff <= tolerance &&
               max_abs_diff < std::numeric_limits<double>::infinity();
    }
};

// The machine's load (/proc/loadavg) and the CPU time the hypervisor gave to others (steal,
// /proc/stat), around a sweep: a noisy machine is recognised and said so (noise.h).
struct MachineLoad {
    int cpus = 0;                 // CPUs online: a load above it means work waited for a CPU
    double load_before = 0;       // 1-minute load average when the sweep began
    double load_during_max = 0;   // highest 1-minute load average sampled after each round
    double steal_pct_before = 0;  // steal in % of all CPU time, sweep start to first round
    double steal_pct_during = 0;  // steal in % of all CPU time over the timed rounds
    int samples = 0;              // load samples taken during the rounds
};

// The OpenBLAS kernels ("core") that ran the float32 matmuls and who chose them
// (ckptlab/engine/blas_kernels.h). OpenBLAS falls back to generic SSE3 kernels on a CPU model it
// does not know, several times slower than the CPU can do, so a file says which ones ran.
enum class BlasKernelChoice {
    OpenBlas,  // OpenBLAS's own detection
    User,      // the user's OPENBLAS_CORETYPE
    Lab,       // Checkpoint Lab, replacing OpenBLAS's generic fallback
};
std::string toString(BlasKernelChoice choice);  // "openblas", "user", "lab"
std::optional<BlasKernelChoice> parseBlasKernelChoice(const std::string& text);

struct BlasKernel {
    std::string name;  // OpenBLAS's name, e.g. "SkylakeX", "Haswell", "Prescott"
    BlasKernelChoice chosen_by = BlasKernelChoice::OpenBlas;
    std::string replaced;  // with Lab: the generic kernel OpenBLAS had picked, e.g. "Prescott"
    // Set when `name` is a generic (pre-AVX) kernel and this CPU runs better ones: the kernel
    // it should have run, e.g. "SkylakeX". The noise check warns then (noise.h).
    std::string better;
};
// The instructions that make `better` faster than a generic kernel: "AVX-512" for SkylakeX and
// later, "AVX2" for Haswell and Zen, "AVX" for Sandybridge; empty for another name.
std::string blasKernelInstructions(const std::string& kernel);

struct Environment {
    std::string ckptlab_version;
    std::string libtorch_version;
    std::string device;       // "cpu" or "cuda:0"
    std::string device_name;  // CPU model or GPU name
    std::string dtype;
    int threads = 0;   // at::get_num_threads() during the runs
    std::string blas;  // the BLAS library LibTorch resolved
    bool cuda_compiled = false;
    std::string created_utc;
    // GLIBC_TUNABLES as the runs saw it (empty when unset): the allocator's trim and mmap
    // thresholds change CPU step times (docs/MEASUREMENTS.md, "The kept-block backward"), so a
    // file says so.
    std::string malloc_tunables;
    // How busy the machine was around the timed rounds (Linux /proc); empty when unreadable
    // or in older files.
    std::optional<MachineLoad> load;
    // Empty for another BLAS than OpenBLAS and in older files.
    std::optional<BlasKernel> blas_kernel;
};

// Where a run passed the modelled device's capacity (--memory-limit) or ran out for real.
struct OutOfMemory {
    std::int64_t requested_bytes = 0;  // the allocation that did not fit
    std::int64_t allocated_bytes = 0;  // on the device before it, baseline included
    std::int64_t limit_bytes = 0;      // 0 when the allocator itself failed
    Phase phase = Phase::Idle;
    int block = -1;
    double t_ms = 0;  // since the traced step began
};
// "backward of block 7", "loss", "forward of the embedding", "recompute of the LM head"
std::string describeWhere(Phase phase, int block);
// "out of memory at backward of block 7: tried to allocate 2.00 MiB with 61.50 MiB allocated,
// over the 62.00 MiB limit"
std::string describe(const OutOfMemory& oom);
// The size in an allocator's failure message: the CPU allocator's "you tried to allocate
// 16777216 bytes", CUDA's "Tried to allocate 146.00 MiB". 0 when there is none.
std::int64_t requestedBytesIn(const std::string& allocatorMessage);

// Who counted a run's allocated and reserved bytes.
enum class AllocatorSource {
    Cuda,          // CUDA's caching allocator itself, on a GPU
    CachingModel,  // the CPU allocator that follows CUDA's rules
                   // (ckptlab/planning/caching_allocator.h)
};
std::string toString(AllocatorSource source);  // "cuda", "caching-model"
std::optional<AllocatorSource> parseAllocatorSource(const std::string& text);

// A caching allocator during the traced step, as it counts itself: bytes allocated to tensors
// (rounded as the allocator rounds them) and reserved from the device (cached blocks included;
// what runs out on a GPU), when the step began and at their peaks. On CUDA,
// allocated_peak - allocated_start matches the exact tracker's peak_bytes; on the CPU model it
// may exceed it by the rounding of the step's small allocations.
struct AllocatorStats {
    AllocatorSource source = AllocatorSource::CachingModel;
    std::int64_t allocated_start = 0;
    std::int64_t allocated_peak = 0;
    std::int64_t reserved_start = 0;
    std::int64_t reserved_peak = 0;
};

// The caching model's reserved segments during the traced step and the blocks cut from them,
// for the chart that shows fragmentation. Times in ms since the step began; an empty time means
// before the step began (created, allocated) or after it ended (released, freed).
struct SegmentRecord {
    std::int64_t size = 0;
    bool small_pool = false;
    std::optional<double> created_ms;
    std::optional<double> released_ms;
};
struct SegmentBlock {
    int segment = 0;             // index into AllocatorTrace::segments
    std::int64_t offset = 0;     // bytes from the segment's start
    std::int64_t size = 0;       // rounded, as the allocator holds it
    std::int64_t requested = 0;  // what the tensor asked for
    std::optional<double> allocated_ms;
    std::optional<double> freed_ms;
    Phase phase = Phase::Idle;  // what was running when it was allocated
    int block = -1;
};
// The most blocks a trace lists: a traced step at the tutorial's size allocates a few thousand.
inline constexpr std::size_t kMaxAllocatorTraceBlocks = 200000;
struct AllocatorTrace {
    std::vector<SegmentRecord> segments;  // those reserved when the step began first
    // Those live when the step began first (parameters, input, optimizer state), then the
    // step's in the order allocated, at most kMaxAllocatorTraceBlocks.
    std::vector<SegmentBlock> blocks;
    std::int64_t unlisted_blocks = 0;  // the step's allocations past that limit, not listed
};

// One sweep spread over several processes (ckptlab-cli --shard, ckptlab/planning/sweep_shard.h):
// the whole sweep's work list is dealt round robin, and each shard writes its own file.
struct SweepShard {
    std::string sweep_id;  // sweepId(): 16 hex digits, the same in every shard of one sweep
    int index = 0;         // 0 .. count - 1
    int count = 1;         // 1 .. kShardMaxCount
    int work_items = 0;    // runs of the whole sweep: the unsharded sweep's list
    std::string work_id;   // workId() of that list as this shard resolved it
    // One size's strategies in the list's order: the list is work_items / strategies.size()
    // sizes of them (sweepWork), so a merge checks each run against its position. Empty in
    // files written before it was kept.
    std::vector<Strategy> strategies;
};

// Where a shard's run stands in the whole sweep.
struct ShardPlace {
    int position = 0;  // index into the whole sweep's work list: the unsharded sweep's order
    // False for a `none` run another shard owns, measured here only as this process's time
    // baseline (each shard times its runs against a `none` of its own).
    bool owned = true;
};

// A file merged from the files of a sweep's shards (ckptlab-cli merge, results_merge.h).
struct MergedShards {
    std::string sweep_id;
    int count = 0;             // shards the sweep was dealt to
    std::vector<int> missing;  // shards not merged (merge --allow-partial); empty when complete
};

struct RunResult {
    ExperimentConfig config;
    Strategy strategy;  // parsed once where it came in; files hold strategy.name()
    // What charts call the run when that is not its strategy's name: the app's view of several
    // files at once names each run "<strategy> · <machine>". Never written to a file.
    std::string label;
    std::string name() const { return label.empty() ? strategy.name() : label; }
    Metrics metrics;
    GradCheck grad_check;
    Breakdown breakdown;
    std::vector<BlockLifetime> blocks;
    std::vector<TimelineEvent> timeline;
    std::vector<PhaseSpan> phases;
    std::optional<PredictedMetrics> prediction;
    std::string schedule;              // the plan that ran, as describeSchedule() prints it
    std::vector<int> forward_counts;   // forwards per block in one step (1 = not recomputed)
    std::optional<std::string> error;  // set when the run failed; other fields then partial
    // Set with `error` when the traced step ran out of memory; the timeline, phases and peak
    // then show the step up to that moment.
    std::optional<OutOfMemory> out_of_memory;
    // The caching allocator's own counts (CUDA's, or the CPU model's with --allocator caching);
    // empty with --allocator system and in older files. Files before the CPU model name it
    // "cuda_allocator".
    std::optional<AllocatorStats> allocator;
    std::optional<AllocatorTrace> allocator_trace;  // the CPU model's segments, traced step
    // A shard's file (SweepShard): where the run stands in the whole sweep. Empty elsewhere.
    std::optional<ShardPlace> shard;
    // A merged file (MergedShards): index into ResultSet::machines of the shard that measured
    // it, whose process timed it. Empty elsewhere.
    std::optional<int> machine;
    bool ok() const { return !error && grad_check.passed(); }
};

// A point of the planner's predicted memory-time frontier (ckptlab-cli pareto).
struct FrontierPoint {
    std::int64_t peak_bytes = 0;
    double step_ms = 0;
};

// How the timed steps were taken: interleaved rounds, and what stopped them.
struct TimingRounds {
    int rounds = 0;  // complete rounds (one timed step of every strategy still running)
    bool auto_repeats = false;
    double time_limit_s = 0;  // the adaptive repeats' limit; 0 with fixed repeats
    RoundsStop stopped_by = RoundsStop::Repeats;
    double seconds = 0;  // wall time of the rounds
};

struct ResultSet {
    Environment environment;
    // Empty in older files and when no run reached the rounds.
    std::optional<TimingRounds> timing;
    std::vector<RunResult> runs;
    std::vector<FrontierPoint> predicted_frontier;  // empty unless a Pareto sweep made it
    bool cancelled = false;
    // What the sweep left out and why, e.g. the "vs optimal" comparison on a chain too long
    // for the planner. Shown under the table.
    std::vector<std::string> notes;
    // A shard's file: which sweep and which share (runs then carry their ShardPlace).
    std::optional<SweepShard> shard;
    // A merged file: which sweep, `machines` the environment of each merged shard in shard
    // order (`environment` is the first one's, for readers that know no other), each run's
    // RunResult::machine an index into it, and `machine_baselines` the `none` runs of the
    // shards whose `none` is not the one in `runs` (another shard owned it), without their
    // traces: each shard's time baseline, so a run's time is compared with a `none` of its own
    // process (baselineFor). All empty in other files.
    std::optional<MergedShards> merged;
    std::vector<Environment> machines;
    std::vector<RunResult> machine_baselines;
    // A lesson's plan step: the full-size plan instead of runs (`runs` is empty).
    std::optional<FullSizePlanRecord> plan;
    const RunResult* find(const Strategy& strategy) const;  // the first run of it
    const RunResult* find(const std::string& name) const;   // the first run of that name()
};

}  // namespace ckptlab
