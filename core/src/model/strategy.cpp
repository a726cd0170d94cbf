#include "ckptlab/strategy.h"

#include <cctype>
#include <cmath>
#include <map>

#include "ckptlab/number_text.h"
#include "ckptlab/result.h"

namespace ckptlab {
namespace {

struct KindInfo {
    StrategyKind kind;
    const char* name;
    bool hasParam;
    double defaultValue;  // the parameter strategyCatalog() offers (a budget in MiB for optimal)
};

// In the order the app's strategy table lists them (strategyCatalog).
const KindInfo kKinds[] = {
    {StrategyKind::None, "none", false, 0},       {StrategyKind::Full, "full", false, 0},
    {StrategyKind::Every, "every", true, 2},      {StrategyKind::Segments, "segments", true, 4},
    {StrategyKind::From, "from", true, 10},       {StrategyKind::UpTo, "upto", true, 10},
    {StrategyKind::Sqrt, "sqrt", false, 0},       {StrategyKind::Attn, "attn", false, 0},
    {StrategyKind::FfnOnly, "ffn", false, 0},     {StrategyKind::Revolve, "revolve", true, 3},
    {StrategyKind::SeedBug, "seed-bug", true, 4}, {StrategyKind::Optimal, "optimal", true, 48},
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
    const auto parsed = parseInteger(text);
    if (!parsed) return false;
    value = *parsed;
    return true;
}

}  // namespace

std::string Strategy::name() const {
    const auto& info = infoFor(kind);
    if (kind == StrategyKind::Optimal) {
        // The classic locale's point, so that the name reads back under any locale.
        return "optimal:" + formatGeneral(budget_mib, 10);
    }
    return info.hasParam ? std::string(info.name) + ":" + std::to_string(param) : info.name;
}

namespace {

const KindInfo* infoByName(const std::string& head) {
    for (const auto& candidate : kKinds)
        if (head == candidate.name) return &candidate;
    return nullptr;
}

// The text form: the kind, and its parameter's syntax (an optimal budget's range too, which
// does not depend on the model). Throws StrategyError.
Strategy parseForm(const std::string& text) {
    const auto colon = text.find(':');
    const std::string head = text.substr(0, colon);
    const KindInfo* info = infoByName(head);
    if (!info) {
        throw StrategyError(
            "unknown strategy \"" + text +
            "\" (known: none, full, every:N, segments:K, from:K, upto:K, sqrt, attn, "
            "ffn, seed-bug:K, optimal:MiB, revolve:S)");
    }
    Strategy strategy{info->kind, 0};
    if (!info->hasParam) {
        if (colon != std::string::npos)
            throw StrategyError("strategy \"" + head + "\" takes no parameter (got \"" + text +
                                "\")");
    } else if (info->kind == StrategyKind::Optimal) {
        const std::string number = colon == std::string::npos ? "" : text.substr(colon + 1);
        const double mib = parseDecimal(number).value_or(0.0);
        if (!(mib >= 1.0 / 1024) || mib > 1e7) {
            throw StrategyError(
                "optimal:MiB needs a memory budget between 0.001 and 10000000 "
                "MiB above the step's start, e.g. optimal:64 (got \"" +
                text + "\")");
        }
        strategy.budget_mib = mib;
    } else {
        long long value = 0;
        // At most 9 characters: always an int.
        if (colon == std::string::npos || !parseInt(text.substr(colon + 1), value)) {
            throw StrategyError("strategy \"" + head + "\" needs an integer parameter, e.g. " +
                                head + ":2 (got \"" + text + "\")");
        }
        strategy.param = static_cast<int>(value);
    }
    return strategy;
}

}  // namespace

void checkStrategy(const Strategy& strategy, int depth, BlockKind block) {
    const KindInfo& info = infoFor(strategy.kind);
    const std::string head = info.name;
    if (info.hasParam && strategy.kind != StrategyKind::Optimal) {
        long long min = 1, max = depth;
        if (strategy.kind == StrategyKind::From) min = 0, max = depth - 1;
        if (strategy.kind == StrategyKind::SeedBug) min = 2;
        const long long value = strategy.param;
        if (value < min || value > max) {
            throw StrategyError(head + ":N needs N between " + std::to_string(min) + " and " +
                                std::to_string(max) + " for depth " + std::to_string(depth) +
                                " (got " + std::to_string(value) + ")");
        }
    }
    if ((strategy.kind == StrategyKind::Attn || strategy.kind == StrategyKind::FfnOnly) &&
        block != BlockKind::Transformer) {
        throw StrategyError("strategy \"" + head +
                            "\" checkpoints a sub-block of the transformer block; use block "
                            "transformer");
    }
}

Strategy parseStrategy(const std::string& text, int depth, BlockKind block) {
    const Strategy strategy = parseForm(text);
    checkStrategy(strategy, depth, block);
    return strategy;
}

std::optional<Strategy> parseStrategyForm(const std::string& text, std::string* error) {
    try {
        return parseForm(text);
    } catch (const StrategyError& e) {
        if (error) *error = e.what();
        return std::nullopt;
    }
}

std::string kindName(StrategyKind kind) { return infoFor(kind).name; }

bool takesParam(StrategyKind kind) { return infoFor(kind).hasParam; }

Strategy makeStrategy(StrategyKind kind, double value) {
    Strategy s{kind, 0};
    if (kind == StrategyKind::Optimal)
        s.budget_mib = value;
    else if (takesParam(kind))
        s.param = static_cast<int>(value);
    return s;
}

std::vector<Strategy> strategyCatalog() {
    std::vector<Strategy> all;
    for (const auto& info : kKinds) all.push_back(makeStrategy(info.kind, info.defaultValue));
    return all;
}

double paramOf(const Strategy& s) {
    if (s.kind == StrategyKind::Optimal) return s.budget_mib;
    return takesParam(s.kind) ? s.param : 0;
}

std::optional<Strategy> tryParseStrategy(const std::string& text, int depth, BlockKind block,
                                         std::string* error) {
    try {
        return parseStrategy(text, depth, block);
    } catch (const StrategyError& e) {
        if (error) *error = e.what();
        return std::nullopt;
    }
}

std::optional<Strategy> strategyOf(const RunResult& run) {
    return tryParseStrategy(run.strategy, run.config.depth, run.config.block);
}

bool isComputedSchedule(const Strategy& s) {
    return s.kind == StrategyKind::Optimal || s.kind == StrategyKind::Revolve;
}

bool needsCostModel(const Strategy& s) { return s.kind == StrategyKind::Optimal; }

bool hasMemoryBudget(const Strategy& s) { return s.kind == StrategyKind::Optimal; }

std::int64_t budgetBytes(const Strategy& s) {
    return hasMemoryBudget(s) ? static_cast<std::int64_t>(s.budget_mib * 1024 * 1024) : 0;
}

bool isBaseline(const Strategy& s) { return s.kind == StrategyKind::None; }

bool startsWithKeptGradients(const ExperimentConfig& config, const Strategy& strategy) {
    return config.keep_grads && !isBaseline(strategy);
}

std::vector<std::string> presetNames() {
    return {"seed-tradeoff", "experiment-1", "experiment-2", "experiment-3"};
}

std::vector<std::string> presetStrategies(const std::string& preset) {
    static const std::map<std::string, std::vector<std::string>> presets = {
        {"seed-tradeoff", {"none", "full", "every:2", "every:4", "segments:4", "from:10"}},
        {"experiment-1", {"none", "every:1", "every:2", "every:4", "every:8"}},
        {"experiment-2",
         {"none", "segments:1", "segments:2", "segments:4", "segments:10", "segments:20"}},
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
           "upto:K        checkpoint blocks 0..K-1 only (the other half of from:K)\n"
           "sqrt          ceil(sqrt(L)) segments (Chen et al. 2016)\n"
           "attn          transformer: checkpoint only the attention sub-block\n"
           "ffn           transformer: checkpoint only the FFN sub-block\n"
           "seed-bug:K    segments with the tutorial's closure bug (fails the gradient check)\n"
           "optimal:MiB   fastest schedule whose predicted peak fits MiB (dynamic program)\n"
           "revolve:S     Griewank's binomial schedule with S stored states\n";
}

std::string strategyHelp(StrategyKind kind) {
    const std::string name = kindName(kind);
    const std::string help = strategySyntaxHelp();
    std::size_t begin = 0;
    while (begin < help.size()) {
        std::size_t end = help.find('\n', begin);
        if (end == std::string::npos) end = help.size();
        const std::string line = help.substr(begin, end - begin);
        begin = end + 1;
        const std::string head = line.substr(0, line.find_first_of(": "));
        if (head != name) continue;
        std::string simplified;
        for (char c : line) {
            const bool blank = std::isspace(static_cast<unsigned char>(c)) != 0;
            if (blank && (simplified.empty() || simplified.back() == ' ')) continue;
            simplified += blank ? ' ' : c;
        }
        while (!simplified.empty() && simplified.back() == ' ') simplified.pop_back();
        return simplified;
    }
    return {};
}

}  // namespace ckptlab
