// A lesson's plan step (docs/LESSONS.md, "Plan steps"): read onto the preset's shape, its errors
// naming the field, its placeholders checked when the lesson loads and filled from a plan
// recording made by hand, the recording's mismatches, and the plan through the results file.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "ckptlab/formats/full_size_files.h"
#include "ckptlab/formats/results_io.h"
#include "ckptlab/model/config_fields.h"
#include "ckptlab/planning/full_size.h"
#include "ckptlab/teaching/lesson.h"
#include "ckptlab/teaching/lesson_plan.h"

using namespace ckptlab;
using nlohmann::json;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

json text(const std::string& en, const std::string& zh) { return {{"en", en}, {"zh_CN", zh}}; }

// A lesson with a plan step "fit" (smollm2-135m at S=64 with Adam on 2 GiB) and an ordinary
// step "cmp".
json planLesson() {
    json fit = {{"id", "fit"},
                {"title", text("Fit", "装得下吗")},
                {"experiment",
                 {{"config", {{"seq", 64}, {"batch", 2}, {"optimizer", "adam"}}},
                  {"plan", {{"model", "smollm2-135m"}, {"capacity_gib", 2}}}}},
                {"chart", "breakdown"},
                {"observe", text("Look at the plan.", "看计划。")},
                {"question", text("What fits?", "什么装得下？")},
                {"answer", text("none: {plan_fits(none)}.", "none：{plan_fits(none)}。")}};
    json cmp = {{"id", "cmp"},
                {"title", text("Compare", "比较")},
                {"experiment",
                 {{"config", {{"depth", 4}, {"width", 32}, {"seq", 16}}},
                  {"strategies", {"none", "full"}}}},
                {"chart", "tradeoff"},
                {"observe", text("Peak.", "峰值。")},
                {"question", text("Why?", "为什么？")},
                {"answer", text("{saving_pct(full)} %", "{saving_pct(full)} %")}};
    return {{"id", "plan-demo"},
            {"order", 1},
            {"title", text("Plan", "计划")},
            {"summary", text("A plan.", "一个计划。")},
            {"tutorial", json::array()},
            {"steps", {fit, cmp}}};
}

Lesson parse(const json& lesson) { return parseLesson(lesson.dump(), "90-plan-demo.json"); }

// The message of the LessonError parsing `lesson` throws ("" when it reads).
std::string errorOf(const json& lesson) {
    try {
        parse(lesson);
    } catch (const LessonError& e) {
        return e.what();
    }
    return "";
}

TEST(LessonPlanStep, ReadsThePresetThenTheStepsFields) {
    const Lesson lesson = parse(planLesson());
    const LessonExperiment& e = lesson.step("fit")->experiment;
    ASSERT_TRUE(e.plan);
    EXPECT_EQ(e.plan->model, "smollm2-135m");
    EXPECT_EQ(e.plan->capacity_gib, 2);
    EXPECT_FALSE(e.scaling_axis);
    // The preset's shape (30 layers of width 576, its vocabulary, bf16 from torch_dtype)...
    EXPECT_EQ(e.config.block, BlockKind::Llama);
    EXPECT_EQ(e.config.depth, 30);
    EXPECT_EQ(e.config.width, 576);
    EXPECT_EQ(e.config.vocab, 49152);
    EXPECT_EQ(e.config.dtype, DType::MixedBFloat16);
    // ...then the step's own fields over it.
    EXPECT_EQ(e.config.seq, 64);
    EXPECT_EQ(e.config.batch, 2);
    EXPECT_EQ(e.config.optimizer, Optimizer::Adam);
    // No strategies given: the full-size plan's own list.
    EXPECT_EQ(e.strategies, fullSizeStrategies(e.config));
    EXPECT_FALSE(lesson.step("cmp")->experiment.plan);

    // A field of the step overrides the preset's, as an option after --model does.
    json over = planLesson();
    over["steps"][0]["experiment"]["config"]["dtype"] = "float32";
    over["steps"][0]["experiment"]["strategies"] = {"none", "every:2"};
    const Lesson overridden = parse(over);
    const LessonExperiment& o = overridden.step("fit")->experiment;
    EXPECT_EQ(o.config.dtype, DType::Float32);
    ASSERT_EQ(o.strategies.size(), 2u);
    EXPECT_EQ(o.strategies[1].name(), "every:2");
    EXPECT_EQ(planCapacityBytes(*o.plan), std::int64_t{2} << 30);
}

TEST(LessonPlanStep, ErrorsNameTheField) {
    auto withPlan = [](const char* key, const json& value) {
        json lesson = planLesson();
        lesson["steps"][0]["experiment"]["plan"][key] = value;
        return errorOf(lesson);
    };
    EXPECT_NE(withPlan("capacity_gib", 0).find("experiment.plan.capacity_gib"), std::string::npos);
    EXPECT_NE(withPlan("capacity_gib", "80GB").find("experiment.plan.capacity_gib"),
              std::string::npos);
    const std::string unknown = withPlan("model", "llama-9");
    EXPECT_NE(unknown.find("experiment.plan.model"), std::string::npos) << unknown;
    EXPECT_NE(unknown.find("llama-3.1-8b"), std::string::npos) << "lists the presets: " << unknown;
    // A path is no preset: a lesson must not depend on the teacher's files.
    EXPECT_NE(withPlan("model", "/etc/passwd").find("experiment.plan.model"), std::string::npos);
    EXPECT_NE(withPlan("gpu", "A100").find("experiment.plan"), std::string::npos);

    json noModel = planLesson();
    noModel["steps"][0]["experiment"]["plan"].erase("model");
    EXPECT_NE(errorOf(noModel).find("experiment.plan.model"), std::string::npos);

    json scaling = planLesson();
    scaling["steps"][0]["experiment"]["scaling"] = {{"axis", "seq"}, {"values", {64, 128}}};
    EXPECT_NE(errorOf(scaling).find("experiment.scaling"), std::string::npos);

    json badSeq = planLesson();
    badSeq["steps"][0]["experiment"]["config"]["seq"] = 0;
    EXPECT_NE(errorOf(badSeq).find("experiment.config.seq"), std::string::npos);

    json twice = planLesson();
    twice["steps"][0]["experiment"]["strategies"] = {"none", "full", "none"};
    EXPECT_NE(errorOf(twice).find("experiment.strategies[2]"), std::string::npos);

    json tooDeep = planLesson();  // the preset has 30 layers
    tooDeep["steps"][0]["experiment"]["strategies"] = {"none", "every:31"};
    EXPECT_NE(errorOf(tooDeep).find("experiment.strategies[1]"), std::string::npos);

    EXPECT_EQ(errorOf(planLesson()), "");
}

TEST(LessonPlanStep, PlaceholdersAreCheckedAgainstTheStep) {
    auto withAnswer = [](int step, const std::string& answer) {
        json lesson = planLesson();
        lesson["steps"][step]["answer"] = text(answer, answer);
        return errorOf(lesson);
    };
    EXPECT_EQ(withAnswer(0, "{plan_reserved_gib(full)} {plan(fastest)} {config(seq)}"), "");
    EXPECT_EQ(withAnswer(0, "{plan_max_seq(sqrt)} {plan(state_gib)} {term(memory)}"), "");
    // A run's metric in a plan step, which has no runs.
    EXPECT_NE(withAnswer(0, "{peak_mib(none)}").find("is a plan step"), std::string::npos);
    // A plan's value outside a plan step.
    EXPECT_NE(withAnswer(1, "{plan_fits(full)}").find("needs a plan step"), std::string::npos);
    // A row the plan does not have.
    EXPECT_NE(withAnswer(0, "{plan_fits(every:3)}").find("does not plan \"every:3\""),
              std::string::npos);
    EXPECT_NE(withAnswer(0, "{plan(speed)}").find("unknown plan value"), std::string::npos);
    EXPECT_NE(withAnswer(0, "{plan_fits(full)@64}").find("no @value"), std::string::npos);
}

FullSizePlanRow row(const char* strategy, bool fits, double reservedGiB, double stepMs) {
    FullSizePlanRow r;
    r.strategy = *parseStrategyForm(strategy);
    r.reserved_bytes = static_cast<std::int64_t>(reservedGiB * kGiB);
    r.allocated_bytes = r.reserved_bytes - (std::int64_t{1} << 28);  // 0.25 GiB less
    r.peak_bytes = r.allocated_bytes / 2;
    r.baseline_bytes = r.allocated_bytes - r.peak_bytes;
    r.weights = 1000;
    r.gradients = 2000;
    r.activations = 3000;
    r.fits = fits;
    r.margin_bytes = static_cast<std::int64_t>(2 * kGiB) - r.reserved_bytes;
    r.step_ms = stepMs;
    r.largest_batch = fits ? 5 : 0;
    r.longest_seq = fits ? 320 : 0;
    r.step_ms_at_largest_batch = stepMs * 2.5;
    r.tokens_per_s = fits ? 5 * 64 / (r.step_ms_at_largest_batch / 1000) : 0;
    return r;
}

// A plan recording made by hand for the step "fit": none does not fit 2 GiB, full and attn do,
// attn faster.
ResultSet handMadeRecording(const Lesson& lesson) {
    const LessonStep& step = *lesson.step("fit");
    ResultSet set;
    set.environment.device = "cpu";
    set.environment.device_name = "Test CPU";
    FullSizePlanRecord plan;
    plan.model = "smollm2-135m";
    plan.parameters = 134515008;
    plan.config = step.experiment.config;
    plan.capacity_bytes = planCapacityBytes(*step.experiment.plan);
    plan.state_bytes = static_cast<std::int64_t>(1.5 * kGiB);
    plan.method = "by hand";
    plan.times_label = "predicted on Test CPU (CPU, 1 thread)";
    for (const Strategy& s : step.experiment.strategies) {
        const std::string name = s.name();
        plan.strategies.push_back(name == "none"   ? row("none", false, 2.5, 400)
                                  : name == "attn" ? row("attn", true, 1.9, 500)
                                                   : row(name.c_str(), true, 1.75, 800));
    }
    plan.fastest = row("optimal:1900", true, 1.95, 450);
    plan.fastest_schedule = "layers 0-3 checkpointed";
    set.plan = plan;
    return set;
}

TEST(LessonPlanStep, PlaceholdersFillFromThePlan) {
    const Lesson lesson = parse(planLesson());
    const LessonResults results{{"fit", handMadeRecording(lesson)}};
    auto fill = [&](const std::string& t, const std::string& lang = kLangEnglish) {
        std::vector<std::string> unresolved;
        const std::string filled = fillPlaceholders(t, lesson, "fit", results, lang, &unresolved);
        EXPECT_TRUE(unresolved.empty()) << t << ": " << unresolved.front();
        return filled;
    };
    EXPECT_EQ(fill("{plan_fits(none)} {plan_fits(full)}"), "no yes");
    EXPECT_EQ(fill("{plan_fits(none)} {plan_fits(full)}", kLangChinese), "不能 能");
    // allocated = reserved - 0.25 GiB
    EXPECT_EQ(fill("{plan_peak_gib(none)} {plan_reserved_gib(none)}"), "2.2 2.5");
    EXPECT_EQ(fill("{plan_step_s(full)} {plan_step_s(none)}"), "0.800 0.400");
    // B*S / step time: 2 * 64 / 0.8 s
    EXPECT_EQ(fill("{plan_tokens_per_s(full)}"), "160");
    EXPECT_EQ(fill("{plan_max_seq(full)} {plan_max_batch(full)} {plan_max_batch(none)}"),
              "320 5 0");
    EXPECT_EQ(fill("{plan(state_gib)} {plan(capacity_gib)} {plan(parameters_billion)}"),
              "1.5 2.0 0.1");
    // Of the step's rows that fit, attn is the fastest (none is faster but does not fit).
    EXPECT_EQ(fill("{plan(fastest)} {plan(fastest_tokens_per_s)}"), "attn 256");
    EXPECT_EQ(fill("{plan(fits_count)}"),
              std::to_string(lesson.step("fit")->experiment.strategies.size() - 1));
    // The planner's own fastest schedule: 128 tokens in 0.45 s.
    EXPECT_EQ(fill("{plan(optimal_tokens_per_s)}"), "284");
    // The plan is for a GPU's memory whatever machine measured it.
    EXPECT_EQ(fill("{term(memory)}", kLangChinese), "显存");

    // Numbers for predictions and quizzes, unrounded.
    EXPECT_EQ(placeholderNumber("plan_tokens_per_s(full)", lesson, "fit", results), 160.0);
    EXPECT_EQ(placeholderNumber("plan_fits(none)", lesson, "fit", results), 0.0);
    EXPECT_EQ(placeholderNumber("plan(fits_count)", lesson, "fit", results),
              lesson.step("fit")->experiment.strategies.size() - 1.0);
    EXPECT_FALSE(placeholderNumber("plan(fastest)", lesson, "fit", results));
    const std::vector<LessonChoice> choices = {
        {LocalizedText{"none", "none"}, "plan_step_s(none)"},
        {LocalizedText{"full", "full"}, "plan_step_s(full)"}};
    EXPECT_EQ(rightChoice(choices, ChoicePick::Smallest, lesson, "fit", results), 0u);

    // Nothing fits: "none" in words, and no number for the fastest's rate.
    ResultSet nothing = handMadeRecording(lesson);
    for (FullSizePlanRow& r : nothing.plan->strategies) r.fits = false;
    const LessonResults none{{"fit", nothing}};
    EXPECT_EQ(fillPlaceholders("{plan(fastest)}", lesson, "fit", none, kLangChinese), "无");
    std::vector<std::string> unresolved;
    fillPlaceholders("{plan(fastest_tokens_per_s)}", lesson, "fit", none, kLangEnglish,
                     &unresolved);
    EXPECT_EQ(unresolved.size(), 1u);

    // A row with no schedule at the plan's size (a budget below its least peak) has no sizes
    // or times to fill: each says so instead of a zero; its largest batch still fills.
    ResultSet infeasible = handMadeRecording(lesson);
    FullSizePlanRow& noneRow = infeasible.plan->strategies.front();
    noneRow.least_peak_bytes = static_cast<std::int64_t>(3 * kGiB);
    noneRow.fits = false;
    for (const char* text : {"{plan_peak_gib(none)}", "{plan_reserved_gib(none)}",
                             "{plan_step_s(none)}", "{plan_tokens_per_s(none)}"}) {
        unresolved.clear();
        fillPlaceholders(text, lesson, "fit", {{"fit", infeasible}}, kLangEnglish, &unresolved);
        ASSERT_EQ(unresolved.size(), 1u) << text;
        EXPECT_NE(unresolved[0].find("no schedule at the plan's size"), std::string::npos)
            << unresolved[0];
    }
    EXPECT_EQ(fillPlaceholders("{plan_max_batch(none)}", lesson, "fit", {{"fit", infeasible}},
                               kLangEnglish),
              "0");

    // A recording without the plan resolves nothing, and says why.
    ResultSet runsOnly = handMadeRecording(lesson);
    runsOnly.plan.reset();
    unresolved.clear();
    fillPlaceholders("{plan_fits(full)}", lesson, "fit", {{"fit", runsOnly}}, kLangEnglish,
                     &unresolved);
    ASSERT_EQ(unresolved.size(), 1u);
    EXPECT_NE(unresolved[0].find("has no plan"), std::string::npos);
}

TEST(LessonPlanStep, RecordingMismatchesTellAChangedRequest) {
    const Lesson lesson = parse(planLesson());
    const LessonStep& step = *lesson.step("fit");
    const ResultSet recorded = handMadeRecording(lesson);
    EXPECT_TRUE(recordingMismatches(step, recorded).empty());

    auto mismatchesAfter = [&](const std::function<void(json&)>& edit) {
        json changed = planLesson();
        edit(changed["steps"][0]["experiment"]);
        const Lesson edited = parse(changed);
        return recordingMismatches(*edited.step("fit"), recorded);
    };
    const auto capacity = mismatchesAfter([](json& e) { e["plan"]["capacity_gib"] = 80; });
    ASSERT_EQ(capacity.size(), 1u);
    EXPECT_NE(capacity[0].find("capacity"), std::string::npos);
    const auto seq = mismatchesAfter([](json& e) { e["config"]["seq"] = 128; });
    ASSERT_EQ(seq.size(), 1u);
    EXPECT_NE(seq[0].find("seq"), std::string::npos);
    const auto model = mismatchesAfter([](json& e) { e["plan"]["model"] = "llama-3.2-1b"; });
    EXPECT_NE(model.front().find("llama-3.2-1b"), std::string::npos);
    const auto rows = mismatchesAfter([](json& e) { e["strategies"] = {"none", "every:3"}; });
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_NE(rows[0].find("every:3"), std::string::npos);

    ResultSet noPlan = recorded;
    noPlan.plan.reset();
    ASSERT_EQ(recordingMismatches(step, noPlan).size(), 1u);
}

TEST(LessonPlanStep, ThePlanRoundTripsThroughTheResultsFile) {
    const Lesson lesson = parse(planLesson());
    ResultSet set = handMadeRecording(lesson);
    set.plan->scaled = FullSizeTimeScale{"NVIDIA H200 (cuda:0)", 0.01, 12.5, 1250, 2, 64, 4};
    set.notes = {"the optimal planner takes at most ..."};
    const std::string text = resultsToJson(set);
    const ResultSet back = resultsFromJson(text);
    ASSERT_TRUE(back.plan);
    EXPECT_TRUE(back.runs.empty());
    EXPECT_EQ(back.notes, set.notes);
    const FullSizePlanRecord& a = *set.plan;
    const FullSizePlanRecord& b = *back.plan;
    EXPECT_EQ(b.model, a.model);
    EXPECT_EQ(b.parameters, a.parameters);
    EXPECT_EQ(b.config.seq, 64);
    EXPECT_EQ(b.config.depth, 30);
    EXPECT_EQ(b.config.optimizer, Optimizer::Adam);
    EXPECT_EQ(b.capacity_bytes, a.capacity_bytes);
    EXPECT_EQ(b.state_bytes, a.state_bytes);
    EXPECT_EQ(b.times_label, a.times_label);
    ASSERT_TRUE(b.scaled);
    EXPECT_EQ(b.scaled->machine, "NVIDIA H200 (cuda:0)");
    EXPECT_EQ(b.scaled->ratio, 0.01);
    ASSERT_EQ(b.strategies.size(), a.strategies.size());
    for (std::size_t i = 0; i < a.strategies.size(); ++i) {
        EXPECT_EQ(b.strategies[i].strategy, a.strategies[i].strategy);
        EXPECT_EQ(b.strategies[i].reserved_bytes, a.strategies[i].reserved_bytes);
        EXPECT_EQ(b.strategies[i].allocated_bytes, a.strategies[i].allocated_bytes);
        EXPECT_EQ(b.strategies[i].activations, a.strategies[i].activations);
        EXPECT_EQ(b.strategies[i].margin_bytes, a.strategies[i].margin_bytes);
        EXPECT_EQ(b.strategies[i].fits, a.strategies[i].fits);
        EXPECT_EQ(b.strategies[i].step_ms, a.strategies[i].step_ms);
        EXPECT_EQ(b.strategies[i].tokens_per_s, a.strategies[i].tokens_per_s);
        EXPECT_EQ(b.strategies[i].longest_seq, a.strategies[i].longest_seq);
    }
    ASSERT_TRUE(b.fastest);
    EXPECT_EQ(b.fastest->strategy.name(), a.fastest->strategy.name());
    EXPECT_EQ(b.fastest_schedule, a.fastest_schedule);
    // Written again, byte for byte the same.
    EXPECT_EQ(resultsToJson(back), text);

    // The recording's "plan" is the CLI's --json object with the whole config beside it.
    json plan = json::parse(text)["plan"];
    ASSERT_TRUE(plan.contains("run_config"));
    plan.erase("run_config");
    EXPECT_EQ(plan, json::parse(fullSizePlanJson(a)));
    // A file without a plan keeps its bytes: no "plan" key.
    ResultSet plain = set;
    plain.plan.reset();
    EXPECT_FALSE(json::parse(resultsToJson(plain)).contains("plan"));
}

// The plan's "config" summary names the fields the registry shows for the model and its
// numerics (describeConfig), derived values resolved; a file written before, with the older
// fixed list (and "precision" for the dtype), reads as it did.
TEST(LessonPlanStep, ThePlanSummaryComesFromTheRegistryAndOlderOnesStillRead) {
    const Lesson lesson = parse(planLesson());
    const ResultSet recording = handMadeRecording(lesson);
    const json doc = json::parse(resultsToJson(recording));
    const json& summary = doc["plan"]["config"];
    const ExperimentConfig& c = recording.plan->config;
    for (const DescribedField& d : describeConfig(c, kShownModel | kShownNumerics))
        EXPECT_TRUE(summary.contains(d.field->json)) << d.field->json << " in " << summary;
    EXPECT_EQ(summary.size(), describeConfig(c, kShownModel | kShownNumerics).size());
    EXPECT_EQ(summary["kv_heads"], kvHeadsOf(c));  // resolved, though the config may say 0
    EXPECT_EQ(summary["dtype"], toString(c.dtype));
    EXPECT_FALSE(summary.contains("seed"));  // the protocol is not the model

    json older = doc;
    older["plan"]["config"] = {{"block", toString(c.block)},
                               {"depth", c.depth},
                               {"width", c.width},
                               {"heads", c.heads},
                               {"kv_heads", kvHeadsOf(c)},
                               {"head_dim", headDimOf(c)},
                               {"ffn_width", ffnWidthOf(c)},
                               {"vocab", c.vocab},
                               {"seq", c.seq},
                               {"batch", c.batch},
                               {"precision", toString(c.dtype)},
                               {"optimizer", toString(c.optimizer)},
                               {"attention", toString(c.attention)}};
    EXPECT_NO_THROW(resultsFromJson(older.dump()));
    older["plan"]["config"]["depth"] = c.depth + 1;  // edited: neither form matches
    EXPECT_THROW(resultsFromJson(older.dump()), ResultsFileError);
}

// Reading is strict: each bad value named by its path.
TEST(LessonPlanStep, TheResultsReaderNamesABadPlanValue) {
    const Lesson lesson = parse(planLesson());
    const json good = json::parse(resultsToJson(handMadeRecording(lesson)));
    auto errorAfter = [&](const std::function<void(json&)>& edit) {
        json doc = good;
        edit(doc);
        try {
            resultsFromJson(doc.dump());
        } catch (const ResultsFileError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    EXPECT_EQ(errorAfter([](json&) {}), "");
    EXPECT_NE(errorAfter([](json& d) {
                  d["plan"]["strategies"][1]["reserved_bytes"] = "big";
              }).find("plan.strategies[1].reserved_bytes"),
              std::string::npos);
    EXPECT_NE(errorAfter([](json& d) {
                  d["plan"]["strategies"][0]["split"].erase("logits");
              }).find("plan.strategies[0].split"),
              std::string::npos);
    EXPECT_NE(errorAfter([](json& d) {
                  d["plan"]["strategies"][0]["strategy"] = "every:99";
              }).find("plan.strategies[0].strategy"),
              std::string::npos);
    EXPECT_NE(errorAfter([](json& d) {
                  d["plan"]["strategies"][0]["fits"] = true;
              }).find("plan.strategies[0].fits"),
              std::string::npos);
    EXPECT_NE(errorAfter([](json& d) { d["plan"]["config"]["seq"] = 4096; }).find("plan.config"),
              std::string::npos);
    EXPECT_NE(
        errorAfter([](json& d) { d["plan"]["run_config"]["depth"] = 0; }).find("plan.run_config"),
        std::string::npos);
    EXPECT_NE(
        errorAfter([](json& d) { d["plan"]["capacity_bytes"] = 0; }).find("plan.capacity_bytes"),
        std::string::npos);
    EXPECT_NE(errorAfter([](json& d) { d["plan"].erase("fastest"); }).find("plan"),
              std::string::npos);
    EXPECT_NE(errorAfter([](json& d) {
                  d["plan"]["times"]["scaled"] = {{"machine", "x"}};
              }).find("plan.times.scaled"),
              std::string::npos);
    // A plan's file has no runs.
    ResultSet both = handMadeRecording(lesson);
    both.runs.push_back(RunResult{});
    try {
        resultsFromJson(resultsToJson(both));
        ADD_FAILURE() << "a plan with runs was read";
    } catch (const ResultsFileError& e) {
        EXPECT_NE(std::string(e.what()).find("plan: a plan's file has no runs"), std::string::npos)
            << e.what();
    }
}

}  // namespace
