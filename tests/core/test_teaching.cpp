// The teaching room (core/src/teaching): a lesson file's checks name the field, both languages
// carry the same placeholders, and placeholders are filled from results with the values the
// summary and the scaling fits give (computed here from the same sets, never typed in).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "ckptlab/formats/results_io.h"
#include "ckptlab/model/summary.h"
#include "ckptlab/teaching/lesson.h"
#include "strategy_text.h"
#include "teaching/lesson_metrics.h"

using namespace ckptlab;
using nlohmann::json;

namespace {

json text(const std::string& en, const std::string& zh) { return {{"en", en}, {"zh_CN", zh}}; }

// A valid lesson: a sweep step "cmp" and a scaling step "scale" over depth.
json validLesson() {
    json cmp = {
        {"id", "cmp"},
        {"title", text("Compare", "比较")},
        {"experiment",
         {{"config",
           {{"depth", 8}, {"width", 64}, {"seq", 32}, {"batch", 2}, {"keep_grads", true}}},
          {"strategies", {"none", "full", "every:2"}}}},
        {"chart", "tradeoff"},
        {"focus", "full"},
        {"observe", text("Look at the peak.", "看峰值。")},
        {"question", text("Why?", "为什么？")},
        {"answer", text("full saved {saving_pct(full)} %.", "full 节省了 {saving_pct(full)} %。")}};
    json scale = {{"id", "scale"},
                  {"title", text("Scale", "扩展")},
                  {"experiment",
                   {{"config", {{"width", 64}, {"seq", 32}}},
                    {"strategies", {"none", "sqrt", "full"}},
                    {"scaling", {{"axis", "depth"}, {"values", {4, 16, 64}}}}}},
                  {"chart", "scaling"},
                  {"observe", text("Slopes.", "斜率。")},
                  {"question", text("Which?", "哪个？")},
                  {"answer", text("k = {peak_exponent(sqrt)}", "k = {peak_exponent(sqrt)}")}};
    return {{"id", "demo"},
            {"order", 3},
            {"title", text("Demo", "演示")},
            {"summary", text("A demo.", "一个演示。")},
            {"tutorial", {{{"heading", "第一步：测量"}, {"translation", "Step 1: measure"}}}},
            {"steps", {cmp, scale}}};
}

// The message of the LessonError `doc` raises; fails the test when it loads.
std::string errorOf(const std::string& doc) {
    try {
        parseLesson(doc, "demo.json");
    } catch (const LessonError& e) {
        return e.what();
    }
    ADD_FAILURE() << "loaded without error: " << doc.substr(0, 200);
    return {};
}
std::string errorOf(const json& doc) { return errorOf(doc.dump()); }

RunResult run(const std::string& strategy, std::int64_t peak, double stepMs, int depth = 8) {
    RunResult r;
    r.strategy = test::strategy(strategy);
    r.config.depth = depth;
    r.metrics.peak_bytes = peak;
    r.metrics.activation_bytes = peak / 2;
    r.metrics.baseline_bytes = 3'000'000;
    r.breakdown.parameters = 2'000'000;
    r.breakdown.input = 1'000'000;
    r.metrics.step_ms = stepMs;
    r.metrics.forward_ms = stepMs / 3;
    r.metrics.recompute_ms = strategy == "none" ? 0 : stepMs / 4;
    r.grad_check.checked = true;
    r.grad_check.tolerance = 1e-5;
    r.grad_check.max_abs_diff = strategy == "every:2" ? 1.0 : 2.5e-7;
    return r;
}

std::string fmt(const char* format, double v) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, format, v);
    return buffer;
}

// A scaling set whose peaks follow known power laws of depth: sqrt's activations grow as
// L^0.5, its parameter gradients at the peak as L^1, full's peak as L^1.
ResultSet scalingSet() {
    ResultSet set;
    for (int depth : {4, 16, 64}) {
        const double L = depth;
        RunResult none = run("none", static_cast<std::int64_t>(3e6 * L), 10 * L, depth);
        RunResult sq =
            run("sqrt", static_cast<std::int64_t>(2e6 * std::sqrt(L) + 5e5 * L), 13 * L, depth);
        sq.breakdown.gradients = static_cast<std::int64_t>(5e5 * L);
        RunResult full = run("full", static_cast<std::int64_t>(1e6 * L), 14 * L, depth);
        for (RunResult* r : {&none, &sq, &full}) set.runs.push_back(*r);
    }
    return set;
}

struct Filled {
    Lesson lesson = parseLesson(validLesson().dump(), "demo.json");
    LessonResults results;
    Filled() {
        ResultSet cmp;
        cmp.runs = {run("none", 104'857'600 + 12'345, 10.7), run("full", 41'000'000, 13.9),
                    run("every:2", 60'000'000, 10.2)};
        cmp.runs[0].breakdown.gradients = 7'000'000;
        cmp.runs[1].breakdown.gradients = 5'500'000;
        results["cmp"] = cmp;
        results["scale"] = scalingSet();
    }
    std::string fill(const std::string& text, const std::string& step = "cmp",
                     const std::string& lang = kLangEnglish,
                     std::vector<std::string>* unresolved = nullptr) const {
        return fillPlaceholders(text, lesson, step, results, lang, unresolved);
    }
};

}  // namespace

TEST(LessonFile, ValidLessonLoadsEveryField) {
    const Lesson l = parseLesson(validLesson().dump(), "demo.json");
    EXPECT_EQ(l.id, "demo");
    EXPECT_EQ(l.order, 3);
    EXPECT_EQ(l.title.in("zh_CN"), "演示");
    EXPECT_EQ(l.title.in("fr"), "Demo");
    ASSERT_EQ(l.tutorial.size(), 1u);
    EXPECT_EQ(l.tutorial[0].heading, "第一步：测量");
    ASSERT_EQ(l.steps.size(), 2u);
    const LessonStep* cmp = l.step("cmp");
    ASSERT_NE(cmp, nullptr);
    EXPECT_EQ(cmp->experiment.config.depth, 8);
    EXPECT_EQ(cmp->experiment.config.repeats, ExperimentConfig{}.repeats);  // a default kept
    EXPECT_TRUE(cmp->experiment.config.keep_grads);
    EXPECT_FALSE(cmp->experiment.scaling_axis);
    EXPECT_EQ(cmp->chart, LessonChart::Tradeoff);
    EXPECT_EQ(cmp->focus, test::strategy("full"));
    const LessonStep* scale = l.step("scale");
    ASSERT_TRUE(scale->experiment.scaling_axis);
    EXPECT_EQ(*scale->experiment.scaling_axis, ScalingAxis::Depth);
    EXPECT_EQ(scale->experiment.scaling_values, (std::vector<int>{4, 16, 64}));
    EXPECT_EQ(l.step("missing"), nullptr);
}

TEST(LessonFile, ErrorsNameFileStepAndFieldWithAllowedValues) {
    json j = validLesson();
    j["steps"][0]["experiment"]["config"]["depth"] = 0;
    std::string e = errorOf(j);
    EXPECT_NE(e.find("demo.json: step \"cmp\": experiment.config.depth"), std::string::npos) << e;
    EXPECT_NE(e.find("[1, 512]"), std::string::npos) << e;

    j = validLesson();
    j["steps"][1]["chart"] = "pie";
    e = errorOf(j);
    EXPECT_NE(e.find("step \"scale\": chart"), std::string::npos) << e;
    EXPECT_NE(e.find("tradeoff, timeline, lifetimes, segments, breakdown, scaling, schedules"),
              std::string::npos)
        << e;

    j = validLesson();
    j["steps"][0]["experiment"]["config"]["block"] = "mlp";
    e = errorOf(j);
    EXPECT_NE(e.find("experiment.config.block"), std::string::npos) << e;
    EXPECT_NE(e.find("ffn, transformer"), std::string::npos) << e;

    j = validLesson();
    j["steps"][0]["experiment"]["config"]["depthh"] = 4;
    e = errorOf(j);
    EXPECT_NE(e.find("experiment.config.depthh: unknown key"), std::string::npos) << e;

    j = validLesson();  // heads must divide width: validate()'s rule, field named
    j["steps"][0]["experiment"]["config"]["block"] = "transformer";
    j["steps"][0]["experiment"]["config"]["heads"] = 5;
    e = errorOf(j);
    EXPECT_NE(e.find("experiment.config.heads"), std::string::npos) << e;

    // Every config field a lesson may set is read from the registry: kv_heads too, with its
    // range and rules; the device is the machine's, not the lesson's.
    j = validLesson();
    j["steps"][0]["experiment"]["config"]["block"] = "llama";
    j["steps"][0]["experiment"]["config"]["kv_heads"] = 2;
    EXPECT_EQ(parseLesson(j.dump(), "demo.json").steps[0].experiment.config.kv_heads, 2);
    j["steps"][0]["experiment"]["config"]["kv_heads"] = 3;
    e = errorOf(j);
    EXPECT_NE(
        e.find("experiment.config.kv_heads: kv-heads must divide heads (heads 4, kv-heads 3)"),
        std::string::npos)
        << e;
    j["steps"][0]["experiment"]["config"]["kv_heads"] = 257;
    e = errorOf(j);
    EXPECT_NE(e.find("experiment.config.kv_heads: expected a whole number in [0, 256], got 257"),
              std::string::npos)
        << e;
    j = validLesson();
    j["steps"][0]["experiment"]["config"]["device"] = "cuda";
    e = errorOf(j);
    EXPECT_NE(e.find("experiment.config.device: unknown key"), std::string::npos) << e;

    j = validLesson();
    j["steps"][0]["experiment"]["strategies"][2] = "every:99";
    e = errorOf(j);
    EXPECT_NE(e.find("step \"cmp\": experiment.strategies[2]"), std::string::npos) << e;

    j = validLesson();  // a strategy must fit every depth of a scaling step
    j["steps"][1]["experiment"]["strategies"][1] = "segments:8";
    e = errorOf(j);
    EXPECT_NE(e.find("experiment.strategies[1]"), std::string::npos) << e;
    EXPECT_NE(e.find("at depth=4"), std::string::npos) << e;

    j = validLesson();
    j["steps"][1]["experiment"]["scaling"]["axis"] = "heads";
    e = errorOf(j);
    EXPECT_NE(e.find("experiment.scaling.axis"), std::string::npos) << e;
    EXPECT_NE(e.find("depth, seq, width, batch"), std::string::npos) << e;

    j = validLesson();
    j["steps"][1]["id"] = "cmp";
    e = errorOf(j);
    EXPECT_NE(e.find("steps[1].id"), std::string::npos) << e;

    j = validLesson();
    j["steps"][0].erase("observe");
    e = errorOf(j);
    EXPECT_NE(e.find("step \"cmp\": observe: missing"), std::string::npos) << e;
}

TEST(LessonFile, StrictJsonRefusesDuplicateKeysAndBadUtf8) {
    std::string doc = validLesson().dump();
    doc.insert(1, "\"order\":1,");
    EXPECT_NE(errorOf(doc).find("order"), std::string::npos);
    std::string bad = validLesson().dump();
    bad.replace(bad.find("演示"), 3, "\xff\xfe\xfd");
    EXPECT_NE(errorOf(bad).find("UTF-8"), std::string::npos) << errorOf(bad);
    EXPECT_NE(errorOf(std::string("{\"id\": ")).find("demo.json"), std::string::npos);
}

TEST(LessonFile, EveryTextNeedsBothLanguagesWithTheSamePlaceholders) {
    json j = validLesson();
    j["steps"][0]["answer"].erase("zh_CN");
    std::string e = errorOf(j);
    EXPECT_NE(e.find("step \"cmp\": answer.zh_CN: missing"), std::string::npos) << e;

    j = validLesson();
    j["summary"]["en"] = "  ";
    e = errorOf(j);
    EXPECT_NE(e.find("summary.en: must not be empty"), std::string::npos) << e;

    j = validLesson();
    j["steps"][0]["answer"]["zh_CN"] = "节省了 {time_added_pct(full)} %";
    e = errorOf(j);
    EXPECT_NE(e.find("step \"cmp\": answer: en and zh_CN must carry the same placeholders"),
              std::string::npos)
        << e;
    EXPECT_NE(e.find("only in en: {saving_pct(full)}"), std::string::npos) << e;
    EXPECT_NE(e.find("only in zh_CN: {time_added_pct(full)}"), std::string::npos) << e;
}

TEST(LessonFile, PlaceholdersAreCheckedAgainstTheLesson) {
    auto answerError = [](const std::string& placeholder, int step = 0) {
        json j = validLesson();
        j["steps"][step]["answer"] = text(placeholder, placeholder);
        return errorOf(j);
    };
    EXPECT_NE(answerError("{savings(full)}").find("unknown metric \"savings\""), std::string::npos);
    EXPECT_NE(answerError("{saving_pct(sqrt)}").find("does not run \"sqrt\""), std::string::npos);
    EXPECT_NE(answerError("{other/peak_mib(full)}").find("no step \"other\""), std::string::npos);
    EXPECT_NE(answerError("{peak_exponent(full)}").find("needs a scaling step"), std::string::npos);
    EXPECT_NE(answerError("{peak_mib(full)}", 1).find("add @value"), std::string::npos);
    EXPECT_NE(answerError("{peak_mib(full)@5}", 1).find("5 is not one of"), std::string::npos);
    EXPECT_NE(answerError("{config(dropout)}").find("unknown config field"), std::string::npos);
    // The spelling of a strategy is free; the canonical one is matched.
    json j = validLesson();
    j["steps"][0]["answer"] = text("{saving_pct(every:2)} {scale/peak_mib(none)@16}",
                                   "{scale/peak_mib(none)@16} {saving_pct(every:2)}");
    EXPECT_NO_THROW(parseLesson(j.dump(), "demo.json"));
}

TEST(LessonPlaceholders, ListsWhatIsBetweenBraces) {
    EXPECT_EQ(placeholdersIn("a {x(y)} b {s/m(n)@4} {"),
              (std::vector<std::string>{"x(y)", "s/m(n)@4"}));
    EXPECT_TRUE(placeholdersIn("no placeholders").empty());
}

TEST(LessonPlaceholders, RunMetricsComeFromTheSummaryRules) {
    const Filled f;
    const ResultSet& set = f.results.at("cmp");
    const RunResult* none = set.find("none");
    const SummaryRow full = summarizeRun(*set.find("full"), none);
    const SummaryRow every = summarizeRun(*set.find("every:2"), none);

    std::vector<std::string> unresolved;
    EXPECT_EQ(f.fill("saved {saving_pct(full)} %", "cmp", kLangEnglish, &unresolved),
              "saved " + fmt("%.1f", *full.memory_saved_pct) + " %");
    EXPECT_EQ(f.fill("{time_added_pct(full)}"), fmt("%.1f", *full.time_added_pct));
    EXPECT_EQ(f.fill("{ratio(full)}"), fmt("%.2f", *full.saved_per_added));
    // every:2 is faster than none here: the ratio is undefined and says so.
    EXPECT_FALSE(every.saved_per_added);
    EXPECT_EQ(f.fill("{ratio(every:2)}"), "— (no time added)");
    EXPECT_EQ(f.fill("{peak_mib(none)}"), fmt("%.1f", none->metrics.peak_bytes / kMiB));
    const RunResult& fullRun = *set.find("full");
    EXPECT_EQ(f.fill("{total_peak_mib(full)}"),
              fmt("%.1f", (fullRun.metrics.peak_bytes + fullRun.metrics.baseline_bytes) / kMiB));
    const double totalNone = static_cast<double>(none->metrics.peak_bytes + 3'000'000);
    const double totalFull = static_cast<double>(fullRun.metrics.peak_bytes + 3'000'000);
    EXPECT_EQ(f.fill("{total_saving_pct(full)}"), fmt("%.1f", (1 - totalFull / totalNone) * 100));
    EXPECT_EQ(f.fill("{recompute_vs_forward_pct(full)}"),
              fmt("%.1f", fullRun.metrics.recompute_ms / none->metrics.forward_ms * 100));
    EXPECT_EQ(f.fill("{peak_no_grads_mib(full)}"),
              fmt("%.1f", (fullRun.metrics.peak_bytes - 5'500'000) / kMiB));
    EXPECT_EQ(f.fill("{grads_at_peak_mib(full)}"), fmt("%.1f", 5'500'000 / kMiB));
    EXPECT_EQ(f.fill("{grad_check(full)} {grad_check(every:2)}"), "passed failed");
    EXPECT_EQ(f.fill("{grad_check(full)} {grad_check(every:2)}", "cmp", kLangChinese),
              "通过 未通过");
    EXPECT_EQ(f.fill("{max_abs_diff(full)}"), fmt("%.2e", 2.5e-7));
    EXPECT_EQ(f.fill("L={config(depth)}, S={config(seq)}"), "L=8, S=32");
    EXPECT_TRUE(unresolved.empty());
}

TEST(LessonPlaceholders, CrossStepAndScalingValues) {
    const Filled f;
    const ResultSet& scale = f.results.at("scale");
    const RunResult* at16 = nullptr;
    for (const RunResult& r : scale.runs)
        if (isBaseline(r.strategy) && r.config.depth == 16) at16 = &r;
    ASSERT_NE(at16, nullptr);
    EXPECT_EQ(f.fill("{scale/peak_mib(none)@16}", "cmp"),
              fmt("%.1f", at16->metrics.peak_bytes / kMiB));
    // Within the scaling step, saving is against `none` at the same depth.
    const RunResult* full64 = nullptr;
    const RunResult* none64 = nullptr;
    for (const RunResult& r : scale.runs) {
        if (r.config.depth != 64) continue;
        if (r.strategy.kind == StrategyKind::Full) full64 = &r;
        if (isBaseline(r.strategy)) none64 = &r;
    }
    EXPECT_EQ(f.fill("{saving_pct(full)@64}", "scale"),
              fmt("%.1f", *summarizeRun(*full64, none64).memory_saved_pct));
    // A step of a sweep can be read from a text of another step.
    const SummaryRow full =
        summarizeRun(*f.results.at("cmp").find("full"), f.results.at("cmp").find("none"));
    EXPECT_EQ(f.fill("{cmp/saving_pct(full)}", "scale"), fmt("%.1f", *full.memory_saved_pct));
}

TEST(LessonPlaceholders, ExponentsOfAKnownPowerLaw) {
    const Filled f;
    EXPECT_EQ(f.fill("{peak_exponent(full)}", "scale"), "1.00");
    EXPECT_EQ(f.fill("{peak_exponent(none)}", "scale"), "1.00");
    // sqrt's peak mixes L^0.5 activations with L^1 gradients; without them it is L^0.5.
    const std::string withGrads = f.fill("{peak_exponent(sqrt)}", "scale");
    EXPECT_GT(std::stod(withGrads), 0.6);
    EXPECT_EQ(f.fill("{peak_no_grads_exponent(sqrt)}", "scale"), "0.50");
    EXPECT_EQ(f.fill("{activations_exponent(full)}", "scale"), "1.00");  // peak / 2
    EXPECT_EQ(f.fill("{time_exponent(full)}", "scale"), "1.00");
    EXPECT_EQ(f.fill("{largest_fit(none)}", "scale"), "64");
    EXPECT_EQ(f.fill("{first_oom(none)}", "scale"), "none");
    EXPECT_EQ(f.fill("{first_oom(none)}", "scale", kLangChinese), "无");
}

TEST(LessonPlaceholders, OutOfMemoryRunsBoundTheFitAndDoNotResolve) {
    Filled f;
    for (RunResult& r : f.results["scale"].runs) {
        if (!isBaseline(r.strategy) || r.config.depth != 64) continue;
        r.error = "none: out of memory";
        r.out_of_memory = OutOfMemory{};
    }
    EXPECT_EQ(f.fill("{first_oom(none)}", "scale"), "64");
    EXPECT_EQ(f.fill("{largest_fit(none)}", "scale"), "16");
    std::vector<std::string> unresolved;
    EXPECT_EQ(f.fill("{peak_mib(none)@64}", "scale", kLangEnglish, &unresolved),
              "{peak_mib(none)@64}");
    ASSERT_EQ(unresolved.size(), 1u);
    EXPECT_NE(unresolved[0].find("failed"), std::string::npos) << unresolved[0];
}

TEST(LessonPlaceholders, UnresolvedOnesStayAndAreReported) {
    Filled f;
    f.results.erase("scale");
    std::vector<std::string> unresolved;
    const std::string out =
        f.fill("a {scale/peak_exponent(sqrt)} b {nonsense} c {saving_pct(full)}", "cmp",
               kLangEnglish, &unresolved);
    EXPECT_EQ(out.rfind("a {scale/peak_exponent(sqrt)} b {nonsense} c ", 0), 0u) << out;
    EXPECT_EQ(out.find("{saving_pct"), std::string::npos);
    ASSERT_EQ(unresolved.size(), 2u);
    EXPECT_NE(unresolved[0].find("{scale/peak_exponent(sqrt)}: no results for step \"scale\""),
              std::string::npos)
        << unresolved[0];
    EXPECT_NE(unresolved[1].find("{nonsense}"), std::string::npos);

    // The whole lesson, both languages: the scaling step's answer is missing in each.
    const auto all = unresolvedPlaceholders(f.lesson, f.results);
    ASSERT_EQ(all.size(), 2u);
    EXPECT_NE(all[0].find("step scale, answer (en)"), std::string::npos) << all[0];
    EXPECT_NE(all[1].find("step scale, answer (zh_CN)"), std::string::npos) << all[1];
    f.results["scale"] = scalingSet();
    EXPECT_TRUE(unresolvedPlaceholders(f.lesson, f.results).empty());
}

TEST(LessonRecordings, LoadEachStepAndNameWhatIsMissing) {
    const Filled f;
    const auto dir =
        std::filesystem::temp_directory_path() / ("ckptlab_lessons_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir / "demo");
    EXPECT_EQ(recordingPath(dir.string(), "demo", "cmp"), (dir / "demo" / "cmp.json").string());
    saveResults(f.results.at("cmp"), recordingPath(dir.string(), "demo", "cmp"));
    std::vector<std::string> problems;
    const LessonResults loaded = loadRecording(dir.string(), f.lesson, &problems);
    ASSERT_EQ(loaded.count("cmp"), 1u);
    EXPECT_EQ(loaded.at("cmp").runs.size(), 3u);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("scale.json"), std::string::npos) << problems[0];

    std::ofstream(recordingPath(dir.string(), "demo", "scale")) << "{\"schema\": 1}";
    problems.clear();
    loadRecording(dir.string(), f.lesson, &problems);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_NE(problems[0].find("scale.json"), std::string::npos) << problems[0];
    std::filesystem::remove_all(dir);
}

TEST(LessonFiles, FolderOrderIdsAndEnvironment) {
    const auto dir = std::filesystem::temp_directory_path() /
                     ("ckptlab_lesson_dir_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    json second = validLesson();
    second["id"] = "second";
    second["order"] = 1;
    std::ofstream(dir / "01-demo.json") << validLesson().dump();
    std::ofstream(dir / "02-second.json") << second.dump();
    std::ofstream(dir / "notes.txt") << "not a lesson";
    LessonFolder folder = loadLessonFolder(dir.string());
    EXPECT_TRUE(folder.problems.empty());
    ASSERT_EQ(folder.lessons.size(), 2u);
    EXPECT_EQ(folder.lessons[0].id, "second");  // order 1 before order 3
    EXPECT_EQ(folder.lessons[1].id, "demo");

    std::ofstream(dir / "03-renamed.json") << validLesson().dump();  // id "demo" again
    folder = loadLessonFolder(dir.string());
    EXPECT_EQ(folder.lessons.size(), 2u);  // the second "demo" is left out
    ASSERT_EQ(folder.problems.size(), 1u);
    EXPECT_NE(folder.problems[0].find("03-renamed.json: id"), std::string::npos)
        << folder.problems[0];
    EXPECT_THROW(loadLessonFolder((dir / "absent").string()), LessonError);

    setenv("CKPTLAB_LESSONS_DIR", dir.c_str(), 1);
    EXPECT_EQ(lessonsDirectory("/nowhere/bin/ckptlab-cli"), dir.string());
    setenv("CKPTLAB_LESSONS_DIR", (dir / "absent").c_str(), 1);
    EXPECT_EQ(lessonsDirectory("/nowhere/bin/ckptlab-cli"), "");
    unsetenv("CKPTLAB_LESSONS_DIR");
    std::filesystem::remove_all(dir);
}

TEST(LessonLabels, BothLanguages) {
    EXPECT_EQ(lessonLabel(LessonLabel::Question, kLangEnglish), "Question");
    EXPECT_EQ(lessonLabel(LessonLabel::Question, kLangChinese), "问题");
    EXPECT_EQ(lessonLabel(LessonLabel::None, kLangChinese), "无");
    EXPECT_TRUE(isSupportedLanguage("zh_CN"));
    EXPECT_FALSE(isSupportedLanguage("zh"));
    EXPECT_EQ(parseLessonChart("schedules"), LessonChart::Schedule);
    EXPECT_EQ(parseLessonChart("schedule"), LessonChart::Schedule);  // the older name
    EXPECT_EQ(toString(LessonChart::Schedule), "schedules");
    EXPECT_FALSE(parseLessonChart("Schedule"));
    for (LessonChart chart : kLessonCharts) {
        EXPECT_EQ(parseLessonChart(toString(chart)), chart);
        EXPECT_FALSE(lessonChartLabel(chart, kLangChinese).empty());
    }
}

TEST(LessonRecordings, MismatchesNameTheStaleRuns) {
    const Filled f;
    LessonStep cmp = *f.lesson.step("cmp");
    ResultSet set;
    for (const std::string s : {"none", "full", "every:2"}) {
        RunResult r = run(s, 1000, 1.0);
        r.config = cmp.experiment.config;
        set.runs.push_back(r);
    }
    EXPECT_TRUE(recordingMismatches(cmp, set).empty());
    set.runs[1].config.keep_grads = false;  // recorded before the lesson asked for kept gradients
    auto stale = recordingMismatches(cmp, set);
    ASSERT_EQ(stale.size(), 1u);
    EXPECT_NE(stale[0].find("no run of \"full\""), std::string::npos) << stale[0];

    const LessonStep& scale = *f.lesson.step("scale");
    ResultSet scaled;
    for (int depth : {4, 16}) {  // 64 missing
        for (const std::string s : {"none", "sqrt", "full"}) {
            RunResult r = run(s, 1000, 1.0);
            r.config = scale.experiment.config;
            r.config.depth = depth;
            scaled.runs.push_back(r);
        }
    }
    stale = recordingMismatches(scale, scaled);
    ASSERT_EQ(stale.size(), 3u);
    EXPECT_NE(stale[0].find("at depth = 64"), std::string::npos) << stale[0];
}

// A time difference within noise never reaches a lesson as a confident sign: the answer reads
// "≈ 0" with the range summarizeRun gives, and the ratio says why it is missing.
TEST(LessonPlaceholders, TimeWithinNoiseReadsAsAboutZero) {
    auto timed = [](const std::string& name, std::vector<double> samples) {
        RunResult run;
        run.strategy = test::strategy(name);
        run.metrics.peak_bytes = name == "none" ? 4'000'000 : 2'000'000;
        run.metrics.step_samples_ms = samples;
        std::sort(samples.begin(), samples.end());
        run.metrics.step_ms = (samples[2] + samples[3]) / 2;
        run.grad_check.checked = true;
        return run;
    };
    const RunResult none = timed("none", {10, 11, 12, 13, 14, 15});
    const RunResult full = timed("full", {9, 10.5, 11.5, 12.5, 13.5, 16});
    const SummaryRow row = summarizeRun(full, &none);
    ASSERT_TRUE(row.time_within_noise && *row.time_within_noise);
    const auto text = teaching::runMetric("time_added_pct", full, &none, kLangEnglish).text;
    ASSERT_TRUE(text);
    EXPECT_EQ(*text, fmt("≈ 0 [%+.1f, ", *row.time_added_low_pct) +
                         fmt("%+.1f]", *row.time_added_high_pct));
    EXPECT_EQ(teaching::runMetric("ratio", full, &none, kLangEnglish).text,
              std::optional<std::string>("— (time within noise)"));
    // Well apart, the number itself.
    const RunResult slow = timed("full", {20, 21, 22, 23, 24, 25});
    EXPECT_EQ(teaching::runMetric("time_added_pct", slow, &none, kLangEnglish).text,
              std::optional<std::string>(fmt("%.1f", *summarizeRun(slow, &none).time_added_pct)));
}
