#include "document/run_identity.h"

#include <tuple>

namespace ckptlab::ui {

namespace {

auto fields(const ExperimentConfig& c) {
    return std::tie(c.block, c.depth, c.width, c.seq, c.batch, c.heads, c.dropout, c.dtype,
                    c.device, c.optimizer, c.seed, c.threads, c.warmup, c.repeats,
                    c.repeats_auto, c.time_limit_s, c.memory_limit_mib, c.keep_grads);
}

}  // namespace

bool sameExperiment(const ExperimentConfig& a, const ExperimentConfig& b) {
    return fields(a) == fields(b);
}

int waitingRunFor(const std::vector<RunResult>& runs, const std::vector<bool>& waiting,
                  const RunResult& complete) {
    for (size_t i = 0; i < runs.size() && i < waiting.size(); ++i)
        if (waiting[i] && runs[i].strategy == complete.strategy &&
            sameExperiment(runs[i].config, complete.config))
            return int(i);
    return -1;
}

}  // namespace ckptlab::ui
