// The one set of defaults of a full-size plan (full_size.h), for the CLI and the app.
#include "ckptlab/planning/full_size.h"

namespace ckptlab {

void applyFullSizeDefaults(ExperimentConfig& config,
                           const std::function<bool(const std::string& key)>& given) {
    auto unless = [&](const char* key) { return !given || !given(key); };
    if (unless("seq")) config.seq = kFullSizeSeq;
    if (unless("batch")) config.batch = kFullSizeBatch;
    if (unless("optimizer")) config.optimizer = kFullSizeOptimizer;
}

std::string fullSizeDefaultsText() {
    std::string optimizer = toString(kFullSizeOptimizer);
    if (!optimizer.empty()) optimizer[0] = static_cast<char>(optimizer[0] - 'a' + 'A');
    return optimizer + ", batch " + std::to_string(kFullSizeBatch) + ", sequence " +
           std::to_string(kFullSizeSeq);
}

}  // namespace ckptlab
