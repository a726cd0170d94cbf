#include "ckptlab/strategy.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

namespace ckptlab {
namespace {

struct KindInfo {
    StrategyKind kind;
    const char* name;
    bool hasParam;
};

const KindInfo kKinds[] = {
    {StrategyKind::None, "none", false},        {StrategyKind::Full, "full", false},
    {StrategyKind::Every, "every", true},       {StrategyKind::Segments, "segments", true},
    {StrategyKind::From, "from", true},         {StrategyKind::Sqrt, "sqrt", false},
    {StrategyKind::Attn, "attn", false},        {StrategyKind::FfnOnly, "ffn", false},
    {StrategyKind::SeedBug, "seed-bug", true},  {StrategyKind::Optimal, "optimal", true},
    {StrategyKind::Revolve, "revolve", true},
};

const KindInfo& infoFor(StrategyKind kind) {
    for (const auto& info : kKinds)
        if (info.kind == kind) return info;
    return kKinds[0];
}

// Parses a whole decimal integer, rejecting signs other than '-', blanks and trailing text.
bool parseInt(const std::string& text, long long& value) {
    if (text.empty() || text.size() > 9) return false;
    std::size_t i = text[0] == '-' ? 1 : 0;
    if (i == text.size()) return false;
    for (std::size_t j = i; j < text.size(); ++j)
        if (!std::isdigit(static_cast<unsigned char>(text[j]))) return false;
    value = std::stoll(text);
    return true;
}

}  // namespace


std::string Strategy::name() const {
    const auto& info = infoFor(kind);
    if (kind == StrategyKind::Optimal) {
        char text[48];
        std::snprintf(text, sizeof text, "optimal:%.10g", budget_mib);
        return text;
    }
    return info.hasParam ? std::string(info.name) + ":" + std::to_string(param) : info.name;
}

Strategy parseStrategy(const std::string& text, int depth, BlockKind block) {
    const auto colon = text.find(':');
    const std::string head = text.substr(0, colon);
    const KindInfo* info = nullptr;
    for (const auto& candidate : kKinds)
        if (head == candidate.name) info = &candidate;
    if (!info) {
        throw StrategyError("unknown strategy \"" + text +
                            "\" (known: none, full, every:N, segments:K, from:K, sqrt, attn, "
                            "ffn, seed-bug:K, optimal:MiB, revolve:S)");
    }
    Strategy strategy{info->kind, 0};
    if (!info->hasParam) {
        if (colon != std::string::npos)
            throw StrategyError("strategy \"" + head + "\" takes no parameter (got \"" + text +
                                "\")");
    } else if (info->kind == StrategyKind::Optimal) {
        const std::string number = colon == std::string::npos ? "" : text.substr(colon + 1);
        char* end = nullptr;
        const double mib = number.empty() ? 0.0 : std::strtod(number.c_str(), &end);
        if (number.empty() || *end != '\0' || !(mib >= 1.0 / 1024) || mib > 1e7) {
            throw StrategyError("optimal:MiB needs a memory budget between 0.001 and 10000000 "
                                "MiB above the step's start, e.g. optimal:64 (got \"" + text +
                                "\")");
        }
        strategy.budget_mib = mib;
    } else {
        long long value = 0;
        if (colon == std::string::npos || !parseInt(text.substr(colon + 1), value)) {
            throw StrategyError("strategy \"" + head + "\" needs an integer parameter, e.g. " +
                                head + ":2 (got \"" + text + "\")");
        }
        long long min = 1, max = depth;
        if (info->kind == StrategyKind::From) min = 0, max = depth - 1;
        if (info->kind == StrategyKind::SeedBug) min = 2;
        if (value < min || value > max) {
            throw StrategyError(head + ":N needs N between " + std::to_string(min) + " and " +
                                std::to_string(max) + " for depth " + std::to_string(depth) +
                                " (got " + std::to_string(value) + ")");
        }
        strategy.param = static_cast<int>(value);
    }
    if ((info->kind == StrategyKind::Attn || info->kind == StrategyKind::FfnOnly) &&
        block != BlockKind::Transformer) {
        throw StrategyError("strategy \"" + head +
                            "\" checkpoints a sub-block of the transformer block; use block "
                            "transformer");
    }
    return strategy;
}


std::vector<std::string> presetNames() {
    return {"seed-tradeoff", "experiment-1", "experiment-2", "experiment-3"};
}

std::vector<std::string> presetStrategies(const std::string& preset) {
    static const std::map<std::string, std::vector<std::string>> presets = {
        {"seed-tradeoff", {"none", "full", "every:2", "every:4", "segments:4", "from:10"}},
        {"experiment-1", {"none", "every:1", "every:2", "every:4", "every:8"}},
        {"experiment-2", {"none", "segments:1", "segments:2", "segments:4", "segments:10",
                          "segments:20"}},
        {"experiment-3", {"none", "from:0", "from:5", "from:10", "from:15"}},
    };
    auto it = presets.find(preset);
    return it == presets.end() ? std::vector<std::string>{} : it->second;
}

std::string strategySyntaxHelp() {
    return "none          keep every activation (the baseline)\n"
           "full          checkpoint every block\n"
           "every:N       checkpoint blocks 0, N, 2N, ... (seed experiment 1)\n"
           "segments:K    K contiguous checkpointed segments (seed experiment 2)\n"
           "from:K        checkpoint blocks K.. only (seed experiment 3)\n"
           "sqrt          ceil(sqrt(L)) segments (Chen et al. 2016)\n"
           "attn          transformer: checkpoint only the attention sub-block\n"
           "ffn           transformer: checkpoint only the FFN sub-block\n"
           "seed-bug:K    segments with the tutorial's closure bug (fails the gradient check)\n"
           "optimal:MiB   fastest schedule whose predicted peak fits MiB (dynamic program)\n"
           "revolve:S     Griewank's binomial schedule with S stored states\n";
}

}  // namespace ckptlab
