// The runner's pre-run check: core's checkSweep against this device's free memory, and what
// only the engine can say (whether this LibTorch has the device, bf16 on it, sdpa).
#include "engine/runner_check.h"

#include <torch/version.h>

#include "ckptlab/engine/runner.h"
#include "ckptlab/model/config_fields.h"
#include "ckptlab/planning/sweep_check.h"
#include "ckptlab/planning/sweep_memory.h"
#include "engine/precision.h"

namespace ckptlab {
namespace engine {

torch::Device resolveDevice(const std::string& name) {
    const auto index = parseDeviceIndex(name);
    if (!index)
        throw ConfigError(
            {MessageCode::DeviceUnknown, {std::to_string(limits::cudaDeviceMax), name}});
    if (*index < 0) return torch::kCPU;
    if (!torch::cuda::is_available()) throw ConfigError({MessageCode::DeviceWithoutCuda, {name}});
    const int count = static_cast<int>(torch::cuda::device_count());
    if (*index >= count)
        throw ConfigError({MessageCode::DeviceIndexTooHigh, {std::to_string(count - 1), name}});
    return torch::Device(torch::kCUDA, static_cast<c10::DeviceIndex>(*index));
}

namespace {

// The exception a refused check stands for: bad numbers are ConfigError, strategies
// StrategyError, memory MemoryError, each with checkSweep's message.
[[noreturn]] void throwRefusal(const SweepCheck& check) {
    using Verdict = SweepCheck::Verdict;
    const CoreMessage& problem = *check.problem;
    switch (check.verdict) {
    case Verdict::InvalidStrategy: throw StrategyError(problem);
    case Verdict::DoesNotFit: {
        const FitForecast& refused = check.forecasts.back().forecast;
        throw MemoryError(problem, refused.runnerPredicted, refused.available);
    }
    default: throw ConfigError(problem);
    }
}

// attention sdpa is at::scaled_dot_product_attention, which LibTorch has from 2.0
// (CKPTLAB_HAS_SDPA, core/CMakeLists.txt): refused on an older one, naming the field.
void refuseMissingSdpa(const ExperimentConfig& config) {
#ifndef CKPTLAB_HAS_SDPA
    const ConfigField* field = findConfigField("attention");
    if (config.attention == AttentionKind::Sdpa && field && fieldApplies(*field, config)) {
        const FieldError error{"attention", {MessageCode::SdpaNeedsLibTorch2, {TORCH_VERSION}}};
        throw ConfigError(error.message);
    }
#endif
}

}  // namespace

void refuseIfNoLongerFits(const ExperimentConfig& config, const std::vector<Strategy>& strategies) {
    const FitForecast f = forecastValidFit(config, strategies, availableMemory(config.device));
    if (f.refused) throw MemoryError(*f.refusal, f.runnerPredicted, f.available);
}

}  // namespace engine

SweepCheck Runner::check(const SweepRequestData& request) {
    const SweepCheck check = checkSweep(request, availableMemory);
    if (!check.ok()) engine::throwRefusal(check);
    // whether this LibTorch has it: the engine's to say
    const torch::Device device = engine::resolveDevice(request.config.device);
    // bf16 and mixed-bf16 compute in bf16: refused on a GPU without bf16 arithmetic (compute
    // capability below 8.0). The CPU always has it: LibTorch's CPU kernels emulate bf16 in fp32
    // where the CPU has no bf16 instructions (engine/precision.h).
    if (request.config.dtype != DType::Float32 && !engine::deviceHasBf16(device))
        throw ConfigError({MessageCode::DeviceWithoutBf16,
                           {toString(request.config.dtype), request.config.device}});
    engine::refuseMissingSdpa(request.config);
    return check;
}

}  // namespace ckptlab
