// One strategy measured on the workbench: the traced step (memory, gradients, lifetimes), then
// the warm-up; a step that runs out of memory is kept up to where it stopped. The timed steps
// come later, interleaved with the other strategies' (timed_rounds.cpp).
#include "engine/measure_run.h"

#include <torch/torch.h>

#include <algorithm>
#include <unordered_set>

#include "ckptlab/model/saturating.h"
#include "ckptlab/model/statistics.h"
#include "ckptlab/model/strategy.h"
#include "engine/caching_cpu_allocator.h"
#include "engine/cuda_allocator_stats.h"
#include "engine/grad_check.h"
#include "engine/precision.h"
#include "engine/reference_gradients.h"
#include "engine/step.h"
#include "engine/timed_rounds.h"
#include "engine/trace_analysis.h"

namespace ckptlab::engine {
namespace {

std::int64_t bytesOf(const std::vector<torch::Tensor>& tensors) {
    std::int64_t total = 0;
    for (const auto& t : tensors)
        if (t.defined()) total += t.numel() * t.element_size();
    return total;
}

std::int64_t optimizerStateBytes(const torch::optim::Optimizer* optimizer) {
    if (!optimizer) return 0;
    std::int64_t total = 0;
    for (const auto& [key, state] : optimizer->state()) {
        if (auto* adam = dynamic_cast<torch::optim::AdamParamState*>(state.get())) {
            total += bytesOf({adam->exp_avg(), adam->exp_avg_sq(), adam->max_exp_avg_sq()});
        } else if (auto* sgd = dynamic_cast<torch::optim::SGDParamState*>(state.get())) {
            total += bytesOf({sgd->momentum_buffer()});
        }
    }
    return total;
}

std::int64_t limitBytes(const ExperimentConfig& config) {
    return static_cast<std::int64_t>(config.memory_limit_mib * 1024 * 1024);
}

// A step that stopped at `t_ms`: what the unwinding freed afterwards is not part of the step.
void endAt(RunResult& run, double t_ms) {
    auto& events = run.timeline;
    events.erase(std::remove_if(events.begin(), events.end(),
                                [&](const TimelineEvent& e) { return e.t_ms > t_ms; }),
                 events.end());
    auto& phases = run.phases;
    phases.erase(std::remove_if(phases.begin(), phases.end(),
                                [&](const PhaseSpan& p) { return p.begin_ms > t_ms; }),
                 phases.end());
    for (auto& phase : phases) phase.end_ms = std::min(phase.end_ms, t_ms);
    for (auto& block : run.blocks) block.freed_ms = std::min(block.freed_ms, t_ms);
}

// An out-of-memory error the allocator raised itself, placed where the step was.
OutOfMemory whereItRanOut(const std::exception& error, const StepContext& context,
                          std::int64_t allocated) {
    if (auto* ours = dynamic_cast<const OutOfMemoryError*>(&error)) return ours->where;
    OutOfMemory oom;
    oom.phase = context.currentLabel().phase;
    oom.block = context.currentLabel().block;
    oom.allocated_bytes = allocated;
    oom.requested_bytes = requestedBytesIn(error.what());
    return oom;
}

// Resets the workbench and runs the steps that come before the traced one: the optimizer's
// first step (its state must exist) and, for a run that starts with kept gradients, the
// previous step that leaves them. Returns the bytes of the gradients the traced step starts
// with.
std::int64_t prepareTracedStep(Workbench& bench, const Strategy& strategy, const Plan& plan,
                               StepContext& context, ProgressCounter& progress) {
    const std::string name = strategy.name();
    bench.restoreInitialWeights();
    bench.resetOptimizer();
    // With the caching CPU allocator, each run starts from an emptied cache and fresh peaks, as
    // a PyTorch script calls torch.cuda.empty_cache() and reset_peak_memory_stats() between
    // measurements; the previous run's gradients and optimizer state are gone by now.
    bench.clearGradients();
    startCachingRun();
    startCudaRun(bench.device);
    if (bench.optimizer) {
        // Optimizer state is created by the first step; make it exist before the trace so
        // the traced step shows steady-state memory, then go back to the initial weights.
        runStep(bench, plan, context);
        bench.restoreInitialWeights();
        progress.step({MessageCode::OptimizerState, {name}});
    }

    // Old gradients go first: the trace must only see the step's own memory.
    bench.clearGradients();
    // The tutorial's protocol: its baseline runs first from a clean start and leaves its
    // gradients allocated; every later run adds into them. They belong to that step's start.
    context.keepGradients = startsWithKeptGradients(bench.config, strategy);
    if (context.keepGradients) {
        runStep(bench, plan, context);
        bench.restoreInitialWeights();
        progress.step({MessageCode::PreviousStepKept, {name}});
    } else if (bench.config.keep_grads) {
        progress.step({MessageCode::BaselineStartsClean, {name}});
    }
    return bytesOf(bench.gradients());
}

// The traced step as it ended: its activations, or where it ran out of memory.
struct TracedStep {
    std::int64_t activationBytes = 0;
    std::optional<OutOfMemory> outOfMemory;
    std::optional<AllocatorStats> cudaAllocator;  // CUDA's own view of the traced step
    // The caching CPU allocator's (caching_cpu_allocator.h): its counts and segments.
    std::optional<CachingCpuAllocator::Trace> cachingAllocator;
    // mixed-bf16: the records of autocast's copies of the weights (precision.h).
    std::unordered_set<std::size_t> weightCopies;
};

// Runs the step under a fresh memory tracker (left in `context` for the trace analysis), its
// limit above `baseline`, the memory the step starts with.
TracedStep runTracedStep(Workbench& bench, const Plan& plan, StepContext& context,
                         std::int64_t baseline) {
    TracedStep traced;
    context.tracker = std::make_shared<MemoryTracker>(bench.device);
    if (bench.config.memory_limit_mib > 0)
        context.tracker->setLimit(baseline, limitBytes(bench.config));
    TrackingScope scope(context.tracker);
    AllocatorTraceScope allocatorTrace(context.tracker, bench.device);
    std::optional<WeightCastRecorder> weightCasts;
    if (usesAutocast(bench.config.dtype))
        weightCasts.emplace(context.tracker, bench.model.parameters());
    try {
        traced.cudaAllocator = runStep(bench, plan, context, &traced.activationBytes).cudaAllocator;
    } catch (const std::exception& e) {
        if (!isOutOfMemory(e)) throw;
        // By now the unwinding has freed the step's tensors; the level it failed at is the
        // highest the step reached.
        std::int64_t reached = 0;
        double reachedAt = 0;
        for (const auto& record : context.tracker->records())
            if (record.total > reached) reached = record.total, reachedAt = record.t_ms;
        traced.outOfMemory = whereItRanOut(e, context, baseline + reached);
        if (traced.outOfMemory->t_ms <= 0) traced.outOfMemory->t_ms = reachedAt;
    }
    context.tracker->finish();
    traced.cachingAllocator = allocatorTrace.finish();
    if (weightCasts) traced.weightCopies = weightCasts->copies();
    return traced;
}

// The step up to where it ran out of memory: its timeline, phases and peak, and no timings.
void keepUntilOutOfMemory(RunResult& run, Workbench& bench, StepContext& context,
                          const TracedStep& traced, std::int64_t baseline) {
    const OutOfMemory& outOfMemory = *traced.outOfMemory;
    auto trace = analyzeTrace(*context.tracker, {}, traced.weightCopies);
    context.tracker.reset();
    bench.clearGradients();
    run.out_of_memory = outOfMemory;
    run.metrics.peak_bytes = trace.peak;
    run.metrics.baseline_bytes = baseline;
    run.breakdown = trace.atPeak;
    run.timeline = std::move(trace.timeline);
    run.phases = std::move(trace.phases);
    run.blocks = std::move(trace.blocks);
    endAt(run, outOfMemory.t_ms);
}

// Analyses the finished trace and checks the step's gradients against the reference.
TraceSummary checkTracedStep(RunResult& run, Workbench& bench, StepContext& context,
                             const std::vector<torch::Tensor>& reference,
                             const TracedStep& traced) {
    auto gradients = bench.gradients();
    std::unordered_set<const void*> gradientBuffers;
    for (const auto& g : gradients)
        if (g.defined()) gradientBuffers.insert(g.data_ptr());
    auto trace = analyzeTrace(*context.tracker, gradientBuffers, traced.weightCopies);
    if (context.keepGradients) {
        // The step added its gradients to an equal previous step's: halving is exact in
        // floating point, so the check compares this step's own gradients.
        for (auto& g : gradients)
            if (g.defined()) g = g * 0.5;
    }
    context.tracker.reset();
    run.grad_check = checkGradients(reference, gradients, gradCheckSize(bench.config),
                                    gradientNames(bench.model));
    return trace;
}

// The traced step's memory: its peak and what the memory held then, beside the timeline.
void recordTrace(RunResult& run, const Workbench& bench, TraceSummary trace,
                 const TracedStep& traced, std::int64_t keptGradients) {
    auto& m = run.metrics;
    m.peak_bytes = trace.peak;
    m.activation_bytes = traced.activationBytes;
    run.breakdown = trace.atPeak;
    run.breakdown.parameters = bytesOf(bench.model.parameters());
    run.breakdown.input = bytesOf({bench.input, bench.targets});  // targets: with chain ends
    run.breakdown.optimizer_state = optimizerStateBytes(bench.optimizer.get());
    run.breakdown.gradients += keptGradients;
    m.baseline_bytes = run.breakdown.parameters + run.breakdown.input +
                       run.breakdown.optimizer_state + keptGradients;
    run.timeline = std::move(trace.timeline);
    run.phases = std::move(trace.phases);
    run.blocks = std::move(trace.blocks);
}

// The allocator's own counts of the traced step: CUDA's, or the caching CPU allocator's with its
// segments. A step that stopped at `endMs` keeps what was live then as live.
void recordAllocator(RunResult& run, const TracedStep& traced, std::optional<double> endMs) {
    run.allocator = traced.cudaAllocator;
    if (!traced.cachingAllocator) return;
    run.allocator = traced.cachingAllocator->stats;
    AllocatorTrace trace = traced.cachingAllocator->trace;
    if (endMs) {
        for (SegmentBlock& b : trace.blocks)
            if (b.freed_ms && *b.freed_ms > *endMs) b.freed_ms.reset();
        for (SegmentRecord& s : trace.segments)
            if (s.released_ms && *s.released_ms > *endMs) s.released_ms.reset();
    }
    run.allocator_trace = std::move(trace);
}

}  // namespace

int stepsPerRun(const ExperimentConfig& config) {
    return 1 + config.warmup + timedStepsPerRun(config) +
           (config.optimizer != Optimizer::None ? 1 : 0) + (config.keep_grads ? 1 : 0);
}

// Measures one strategy: traced step (memory, gradients), then warm-up and timed steps.
RunResult measureRun(Workbench& bench, const Strategy& strategy, const Plan& plan,
                     const std::vector<torch::Tensor>& reference, const RunnerHooks& hooks,
                     ProgressCounter& progress) {
    const std::string name = strategy.name();
    RunResult run;
    run.config = bench.config;
    run.strategy = strategy;
    StepContext context;
    context.cancel = hooks.cancel;

    const std::int64_t keptGradients = prepareTracedStep(bench, strategy, plan, context, progress);
    const std::int64_t baseline =
        sat::add(sat::add(bytesOf(bench.model.parameters()), bytesOf({bench.input, bench.targets}),
                          optimizerStateBytes(bench.optimizer.get())),
                 keptGradients);
    const TracedStep traced = runTracedStep(bench, plan, context, baseline);
    if (traced.outOfMemory) {
        keepUntilOutOfMemory(run, bench, context, traced, baseline);
        recordAllocator(run, traced, traced.outOfMemory->t_ms);
        run.error = name + ": " + describe(*traced.outOfMemory);
        progress.advance(1 + bench.config.warmup + timedStepsPerRun(bench.config),
                         {MessageCode::RanOutOfMemory, {name}});
        return run;
    }
    TraceSummary trace = checkTracedStep(run, bench, context, reference, traced);
    progress.step({MessageCode::TracedStep, {name}});
    recordTrace(run, bench, std::move(trace), traced, keptGradients);
    recordAllocator(run, traced, std::nullopt);

    // Warm-up steps, untraced; the timed ones follow in rounds with the other strategies.
    for (int i = 0; i < bench.config.warmup; ++i) {
        runStep(bench, plan, context);
        progress.step({MessageCode::WarmUpStep,
                       {name, std::to_string(i + 1), std::to_string(bench.config.warmup)}});
    }
    bench.clearGradients();
    return run;
}

}  // namespace ckptlab::engine
