#pragma once
// Summaries of measured samples, one definition for the whole project.

#include <vector>

namespace ckptlab {

// The middle value; for an even count the mean of the two middle values. 0 for no samples.
double median(std::vector<double> samples);

}  // namespace ckptlab
