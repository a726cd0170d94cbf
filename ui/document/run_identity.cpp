#include "document/run_identity.h"

#include "ckptlab/model/config_fields.h"

namespace ckptlab::ui {

bool sameExperiment(const ExperimentConfig& a, const ExperimentConfig& b) {
    return sameFields(a, b, kChangesIdentity);
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
