#pragma once
// Sizes in a message that compares them ("needs 0.038 MiB but only 0.0010 MiB are left"): in
// MiB with as many decimals as it takes to show each one and to tell them apart, never
// "0.0 MiB is below ... needs 0.0 MiB". The digits are the classic locale's (number_text.h).

#include <cstdint>
#include <string>
#include <vector>

namespace ckptlab {

// Each byte count in MiB with the same number of decimals: at least `minDecimals`, more until
// every non-zero size shows two significant digits and unequal sizes read differently, at
// most 6 (about a byte).
std::vector<std::string> mibTexts(const std::vector<std::int64_t>& bytes, int minDecimals = 1);

// One size alone: mibTexts({bytes}, minDecimals).front().
std::string mibText(std::int64_t bytes, int minDecimals = 1);

}  // namespace ckptlab
