#include "ckptlab/model/result.h"

#include <cctype>

#include "ckptlab/model/number_text.h"
#include "ckptlab/model/size_text.h"

namespace ckptlab {

std::string toString(AllocatorSource source) {
    return source == AllocatorSource::Cuda ? "cuda" : "caching-model";
}

std::optional<AllocatorSource> parseAllocatorSource(const std::string& text) {
    if (text == "cuda") return AllocatorSource::Cuda;
    if (text == "caching-model") return AllocatorSource::CachingModel;
    return std::nullopt;
}

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
    if (block == kEmbeddingBlock) return toString(phase) + " of the embedding";
    if (block == kHeadBlock) return toString(phase) + " of the LM head";
    if (block < 0) return toString(phase);
    return toString(phase) + " of block " + std::to_string(block);
}

std::string describe(const OutOfMemory& oom) {
    // Digits enough to tell the three apart on a tiny model, where all are below 0.01 MiB.
    const std::vector<std::string> mib =
        mibTexts({oom.requested_bytes, oom.allocated_bytes, oom.limit_bytes}, 2);
    std::string text = "out of memory at " + describeWhere(oom.phase, oom.block) +
                       ": tried to allocate " + mib[0] + " MiB with " + mib[1] + " MiB allocated";
    text += oom.limit_bytes > 0 ? ", over the " + mib[2] + " MiB limit"
                                : std::string(", and the allocator failed");
    return text;
}

std::int64_t requestedBytesIn(const std::string& message) {
    std::string lower = message;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const std::string key = "tried to allocate ";
    const auto at = lower.find(key);
    if (at == std::string::npos) return 0;
    // LibTorch writes the size with a point in every locale ("2.00 GiB", "1024 bytes").
    const std::size_t from = at + key.size();
    std::size_t to = lower.find_first_not_of("0123456789.", from);
    if (to == std::string::npos) to = lower.size();
    const double value = parseDecimal(std::string_view(lower).substr(from, to - from)).value_or(-1);
    if (!(value >= 0)) return 0;
    const char* end = lower.c_str() + to;
    while (*end == ' ') ++end;
    // "bytes" and anything unknown count as bytes; each binary prefix multiplies by 1024.
    double scale = 1;
    for (const char* prefix : {"kib", "mib", "gib", "tib"}) {
        scale *= 1024;
        if (std::string(end).rfind(prefix, 0) == 0) return static_cast<std::int64_t>(value * scale);
    }
    return static_cast<std::int64_t>(value);
}

std::string toString(BlasKernelChoice choice) {
    switch (choice) {
    case BlasKernelChoice::User: return "user";
    case BlasKernelChoice::Lab: return "lab";
    case BlasKernelChoice::OpenBlas: break;
    }
    return "openblas";
}

std::optional<BlasKernelChoice> parseBlasKernelChoice(const std::string& text) {
    for (BlasKernelChoice c :
         {BlasKernelChoice::OpenBlas, BlasKernelChoice::User, BlasKernelChoice::Lab})
        if (text == toString(c)) return c;
    return std::nullopt;
}

std::string blasKernelInstructions(const std::string& kernel) {
    std::string lower;
    for (char c : kernel) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "skylakex" || lower == "cooperlake" || lower == "sapphirerapids") return "AVX-512";
    if (lower == "haswell" || lower == "zen") return "AVX2";
    if (lower == "sandybridge") return "AVX";
    return {};
}

const RunResult* ResultSet::find(const Strategy& strategy) const {
    for (const RunResult& run : runs) {
        if (run.strategy == strategy) return &run;
    }
    return nullptr;
}

const RunResult* ResultSet::find(const std::string& name) const {
    for (const RunResult& run : runs) {
        if (run.name() == name) return &run;
    }
    return nullptr;
}

}  // namespace ckptlab
