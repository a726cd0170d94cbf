// at::RecordFunction has a member only where NDEBUG is undefined (ATen/record_function.h), and
// LibTorch's libraries are built with NDEBUG: a debug or sanitizer build of this file would read
// the callbacks' RecordFunction (its name, its inputs) at the wrong offsets. So this file always
// sees the layout the library has (core/CMakeLists.txt also keeps the precompiled header out).
#ifndef NDEBUG
#define NDEBUG
#endif

#include "engine/precision.h"

#include <ATen/autocast_mode.h>
#include <ATen/record_function.h>
#include <c10/util/ThreadLocalDebugInfo.h>
#include <torch/version.h>

#include <algorithm>
#include <cstring>

#ifdef CKPTLAB_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>
#endif

// LibTorch 2.4 replaced autocast's per-device functions (set_cpu_enabled, get_autocast_gpu_dtype,
// ...) by ones that take the device type; 1.13 has only the former.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
#define CKPTLAB_AUTOCAST_BY_DEVICE_TYPE 1
#endif

namespace ckptlab::engine {
namespace {

bool autocastEnabled(c10::DeviceType type) {
#ifdef CKPTLAB_AUTOCAST_BY_DEVICE_TYPE
    return at::autocast::is_autocast_enabled(type);
#else
    return type == c10::DeviceType::CPU ? at::autocast::is_cpu_enabled()
                                        : at::autocast::is_enabled();
#endif
}

at::ScalarType autocastDtype(c10::DeviceType type) {
#ifdef CKPTLAB_AUTOCAST_BY_DEVICE_TYPE
    return at::autocast::get_autocast_dtype(type);
#else
    return type == c10::DeviceType::CPU ? at::autocast::get_autocast_cpu_dtype()
                                        : at::autocast::get_autocast_gpu_dtype();
#endif
}

void setAutocast(c10::DeviceType type, bool enabled, at::ScalarType dtype) {
#ifdef CKPTLAB_AUTOCAST_BY_DEVICE_TYPE
    at::autocast::set_autocast_enabled(type, enabled);
    at::autocast::set_autocast_dtype(type, dtype);
#else
    if (type == c10::DeviceType::CPU) {
        at::autocast::set_cpu_enabled(enabled);
        at::autocast::set_autocast_cpu_dtype(dtype);
    } else {
        at::autocast::set_enabled(enabled);
        at::autocast::set_autocast_gpu_dtype(dtype);
    }
#endif
}

void apply(const AutocastState& state) {
    setAutocast(c10::DeviceType::CPU, state.cpuEnabled, state.cpuDtype);
    setAutocast(c10::DeviceType::CUDA, state.cudaEnabled, state.cudaDtype);
    at::autocast::set_autocast_cache_enabled(state.cacheEnabled);
}

// The recorders installed now, found by the tracker of the thread a cast runs on: a thread-local
// RecordFunction callback takes no argument, and the autograd engine's threads see the
// tracker (TrackingScope) the step installed.
std::mutex registryMutex;
std::vector<WeightCastRecorder*> registry;

WeightCastRecorder* recorderOfThisThread() {
    const c10::DebugInfoBase* info =
        c10::ThreadLocalDebugInfo::get(c10::DebugInfoKind::PROFILER_STATE);
    if (!info) return nullptr;
    const std::lock_guard<std::mutex> lock(registryMutex);
    for (WeightCastRecorder* recorder : registry)
        if (static_cast<const c10::DebugInfoBase*>(recorder->tracker()) == info) return recorder;
    return nullptr;
}

// A cast of a weight in flight: where the tracker's records stood when it began.
struct CastInFlight : at::ObserverContext {
    CastInFlight(WeightCastRecorder* recorder, std::size_t from) : recorder(recorder), from(from) {}
    WeightCastRecorder* recorder;
    std::size_t from;
};

// Autocast casts with `arg.to(dtype)`, which runs aten::_to_copy on the weight (a leaf that
// requires grad: autocast caches that copy) or on a view of it (not cached: a copy per use).
std::unique_ptr<at::ObserverContext> onCastStart(const at::RecordFunction& fn) {
    if (std::strcmp(fn.name(), "aten::_to_copy") != 0) return nullptr;
    const auto inputs = fn.inputs();
    if (inputs.empty() || !inputs[0].isTensor()) return nullptr;
    WeightCastRecorder* recorder = recorderOfThisThread();
    if (!recorder || !recorder->isWeight(inputs[0].toTensor())) return nullptr;
    return std::make_unique<CastInFlight>(recorder, recorder->tracker()->recordCount());
}

void onCastEnd(const at::RecordFunction& fn, at::ObserverContext* context) {
    if (!context) return;
    const auto* cast = static_cast<const CastInFlight*>(context);
    const auto& outputs = fn.outputs();
    if (outputs.empty() || !outputs[0].isTensor()) return;
    const at::Tensor copy = outputs[0].toTensor();
    if (!copy.defined() || !copy.has_storage()) return;
    if (const auto record =
            cast->recorder->tracker()->allocationOf(copy.storage().data(), cast->from))
        cast->recorder->found(*record);
}

}  // namespace

bool usesAutocast(DType dtype) { return dtype == DType::MixedBFloat16; }

bool deviceHasBf16(const torch::Device& device) {
    // LibTorch's CPU kernels take bf16 on every CPU: without AVX512-BF16 or AMX they convert to
    // fp32 and back, slower but the same arithmetic.
    if (!device.is_cuda()) return true;
#ifdef CKPTLAB_WITH_CUDA
    // bf16 tensor-core arithmetic starts with Ampere (compute capability 8.0).
    return at::cuda::getDeviceProperties(device.has_index() ? device.index() : 0)->major >= 8;
#else
    return false;  // no CUDA in this LibTorch: resolving the device refuses it first
#endif
}

AutocastState AutocastState::current() {
    AutocastState state;
    state.cpuEnabled = autocastEnabled(c10::DeviceType::CPU);
    state.cpuDtype = autocastDtype(c10::DeviceType::CPU);
    state.cudaEnabled = autocastEnabled(c10::DeviceType::CUDA);
    state.cudaDtype = autocastDtype(c10::DeviceType::CUDA);
    state.cacheEnabled = at::autocast::is_autocast_cache_enabled();
    return state;
}

std::optional<AutocastState> AutocastState::forStep(DType dtype, const torch::Device& device) {
    if (!usesAutocast(dtype)) return std::nullopt;
    AutocastState state = current();
    if (device.is_cuda()) {
        state.cudaEnabled = true;
        state.cudaDtype = at::kBFloat16;
    } else {
        state.cpuEnabled = true;
        state.cpuDtype = at::kBFloat16;
    }
    state.cacheEnabled = true;
    return state;
}

bool AutocastState::operator==(const AutocastState& other) const {
    return cpuEnabled == other.cpuEnabled && cpuDtype == other.cpuDtype &&
           cudaEnabled == other.cudaEnabled && cudaDtype == other.cudaDtype &&
           cacheEnabled == other.cacheEnabled;
}

AutocastScope::AutocastScope(const std::optional<AutocastState>& state) {
    if (!state) return;
    previous_ = AutocastState::current();
    apply(*state);
    at::autocast::increment_nesting();
    active_ = true;
}

void AutocastScope::end() {
    if (!active_) return;
    active_ = false;
    if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
    apply(previous_);
}

WeightCastRecorder::WeightCastRecorder(std::shared_ptr<MemoryTracker> tracker,
                                       const std::vector<torch::Tensor>& weights)
    : tracker_(std::move(tracker)) {
    for (const auto& w : weights)
        if (w.has_storage()) weights_.insert(w.storage().unsafeGetStorageImpl());
    {
        const std::lock_guard<std::mutex> lock(registryMutex);
        registry.push_back(this);
    }
    // FUNCTION scope only: the autograd engine's nodes (BACKWARD_FUNCTION) must not have their
    // inputs held, or AccumulateGrad could no longer steal a gradient it alone holds.
    handle_ = at::addThreadLocalCallback(at::RecordFunctionCallback(onCastStart, onCastEnd)
                                             .needsInputs(true)
                                             .needsOutputs(true)
                                             .scopes({at::RecordScope::FUNCTION}));
}

WeightCastRecorder::~WeightCastRecorder() {
    at::removeCallback(handle_);
    const std::lock_guard<std::mutex> lock(registryMutex);
    registry.erase(std::remove(registry.begin(), registry.end(), this), registry.end());
}

void WeightCastRecorder::found(std::size_t record) {
    const std::lock_guard<std::mutex> lock(mutex_);
    copies_.insert(record);
}

std::unordered_set<std::size_t> WeightCastRecorder::copies() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return copies_;
}

}  // namespace ckptlab::engine
