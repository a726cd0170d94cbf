// A lesson step answered by the full-size plan (lesson_plan_step.h,
// ckptlab/teaching/lesson_plan.h): the step reads as `ckptlab-cli plan --model NAME --capacity ...`
// with its config's fields typed after the model, and its placeholders read the plan's rows instead
// of runs.
#include "teaching/lesson_plan_step.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <system_error>

#include "ckptlab/formats/full_size_files.h"
#include "ckptlab/formats/model_config.h"
#include "ckptlab/model/config_fields.h"
#include "ckptlab/model/number_text.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/planning/full_size.h"
#include "ckptlab/planning/planner.h"
#include "ckptlab/teaching/lesson_plan.h"

namespace ckptlab {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
// 8 PiB, the most a results file holds (json_values.h's kMaxBytes).
constexpr double kMaxCapacityGiB = 8.0 * 1024 * 1024;

// The running program, so an installed one finds <prefix>/share/ckptlab/models as the CLI does.
std::string executablePath() {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string() : self.string();
}

std::string presetList(const std::vector<std::string>& names) {
    std::string list;
    for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
    return list.empty() ? "none found; set CKPTLAB_MODELS_DIR" : list;
}

}  // namespace

std::int64_t planCapacityBytes(const LessonPlanRequest& request) {
    return static_cast<std::int64_t>(std::llround(request.capacity_gib * kGiB));
}

ResultSet planStepResults(const LessonStep& step, const CostFit& fit,
                          const Environment& environment, const FullSizeProgress& progress) {
    const LessonExperiment& e = step.experiment;
    if (!e.plan) throw std::invalid_argument("step \"" + step.id + "\" is not a plan step");
    const FullSizePlan plan = planFullSize(fit, planCapacityBytes(*e.plan), e.strategies, progress);
    const std::int64_t parameters = plan.held.parameters;  // as `plan --capacity` counts them
    const std::string device = environment.device == "cpu" ? "CPU" : environment.device;
    const std::string label =
        "predicted on " +
        (environment.device_name.empty() ? std::string("the recording's machine")
                                         : environment.device_name) +
        " (" + device + ", " + std::to_string(environment.threads) + " thread" +
        (environment.threads == 1 ? "" : "s") + ")";
    ResultSet results;
    results.environment = environment;
    results.notes = plan.notes;
    results.plan = recordOf(plan, fit, e.plan->model, parameters, label);
    return results;
}

}  // namespace ckptlab

namespace ckptlab::teaching {
namespace {

const std::string kPlan = "experiment.plan";

double capacityIn(const Json& j, const std::string& name, const Where& where) {
    const std::string range = "a number of GiB above 0, at most " + formatGeneral(kMaxCapacityGiB);
    if (!j.is_number()) where.fail(name, "expected " + range + ", got " + kindOf(j));
    const double v = j.get<double>();
    if (!(v > 0 && v <= kMaxCapacityGiB))
        where.fail(name, "expected " + range + ", got " + j.dump());
    return v;
}

// The preset by its name only (a path would make the lesson depend on the teacher's files).
ModelDescription presetIn(const Json& j, const Where& where) {
    const std::string name = kPlan + ".model";
    const std::string model = stringIn(j, name, where);
    const std::string exe = executablePath();
    const std::vector<std::string> presets = modelPresetNames(exe);
    if (std::find(presets.begin(), presets.end(), model) == presets.end())
        where.fail(
            name, "\"" + model + "\" is not a model preset (presets: " + presetList(presets) + ")");
    try {
        return loadModel(model, exe);
    } catch (const ModelConfigError& e) {
        where.fail(name, e.what());
    }
}

}  // namespace

LessonExperiment readPlanExperiment(const Json& j, const Where& where) {
    const std::string at = "experiment";
    onlyKeys(objectIn(j, at, where), at, {"config", "strategies", "plan", "scaling"}, where);
    if (j.contains("scaling"))
        where.fail(at + ".scaling",
                   "a plan step plans one size of its model; it takes no scaling (use "
                   "plan_max_seq(...) and plan_max_batch(...) for the largest that fits)");
    const Json& p = objectIn(member(j, at, "plan", where), kPlan, where);
    onlyKeys(p, kPlan, {"model", "capacity_gib"}, where);
    LessonExperiment e;
    LessonPlanRequest request;
    const ModelDescription model = presetIn(member(p, kPlan, "model", where), where);
    request.model = model.name;
    request.capacity_gib =
        capacityIn(member(p, kPlan, "capacity_gib", where), kPlan + ".capacity_gib", where);
    // The preset's shape first, then the step's fields: they override it, as options do.
    ExperimentConfig start;
    applyModel(model, start);
    const auto config = j.find("config");
    e.config = readConfig(config != j.end() ? *config : Json::object(), where, start);
    if (const auto list = j.find("strategies"); list != j.end()) {
        if (!list->is_array() || list->empty())
            where.fail(at + ".strategies",
                       "expected a non-empty array of strategies, got " +
                           (list->is_array() ? "an empty array" : kindOf(*list)));
        e.strategies = readStrategies(*list, at + ".strategies", where);
        for (std::size_t i = 0; i < e.strategies.size(); ++i) {
            const std::string name = at + ".strategies[" + std::to_string(i) + "]";
            try {
                checkStrategy(e.strategies[i], e.config.depth, e.config.block);
            } catch (const std::exception& error) {
                where.fail(name, error.what());
            }
            for (std::size_t k = 0; k < i; ++k)
                if (e.strategies[k] == e.strategies[i])
                    where.fail(name, "\"" + e.strategies[i].name() + "\" is listed twice");
        }
    } else {
        e.strategies = fullSizeStrategies(e.config);
    }
    e.plan = request;
    return e;
}

namespace {

const std::vector<std::string> kRowMetrics = {
    "plan_fits",         "plan_peak_gib", "plan_reserved_gib", "plan_step_s",
    "plan_tokens_per_s", "plan_max_seq",  "plan_max_batch"};

bool isPlanMetric(const std::string& metric) {
    return metric == "plan" ||
           std::find(kRowMetrics.begin(), kRowMetrics.end(), metric) != kRowMetrics.end();
}

MetricText missing(const std::string& why) { return {std::nullopt, why, std::nullopt}; }

MetricText decimal(double v, int decimals = 1) {
    if (!std::isfinite(v)) return missing("the value is not a finite number");
    return {formatFixed(v, decimals), {}, v};
}

MetricText whole(long long v) { return {std::to_string(v), {}, static_cast<double>(v)}; }

// Seconds and rates to three significant digits, never in exponent form (as the CLI's table).
MetricText threeDigits(double v) {
    if (!std::isfinite(v) || v < 0) return missing("the value is not a finite number");
    const int decimals = v >= 100 ? 0 : v >= 10 ? 1 : v >= 1 ? 2 : 3;
    return {formatFixed(v, decimals), {}, v};
}

double gib(std::int64_t bytes) { return static_cast<double>(bytes) / kGiB; }

// Tokens per second at the asked batch and sequence.
double tokensPerSecond(const FullSizePlanRow& row, const ExperimentConfig& c) {
    if (!(row.step_ms > 0)) return NAN;
    return 1000.0 * c.batch * c.seq / row.step_ms;
}

// Of the step's strategies that fit, the fastest at the asked size (the first of a tie).
const FullSizePlanRow* fastestFitting(const FullSizePlanRecord& plan) {
    const FullSizePlanRow* best = nullptr;
    for (const FullSizePlanRow& row : plan.strategies)
        if (row.fits && (!best || row.step_ms < best->step_ms)) best = &row;
    return best;
}

MetricText rowMetric(const std::string& metric, const FullSizePlanRow& row,
                     const ExperimentConfig& c, const std::string& lang) {
    const bool zh = lang == kLangChinese;
    if (metric == "plan_fits")
        return {row.fits ? (zh ? "能" : "yes") : (zh ? "不能" : "no"), {}, row.fits ? 1.0 : 0.0};
    // A budget with no schedule at the plan's size has no sizes or times, only its largest
    // batch and longest sequence.
    const bool sized = metric == "plan_peak_gib" || metric == "plan_reserved_gib" ||
                       metric == "plan_step_s" || metric == "plan_tokens_per_s";
    if (row.least_peak_bytes && sized) return missing("no schedule at the plan's size");
    if (metric == "plan_peak_gib") return decimal(gib(row.allocated_bytes));
    if (metric == "plan_reserved_gib") return decimal(gib(row.reserved_bytes));
    if (metric == "plan_step_s") return threeDigits(row.step_ms / 1000);
    if (metric == "plan_tokens_per_s") return threeDigits(tokensPerSecond(row, c));
    if (metric == "plan_max_seq") return whole(row.longest_seq);
    return whole(row.largest_batch);  // plan_max_batch
}

MetricText planField(const std::string& name, const FullSizePlanRecord& plan,
                     const std::string& lang) {
    if (name == "state_gib") return decimal(gib(plan.state_bytes));
    if (name == "capacity_gib") return decimal(gib(plan.capacity_bytes));
    if (name == "parameters_billion") return decimal(static_cast<double>(plan.parameters) / 1e9);
    if (name == "fits_count") {
        long long count = 0;
        for (const FullSizePlanRow& row : plan.strategies) count += row.fits ? 1 : 0;
        return whole(count);
    }
    if (name == "fastest") {
        const FullSizePlanRow* row = fastestFitting(plan);
        if (!row) return {lessonLabel(LessonLabel::None, lang), "a word, not a number"};
        return {row->strategy.name(), "a name, not a number"};
    }
    if (name == "fastest_tokens_per_s") {
        const FullSizePlanRow* row = fastestFitting(plan);
        if (!row) return missing("none of the step's strategies fits");
        return threeDigits(tokensPerSecond(*row, plan.config));
    }
    // optimal_tokens_per_s: the planner's fastest schedule at the capacity.
    if (!plan.fastest) return missing("no schedule fits the capacity");
    return threeDigits(tokensPerSecond(*plan.fastest, plan.config));
}

}  // namespace

std::optional<std::string> planReferenceProblem(const Placeholder& p, const LessonStep& step) {
    const bool planStep = step.experiment.plan.has_value();
    const bool planMetric = isPlanMetric(p.metric);
    if (!planStep && !planMetric) return std::nullopt;
    if (!planStep) return p.metric + " needs a plan step; \"" + step.id + "\" is not one";
    if (p.metric == "config" || p.metric == "term") return std::nullopt;
    if (!planMetric)
        return "step \"" + step.id + "\" is a plan step: it has no runs, only the plan's values (" +
               planMetricList() + ")";
    if (p.at) return "a plan step has one size; it takes no @value";
    if (p.metric == "plan") return std::string();
    const auto strategy = parseStrategyForm(p.argument);
    const auto& list = step.experiment.strategies;
    if (!strategy || std::find(list.begin(), list.end(), *strategy) == list.end())
        return "step \"" + step.id + "\" does not plan \"" + p.argument + "\"";
    return std::string();
}

std::optional<MetricText> planPlaceholder(const Placeholder& p, const LessonStep& step,
                                          const ResultSet& results, const std::string& lang) {
    const bool planStep = step.experiment.plan.has_value();
    if (!planStep && !isPlanMetric(p.metric)) return std::nullopt;
    if (std::optional<std::string> why = planReferenceProblem(p, step); why && !why->empty())
        return missing(*why);
    if (p.metric == "config") return std::nullopt;
    if (p.metric == "term")  // memory: a GPU's, whatever machine the plan was measured on
        return MetricText{lang == kLangChinese ? "显存" : "memory", "a word, not a number",
                          std::nullopt};
    if (!results.plan) return missing("the recording of step \"" + step.id + "\" has no plan");
    const FullSizePlanRecord& plan = *results.plan;
    if (p.metric == "plan") return planField(p.argument, plan, lang);
    std::string why;
    const auto strategy = parseStrategyForm(p.argument, &why);
    if (!strategy) return missing(why);
    const FullSizePlanRow* row = plan.row(*strategy);
    if (!row)
        return missing("the plan of step \"" + step.id + "\" has no row \"" + strategy->name() +
                       "\"");
    return rowMetric(p.metric, *row, plan.config, lang);
}

std::vector<std::string> planRecordingMismatches(const LessonStep& step, const ResultSet& results) {
    const std::string at = "step \"" + step.id + "\": ";
    const std::string again = " (re-record it)";
    const LessonExperiment& e = step.experiment;
    if (!results.plan) return {at + "the recording has no plan" + again};
    const FullSizePlanRecord& plan = *results.plan;
    std::vector<std::string> problems;
    if (plan.model != e.plan->model)
        problems.push_back(at + "the plan is of \"" + plan.model + "\", the step's of \"" +
                           e.plan->model + "\"" + again);
    if (plan.capacity_bytes != planCapacityBytes(*e.plan))
        problems.push_back(at + "the plan's capacity is " + std::to_string(plan.capacity_bytes) +
                           " bytes, the step's " + std::to_string(planCapacityBytes(*e.plan)) +
                           again);
    // What the plan computed: the work's fields (threads, repeats and the like change only how
    // its times were measured).
    for (const ConfigField& field : configFields()) {
        if (!(field.changes & kChangesWork) || !fieldApplies(field, e.config)) continue;
        if (valueOf(field, plan.config) != valueOf(field, e.config))
            problems.push_back(at + "the plan's " + field.json + " differs from the step's config" +
                               again);
    }
    for (const Strategy& strategy : e.strategies)
        if (!plan.row(strategy))
            problems.push_back(at + "the plan has no row \"" + strategy.name() + "\"" + again);
    return problems;
}

}  // namespace ckptlab::teaching
