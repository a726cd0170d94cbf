#pragma once
// The training precision (ExperimentConfig::dtype) in the engine. fp32 and bf16 store and
// compute in one dtype. mixed-bf16 keeps fp32 master weights, input and optimizer state and
// computes the forward in bf16 under LibTorch's autocast, as a PyTorch script does with
// `with torch.autocast(device_type, dtype=torch.bfloat16):` around its forward and loss; the
// backward runs outside it and autocast's casts send the gradients back to the fp32 weights.
// Here: the dtypes per precision, the autocast state a checkpoint captures and restores, the
// scope a step's forward runs in, and the recorder of autocast's bf16 copies of the weights.

#include <torch/torch.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_set>
#include <vector>

#include "ckptlab/model/config.h"
#include "engine/memory_tracker.h"

namespace ckptlab::engine {

// Whether the forward runs under autocast (mixed-bf16).
bool usesAutocast(DType dtype);
// Whether `device` computes in bf16: the CPU always can (LibTorch emulates bf16 arithmetic in
// fp32 where the CPU has no bf16 instructions), a CUDA GPU from compute capability 8.0 on.
bool deviceHasBf16(const torch::Device& device);

// Autocast's thread-local switches, as torch.utils.checkpoint saves them in its forward.
struct AutocastState {
    bool cpuEnabled = false;
    at::ScalarType cpuDtype = at::kBFloat16;
    bool cudaEnabled = false;
    at::ScalarType cudaDtype = at::kHalf;
    bool cacheEnabled = true;

    static AutocastState current();
    // mixed-bf16's: autocast to bf16 on `device`'s type; nullopt for the other precisions.
    static std::optional<AutocastState> forStep(DType dtype, const torch::Device& device);
    bool anyEnabled() const { return cpuEnabled || cudaEnabled; }
    bool operator==(const AutocastState& other) const;
    bool operator!=(const AutocastState& other) const { return !(*this == other); }
};

// `with torch.autocast(...)`: sets `state` and counts one nesting level; its end puts the
// previous state back and, when it was the outermost level, clears autocast's cache of cast
// weights, as autocast's __exit__ does. Without a state it does nothing.
class AutocastScope {
public:
    explicit AutocastScope(const std::optional<AutocastState>& state);
    ~AutocastScope() { end(); }
    AutocastScope(const AutocastScope&) = delete;
    AutocastScope& operator=(const AutocastScope&) = delete;

    // Ends the scope before its destructor (the step's backward runs outside it); once.
    void end();

private:
    AutocastState previous_;
    bool active_ = false;
};

// Marks the allocations that hold autocast's copies of `weights`: while installed, a
// RecordFunction callback sees every aten::_to_copy whose input is one of them or a view of one
// (LibTorch's C++ linear casts `weight.t()`, which autocast does not cache) and finds the
// allocation of its output among `tracker`'s records. On this thread and those that inherit its
// thread-local state (the autograd engine's), for the tracker installed there (TrackingScope).
class WeightCastRecorder {
public:
    WeightCastRecorder(std::shared_ptr<MemoryTracker> tracker,
                       const std::vector<torch::Tensor>& weights);
    ~WeightCastRecorder();
    WeightCastRecorder(const WeightCastRecorder&) = delete;
    WeightCastRecorder& operator=(const WeightCastRecorder&) = delete;

    // Indices into the tracker's records() of the copies' allocations.
    std::unordered_set<std::size_t> copies() const;

    // For the callback.
    const MemoryTracker* tracker() const { return tracker_.get(); }
    bool isWeight(const at::Tensor& tensor) const {
        return tensor.has_storage() && weights_.count(tensor.storage().unsafeGetStorageImpl()) > 0;
    }
    void found(std::size_t record);

private:
    std::shared_ptr<MemoryTracker> tracker_;
    std::unordered_set<const c10::StorageImpl*> weights_;  // the weights' storages
    mutable std::mutex mutex_;
    std::unordered_set<std::size_t> copies_;
    std::uint64_t handle_ = 0;
};

}  // namespace ckptlab::engine
