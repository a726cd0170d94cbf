// A unit's allocation scripts, compared and replayed for a full-size fit (fit_scripts.h).
#include "planning/fit_scripts.h"

#include <algorithm>
#include <vector>

namespace ckptlab::fit {
namespace {

bool sameStructure(const std::vector<AllocationStep>& a, const std::vector<AllocationStep>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].frees != b[i].frees) return false;
    return true;
}

// The highest sum of a script's allocations over its prefixes, above where it starts.
// `sizes` holds the bytes of every allocation numbered so far (a backward frees the
// forward's), and grows with the script's own allocations.
std::int64_t scriptPeak(const std::vector<AllocationStep>& steps,
                        std::vector<std::int64_t>& sizes) {
    std::int64_t total = 0, peak = 0;
    for (const AllocationStep& step : steps) {
        if (step.frees < 0) {
            sizes.push_back(step.bytes);
            total += step.bytes;
        } else if (step.frees < static_cast<int>(sizes.size())) {
            total -= sizes[static_cast<std::size_t>(step.frees)];
        }
        peak = std::max(peak, total);
    }
    return peak;
}

}  // namespace

bool sameScripts(const AllocationScript& a, const AllocationScript& b) {
    return sameStructure(a.forward, b.forward) && sameStructure(a.backward, b.backward) &&
           sameStructure(a.nograd, b.nograd) && sameStructure(a.optimizer, b.optimizer) &&
           a.output == b.output && a.input_grad == b.input_grad &&
           a.nograd_output == b.nograd_output;
}

ScriptPeaks peaksOf(const AllocationScript& a) {
    ScriptPeaks p;
    std::vector<std::int64_t> sizes;
    p.forward = scriptPeak(a.forward, sizes);
    p.backward = scriptPeak(a.backward, sizes);
    std::vector<std::int64_t> own;
    p.nograd = scriptPeak(a.nograd, own);
    own.clear();
    p.optimizer = scriptPeak(a.optimizer, own);
    return p;
}

ScriptPeaks measuredPeaks(const UnitCost& c) {
    return {c.forward_peak, c.backward_peak, c.nograd_peak, c.optimizer_peak};
}

}  // namespace ckptlab::fit
