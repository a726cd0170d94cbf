// The rules a lesson's recorded times must pass (lesson_time_checks.h), on hand-made
// recordings whose intervals and forecasts are known.
#include <gtest/gtest.h>

#include "ckptlab/model/strategy.h"
#include "ckptlab/teaching/lesson_time_checks.h"

using namespace ckptlab;

namespace {

// Six samples spread +-1 % around `ms`: a 95 % interval of about +-1 %.
std::vector<double> samplesAround(double ms) {
    return {ms * 0.99, ms * 1.0, ms * 1.01, ms * 0.995, ms * 1.005, ms};
}

RunResult run(const std::string& strategy, double stepMs, double predictedMs,
              std::vector<double> samples = {}) {
    RunResult r;
    r.strategy = *parseStrategyForm(strategy);
    r.metrics.step_ms = stepMs;
    r.metrics.step_samples_ms = samples.empty() ? samplesAround(stepMs) : samples;
    r.prediction = PredictedMetrics{};
    r.prediction->step_ms = predictedMs;
    return r;
}

LessonStep step(const std::string& id, const std::string& answerEn,
                const std::string& answerZh = "答案") {
    LessonStep s;
    s.id = id;
    s.experiment.strategies = {Strategy{}, *parseStrategyForm("full")};
    s.answer = {answerEn, answerZh};
    s.observe = {"o", "o"};
    s.question = {"q", "q"};
    return s;
}

Lesson lessonOf(std::vector<LessonStep> steps) {
    Lesson l;
    l.id = "timing";
    l.steps = std::move(steps);
    return l;
}

ResultSet recording(double fullMs, double fullPredictedMs, const std::string& created = "t0") {
    ResultSet set;
    set.environment.created_utc = created;
    set.runs = {run("none", 100, 100), run("full", fullMs, fullPredictedMs)};
    return set;
}

bool mentions(const std::vector<std::string>& problems, const std::string& text) {
    for (const auto& p : problems)
        if (p.find(text) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST(LessonTimeChecks, ATimeAddedNearItsForecastPasses) {
    const Lesson lesson = lessonOf({step("a", "full adds {time_added_pct(full)} %.")});
    EXPECT_TRUE(timingProblems(lesson, {{"a", recording(131, 130)}}).empty());
    // Within [1/2, 2] of the forecast at both ends.
    EXPECT_TRUE(timingProblems(lesson, {{"a", recording(116, 130)}}).empty());
    EXPECT_TRUE(timingProblems(lesson, {{"a", recording(158, 130)}}).empty());
}

TEST(LessonTimeChecks, ATimeAddedOfTheOtherSignThanTheForecastFails) {
    // The recording of the report: full's step 8.9 % faster than none's, though it recomputes.
    const Lesson lesson = lessonOf({step("a", "x")});
    const auto problems = timingProblems(lesson, {{"a", recording(91.1, 130)}});
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_TRUE(mentions(problems, "other sign")) << problems.front();
    EXPECT_TRUE(mentions(problems, "step a, full")) << problems.front();
}

TEST(LessonTimeChecks, ATimeAddedMoreThanTwiceAwayFromTheForecastFails) {
    const Lesson lesson = lessonOf({step("a", "x")});
    // tradeoff's full: +7.4 % where the model says +30 %; and the other way, +90 %.
    EXPECT_TRUE(mentions(timingProblems(lesson, {{"a", recording(107.4, 130)}}), "2x away"));
    EXPECT_TRUE(mentions(timingProblems(lesson, {{"a", recording(190, 130)}}), "2x away"));
}

TEST(LessonTimeChecks, SmallForecastsAreNotChecked) {
    const Lesson lesson = lessonOf({step("a", "x")});
    // The model says +3 %: below its resolution, whatever the recording says.
    EXPECT_TRUE(timingProblems(lesson, {{"a", recording(91, 103)}}).empty());
    EXPECT_TRUE(timingProblems(lesson, {{"a", recording(130, 103)}}).empty());
}

TEST(LessonTimeChecks, ADirectionTheIntervalsDoNotSupportFails) {
    // full within noise of none: its samples overlap none's.
    ResultSet noisy;
    noisy.environment.created_utc = "t0";
    noisy.runs = {run("none", 100, 100, {90, 100, 110, 95, 105, 100}),
                  run("full", 102, 103, {92, 102, 112, 97, 107, 102})};
    const Lesson says = lessonOf({step("a", "So full is slower: {time_added_pct(full)} %.")});
    const auto problems = timingProblems(says, {{"a", noisy}});
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_TRUE(mentions(problems, "says slower of full")) << problems.front();

    const Lesson zh = lessonOf({step("a", "x", "full 更快：{time_added_pct(full)} %。")});
    EXPECT_TRUE(mentions(timingProblems(zh, {{"a", noisy}}), "says faster of full"));

    // Supported: a clear +31 % reads "slower" without a problem.
    EXPECT_TRUE(timingProblems(says, {{"a", recording(131, 130)}}).empty());
    // {time_change(...)} says the direction from the intervals itself.
    const Lesson exempt = lessonOf({step("a", "full is slower: {time_change(full)}.")});
    EXPECT_TRUE(timingProblems(exempt, {{"a", noisy}}).empty());
}

TEST(LessonTimeChecks, StatedDirectionsAreReadInBothLanguages) {
    EXPECT_EQ(statedTimeDirection("The step got faster."), -1);
    EXPECT_EQ(statedTimeDirection("Recomputing SLOWS the step"), 1);
    EXPECT_EQ(statedTimeDirection("这一步变慢了"), 1);
    EXPECT_EQ(statedTimeDirection("反而更快"), -1);
    EXPECT_EQ(statedTimeDirection("faster forward, slower backward"), std::nullopt);
    EXPECT_EQ(statedTimeDirection("It saves 60 % of the peak."), std::nullopt);
}

TEST(LessonTimeChecks, StepsOfOneExperimentMustShowOneMeasurement) {
    const Lesson lesson = lessonOf({step("a", "x"), step("b", "y")});
    ASSERT_EQ(stepsSharingAMeasurement(lesson).size(), 1u);
    EXPECT_TRUE(
        timingProblems(lesson, {{"a", recording(131, 130)}, {"b", recording(131, 130)}}).empty());
    // The-recompute's report: 21.7 % in one step and 33.8 % in the next, same pair and config.
    const auto problems =
        timingProblems(lesson, {{"a", recording(121.7, 130)}, {"b", recording(133.8, 130, "t1")}});
    EXPECT_TRUE(mentions(problems, "two measurements"));

    // Their own repeats do not matter: a recording times both adaptively.
    Lesson repeats = lesson;
    repeats.steps[1].experiment.config.repeats = 3;
    EXPECT_EQ(stepsSharingAMeasurement(repeats).size(), 1u);

    Lesson other = lesson;
    other.steps[1].experiment.config.seq *= 2;
    EXPECT_EQ(stepsSharingAMeasurement(other).size(), 2u);
    EXPECT_TRUE(
        timingProblems(other, {{"a", recording(121.7, 130)}, {"b", recording(133.8, 130, "t1")}})
            .empty());
}

TEST(LessonTimeChecks, StepsTooShortForTheForecastAreNotHeldToIt) {
    // A 1 ms none: the other sign than the forecast, yet not a problem.
    ResultSet tiny;
    tiny.runs = {run("none", 1, 1), run("full", 0.8, 1.3)};
    const Lesson lesson = lessonOf({step("a", "x")});
    EXPECT_TRUE(timingProblems(lesson, {{"a", tiny}}).empty());
    tiny.runs = {run("none", 10, 10), run("full", 8, 13)};  // the same at 10 ms is one
    EXPECT_EQ(timingProblems(lesson, {{"a", tiny}}).size(), 1u);
}
