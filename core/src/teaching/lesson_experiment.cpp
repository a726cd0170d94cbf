// A step's experiment as a lesson file writes it, checked by the rules the CLI applies, so a
// lesson that loads is one the runner accepts.
#include <climits>
#include <cmath>
#include <set>

#include "ckptlab/model/config_fields.h"
#include "ckptlab/model/number_text.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/sweep_check.h"
#include "ckptlab/planning/sweep_memory.h"
#include "ckptlab/planning/sweep_strategies.h"
#include "teaching/lesson_json.h"
#include "teaching/lesson_plan_step.h"

namespace ckptlab::teaching {
namespace {

const std::string kConfig = "experiment.config";

double numberIn(const Json& j, const std::string& name, double min, double max,
                const Where& where) {
    const std::string range = "[" + formatGeneral(min) + ", " + formatGeneral(max) + "]";
    if (!j.is_number()) where.fail(name, "expected a number in " + range + ", got " + kindOf(j));
    const double v = j.get<double>();
    if (!(v >= min && v <= max))
        where.fail(name, "expected a number in " + range + ", got " + j.dump());
    return v;
}

// One field of a lesson's config, by its type and range (config_fields.h).
void readField(const ConfigField& f, const Json& v, ExperimentConfig& config, const Where& where) {
    const std::string name = field(kConfig, f.json);
    FieldValue value;
    switch (typeOf(f)) {
    case FieldType::Int: {
        const FieldRange r = f.range.value_or(FieldRange{0, INT_MAX});
        value =
            integerIn(v, name, static_cast<long long>(r.min), static_cast<long long>(r.max), where);
        break;
    }
    case FieldType::Real: {
        const FieldRange r = f.range.value_or(FieldRange{-HUGE_VAL, HUGE_VAL});
        // 0 where it means "none" (memory_limit_mib); validate() refuses what lies between.
        value = numberIn(v, name, *f.zero_means && r.min > 0 ? 0 : r.min, r.max, where);
        break;
    }
    case FieldType::Seed:
        if (!v.is_number_unsigned() && !(v.is_number_integer() && v.get<long long>() >= 0))
            where.fail(name,
                       "expected a whole number in [0, 18446744073709551615], got " + v.dump());
        value = v.get<std::uint64_t>();
        break;
    case FieldType::Bool:
        if (!v.is_boolean()) where.fail(name, "expected true or false, got " + kindOf(v));
        value = v.get<bool>();
        break;
    case FieldType::Choice:
    case FieldType::Text: value = stringIn(v, name, where); break;
    }
    if (!setValue(f, config, value)) {  // only a choice can be unknown
        std::string allowed;
        for (const std::string& choice : choicesOf(f))
            allowed += (allowed.empty() ? "" : ", ") + choice;
        where.fail(name, "unknown value \"" + std::get<std::string>(value) +
                             "\" (allowed: " + allowed + ")");
    }
}

}  // namespace

// The fields a lesson may set, under their JSON keys; missing ones keep `start`'s (by default
// ExperimentConfig's, which are the CLI's).
ExperimentConfig readConfig(const Json& j, const Where& where, const ExperimentConfig& start) {
    const Json& c = objectIn(j, kConfig, where);
    std::vector<const char*> keys;
    for (const ConfigField& f : configFields())
        if (f.in_lessons) keys.push_back(f.json);
    onlyKeys(c, kConfig, keys, where);
    ExperimentConfig config = start;
    for (const ConfigField& f : configFields())
        if (f.in_lessons && c.contains(f.json)) readField(f, c[f.json], config, where);
    // The rules across fields (heads divide width, ...), as the CLI checks them.
    for (const FieldError& e : validate(config)) {
        const ConfigField* f = findConfigField(e.field);
        where.fail(field(kConfig, f ? f->json : e.field), e.message.english);
    }
    return config;
}

// Each text parsed once, here; the field names the one that is no strategy.
std::vector<Strategy> readStrategies(const Json& list, const std::string& at, const Where& where) {
    std::vector<Strategy> strategies;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string name = at + "[" + std::to_string(i) + "]";
        std::string why;
        const auto strategy = parseStrategyForm(stringIn(list[i], name, where), &why);
        if (!strategy) where.fail(name, why);
        strategies.push_back(*strategy);
    }
    return strategies;
}

namespace {

void readScaling(const Json& j, LessonExperiment& e, const Where& where) {
    const std::string at = "experiment.scaling";
    onlyKeys(objectIn(j, at, where), at, {"axis", "values"}, where);
    const std::string axisText = stringIn(member(j, at, "axis", where), at + ".axis", where);
    ScalingAxis axis;
    if (!parseScalingAxis(axisText, axis))
        where.fail(at + ".axis",
                   "unknown value \"" + axisText + "\" (allowed: depth, seq, width, batch)");
    const Json& values = member(j, at, "values", where);
    if (!values.is_array()) where.fail(at + ".values", "expected an array, got " + kindOf(values));
    const IntRange range = axisRange(axis);
    for (std::size_t i = 0; i < values.size(); ++i) {
        const std::string name = at + ".values[" + std::to_string(i) + "]";
        e.scaling_values.push_back(
            static_cast<int>(integerIn(values[i], name, range.min, range.max, where)));
    }
    e.scaling_axis = axis;
}

// The field a problem of the pre-run check comes from: the strategy it names (its repeat for
// one listed twice), else the experiment.
std::string fieldOf(const LessonExperiment& e, const StrategyProblem& problem) {
    const bool twice = problem.why.code == MessageCode::StrategyListedTwice;
    std::size_t found = e.strategies.size();
    for (std::size_t i = 0; i < e.strategies.size(); ++i)
        if (e.strategies[i].name() == problem.text && (twice || found == e.strategies.size()))
            found = i;
    if (found == e.strategies.size()) return "experiment.strategies";
    return "experiment.strategies[" + std::to_string(found) + "]";
}

// The step's experiment through the runner's own pre-run check (checkSweep), each refusal
// named by its field: a lesson that loads is one the runner accepts. The memory is the
// machine's that runs it, so it is not checked here.
void checkAsTheRunnerDoes(const LessonExperiment& e, const Where& where) {
    const SweepRequestData request = sweepRequestOf(e);
    if (e.scaling_axis) {
        // A scaling sweep leaves budgets out (sweepStrategies); a lesson that lists one is wrong.
        for (std::size_t i = 0; i < e.strategies.size(); ++i)
            if (hasMemoryBudget(e.strategies[i]))
                where.fail("experiment.strategies[" + std::to_string(i) + "]",
                           "\"" + e.strategies[i].name() +
                               "\": a fixed memory budget means nothing across the sizes of a "
                               "scaling step");
    }
    const SweepCheck check = checkSweep(request, 0);
    using Verdict = SweepCheck::Verdict;
    switch (check.verdict) {
    case Verdict::Ok: return;
    case Verdict::InvalidValues:
    case Verdict::InvalidSize: where.fail("experiment.scaling.values", check.problem->english);
    case Verdict::InvalidStrategy:
        where.fail(fieldOf(e, check.invalid.front()), check.invalid.front().why.english);
    default: where.fail("experiment", check.problem->english);
    }
}

}  // namespace

LessonExperiment readExperiment(const Json& j, const Where& where) {
    const std::string at = "experiment";
    onlyKeys(objectIn(j, at, where), at, {"config", "strategies", "scaling", "plan"}, where);
    // A plan step reads its config onto a published model's shape (lesson_plan_step.cpp).
    if (j.contains("plan")) return readPlanExperiment(j, where);
    LessonExperiment e;
    e.config = readConfig(member(j, at, "config", where), where);
    const Json& list = member(j, at, "strategies", where);
    if (!list.is_array() || list.empty())
        where.fail(at + ".strategies", "expected a non-empty array of strategies, got " +
                                           (list.is_array() ? "an empty array" : kindOf(list)));
    e.strategies = readStrategies(list, at + ".strategies", where);
    if (const auto it = j.find("scaling"); it != j.end()) readScaling(*it, e, where);
    checkAsTheRunnerDoes(e, where);
    return e;
}

}  // namespace ckptlab::teaching

namespace ckptlab {

SweepRequestData sweepRequestOf(const LessonExperiment& experiment) {
    SweepRequestData request;
    request.config = experiment.config;
    request.checked = experiment.strategies;
    if (experiment.scaling_axis) {
        request.kind = SweepKind::Scaling;
        request.axis = *experiment.scaling_axis;
        request.values = experiment.scaling_values;
    }
    return request;
}

}  // namespace ckptlab
