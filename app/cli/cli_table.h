#pragma once
// The summary table ckptlab-cli prints.

#include <string>

#include "ckptlab/model/result.h"

namespace ckptlab::cli {

std::string formatSummaryTable(const ResultSet& results);

}  // namespace ckptlab::cli
