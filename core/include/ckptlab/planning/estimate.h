#pragma once
// Memory a config needs, predicted before anything runs, and the memory there is.

#include <cstdint>
#include <string>

#include "ckptlab/model/config.h"
#include "ckptlab/model/strategy.h"

namespace ckptlab {

struct MemoryEstimate {
    std::int64_t parameters = 0;
    std::int64_t input = 0;
    std::int64_t optimizer_state = 0;
    std::int64_t activations = 0;  // saved at the end of forward
    std::int64_t peak = 0;         // above the step's start
    // Saturates (saturating.h): a size past 2^63 reads as "does not fit", never wraps.
    std::int64_t total() const;
};

MemoryEstimate estimateMemory(const ExperimentConfig& config, const Plan& plan);

// availableMemory, which asks the device, is declared in runner.h.

}  // namespace ckptlab
