// Measures the cost model on one block of the config: the allocator's view of a forward with
// and without grad, a backward and an optimizer step of each sub-block, and their times.
#include <torch/cuda.h>

#include <algorithm>
#include <chrono>
#include <sstream>
#include <type_traits>
#include <unordered_map>

#include "ckptlab/cost_model.h"
#include "ckptlab/runner.h"
#include "ckptlab/statistics.h"
#include "engine/caching_cpu_allocator.h"
#include "engine/generators.h"
#include "engine/measurement_scope.h"
#include "engine/memory_tracker.h"
#include "engine/model.h"
#include "engine/step.h"
#include "engine/step_context.h"

namespace ckptlab {
namespace {

using Clock = std::chrono::steady_clock;

// Highest running total of a tracker's records from index `from` on.
std::int64_t maxTotal(const engine::MemoryTracker& tracker, std::size_t from) {
    std::int64_t best = 0;
    const auto& records = tracker.records();
    for (std::size_t i = from; i < records.size(); ++i) best = std::max(best, records[i].total);
    return best;
}

// Blocks of the chain on which a kept block's backward is timed.
constexpr int kKeptChainBlocks = 4;

// Inputs and output gradients of the measurement, from a generator of its own (generators.h).
constexpr std::uint64_t kProbeSeedOffset = 2;

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
    const auto options =
        torch::TensorOptions().dtype(engine::scalarType(config.dtype)).device(device);
    at::Generator generator = engine::makeGenerator(device, config.seed + kProbeSeedOffset);
    torch::Tensor input =
        engine::randn({config.batch, config.seq, config.width}, generator, options)
            .requires_grad_();
    torch::Tensor gradOut =
        engine::randn({config.batch, config.seq, config.width}, generator, options);
    auto clearGrads = [&] {
        input.mutable_grad().reset();
        for (auto& p : chain.parameters()) p.mutable_grad().reset();
    };
    auto ms = [](auto a, auto b) {
        return std::chrono::duration<double, std::milli>(b - a).count();
    };
    std::vector<double> kept, alone;
    for (int i = 0; i < warmup + repeats; ++i) {
        if (cancel && cancel->load()) throw engine::Cancelled();
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

// LibTorch's optimizers key their state by the parameter's TensorImpl: by its address as text
// in LibTorch 1.13 (c10::guts::to_string, gone from 2.12), by the pointer itself in 2.12.
template <typename Key>
Key optimizerStateKey(c10::TensorImpl* impl) {
    if constexpr (std::is_pointer_v<Key>) {
        return impl;
    } else {
        std::ostringstream text;  // what c10::guts::to_string wrote for a pointer
        text << impl;
        return text.str();
    }
}

// The sizes of the state `optimizer` holds for `params`, in their order and in the order its
// first step creates them (Adam: exp_avg, exp_avg_sq; SGD: a momentum buffer, if any).
std::vector<std::int64_t> stateTensors(const torch::optim::Optimizer& optimizer,
                                       const std::vector<torch::Tensor>& params) {
    std::vector<std::int64_t> sizes;
    auto add = [&](const torch::Tensor& t) {
        if (t.defined()) sizes.push_back(t.numel() * t.element_size());
    };
    for (const auto& p : params) {
        using Key = std::decay_t<decltype(optimizer.state())>::key_type;
        const auto found = optimizer.state().find(optimizerStateKey<Key>(p.unsafeGetTensorImpl()));
        if (found == optimizer.state().end()) continue;
        if (auto* adam = dynamic_cast<const torch::optim::AdamParamState*>(found->second.get())) {
            add(adam->exp_avg());
            add(adam->exp_avg_sq());
            add(adam->max_exp_avg_sq());
        } else if (auto* sgd =
                       dynamic_cast<const torch::optim::SGDParamState*>(found->second.get())) {
            add(sgd->momentum_buffer());
        }
    }
    return sizes;
}

// Turns a tracker's records into an allocation script (cost_model.h): each allocation takes the
// next number; a free names the number of the allocation at its address. Frees of memory
// allocated before the script began are left out.
class ScriptRecorder {
public:
    // Appends the records [from, to) of `tracker` to `steps`.
    void take(const engine::MemoryTracker& tracker, std::size_t from, std::size_t to,
              std::vector<AllocationStep>& steps) {
        const auto& records = tracker.records();
        for (std::size_t i = from; i < to && i < records.size(); ++i) {
            const auto& r = records[i];
            if (r.delta > 0) {
                live_[r.ptr] = next_++;
                steps.push_back({r.delta, -1});
            } else if (const auto found = live_.find(r.ptr); r.delta < 0 && found != live_.end()) {
                steps.push_back({0, found->second});
                live_.erase(found);
            }
        }
    }
    // The number of the allocation that holds `tensor`'s memory now; -1 if none.
    int numberOf(const torch::Tensor& tensor) const {
        if (!tensor.defined()) return -1;
        const auto found = live_.find(tensor.storage().data_ptr().get());
        return found == live_.end() ? -1 : found->second;
    }

private:
    std::unordered_map<const void*, int> live_;
    int next_ = 0;
};

class UnitProbe {
public:
    UnitProbe(engine::Block& block, int part, const ExperimentConfig& config,
              const torch::Device& device)
        : block_(block), part_(part), device_(device) {
        const auto options =
            torch::TensorOptions().dtype(engine::scalarType(config.dtype)).device(device);
        at::Generator generator = engine::makeGenerator(device, config.seed + kProbeSeedOffset);
        input_ = engine::randn({config.batch, config.seq, config.width}, generator, options)
                     .requires_grad_();
        gradOut_ = engine::randn({config.batch, config.seq, config.width}, generator, options);
        params_ = block.partParameters(part);
        optimizer_ = engine::makeOptimizer(config.optimizer, params_);
    }

    void clearGrads() {
        input_.mutable_grad().reset();
        for (auto& p : params_) p.mutable_grad().reset();
    }

    void sync() const {
        if (device_.is_cuda()) torch::cuda::synchronize();
    }

    UnitCost measureMemory() {
        UnitCost c;
        c.output_bytes = input_.numel() * input_.element_size();
        clearGrads();
        if (optimizer_) {  // optimizer state exists before the trace, as in the runner
            block_.forwardPart(part_, input_).backward(gradOut_);
            optimizer_->step();
            clearGrads();
            c.optimizer_state_tensors = stateTensors(*optimizer_, params_);
        }
        for (const auto& p : params_) c.parameter_tensors.push_back(p.numel() * p.element_size());
        auto tracker = std::make_shared<engine::MemoryTracker>(device_);
        {
            engine::TrackingScope scope(tracker);
            torch::Tensor y = block_.forwardPart(part_, input_);
            c.kept_bytes = tracker->total();
            c.forward_peak = maxTotal(*tracker, 0);
            const std::size_t backwardStart = tracker->records().size();
            ScriptRecorder script;
            script.take(*tracker, 0, backwardStart, c.allocations.forward);
            c.allocations.output = script.numberOf(y);
            y.backward(gradOut_);
            c.backward_peak = maxTotal(*tracker, backwardStart) - c.kept_bytes;
            script.take(*tracker, backwardStart, tracker->records().size(), c.allocations.backward);
            c.allocations.input_grad = script.numberOf(input_.grad());
            y.reset();
            for (auto& p : params_)
                c.param_grad_bytes += p.grad().numel() * p.grad().element_size();
            if (optimizer_) {
                const std::int64_t before = tracker->total();
                const std::size_t optimizerStart = tracker->records().size();
                optimizer_->step();
                c.optimizer_peak =
                    std::max<std::int64_t>(0, maxTotal(*tracker, optimizerStart) - before);
                ScriptRecorder().take(*tracker, optimizerStart, tracker->records().size(),
                                      c.allocations.optimizer);
            }
            clearGrads();
        }
        auto nograd = std::make_shared<engine::MemoryTracker>(device_);
        {
            engine::TrackingScope scope(nograd);
            torch::NoGradGuard noGrad;
            torch::Tensor y = block_.forwardPart(part_, input_);
            c.nograd_peak = maxTotal(*nograd, 0);
            ScriptRecorder script;
            script.take(*nograd, 0, nograd->records().size(), c.allocations.nograd);
            c.allocations.nograd_output = script.numberOf(y);
        }
        c.backward_peak = std::max<std::int64_t>(c.backward_peak, 0);
        return c;
    }

    // Times of one block, interleaved so that every kind sees the same machine: a forward
    // without grad, a forward with grad and its backward right after (a recomputed block's
    // case: its activations are still in the caches, its memory reused), and an optimizer
    // step. A kept block's backward is measured on a chain: measureKeptRatio above.
    void measureTimes(UnitCost& c, int warmup, int repeats, const std::atomic<bool>* cancel) {
        std::vector<double> fwd, nograd, bwd, opt;
        auto ms = [](auto a, auto b) {
            return std::chrono::duration<double, std::milli>(b - a).count();
        };
        for (int i = 0; i < warmup + repeats; ++i) {
            if (cancel && cancel->load()) throw engine::Cancelled();
            clearGrads();
            sync();
            auto t0 = Clock::now();
            {
                torch::NoGradGuard noGrad;
                block_.forwardPart(part_, input_);
            }
            sync();
            auto t1 = Clock::now();
            torch::Tensor y = block_.forwardPart(part_, input_);
            sync();
            auto t2 = Clock::now();
            y.backward(gradOut_);
            sync();
            auto t3 = Clock::now();
            if (optimizer_) optimizer_->step();
            sync();
            auto t4 = Clock::now();
            if (i < warmup) continue;
            nograd.push_back(ms(t0, t1));
            fwd.push_back(ms(t1, t2));
            bwd.push_back(ms(t2, t3));
            opt.push_back(ms(t3, t4));
        }
        c.nograd_ms = median(nograd);
        c.forward_ms = median(fwd);
        c.backward_ms = median(bwd);
        c.optimizer_ms = optimizer_ ? median(opt) : 0;
        clearGrads();
    }

private:
    engine::Block& block_;
    int part_;
    torch::Device device_;
    torch::Tensor input_, gradOut_;
    std::vector<torch::Tensor> params_;
    std::unique_ptr<torch::optim::Optimizer> optimizer_;
};

}  // namespace

constexpr int kMinCostRepeats = 5;

int costMeasurementDepth(const ExperimentConfig& config) {
    return std::min(config.depth, kKeptChainBlocks);
}

CostModel costModelAtDepth(const CostModel& measured, int depth) {
    CostModel chain = measured;
    chain.units.clear();
    const auto perBlock = static_cast<std::size_t>(std::max(1, measured.unitsPerBlock));
    if (measured.units.size() < perBlock) return chain;
    for (int b = 0; b < depth; ++b)
        chain.units.insert(chain.units.end(), measured.units.begin(),
                           measured.units.begin() + static_cast<std::ptrdiff_t>(perBlock));
    return chain;
}

CostModel measureCostModel(const ExperimentConfig& config, const std::atomic<bool>* cancel) {
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
    cost.unitsPerBlock = block.partCount();
    cost.threads = at::get_num_threads();
    cost.optimizer = config.optimizer != Optimizer::None;  // the runner steps once before
    cost.checkpoint_bytes = engine::generatorState(model.generator()).nbytes();
    if (device.is_cuda())
        cost.checkpoint_bytes = 0;  // CUDA RNG state lives on the host, not in device memory
    std::vector<UnitCost> perPart;
    for (int part = 0; part < block.partCount(); ++part) {
        UnitProbe probe(block, part, config, device);
        engine::reseed(model.generator(), config.seed + 1);
        UnitCost c = probe.measureMemory();
        // One block is cheap next to the sweep: time it at least 5 times, so a single slow
        // repeat (a page fault, a neighbour) cannot make every prediction of the sweep wrong.
        probe.measureTimes(c, std::max(1, config.warmup), std::max(kMinCostRepeats, config.repeats),
                           cancel);
        perPart.push_back(c);
    }
    if (!device.is_cuda()) {
        const double ratio = measureKeptRatio(config, device, std::max(1, config.warmup),
                                              std::max(kMinCostRepeats, config.repeats), cancel);
        for (auto& c : perPart) c.backward_kept_ms = c.backward_ms * ratio;
    }
    for (int b = 0; b < config.depth; ++b)
        for (const auto& c : perPart) cost.units.push_back(c);
    return cost;
}

}  // namespace ckptlab
