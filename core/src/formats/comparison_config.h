#pragma once
// The config side of a comparison (comparison.cpp): which config fields differ between the
// files, and in which fields of the work two runs differ. Every field of config_fields.h is
// compared; the ones that change the work come first.

#include <string>
#include <vector>

#include "ckptlab/formats/comparison.h"

namespace ckptlab::detail {

// The configs a file holds: each run's, or its full-size plan's; none for an empty file.
std::vector<const ExperimentConfig*> configsOf(const ComparisonInput& input);

// Threads a file ran with: what LibTorch reported, else what was asked for ("default" for 0).
std::string threadsOf(const ComparisonInput& input);

// The fields whose values are not the same in every file, each file's values joined
// ("16,32,64" where a scaling sweep varies one), the work's fields first.
std::vector<ConfigDifference> findDifferences(const std::vector<ComparisonInput>& inputs);

// The fields of the work in which two runs differ, as "seq (128 vs 64)".
std::vector<std::string> workDifferences(const ExperimentConfig& run, const ExperimentConfig& ref);

}  // namespace ckptlab::detail
