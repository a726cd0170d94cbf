// Measures the cost model on one block of the config: the allocator's view of a forward with
// and without grad, a backward and an optimizer step of each sub-block, and their times.
#include <torch/cuda.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <optional>
#include <sstream>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

#include "ckptlab/cost_model.h"
#include "ckptlab/runner.h"
#include "ckptlab/statistics.h"
#include "engine/caching_cpu_allocator.h"
#include "engine/chain_ends.h"
#include "engine/checkpoint.h"
#include "engine/generators.h"
#include "engine/measurement_scope.h"
#include "engine/memory_tracker.h"
#include "engine/model.h"
#include "engine/precision.h"
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

// Bytes of the allocations among the tracker's records before `end` that `marked` lists (by
// record index) and that are still allocated there.
std::int64_t liveBytesOf(const engine::MemoryTracker& tracker,
                         const std::unordered_set<std::size_t>& marked, std::size_t end) {
    std::unordered_map<const void*, std::int64_t> live;
    const auto& records = tracker.records();
    for (std::size_t i = 0; i < end && i < records.size(); ++i) {
        if (records[i].delta > 0 && marked.count(i) > 0)
            live[records[i].ptr] = records[i].delta;
        else if (records[i].delta < 0)
            live.erase(records[i].ptr);
    }
    std::int64_t bytes = 0;
    for (const auto& [ptr, size] : live) bytes += size;
    return bytes;
}

// Every probe's loop looks at the flag once per step it takes (a forward and its backward).
void throwIfCancelled(const std::atomic<bool>* cancel) {
    if (cancel && cancel->load(std::memory_order_relaxed)) throw engine::Cancelled();
}

// Blocks of the chain on which a kept block's backward is timed.
constexpr int kKeptChainBlocks = 4;

// Inputs and output gradients of the measurement, from a generator of its own (generators.h).
constexpr std::uint64_t kProbeSeedOffset = 2;

// Hidden states (B, S, d) in the config's stored dtype, drawn in turn from the probes' own
// generator: every probe starts it afresh, so each sees the same input and output gradient.
class HiddenDraws {
public:
    HiddenDraws(const ExperimentConfig& config, const torch::Device& device)
        : shape_{config.batch, config.seq, config.width},
          options_(torch::TensorOptions().dtype(engine::scalarType(config.dtype)).device(device)),
          generator_(engine::makeGenerator(device, config.seed + kProbeSeedOffset)) {}
    torch::Tensor next() { return engine::randn(shape_, generator_, options_); }

private:
    std::vector<std::int64_t> shape_;
    torch::TensorOptions options_;
    at::Generator generator_;
};

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

// What a probe measures: one unit of the chain (a block's part), or one of the chain's ends.
struct ProbeTarget {
    std::function<torch::Tensor(const torch::Tensor&)> forward;  // runs it on its argument
    // Its input: a unit's activations and the head's hidden states need a gradient; the
    // embedding's token ids have none.
    torch::Tensor input;
    // The gradient its output receives; undefined when the output is the loss, whose backward
    // starts from a gradient of ones created by the backward.
    torch::Tensor gradOut;
    std::vector<torch::Tensor> params;      // its own: the optimizer's, the baseline's
    std::vector<torch::Tensor> gradParams;  // whose gradients its backward makes
    // Gradients that exist before its backward (the embedding's tied weight: the head made it),
    // into which it adds in place.
    std::vector<torch::Tensor> presetGrads;
};

// One block's part: its input and its output's gradient drawn from the probe's generator.
ProbeTarget partTarget(engine::Block& block, int part, const ExperimentConfig& config,
                       const torch::Device& device) {
    HiddenDraws draws(config, device);
    ProbeTarget t;
    t.input = draws.next().requires_grad_();
    t.gradOut = draws.next();
    t.forward = [&block, part](const torch::Tensor& x) { return block.forwardPart(part, x); };
    t.params = block.partParameters(part);
    t.gradParams = t.params;
    return t;
}

// Whether the autograd engine adds a tied weight's two gradients, the head's and the
// embedding's, into a new tensor (PyTorch's aten::add) rather than into the first in place:
// LibTorch 1.13 does so in fp32 and under autocast, 2.12 in fp32 only. Seen, not assumed: a
// 3 x 5 weight used by an embedding and then, under the step's autocast, by a linear layer (so
// the head's gradient arrives first, as in the step), and the allocations of the weight's size
// its backward makes counted: the head's, the embedding's and, when it sums, the sum.
bool engineSumsTiedGradients(const std::optional<engine::AutocastState>& autocast,
                             const torch::Device& device) {
    const auto f32 = torch::TensorOptions().dtype(torch::kFloat32).device(device);
    torch::Tensor weight = torch::ones({3, 5}, f32).requires_grad_();
    const torch::Tensor tokens =
        torch::tensor({0, 2}, torch::TensorOptions().dtype(torch::kLong)).to(device);
    const torch::Tensor hidden = torch::ones({1, 5}, f32);
    auto tracker = std::make_shared<engine::MemoryTracker>(device);
    {
        engine::TrackingScope scope(tracker);
        const torch::Tensor looked = torch::embedding(weight, tokens);
        torch::Tensor head;
        {
            const engine::AutocastScope cast(autocast);
            head = torch::linear(hidden, weight);
        }
        (looked.sum() + head.to(torch::kFloat32).sum()).backward();
    }
    const std::int64_t size = weight.numel() * weight.element_size();
    int sized = 0;
    for (const auto& r : tracker->records()) sized += r.delta == size ? 1 : 0;
    return sized >= 3;
}

class UnitProbe {
public:
    UnitProbe(ProbeTarget target, const ExperimentConfig& config, const torch::Device& device)
        : target_(std::move(target)),
          device_(device),
          autocast_(engine::AutocastState::forStep(config.dtype, device)) {
        optimizer_ = engine::makeOptimizer(config.optimizer, target_.params);
    }

    void clearGrads() {
        if (target_.input.requires_grad()) target_.input.mutable_grad().reset();
        for (auto& p : target_.gradParams) p.mutable_grad().reset();
        torch::NoGradGuard noGrad;
        for (auto& p : target_.presetGrads) p.mutable_grad() = torch::zeros_like(p);
    }

    void sync() const {
        if (device_.is_cuda()) torch::cuda::synchronize();
    }

    // The forward as the step runs it: under autocast with mixed-bf16 (precision.h).
    torch::Tensor forward() { return forwardOn(target_.input); }
    torch::Tensor forwardOn(const torch::Tensor& input) {
        const engine::AutocastScope autocast(autocast_);
        return target_.forward(input);
    }

    // Whether a forward with grad keeps its input alive. The probe's input is a leaf, which
    // autograd holds anyway, so this runs on a copy that is not one, as a unit's input inside
    // the chain (the previous unit's output), and sees whether dropping the last outside
    // reference frees it.
    bool keepsInput() {
        if (!target_.input.requires_grad()) return true;
        clearGrads();
        auto tracker = std::make_shared<engine::MemoryTracker>(device_);
        bool freed = false;
        {
            engine::TrackingScope scope(tracker);
            torch::Tensor x = target_.input.clone();
            const void* address = x.storage().data_ptr().get();
            const torch::Tensor y = forwardOn(x);
            const std::size_t from = tracker->records().size();
            x.reset();
            const auto& records = tracker->records();
            for (std::size_t i = from; i < records.size(); ++i)
                freed = freed || (records[i].delta < 0 && records[i].ptr == address);
        }
        clearGrads();
        return !freed;
    }

    // The backward from `y`: the output's gradient, or for the loss a gradient of ones, as
    // loss.backward() creates; that one lives until the caller lets it go, as the step's
    // lives until its whole backward ends.
    void backward(const torch::Tensor& y) {
        if (target_.gradOut.defined()) return y.backward(target_.gradOut);
        lossGrad_ = torch::ones_like(y);
        y.backward(lossGrad_);
    }

    UnitCost measureMemory() {
        UnitCost c;
        clearGrads();
        // One step before the trace, as the runner's reference step comes before its traced
        // ones: what a module creates on its first use (a cast table) is not the step's, and
        // the optimizer's state exists.
        backward(forward());
        lossGrad_.reset();
        if (optimizer_) {
            optimizer_->step();
            c.optimizer_state_tensors = stateTensors(*optimizer_, target_.params);
        }
        clearGrads();
        for (const auto& p : target_.params)
            c.parameter_tensors.push_back(p.numel() * p.element_size());
        auto tracker = std::make_shared<engine::MemoryTracker>(device_);
        {
            engine::TrackingScope scope(tracker);
            // mixed-bf16: autocast's bf16 copies of the weights, marked as the runner's traced
            // step marks them for the breakdown; those the forward keeps are weight_copy_bytes.
            std::optional<engine::WeightCastRecorder> weightCasts;
            if (autocast_) weightCasts.emplace(tracker, weights());
            torch::Tensor y = forward();
            c.output_bytes = y.numel() * y.element_size();
            c.kept_bytes = tracker->total();
            c.forward_peak = maxTotal(*tracker, 0);
            const std::size_t backwardStart = tracker->records().size();
            if (weightCasts) {
                c.weight_copy_bytes = liveBytesOf(*tracker, weightCasts->copies(), backwardStart);
                weightCasts.reset();
            }
            ScriptRecorder script;
            script.take(*tracker, 0, backwardStart, c.allocations.forward);
            c.allocations.output = script.numberOf(y);
            backward(y);
            c.backward_peak = maxTotal(*tracker, backwardStart) - c.kept_bytes;
            script.take(*tracker, backwardStart, tracker->records().size(), c.allocations.backward);
            if (target_.input.requires_grad())
                c.allocations.input_grad = script.numberOf(target_.input.grad());
            y.reset();
            lossGrad_.reset();
            for (auto& p : target_.gradParams)
                if (p.grad().defined() && !isPreset(p))
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
            torch::Tensor y = forward();
            c.nograd_peak = maxTotal(*nograd, 0);
            ScriptRecorder script;
            script.take(*nograd, 0, nograd->records().size(), c.allocations.nograd);
            c.allocations.nograd_output = script.numberOf(y);
        }
        c.backward_peak = std::max<std::int64_t>(c.backward_peak, 0) + tiedSumBytes(c);
        return c;
    }

    // The backward of a layer unit at the top of a chain without a head: from the sum loss's
    // gradient, one value expanded to the output's shape (cost_model.h). Made before the
    // trace, as the step's loss and its gradient are not counted either.
    SumLossBackward measureSumLossBackward() {
        const torch::Tensor sumGrad =
            torch::ones({}, target_.gradOut.options()).expand(target_.gradOut.sizes());
        SumLossBackward top;
        clearGrads();
        auto tracker = std::make_shared<engine::MemoryTracker>(device_);
        {
            engine::TrackingScope scope(tracker);
            torch::Tensor y = forward();
            const std::int64_t kept = tracker->total();
            const std::size_t backwardStart = tracker->records().size();
            ScriptRecorder script;
            std::vector<AllocationStep> forwardSteps;  // numbers the backward's on from these
            script.take(*tracker, 0, backwardStart, forwardSteps);
            y.backward(sumGrad);
            top.backward_peak = std::max<std::int64_t>(maxTotal(*tracker, backwardStart) - kept, 0);
            script.take(*tracker, backwardStart, tracker->records().size(), top.backward);
            top.input_grad = script.numberOf(target_.input.grad());
            y.reset();
            clearGrads();
        }
        return top;
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
            throwIfCancelled(cancel);
            clearGrads();
            sync();
            auto t0 = Clock::now();
            {
                torch::NoGradGuard noGrad;
                forward();
            }
            sync();
            auto t1 = Clock::now();
            torch::Tensor y = forward();
            sync();
            auto t2 = Clock::now();
            backward(y);
            sync();
            auto t3 = Clock::now();
            lossGrad_.reset();
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
    // A tied weight's two gradients, the head's and the embedding's, meet in the step's
    // autograd engine, which may add them into a new tensor (PyTorch's does: an aten::add of
    // two vocab x width tensors in the embedding's backward; engineSumsTiedGradients) once the
    // embedding's backward has run and released the gradient it received. The probe's preset
    // gradient takes the embedding's in place instead, so the sum's moment is added here: a
    // weight's gradient more, less the received gradient already gone.
    std::int64_t tiedSumBytes(const UnitCost& c) const {
        std::int64_t tied = 0;
        for (const auto& p : target_.presetGrads) tied += p.numel() * p.element_size();
        if (tied == 0 || !engineSumsTiedGradients(autocast_, device_)) return 0;
        return std::max<std::int64_t>(0, tied - c.output_bytes);
    }

    // Every weight its forward reads: its own and those whose gradients it makes (the head's
    // tied weight is the embedding's parameter but the head's to cast).
    std::vector<torch::Tensor> weights() const {
        std::vector<torch::Tensor> all = target_.params;
        all.insert(all.end(), target_.gradParams.begin(), target_.gradParams.end());
        return all;
    }

    bool isPreset(const torch::Tensor& p) const {
        for (const auto& q : target_.presetGrads)
            if (q.is_same(p)) return true;
        return false;
    }

    ProbeTarget target_;
    torch::Device device_;
    std::optional<engine::AutocastState> autocast_;
    torch::Tensor lossGrad_;
    std::unique_ptr<torch::optim::Optimizer> optimizer_;
};

// The token embedding: the step's token ids in, its output's gradient drawn like a unit's.
// With tied embeddings the head's backward has made the shared weight's gradient before the
// embedding's backward runs, which then adds into it.
ProbeTarget embeddingTarget(engine::Model& model, const torch::Tensor& tokens,
                            const ExperimentConfig& config, const torch::Device& device) {
    HiddenDraws draws(config, device);
    ProbeTarget t;
    t.input = tokens;
    t.gradOut = draws.next();
    engine::TokenEmbedding& embedding = model.embedding();
    t.forward = [&embedding](const torch::Tensor& x) { return embedding.forward(x); };
    t.params = model.embeddingParameters();
    t.gradParams = t.params;
    if (model.head().tied()) t.presetGrads = t.params;
    return t;
}

// The final norm, LM head and loss (in its chunks) on hidden states drawn like a unit's input.
ProbeTarget headTarget(engine::Model& model, const torch::Tensor& targets,
                       const ExperimentConfig& config, const torch::Device& device) {
    HiddenDraws draws(config, device);
    ProbeTarget t;
    t.input = draws.next().requires_grad_();
    engine::LmHead& head = model.head();
    engine::CheckpointOptions checkpoint;
    checkpoint.generator = model.generator();
    t.forward = [&head, targets, checkpoint](const torch::Tensor& hidden) {
        return head.loss(hidden, targets, checkpoint);
    };
    t.params = model.headParameters();
    t.gradParams = head.weights();  // tied: the shared weight's gradient is made here
    return t;
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
    cost.first = measure(embeddingTarget(model, tokens, config, device));
    cost.last = measure(headTarget(model, targets, config, device));
}

}  // namespace

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
    cost.unitsPerBlock = block.partCount();
    cost.threads = at::get_num_threads();
    cost.optimizer = config.optimizer != Optimizer::None;  // the runner steps once before
    cost.checkpoint_bytes = engine::generatorState(model.generator()).nbytes();
    if (device.is_cuda())
        cost.checkpoint_bytes = 0;  // CUDA RNG state lives on the host, not in device memory
    std::vector<UnitCost> perPart;
    for (int part = 0; part < block.partCount(); ++part) {
        throwIfCancelled(cancel);  // the memory probes take steps too, also without times
        UnitProbe probe(partTarget(block, part, config, device), config, device);
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
