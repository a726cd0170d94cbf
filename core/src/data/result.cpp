#include "ckptlab/result.h"

namespace ckptlab {

std::string toString(Phase phase) {
    switch (phase) {
    case Phase::Forward: return "forward";
    case Phase::Loss: return "loss";
    case Phase::Recompute: return "recompute";
    case Phase::Backward: return "backward";
    case Phase::Optimizer: return "optimizer";
    case Phase::Idle: break;
    }
    return "idle";
}

std::optional<Phase> parsePhase(const std::string& text) {
    for (Phase phase : {Phase::Idle, Phase::Forward, Phase::Loss, Phase::Recompute,
                        Phase::Backward, Phase::Optimizer}) {
        if (text == toString(phase)) return phase;
    }
    return std::nullopt;
}

const RunResult* ResultSet::find(const std::string& strategy) const {
    for (const RunResult& run : runs) {
        if (run.strategy == strategy) return &run;
    }
    return nullptr;
}

}  // namespace ckptlab
