// The fields that run a class from a lesson: a step's prediction and code, the lesson's quiz.
// Their errors name the file, the step and the field; the right choice of a question comes
// from the measurement (and flips when the measurement does); {term(memory)} follows the
// recording's device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include <nlohmann/json.hpp>

#include "ckptlab/model/summary.h"
#include "ckptlab/teaching/lesson.h"
#include "strategy_text.h"

using namespace ckptlab;
using nlohmann::json;

namespace {

json text(const std::string& en, const std::string& zh) { return {{"en", en}, {"zh_CN", zh}}; }

json choice(const std::string& en, const std::string& zh, const std::string& value) {
    return {{"text", text(en, zh)}, {"value", value}};
}

// A lesson with a sweep step "cmp" (none, full, every:2) that predicts a number, and a step
// "more" that predicts a choice and shows code; a two-question quiz on "cmp".
json classLesson() {
    json cmp = {{"id", "cmp"},
                {"title", text("Compare", "比较")},
                {"experiment",
                 {{"config", {{"depth", 8}, {"width", 64}, {"seq", 32}, {"batch", 2}}},
                  {"strategies", {"none", "full", "every:2"}}}},
                {"chart", "tradeoff"},
                {"focus", "full"},
                {"predict",
                 {{"prompt", text("How much of the peak does full save on {config(depth)} blocks?",
                                  "在 {config(depth)} 个块上 full 节省多少峰值？")},
                  {"measured", "saving_pct(full)"},
                  {"unit", text("%", "%")}}},
                {"observe", text("Look at the {term(memory)}.", "看{term(memory)}。")},
                {"question", text("Why?", "为什么？")},
                {"answer", text("{saving_pct(full)} %.", "{saving_pct(full)} %。")}};
    json more = cmp;
    more["id"] = "more";
    more.erase("predict");
    more["predict"] = {{"prompt", text("Which saves more?", "哪个节省更多？")},
                       {"choices",
                        {choice("full", "full", "saving_pct(full)"),
                         choice("every:2", "every:2", "saving_pct(every:2)")}},
                       {"pick", "largest"}};
    more["code"] = {{{"caption", text("The bug", "错误")},
                     {"language", "python"},
                     {"text", "def f(x):\n    return x\n"}},
                    {{"caption", text("The fix", "修正")},
                     {"language", "python"},
                     {"text", "def f(x, i=i):\n    return x\n"}}};
    json quiz = {
        {{"step", "cmp"},
         {"question", text("Which peak is lowest?", "哪个峰值最低？")},
         {"choices",
          {choice("none", "none", "peak_mib(none)"), choice("full", "full", "peak_mib(full)"),
           choice("every:2", "every:2", "peak_mib(every:2)")}},
         {"pick", "smallest"},
         {"explanation",
          text("full keeps {peak_mib(full)} MiB.", "full 只保留 {peak_mib(full)} MiB。")}},
        {{"step", "more"},
         {"question", text("Does full save more than 50 %?", "full 节省超过 50 % 吗？")},
         {"choices", {choice("yes", "是", "saving_pct(full)"), choice("no", "否", "50")}},
         {"pick", "largest"},
         {"explanation", text("It saves {saving_pct(full)} %.", "节省 {saving_pct(full)} %。")}}};
    return {
        {"id", "demo"},
        {"order", 1},
        {"title", text("Where the {term(memory)} goes", "{term(memory)}去了哪里")},
        {"summary", text("The {cmp/term(memory)} of step cmp.", "cmp 步的{cmp/term(memory)}。")},
        {"steps", {cmp, more}},
        {"quiz", quiz}};
}

std::string errorOf(const json& doc) {
    try {
        parseLesson(doc.dump(), "demo.json");
    } catch (const LessonError& e) {
        return e.what();
    }
    ADD_FAILURE() << "loaded without error";
    return {};
}

RunResult run(const std::string& strategy, std::int64_t peak, double stepMs) {
    RunResult r;
    r.strategy = test::strategy(strategy);
    r.config.depth = 8;
    r.metrics.peak_bytes = peak;
    r.metrics.activation_bytes = peak / 2;
    r.metrics.step_ms = stepMs;
    r.metrics.forward_ms = stepMs / 3;
    r.grad_check.checked = true;
    r.grad_check.tolerance = 1e-5;
    return r;
}

// none 100 MB, full 40 MB (60 % saved), every:2 70 MB (30 % saved); recorded on `device`.
ResultSet measured(std::int64_t everyPeak = 70'000'000, const std::string& device = "cpu") {
    ResultSet set;
    set.environment.device = device;
    set.runs = {run("none", 100'000'000, 10), run("full", 40'000'000, 14),
                run("every:2", everyPeak, 12)};
    return set;
}

struct Class {
    Lesson lesson = parseLesson(classLesson().dump(), "demo.json");
    LessonResults results{{"cmp", measured()}, {"more", measured()}};
};

}  // namespace

TEST(LessonClassFields, EveryFieldLoads) {
    const Class c;
    const LessonStep& cmp = c.lesson.steps[0];
    ASSERT_TRUE(cmp.predict);
    EXPECT_TRUE(cmp.predict->isNumber());
    EXPECT_EQ(cmp.predict->measured, "saving_pct(full)");
    EXPECT_EQ(cmp.predict->unit.zh_CN, "%");
    EXPECT_TRUE(cmp.code.empty());
    const LessonStep& more = c.lesson.steps[1];
    ASSERT_TRUE(more.predict);
    EXPECT_FALSE(more.predict->isNumber());
    ASSERT_EQ(more.predict->choices.size(), 2u);
    EXPECT_EQ(more.predict->choices[1].value, "saving_pct(every:2)");
    EXPECT_EQ(more.predict->pick, ChoicePick::Largest);
    ASSERT_EQ(more.code.size(), 2u);
    EXPECT_EQ(more.code[1].caption.en, "The fix");
    EXPECT_EQ(more.code[0].language, "python");
    EXPECT_EQ(more.code[0].text, "def f(x):\n    return x\n");
    ASSERT_EQ(c.lesson.quiz.size(), 2u);
    EXPECT_EQ(c.lesson.quiz[0].step, "cmp");
    EXPECT_EQ(c.lesson.quiz[0].pick, ChoicePick::Smallest);
    EXPECT_EQ(c.lesson.quiz[0].choices.size(), 3u);
    EXPECT_EQ(c.lesson.quiz[1].choices[1].value, "50");
}

TEST(LessonClassFields, ErrorsNameFileStepAndField) {
    struct Case {
        std::function<void(json&)> edit;
        std::string expected;
    };
    const std::vector<Case> cases = {
        {[](json& d) { d["steps"][1]["predict"]["choices"].erase(1); },
         "demo.json: step \"more\": predict.choices: expected 2 to 6 choices, got 1"},
        {[](json& d) {
             for (int i = 0; i < 5; ++i)
                 d["steps"][1]["predict"]["choices"].push_back(choice("x", "x", "1"));
         },
         "step \"more\": predict.choices: expected 2 to 6 choices, got 7"},
        {[](json& d) { d["steps"][1]["predict"]["pick"] = "biggest"; },
         "step \"more\": predict.pick: unknown value \"biggest\" (allowed: largest, smallest)"},
        {[](json& d) { d["steps"][1]["predict"].erase("pick"); },
         "step \"more\": predict.pick: missing"},
        {[](json& d) { d["steps"][0]["predict"]["unit"].erase("zh_CN"); },
         "step \"cmp\": predict.unit.zh_CN: missing"},
        {[](json& d) { d["steps"][0]["predict"]["measured"] = "42"; },
         "step \"cmp\": predict.measured: \"42\" is a number"},
        {[](json& d) { d["steps"][0]["predict"]["measured"] = "grad_check(full)"; },
         "step \"cmp\": predict.measured: \"grad_check(full)\" is a word, not a number"},
        {[](json& d) { d["steps"][0]["predict"]["measured"] = "saving_pct(sqrt)"; },
         "step \"cmp\": predict.measured: placeholder {saving_pct(sqrt)}: step \"cmp\" does not "
         "run \"sqrt\""},
        {[](json& d) { d["steps"][0]["predict"]["measured"] = "{saving_pct(full)}"; },
         "predict.measured: \"{saving_pct(full)}\": write the expression without braces"},
        {[](json& d) { d["steps"][0]["predict"]["answer"] = text("a", "b"); },
         "step \"cmp\": predict.answer: unknown key (allowed: prompt, measured, unit)"},
        {[](json& d) { d["steps"][0]["predict"]["prompt"]["en"] = "{peak(full)}"; },
         "step \"cmp\": predict.prompt.en: placeholder {peak(full)}: unknown metric \"peak\""},
        {[](json& d) {
             d["steps"][0]["predict"]["prompt"] = text("{peak_mib(sqrt)}", "{peak_mib(sqrt)}");
         },
         "step \"cmp\": predict.prompt.en: placeholder {peak_mib(sqrt)}: step \"cmp\" does not "
         "run \"sqrt\""},
        {[](json& d) { d["steps"][1]["predict"].erase("choices"); },
         "step \"more\": predict: give \"measured\" and \"unit\" (a number) or \"choices\" and "
         "\"pick\""},
        {[](json& d) { d["steps"][1]["predict"]["choices"][1]["value"] = "peak_mib(none)@4"; },
         "step \"more\": predict.choices[1].value: placeholder {peak_mib(none)@4}: @value is only "
         "for scaling steps"},
        {[](json& d) { d["steps"][1]["code"][0]["text"] = "  \n"; },
         "step \"more\": code[0].text: must not be empty"},
        {[](json& d) { d["steps"][1]["code"][1]["language"] = "Python"; },
         "step \"more\": code[1].language: \"Python\" must be lower-case"},
        {[](json& d) { d["steps"][1]["code"][1].erase("caption"); },
         "step \"more\": code[1].caption: missing"},
        {[](json& d) { d["steps"][1]["code"] = json::array(); },
         "step \"more\": code: expected at least one piece of code"},
        {[](json& d) { d["quiz"][0]["step"] = "nope"; },
         "demo.json: quiz[0].step: the lesson has no step \"nope\" (steps: cmp, more)"},
        {[](json& d) { d["quiz"][1]["choices"][0]["value"] = "saving_pct(every:3)"; },
         "demo.json: quiz[1].choices[0].value: placeholder {saving_pct(every:3)}: step \"more\" "
         "does not run \"every:3\""},
        {[](json& d) { d["quiz"][0]["explanation"]["zh_CN"] = "无"; },
         "demo.json: quiz[0].explanation: en and zh_CN must carry the same placeholders"},
        {[](json& d) { d["quiz"][0]["choices"][2]["text"]["en"] = " "; },
         "demo.json: quiz[0].choices[2].text.en: must not be empty"},
        {[](json& d) { d["quiz"][0].erase("explanation"); },
         "demo.json: quiz[0].explanation: missing"},
        {[](json& d) { d["quiz"][0]["answer"] = 1; },
         "demo.json: quiz[0].answer: unknown key (allowed: step, question, choices, pick, "
         "explanation)"},
        {[](json& d) { d["quiz"] = json::object(); },
         "demo.json: quiz: expected an array, got an object"},
        {[](json& d) { d["steps"][0]["observe"]["en"] = "the {term(disk)}"; },
         "step \"cmp\": observe.en: placeholder {term(disk)}: unknown term \"disk\" (allowed: "
         "memory)"},
        {[](json& d) { d["steps"][0]["observe"]["en"] = "the {term(memory)@4}"; },
         "step \"cmp\": observe.en: placeholder {term(memory)@4}: term(...) takes no @value"},
    };
    for (const Case& c : cases) {
        json doc = classLesson();
        c.edit(doc);
        const std::string error = errorOf(doc);
        EXPECT_NE(error.find(c.expected), std::string::npos)
            << "expected: " << c.expected << "\n     got: " << error;
    }
}

// The number behind a placeholder is the summary's own, unrounded; words and times within noise
// have none, and say why.
TEST(LessonClassFields, PlaceholderNumberIsTheUnroundedMeasurement) {
    const Class c;
    const ResultSet& set = c.results.at("cmp");
    const SummaryRow row = summarizeRun(*set.find("every:2"), set.find("none"));
    ASSERT_TRUE(row.memory_saved_pct);
    EXPECT_EQ(placeholderNumber("saving_pct(every:2)", c.lesson, "cmp", c.results),
              *row.memory_saved_pct);
    EXPECT_DOUBLE_EQ(*placeholderNumber("peak_mib(full)", c.lesson, "cmp", c.results),
                     40'000'000 / kMiB);
    EXPECT_EQ(placeholderNumber("-2.5", c.lesson, "cmp", c.results), -2.5);
    EXPECT_EQ(placeholderNumber("config(depth)", c.lesson, "cmp", c.results), 8.0);
    EXPECT_EQ(placeholderNumber("more/saving_pct(full)", c.lesson, "cmp", c.results), 60.0);
    std::string why;
    EXPECT_FALSE(placeholderNumber("grad_check(full)", c.lesson, "cmp", c.results, &why));
    EXPECT_NE(why.find("not a number"), std::string::npos) << why;
    EXPECT_FALSE(placeholderNumber("term(memory)", c.lesson, "cmp", c.results, &why));
    LessonResults noResults;
    EXPECT_FALSE(placeholderNumber("saving_pct(full)", c.lesson, "cmp", noResults, &why));
    EXPECT_NE(why.find("no results for step \"cmp\""), std::string::npos) << why;

    // A time within noise has no sign to compare: no number, and why says so.
    LessonResults noisy = c.results;
    auto& runs = noisy.at("cmp").runs;
    runs[0].metrics.step_samples_ms = {10, 11, 12, 13, 14, 15};
    runs[1].metrics.step_samples_ms = {9, 10.5, 11.5, 12.5, 13.5, 16};
    runs[0].metrics.step_ms = 12.5;
    runs[1].metrics.step_ms = 12;
    ASSERT_TRUE(summarizeRun(runs[1], &runs[0]).time_within_noise.value_or(false));
    EXPECT_FALSE(placeholderNumber("time_added_pct(full)", c.lesson, "cmp", noisy, &why));
    EXPECT_NE(why.find("within noise"), std::string::npos) << why;
    EXPECT_FALSE(placeholderNumber("ratio(full)", c.lesson, "cmp", noisy, &why));
    EXPECT_NE(why.find("within noise"), std::string::npos) << why;
}

TEST(LessonClassFields, RightChoiceFollowsTheMeasurement) {
    Class c;
    const LessonStep& more = c.lesson.steps[1];
    const auto& choices = more.predict->choices;
    // full saves 60 %, every:2 30 %.
    EXPECT_EQ(rightChoice(choices, ChoicePick::Largest, c.lesson, "more", c.results), 0u);
    EXPECT_EQ(rightChoice(choices, ChoicePick::Smallest, c.lesson, "more", c.results), 1u);
    // Measured the other way round, the answer flips.
    c.results["more"] = measured(20'000'000);
    EXPECT_EQ(rightChoice(choices, ChoicePick::Largest, c.lesson, "more", c.results), 1u);
    // The quiz: the smallest peak, and a measurement against a plain number.
    const auto& quiz = c.lesson.quiz;
    EXPECT_EQ(rightChoice(quiz[0].choices, quiz[0].pick, c.lesson, "cmp", c.results), 1u);
    EXPECT_EQ(rightChoice(quiz[1].choices, quiz[1].pick, c.lesson, "more", c.results), 0u);
    c.results["more"].runs[1].metrics.peak_bytes = 60'000'000;  // full saves 40 % now
    EXPECT_EQ(rightChoice(quiz[1].choices, quiz[1].pick, c.lesson, "more", c.results), 1u);

    // Equal values decide nothing; a missing one neither.
    std::string why;
    c.results["more"] = measured(40'000'000);
    EXPECT_FALSE(rightChoice(choices, ChoicePick::Largest, c.lesson, "more", c.results, &why));
    EXPECT_NE(why.find("choices 1 and 2 tie at 60"), std::string::npos) << why;
    // A tie below the best is no tie for the pick.
    const std::vector<LessonChoice> three = {
        {{"a", "a"}, "10"}, {{"b", "b"}, "10"}, {{"c", "c"}, "saving_pct(full)"}};
    EXPECT_EQ(rightChoice(three, ChoicePick::Largest, c.lesson, "more", c.results), 2u);
    EXPECT_FALSE(rightChoice(three, ChoicePick::Smallest, c.lesson, "more", c.results));
    c.results.erase("more");
    EXPECT_FALSE(rightChoice(choices, ChoicePick::Largest, c.lesson, "more", c.results, &why));
    EXPECT_NE(why.find("choice 1: {saving_pct(full)}: no results"), std::string::npos) << why;
}

// --check's list: an undecidable question and a prediction with no number are reported with the
// lesson, step and field.
TEST(LessonClassFields, UndecidedAnswersAreReported) {
    Class c;
    EXPECT_TRUE(unresolvedPlaceholders(c.lesson, c.results).empty());
    c.results["more"] = measured(40'000'000);  // every:2 saves as much as full
    c.results["cmp"].runs[1].error = "out of memory";
    const auto problems = unresolvedPlaceholders(c.lesson, c.results);
    auto has = [&](const std::string& text) {
        return std::any_of(problems.begin(), problems.end(),
                           [&](const std::string& p) { return p.find(text) != std::string::npos; });
    };
    EXPECT_TRUE(
        has("lesson demo, step more, predict: the right choice cannot be decided: "
            "choices 1 and 2 tie"));
    EXPECT_TRUE(has("lesson demo, step cmp, predict.measured: {saving_pct(full)} has no number"));
    EXPECT_TRUE(has("lesson demo, quiz[0]: the right choice cannot be decided: choice 2"));
    EXPECT_TRUE(has("lesson demo, quiz[0].explanation (zh_CN): {peak_mib(full)}"));
}

TEST(LessonClassFields, MemoryTermFollowsTheRecordingsDevice) {
    Class c;
    auto fill = [&](const std::string& lang, const std::string& step = "cmp") {
        return fillPlaceholders(c.lesson.steps[0].observe.in(lang), c.lesson, step, c.results,
                                lang);
    };
    EXPECT_EQ(fill(kLangEnglish), "Look at the memory.");
    EXPECT_EQ(fill(kLangChinese), "看内存。");
    c.results["cmp"] = measured(70'000'000, "cuda:0");
    EXPECT_EQ(fill(kLangChinese), "看显存。");
    EXPECT_EQ(fill(kLangEnglish), "Look at the memory.");
    // A lesson-level text: the named step's device, or the first step recorded.
    EXPECT_EQ(fillPlaceholders(c.lesson.title.zh_CN, c.lesson, "", c.results, kLangChinese),
              "显存去了哪里");
    EXPECT_EQ(fillPlaceholders(c.lesson.summary.zh_CN, c.lesson, "", c.results, kLangChinese),
              "cmp 步的显存。");
    c.results.erase("cmp");
    EXPECT_EQ(fillPlaceholders(c.lesson.title.zh_CN, c.lesson, "", c.results, kLangChinese),
              "内存去了哪里");
    std::vector<std::string> unresolved;
    fillPlaceholders(c.lesson.summary.en, c.lesson, "", c.results, kLangEnglish, &unresolved);
    ASSERT_EQ(unresolved.size(), 1u);  // names step cmp, which has no results now
    EXPECT_NE(unresolved[0].find("no results for step \"cmp\""), std::string::npos);
    // A device that is neither leaves the word unresolved rather than guessing.
    c.results["more"].environment.device = "";
    unresolved.clear();
    fillPlaceholders("{term(memory)}", c.lesson, "more", c.results, kLangChinese, &unresolved);
    EXPECT_EQ(unresolved.size(), 1u);
}

TEST(LessonClassFields, LabelsForTheNewParts) {
    EXPECT_EQ(lessonLabel(LessonLabel::Predict, kLangChinese), "预测");
    EXPECT_EQ(lessonLabel(LessonLabel::Quiz, kLangEnglish), "Quiz");
    EXPECT_EQ(lessonLabel(LessonLabel::Scaling, kLangChinese), "规模扫描");
    for (LessonChart chart : kLessonCharts) {
        EXPECT_EQ(lessonChartLabel(chart, kLangEnglish), toString(chart));
        const std::string& zh = lessonChartLabel(chart, kLangChinese);
        EXPECT_TRUE(std::none_of(zh.begin(), zh.end(), [](char ch) {
            return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
        })) << zh;
    }
}
