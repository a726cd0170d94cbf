#pragma once
// The runner's pre-run check (Runner::check, runner.h) and what the runs reuse of it.

#include <torch/torch.h>

#include <string>
#include <vector>

#include "ckptlab/model/config.h"
#include "ckptlab/model/strategy.h"

namespace ckptlab::engine {

// The LibTorch device of a config's device string; throws ConfigError for one this build or
// machine does not have.
torch::Device resolveDevice(const std::string& name);

// A config the request's check passed, forecast again against the memory free now (an
// earlier size of a scaling sweep may have taken it); throws MemoryError.
void refuseIfNoLongerFits(const ExperimentConfig& config, const std::vector<Strategy>& strategies);

}  // namespace ckptlab::engine
