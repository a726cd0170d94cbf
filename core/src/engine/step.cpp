#include "engine/step.h"

#include <torch/cuda.h>

#include "engine/caching_cpu_allocator.h"
#include "engine/cuda_allocator_stats.h"
#include "engine/executor.h"
#include "engine/generators.h"
#include "engine/precision.h"
#include "engine/step_clock.h"

namespace ckptlab::engine {

Workbench::Workbench(const ExperimentConfig& cfg, const torch::Device& dev)
    : config(cfg),
      device(dev),
      model(buildModel(cfg, dev)),
      input(buildInput(cfg, dev)),
      targets(buildTargets(cfg, input)) {
    torch::NoGradGuard noGrad;
    {
        // The lab's copy, not the training's memory: kept out of the caching allocator.
        const SystemAllocatorScope labCopy;
        for (const auto& p : model.parameters()) initialWeights.push_back(p.detach().clone());
    }
    resetOptimizer();
}

void Workbench::restoreInitialWeights() {
    torch::NoGradGuard noGrad;
    auto params = model.parameters();
    for (std::size_t i = 0; i < params.size(); ++i) params[i].copy_(initialWeights[i]);
}

std::unique_ptr<torch::optim::Optimizer> makeOptimizer(Optimizer kind,
                                                       std::vector<torch::Tensor> parameters) {
    switch (kind) {
    case Optimizer::Sgd:
        return std::make_unique<torch::optim::SGD>(parameters, torch::optim::SGDOptions(1e-3));
    case Optimizer::Adam:
        return std::make_unique<torch::optim::Adam>(parameters, torch::optim::AdamOptions(1e-3));
    case Optimizer::None: break;
    }
    return nullptr;
}

void Workbench::resetOptimizer() {
    optimizer.reset();
    optimizer = makeOptimizer(config.optimizer, model.parameters());
}

void Workbench::clearGradients() {
    // Set to none rather than zeroed, so a step allocates its gradients and the tracker sees it.
    input.mutable_grad().reset();
    for (auto& p : model.parameters()) p.mutable_grad().reset();
}

std::vector<torch::Tensor> Workbench::gradients() const {
    std::vector<torch::Tensor> grads;
    if (!model.hasEnds()) grads.push_back(input.grad());
    for (const auto& p : model.parameters()) grads.push_back(p.grad());
    return grads;
}

namespace {

// Marks on the step's clock at the bounds of its phases; -1 for an optimizer step not taken.
struct PhaseMarks {
    int start = -1, forwardEnd = -1, backwardStart = -1, backwardEnd = -1;
    int optimizerStart = -1, optimizerEnd = -1, end = -1;
};

// Waits for the device where the step's phases must (see runStep).
void syncPhase(bool syncPhases) {
    if (syncPhases) torch::cuda::synchronize();
}

// Points the context at this step's clock, its recompute counters at zero.
void startContext(StepContext& context, StepClock& clock, bool syncPhases) {
    context.syncCuda = syncPhases;
    context.recomputeMs = 0;
    context.recomputedUnits = 0;
    context.recomputeMarks.clear();
    context.clock = &clock;
}

// The loss (the output's sum) and its backward. The loss is handed back so that the step frees
// it, with the output, while still traced. With chain ends the forward already ended in the
// loss (the LM head's cross-entropy): its backward starts in the head. The forward's autocast
// (mixed-bf16) ends after the loss: the backward runs outside it, as PyTorch recommends.
torch::Tensor lossBackward(const torch::Tensor& output, StepContext& context, bool chainEnds,
                           AutocastScope& autocast) {
    if (chainEnds) {
        autocast.end();
        context.label(Phase::Backward, kHeadBlock);
        output.backward();
        return output;
    }
    context.label(Phase::Loss);
    torch::Tensor loss = output.sum();
    autocast.end();
    loss.backward();
    return loss;
}

// The optimizer's step, when the workbench has an optimizer, between its two marks.
void optimizerStep(Workbench& bench, StepContext& context, StepClock& clock, bool syncPhases,
                   PhaseMarks& marks) {
    if (!bench.optimizer) return;
    context.throwIfCancelled();
    marks.optimizerStart = clock.mark();
    context.label(Phase::Optimizer);
    bench.optimizer->step();
    syncPhase(syncPhases);
    marks.optimizerEnd = clock.mark();
}

// The phases' times from the finished clock, with the recomputes the context recorded.
StepTimes phaseTimes(const StepClock& clock, const PhaseMarks& marks, const StepContext& context,
                     int partsPerBlock) {
    StepTimes times;
    times.forward_ms = clock.ms(marks.start, marks.forwardEnd);
    times.backward_ms = clock.ms(marks.backwardStart, marks.backwardEnd);
    if (marks.optimizerStart >= 0)
        times.optimizer_ms = clock.ms(marks.optimizerStart, marks.optimizerEnd);
    times.step_ms = clock.ms(marks.start, marks.end);
    times.recompute_ms = context.recomputeMs;  // recomputes that timed themselves (none here)
    for (const auto& [from, to] : context.recomputeMarks) times.recompute_ms += clock.ms(from, to);
    times.recomputed_blocks = context.recomputedUnits / partsPerBlock;
    return times;
}

}  // namespace

StepTimes runStep(Workbench& bench, const Plan& plan, StepContext& context,
                  std::int64_t* activationBytes) {
    // Every loop of steps (warm-up, timed rounds, the optimizer's first step) stops at the next
    // step once cancelled, whatever checks the step's own plan reaches.
    context.throwIfCancelled();
    const bool cuda = bench.device.is_cuda();
    // The tutorial's protocol adds this step's gradients into the previous step's.
    if (!context.keepGradients) bench.clearGradients();
    // The same dropout masks for every strategy, so their gradients can be compared; from the
    // model's own generator, which no other thread draws from.
    reseed(bench.model.generator(), bench.config.seed + 1);
    // On CPU the clock is the host's. On CUDA the host must wait for the device before it reads
    // a host clock; with CUDA events (a core built with CKPTLAB_WITH_CUDA) only the traced
    // step still waits, at every phase and recompute, so that its timeline's host times follow
    // the device, and timed steps run without a sync until the clock's last event.
    StepClock clock(bench.device);
    const bool syncPhases = cuda && (context.tracker != nullptr || !clock.usesEvents());
    startContext(context, clock, syncPhases);
    struct ClockScope {  // the clock dies with this call, also when the step throws
        StepContext& context;
        ~ClockScope() { context.clock = nullptr; }
    } clockScope{context};
    if (cuda) torch::cuda::synchronize();  // the previous step's work is done: start idle
    const AllocatorStepStats allocator(bench.device);

    PhaseMarks marks;
    marks.start = clock.mark();
    // mixed-bf16: the forward and the loss under autocast, a Python user's `with
    // torch.autocast(...)`; lossBackward ends it before the backward (precision.h).
    AutocastScope autocast(AutocastState::forStep(bench.config.dtype, bench.device));
    Executor executor(bench.model, plan, context);
    torch::Tensor output = executor.forward(bench.input, bench.targets);
    syncPhase(syncPhases);
    marks.forwardEnd = clock.mark();
    if (activationBytes && context.tracker) *activationBytes = context.tracker->total();

    marks.backwardStart = clock.mark();
    torch::Tensor loss = lossBackward(output, context, bench.model.hasEnds(), autocast);
    syncPhase(syncPhases);
    marks.backwardEnd = clock.mark();
    optimizerStep(bench, context, clock, syncPhases, marks);
    context.label(Phase::Idle);
    // Free the step's last tensors while still traced, so every activation's end is seen.
    loss.reset();
    output.reset();
    marks.end = clock.mark();
    clock.finish();
    StepTimes times = phaseTimes(clock, marks, context, bench.model.partsPerBlock());
    times.cudaAllocator = allocator.finish();
    return times;
}

}  // namespace ckptlab::engine
