// A step's experiment as a lesson file writes it, checked by the rules the CLI applies, so a
// lesson that loads is one the runner accepts.
#include <set>

#include "ckptlab/number_text.h"
#include "ckptlab/strategy.h"
#include "ckptlab/sweep_policy.h"
#include "teaching/lesson_json.h"

namespace ckptlab::teaching {
namespace {

const std::string kConfig = "experiment.config";

template <typename T>
T choiceIn(const Json& j, const std::string& name, std::optional<T> (*parse)(const std::string&),
           const char* allowed, const Where& where) {
    const std::string text = stringIn(j, name, where);
    const auto value = parse(text);
    if (!value) where.fail(name, "unknown value \"" + text + "\" (allowed: " + allowed + ")");
    return *value;
}

int intIn(const Json& c, const char* key, IntRange range, const Where& where) {
    return static_cast<int>(integerIn(c[key], field(kConfig, key), range.min, range.max, where));
}

double numberIn(const Json& j, const std::string& name, double min, double max,
                const Where& where) {
    const std::string range = "[" + formatGeneral(min) + ", " + formatGeneral(max) + "]";
    if (!j.is_number()) where.fail(name, "expected a number in " + range + ", got " + kindOf(j));
    const double v = j.get<double>();
    if (!(v >= min && v <= max))
        where.fail(name, "expected a number in " + range + ", got " + j.dump());
    return v;
}

// Missing fields keep ExperimentConfig's defaults, which are the CLI's.
ExperimentConfig readConfig(const Json& j, const Where& where) {
    const Json& c = objectIn(j, kConfig, where);
    onlyKeys(c, kConfig,
             {"block", "depth", "width", "seq", "batch", "heads", "dropout", "dtype", "optimizer",
              "seed", "threads", "warmup", "repeats", "memory_limit_mib", "keep_grads"},
             where);
    ExperimentConfig config;
    auto has = [&](const char* key) { return c.contains(key); };
    if (has("block"))
        config.block = choiceIn(c["block"], field(kConfig, "block"), parseBlockKind,
                                "ffn, transformer", where);
    if (has("dtype"))
        config.dtype = choiceIn(c["dtype"], field(kConfig, "dtype"), parseDType,
                                "float32, bfloat16", where);
    if (has("optimizer"))
        config.optimizer = choiceIn(c["optimizer"], field(kConfig, "optimizer"), parseOptimizer,
                                    "none, sgd, adam", where);
    if (has("depth")) config.depth = intIn(c, "depth", limits::depth, where);
    if (has("width")) config.width = intIn(c, "width", limits::width, where);
    if (has("seq")) config.seq = intIn(c, "seq", limits::seq, where);
    if (has("batch")) config.batch = intIn(c, "batch", limits::batch, where);
    if (has("heads")) config.heads = intIn(c, "heads", limits::heads, where);
    if (has("threads")) config.threads = intIn(c, "threads", limits::threads, where);
    if (has("warmup")) config.warmup = intIn(c, "warmup", limits::warmup, where);
    if (has("repeats")) config.repeats = intIn(c, "repeats", limits::repeats, where);
    if (has("dropout"))
        config.dropout = numberIn(c["dropout"], field(kConfig, "dropout"), 0, limits::dropoutMax,
                                  where);
    if (has("memory_limit_mib"))
        config.memory_limit_mib = numberIn(c["memory_limit_mib"], field(kConfig, "memory_limit_mib"),
                                           0, limits::memoryLimitMaxMib, where);
    if (has("seed")) {
        const Json& s = c["seed"];
        if (!s.is_number_unsigned() && !(s.is_number_integer() && s.get<long long>() >= 0))
            where.fail(field(kConfig, "seed"),
                       "expected a whole number in [0, 18446744073709551615], got " + s.dump());
        config.seed = s.get<std::uint64_t>();
    }
    if (has("keep_grads")) {
        if (!c["keep_grads"].is_boolean())
            where.fail(field(kConfig, "keep_grads"),
                       "expected true or false, got " + kindOf(c["keep_grads"]));
        config.keep_grads = c["keep_grads"].get<bool>();
    }
    // The rules across fields (heads divide width, ...), as the CLI checks them.
    for (const FieldError& e : validate(config)) where.fail(field(kConfig, e.field), e.message);
    return config;
}

void readScaling(const Json& j, LessonExperiment& e, const Where& where) {
    const std::string at = "experiment.scaling";
    onlyKeys(objectIn(j, at, where), at, {"axis", "values"}, where);
    const std::string axisText = stringIn(member(j, at, "axis", where), at + ".axis", where);
    ScalingAxis axis;
    if (!parseScalingAxis(axisText, axis))
        where.fail(at + ".axis", "unknown value \"" + axisText +
                                     "\" (allowed: depth, seq, width, batch)");
    const Json& values = member(j, at, "values", where);
    if (!values.is_array()) where.fail(at + ".values", "expected an array, got " + kindOf(values));
    const IntRange range = axisRange(axis);
    std::set<int> seen;
    for (std::size_t i = 0; i < values.size(); ++i) {
        const std::string name = at + ".values[" + std::to_string(i) + "]";
        const int v = static_cast<int>(integerIn(values[i], name, range.min, range.max, where));
        if (!seen.insert(v).second) where.fail(name, std::to_string(v) + " is listed twice");
        e.scaling_values.push_back(v);
    }
    if (e.scaling_values.size() < 2)
        where.fail(at + ".values", "needs at least two values to fit a power law");
    if (const auto problem = firstInvalidSize(e.config, axis, e.scaling_values))
        where.fail(at + ".values", toString(axis) + " = " + std::to_string(problem->value) + ": " +
                                       problem->message);
    e.scaling_axis = axis;
}

// Every strategy parses for every model the step runs (each size of a scaling step).
void checkStrategies(LessonExperiment& e, const Where& where) {
    std::vector<ExperimentConfig> configs{e.config};
    if (e.scaling_axis) configs = scalingConfigs(e.config, *e.scaling_axis, e.scaling_values);
    std::set<std::string> names;
    for (std::size_t i = 0; i < e.strategies.size(); ++i) {
        const std::string name = "experiment.strategies[" + std::to_string(i) + "]";
        for (const ExperimentConfig& c : configs) {
            try {
                const Strategy s = parseStrategy(e.strategies[i], c.depth, c.block);
                if (e.scaling_axis && hasMemoryBudget(s))
                    where.fail(name, "\"" + e.strategies[i] +
                                         "\": a fixed memory budget means nothing across the "
                                         "sizes of a scaling step");
                if (&c == &configs.front() && !names.insert(s.name()).second)
                    where.fail(name, "\"" + s.name() + "\" is listed twice");
            } catch (const StrategyError& error) {
                const std::string size = e.scaling_axis ? " (at " + toString(*e.scaling_axis) +
                                                              " = " +
                                                              std::to_string(axisValue(
                                                                  c, *e.scaling_axis)) + ")"
                                                        : "";
                where.fail(name, error.what() + size);
            }
        }
    }
}

}  // namespace

LessonExperiment readExperiment(const Json& j, const Where& where) {
    const std::string at = "experiment";
    onlyKeys(objectIn(j, at, where), at, {"config", "strategies", "scaling"}, where);
    LessonExperiment e;
    e.config = readConfig(member(j, at, "config", where), where);
    const Json& list = member(j, at, "strategies", where);
    if (!list.is_array() || list.empty())
        where.fail(at + ".strategies", "expected a non-empty array of strategies, got " +
                                           (list.is_array() ? "an empty array" : kindOf(list)));
    for (std::size_t i = 0; i < list.size(); ++i)
        e.strategies.push_back(
            stringIn(list[i], at + ".strategies[" + std::to_string(i) + "]", where));
    if (const auto it = j.find("scaling"); it != j.end()) readScaling(*it, e, where);
    checkStrategies(e, where);
    return e;
}

}  // namespace ckptlab::teaching
