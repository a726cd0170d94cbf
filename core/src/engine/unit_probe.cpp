// One unit measured on its own (unit_probe.h): memory from the tracker's records of its
// forward, backward and optimizer step, and interleaved times.
#include "engine/unit_probe.h"

#include <torch/cuda.h>

#include <algorithm>
#include <chrono>
#include <sstream>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

#include "ckptlab/model/statistics.h"
#include "engine/chain_ends.h"
#include "engine/checkpoint.h"
#include "engine/memory_tracker.h"

namespace ckptlab::engine {
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

}  // namespace

// Every probe's loop looks at the flag once per step it takes (a forward and its backward).
void throwIfCancelled(const std::atomic<bool>* cancel) {
    if (cancel && cancel->load(std::memory_order_relaxed)) throw engine::Cancelled();
}

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

void UnitProbe::clearGrads() {
    if (target_.input.requires_grad()) target_.input.mutable_grad().reset();
    for (auto& p : target_.gradParams) p.mutable_grad().reset();
    torch::NoGradGuard noGrad;
    for (auto& p : target_.presetGrads) p.mutable_grad() = torch::zeros_like(p);
}

void UnitProbe::sync() const {
    if (device_.is_cuda()) torch::cuda::synchronize();
}

torch::Tensor UnitProbe::forwardOn(const torch::Tensor& input) {
    const engine::AutocastScope autocast(autocast_);
    return target_.forward(input);
}

bool UnitProbe::keepsInput() {
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

void UnitProbe::backward(const torch::Tensor& y) {
    if (target_.gradOut.defined()) return y.backward(target_.gradOut);
    lossGrad_ = torch::ones_like(y);
    y.backward(lossGrad_);
}

UnitCost UnitProbe::measureMemory() {
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

SumLossBackward UnitProbe::measureSumLossBackward() {
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

void UnitProbe::measureTimes(UnitCost& c, int warmup, int repeats,
                             const std::atomic<bool>* cancel) {
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

std::int64_t UnitProbe::tiedSumBytes(const UnitCost& c) const {
    std::int64_t tied = 0;
    for (const auto& p : target_.presetGrads) tied += p.numel() * p.element_size();
    if (tied == 0 || !engineSumsTiedGradients(autocast_, device_)) return 0;
    return std::max<std::int64_t>(0, tied - c.output_bytes);
}

std::vector<torch::Tensor> UnitProbe::weights() const {
    std::vector<torch::Tensor> all = target_.params;
    all.insert(all.end(), target_.gradParams.begin(), target_.gradParams.end());
    return all;
}

bool UnitProbe::isPreset(const torch::Tensor& p) const {
    for (const auto& q : target_.presetGrads)
        if (q.is_same(p)) return true;
    return false;
}

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

}  // namespace ckptlab::engine
