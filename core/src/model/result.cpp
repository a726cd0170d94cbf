#include "ckptlab/result.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>

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
    for (Phase phase : {Phase::Idle, Phase::Forward, Phase::Loss, Phase::Recompute, Phase::Backward,
                        Phase::Optimizer}) {
        if (text == toString(phase)) return phase;
    }
    return std::nullopt;
}

std::string describeWhere(Phase phase, int block) {
    if (block < 0) return toString(phase);
    return toString(phase) + " of block " + std::to_string(block);
}

std::string describe(const OutOfMemory& oom) {
    auto mib = [](std::int64_t bytes) {
        char text[48];
        std::snprintf(text, sizeof text, "%.2f MiB",
                      static_cast<double>(bytes) / (1024.0 * 1024.0));
        return std::string(text);
    };
    std::string text = "out of memory at " + describeWhere(oom.phase, oom.block) +
                       ": tried to allocate " + mib(oom.requested_bytes) + " with " +
                       mib(oom.allocated_bytes) + " allocated";
    text += oom.limit_bytes > 0 ? ", over the " + mib(oom.limit_bytes) + " limit"
                                : std::string(", and the allocator failed");
    return text;
}

std::int64_t requestedBytesIn(const std::string& message) {
    std::string lower = message;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::string key = "tried to allocate ";
    const auto at = lower.find(key);
    if (at == std::string::npos) return 0;
    char* end = nullptr;
    const char* number = lower.c_str() + at + key.size();
    const double value = std::strtod(number, &end);
    if (end == number || !(value >= 0)) return 0;
    while (*end == ' ') ++end;
    // "bytes" and anything unknown count as bytes; each binary prefix multiplies by 1024.
    double scale = 1;
    for (const char* prefix : {"kib", "mib", "gib", "tib"}) {
        scale *= 1024;
        if (std::string(end).rfind(prefix, 0) == 0) return static_cast<std::int64_t>(value * scale);
    }
    return static_cast<std::int64_t>(value);
}

const RunResult* ResultSet::find(const std::string& strategy) const {
    for (const RunResult& run : runs) {
        if (run.strategy == strategy) return &run;
    }
    return nullptr;
}

}  // namespace ckptlab
