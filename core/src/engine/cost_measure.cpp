// Measures the cost model on one block of the config: the allocator's view of a forward with
// and without grad, a backward and an optimizer step of each sub-block, and their times.
#include <algorithm>
#include <chrono>
#include <optional>

#include "ckptlab/engine/runner.h"
#include "ckptlab/model/statistics.h"
#include "ckptlab/planning/cost_model.h"
#include "engine/caching_cpu_allocator.h"
#include "engine/chain_ends.h"
#include "engine/generators.h"
#include "engine/measurement_scope.h"
#include "engine/model.h"
#include "engine/precision.h"
#include "engine/step.h"
#include "engine/step_context.h"
#include "engine/unit_probe.h"

namespace ckptlab {
namespace {

using Clock = std::chrono::steady_clock;
using engine::HiddenDraws;
using engine::ProbeTarget;
using engine::throwIfCancelled;
using engine::UnitProbe;

// Blocks of the chain on which a kept block's backward is timed.
constexpr int kKeptChainBlocks = 4;

// How much longer a block's backward takes when its activations were kept since a forward
// through the whole chain than right after its own forward: the ratio of the medians of the
// two, taken in the same rounds (so a slow period of the machine hits both). Gradients are set
// to none before each forward as in the runner's steps, so the chain's backward allocates
// fresh parameter gradients; measured (docs/MEASUREMENTS.md, "The kept-block backward") this
// costs minor page faults when glibc has trimmed the heap, and the kept activations are read
// back from memory instead of the caches. CPU only; 1 where the chain has a single block.
double measureKeptRatio(const ExperimentConfig& config, const torch::Device& device, int warmup,
                        int repeats, const std::atomic<bool>* cancel) {
    ExperimentConfig chainConfig = config;
    chainConfig.depth = std::min(config.depth, kKeptChainBlocks);
    if (chainConfig.depth < 2) return 1.0;
    engine::Model chain = engine::buildModel(chainConfig, device);
    HiddenDraws draws(config, device);
    torch::Tensor input = draws.next().requires_grad_();
    torch::Tensor gradOut = draws.next();
    auto clearGrads = [&] {
        input.mutable_grad().reset();
        for (auto& p : chain.parameters()) p.mutable_grad().reset();
    };
    auto ms = [](auto a, auto b) {
        return std::chrono::duration<double, std::milli>(b - a).count();
    };
    std::vector<double> kept, alone;
    for (int i = 0; i < warmup + repeats; ++i) {
        throwIfCancelled(cancel);
        clearGrads();
        torch::Tensor x = input;
        for (int b = 0; b < chain.depth(); ++b) x = chain.block(b).forward(x);
        const auto t0 = Clock::now();
        x.backward(gradOut);
        const auto t1 = Clock::now();
        x.reset();
        clearGrads();
        torch::Tensor y = chain.block(0).forward(input);
        const auto t2 = Clock::now();
        y.backward(gradOut);
        const auto t3 = Clock::now();
        if (i < warmup) continue;
        kept.push_back(ms(t0, t1) / chain.depth());
        alone.push_back(ms(t2, t3));
    }
    clearGrads();
    const double a = median(alone);
    return a > 0 ? median(kept) / a : 1.0;
}

}  // namespace

constexpr int kMinCostRepeats = 5;

namespace {

// The chain's ends (CostModel::first, last), each measured once like a unit, on the step's
// token ids and targets.
void measureEnds(CostModel& cost, engine::Model& model, const ExperimentConfig& config,
                 const torch::Device& device, const std::atomic<bool>* cancel, MeasureTimes times) {
    const torch::Tensor tokens = engine::buildInput(config, device);
    const torch::Tensor targets = engine::buildTargets(config, tokens);
    cost.input_bytes =
        tokens.numel() * tokens.element_size() + targets.numel() * targets.element_size();
    auto measure = [&](ProbeTarget target) {
        throwIfCancelled(cancel);
        UnitProbe probe(std::move(target), config, device);
        engine::reseed(model.generator(), config.seed + 1);
        UnitCost c = probe.measureMemory();
        throwIfCancelled(cancel);
        if (times == MeasureTimes::Yes)
            probe.measureTimes(c, std::max(1, config.warmup),
                               std::max(kMinCostRepeats, config.repeats), cancel);
        return c;
    };
    cost.first = measure(engine::embeddingTarget(model, tokens, config, device));
    cost.last = measure(engine::headTarget(model, targets, config, device));
}

}  // namespace

int costMeasurementDepth(const ExperimentConfig& config) {
    return std::min(config.depth, kKeptChainBlocks);
}

CostModel costModelAtDepth(const CostModel& measured, int depth) {
    CostModel chain = measured;
    chain.units.clear();
    const auto perBlock = static_cast<std::size_t>(measured.unitsPerBlock());
    if (measured.units.size() < perBlock) return chain;
    for (int b = 0; b < depth; ++b)
        chain.units.insert(chain.units.end(), measured.units.begin(),
                           measured.units.begin() + static_cast<std::ptrdiff_t>(perBlock));
    placeChainTop(chain);
    return chain;
}

CostModel measureCostModel(const ExperimentConfig& config, const std::atomic<bool>* cancel,
                           MeasureTimes times) {
    // Re-entrant: inside a sweep or pareto this is their scope again.
    const engine::MeasurementScope measuring(config.threads, cancel);
    ExperimentConfig one = config;
    one.depth = 1;
    const torch::Device device(config.device == "cuda" ? "cuda:0" : config.device);
    // The sweep's CPU allocator (its scope again inside a sweep): the same memory behaviour.
    const engine::CpuAllocatorScope cpuAllocator(config.allocator, device);
    engine::Model model = engine::buildModel(one, device);
    engine::Block& block = model.block(0);

    CostModel cost;
    cost.block = config.block;
    if (block.partCount() != cost.unitsPerBlock())  // the engine's block against blockKinds()
        throw std::logic_error("a " + toString(config.block) + " block has " +
                               std::to_string(block.partCount()) + " parts, blockKinds() says " +
                               std::to_string(cost.unitsPerBlock()));
    cost.threads = at::get_num_threads();
    cost.optimizer = config.optimizer != Optimizer::None;  // the runner steps once before
    cost.checkpoint_bytes = engine::generatorState(model.generator()).nbytes();
    if (device.is_cuda())
        cost.checkpoint_bytes = 0;  // CUDA RNG state lives on the host, not in device memory
    std::vector<UnitCost> perPart;
    for (int part = 0; part < block.partCount(); ++part) {
        throwIfCancelled(cancel);  // the memory probes take steps too, also without times
        UnitProbe probe(engine::partTarget(block, part, config, device), config, device);
        engine::reseed(model.generator(), config.seed + 1);
        UnitCost c = probe.measureMemory();
        throwIfCancelled(cancel);
        c.keeps_input = probe.keepsInput();
        throwIfCancelled(cancel);
        if (!model.hasEnds()) c.sum_loss = probe.measureSumLossBackward();
        // One block is cheap next to the sweep: time it at least 5 times, so a single slow
        // repeat (a page fault, a neighbour) cannot make every prediction of the sweep wrong.
        if (times == MeasureTimes::Yes)
            probe.measureTimes(c, std::max(1, config.warmup),
                               std::max(kMinCostRepeats, config.repeats), cancel);
        perPart.push_back(c);
    }
    if (!device.is_cuda() && times == MeasureTimes::Yes) {
        const double ratio = measureKeptRatio(config, device, std::max(1, config.warmup),
                                              std::max(kMinCostRepeats, config.repeats), cancel);
        for (auto& c : perPart) c.backward_kept_ms = c.backward_ms * ratio;
    }
    for (int b = 0; b < config.depth; ++b)
        for (const auto& c : perPart) cost.units.push_back(c);
    if (model.hasEnds()) measureEnds(cost, model, one, device, cancel, times);
    placeChainTop(cost);
    return cost;
}

}  // namespace ckptlab
