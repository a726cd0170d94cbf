#include "ckptlab/model/strategy.h"

#include <atomic>
#include <cctype>
#include <cmath>
#include <map>

#include "ckptlab/model/block_kinds.h"
#include "ckptlab/model/number_text.h"

namespace ckptlab {
namespace {

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
    const auto& info = strategyKindInfo(kind);
    if (kind == StrategyKind::Optimal) {
        // The classic locale's point, so that the name reads back under any locale.
        return "optimal:" + formatGeneral(budget_mib, 10);
    }
    return info.takes_param ? info.name + ":" + std::to_string(param) : info.name;
}

bool operator==(const Strategy& a, const Strategy& b) {
    return a.kind == b.kind && a.param == b.param && a.budget_mib == b.budget_mib;
}

// In the order the app's strategy table lists them (strategyCatalog). A function's static, so
// other files' static initialisers may call it.
const std::vector<StrategyKindInfo>& strategyKinds() {
    using K = StrategyKind;
    static const std::vector<StrategyKindInfo> kinds = {
        {K::None, "none", "none", "keep every activation (the baseline)", false, 0},
        {K::Full, "full", "full", "checkpoint every block", false, 0},
        {K::Every, "every", "every:N", "checkpoint blocks 0, N, 2N, ... (seed experiment 1)", true,
         2},
        {K::Segments, "segments", "segments:K",
         "K contiguous checkpointed segments (seed experiment 2)", true, 4},
        {K::From, "from", "from:K", "checkpoint blocks K.. only (seed experiment 3)", true, 10},
        {K::UpTo, "upto", "upto:K", "checkpoint blocks 0..K-1 only (the other half of from:K)",
         true, 10},
        {K::Sqrt, "sqrt", "sqrt", "ceil(sqrt(L)) segments (Chen et al. 2016)", false, 0},
        {K::Attn, "attn", "attn", "transformer, llama: checkpoint only the attention sub-block",
         false, 0},
        {K::FfnOnly, "ffn", "ffn", "transformer, llama: checkpoint only the MLP (FFN) sub-block",
         false, 0},
        {K::Revolve, "revolve", "revolve:S", "Griewank's binomial schedule with S stored states",
         true, 3},
        {K::SeedBug, "seed-bug", "seed-bug:K",
         "segments with the tutorial's closure bug: wrong gradients before the last segment, as "
         "in PyTorch (fails the gradient check)",
         true, 4},
        {K::Optimal, "optimal", "optimal:MiB",
         "fastest schedule whose predicted peak fits MiB (dynamic program)", true, 48},
    };
    return kinds;
}

const StrategyKindInfo& strategyKindInfo(StrategyKind kind) {
    for (const auto& info : strategyKinds())
        if (info.kind == kind) return info;
    return strategyKinds().front();
}

namespace {

// "none, full, every:N, ...": every kind's syntax, for the unknown-strategy message.
std::string knownSyntaxes() {
    std::string known;
    for (const auto& info : strategyKinds()) known += (known.empty() ? "" : ", ") + info.syntax;
    return known;
}

const StrategyKindInfo* infoByName(const std::string& head) {
    for (const auto& candidate : strategyKinds())
        if (head == candidate.name) return &candidate;
    return nullptr;
}

// Texts parsed so far (strategyParseCount).
std::atomic<std::uint64_t> gParses{0};

// The text form: the kind, and its parameter's syntax (an optimal budget's range too, which
// does not depend on the model). Throws StrategyError.
Strategy parseForm(const std::string& text) {
    gParses.fetch_add(1, std::memory_order_relaxed);
    const auto colon = text.find(':');
    const std::string head = text.substr(0, colon);
    const StrategyKindInfo* info = infoByName(head);
    if (!info) throw StrategyError({MessageCode::UnknownStrategy, {text, knownSyntaxes()}});
    Strategy strategy{info->kind, 0};
    if (!info->takes_param) {
        if (colon != std::string::npos)
            throw StrategyError({MessageCode::StrategyTakesNoParameter, {head, text}});
    } else if (info->kind == StrategyKind::Optimal) {
        const std::string number = colon == std::string::npos ? "" : text.substr(colon + 1);
        const double mib = parseDecimal(number).value_or(0.0);
        if (!(mib >= 1.0 / 1024) || mib > 1e7) {
            throw StrategyError(
                {MessageCode::OptimalBudgetOutOfRange, {"0.001", "10000000", "optimal:64", text}});
        }
        strategy.budget_mib = mib;
    } else {
        long long value = 0;
        // At most 9 characters: always an int.
        if (colon == std::string::npos || !parseInt(text.substr(colon + 1), value)) {
            throw StrategyError({MessageCode::StrategyNeedsInteger, {head, head + ":2", text}});
        }
        strategy.param = static_cast<int>(value);
    }
    return strategy;
}

}  // namespace

void checkStrategy(const Strategy& strategy, int depth, BlockKind block) {
    const StrategyKindInfo& info = strategyKindInfo(strategy.kind);
    const std::string head = info.name;
    if (info.takes_param && strategy.kind != StrategyKind::Optimal) {
        long long min = 1, max = depth;
        if (strategy.kind == StrategyKind::From) min = 0, max = depth - 1;
        if (strategy.kind == StrategyKind::SeedBug) min = 2;
        const long long value = strategy.param;
        if (value < min || value > max) {
            throw StrategyError({MessageCode::StrategyParameterOutOfRange,
                                 {head, std::to_string(min), std::to_string(max),
                                  std::to_string(depth), std::to_string(value)}});
        }
    }
    if ((strategy.kind == StrategyKind::Attn || strategy.kind == StrategyKind::FfnOnly) &&
        !blockKind(block).attention) {
        throw StrategyError({MessageCode::StrategyNeedsTransformer, {head}});
    }
}

Strategy parseStrategy(const std::string& text, int depth, BlockKind block) {
    const Strategy strategy = parseForm(text);
    checkStrategy(strategy, depth, block);
    return strategy;
}

std::vector<Strategy> parseStrategies(const std::vector<std::string>& texts) {
    std::vector<Strategy> strategies;
    strategies.reserve(texts.size());
    for (const std::string& text : texts) strategies.push_back(parseForm(text));
    return strategies;
}

std::uint64_t strategyParseCount() { return gParses.load(std::memory_order_relaxed); }

std::optional<Strategy> parseStrategyForm(const std::string& text, std::string* error) {
    try {
        return parseForm(text);
    } catch (const StrategyError& e) {
        if (error) *error = e.what();
        return std::nullopt;
    }
}

std::string kindName(StrategyKind kind) { return strategyKindInfo(kind).name; }

bool takesParam(StrategyKind kind) { return strategyKindInfo(kind).takes_param; }

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
    for (const auto& info : strategyKinds())
        all.push_back(makeStrategy(info.kind, info.default_param));
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
    return {kDefaultPreset, "experiment-1", "experiment-2", "experiment-3"};
}

std::vector<Strategy> presetStrategies(const std::string& preset) {
    using K = StrategyKind;
    static const std::map<std::string, std::vector<Strategy>> presets = {
        {"seed-tradeoff",
         {{K::None}, {K::Full}, {K::Every, 2}, {K::Every, 4}, {K::Segments, 4}, {K::From, 10}}},
        {"experiment-1", {{K::None}, {K::Every, 1}, {K::Every, 2}, {K::Every, 4}, {K::Every, 8}}},
        {"experiment-2",
         {{K::None},
          {K::Segments, 1},
          {K::Segments, 2},
          {K::Segments, 4},
          {K::Segments, 10},
          {K::Segments, 20}}},
        {"experiment-3", {{K::None}, {K::From, 0}, {K::From, 5}, {K::From, 10}, {K::From, 15}}},
    };
    auto it = presets.find(preset);
    return it == presets.end() ? std::vector<Strategy>{} : it->second;
}

std::string strategySyntaxHelp() {
    constexpr std::size_t kColumn = 14;  // the descriptions start in one column
    std::string help;
    for (const auto& info : strategyKinds()) {
        const std::size_t pad = info.syntax.size() < kColumn ? kColumn - info.syntax.size() : 1;
        help += info.syntax + std::string(pad, ' ') + info.description + "\n";
    }
    return help;
}

}  // namespace ckptlab
