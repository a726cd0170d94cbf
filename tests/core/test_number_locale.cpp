// Numbers in files, strategy names, core's messages and lesson texts are the classic locale's
// under a decimal-comma locale too. The app runs under the user's locale (Qt calls
// setlocale(LC_ALL, "")), where printf, strtod and streams write and expect "1,5".
#include <gtest/gtest.h>

#include <algorithm>
#include <clocale>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "ckptlab/formats/comparison.h"
#include "ckptlab/formats/results_io.h"
#include "ckptlab/model/config.h"
#include "ckptlab/model/noise.h"
#include "ckptlab/model/number_text.h"
#include "ckptlab/model/strategy.h"
#include "ckptlab/model/summary.h"
#include "ckptlab/planning/planner.h"
#include "locale_scope.h"
#include "strategy_text.h"
#include "teaching/lesson_metrics.h"

using namespace ckptlab;
namespace fs = std::filesystem;

namespace {

// Computes `make()` under the classic "C" locale: what every locale must give.
template <typename F>
auto underC(F make) {
    test::LocaleScope c("C");
    return make();
}

std::string printfFixed(double value, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    return buffer;
}

std::string readFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

RunResult timedRun(const std::string& strategy, std::vector<double> samples, double dropout) {
    RunResult run;
    run.strategy = test::strategy(strategy);
    run.config.block = BlockKind::Transformer;
    run.config.depth = 2;  // 4 units: the schedule's
    run.config.dropout = dropout;
    run.config.memory_limit_mib = 2.5;
    run.config.time_limit_s = 7.5;
    run.metrics.peak_bytes = strategy == "none" ? 4'000'000 : 2'500'000;
    run.metrics.activation_bytes = run.metrics.peak_bytes / 2;
    run.metrics.baseline_bytes = 1'500'000;
    run.metrics.step_samples_ms = samples;
    std::sort(samples.begin(), samples.end());
    run.metrics.step_ms = (samples[2] + samples[3]) / 2;
    run.metrics.forward_ms = 3.25;
    run.metrics.backward_ms = 6.5;
    run.metrics.recompute_ms = strategy == "none" ? 0 : 1.75;
    run.grad_check.checked = true;
    run.grad_check.max_abs_diff = 1.25e-7;
    run.grad_check.tolerance = 1e-5;
    run.schedule = "ckpt[0,2){0 1} 2 3";
    run.timeline = {{0.125, 4096, 4096, Phase::Forward, 0}, {1.5, -4096, 0, Phase::Backward, 0}};
    run.phases = {{Phase::Forward, 0, 0.0, 0.75}, {Phase::Backward, 0, 0.75, 1.5}};
    run.prediction = PredictedMetrics{2'400'000, 1'200'000, 11.75, 10.5};
    return run;
}

// A sweep whose `optimal:1.5` is within noise of `none`: fractional numbers everywhere.
ResultSet sweep(double dropout = 0.1) {
    ResultSet set;
    set.environment.device = "cpu";
    set.environment.device_name = "Some CPU @ 2.5GHz";
    set.environment.threads = 2;
    set.runs.push_back(timedRun("none", {10, 11, 12, 13, 14, 15}, dropout));
    set.runs.push_back(timedRun("optimal:1.5", {9, 10.5, 11.5, 12.5, 13.5, 16}, dropout));
    set.notes = {"a note with 0.5 in it"};
    return set;
}

class DecimalCommaLocale : public ::testing::TestWithParam<const char*> {
protected:
    void SetUp() override {
        scope_ = std::make_unique<test::LocaleScope>(GetParam());
        if (!scope_->active())
            GTEST_SKIP() << "locale " << GetParam() << " is not installed; generate it with "
                         << "localedef -i " << std::string(GetParam()).substr(0, 5) << " -f UTF-8 "
                         << GetParam() << " (package locales)";
        // The locale must really be in force, or every check below passes trivially.
        ASSERT_EQ(printfFixed(1.5, 1), "1,5");
        std::ostringstream stream;
        stream << 1.5;
        ASSERT_EQ(stream.str(), "1,5");
    }
    std::unique_ptr<test::LocaleScope> scope_;
};

TEST_P(DecimalCommaLocale, NumberTextIsTheClassicLocales) {
    EXPECT_EQ(formatFixed(2.25, 1), underC([] { return printfFixed(2.25, 1); }));
    EXPECT_EQ(formatFixed(1234567.5, 2), "1234567.50");  // no thousands separator either
    EXPECT_EQ(formatFixedSigned(-4.0, 1), "-4.0");
    EXPECT_EQ(formatFixedSigned(1.75, 1), "+1.8");
    EXPECT_EQ(formatGeneral(0.0000001), "1e-07");
    EXPECT_EQ(formatGeneral(1.5, 10), "1.5");
    EXPECT_EQ(formatScientific(0.000123, 2), "1.23e-04");
    EXPECT_EQ(formatShortest(0.1), "0.1");
    EXPECT_EQ(parseDecimal("1.5"), 1.5);
    EXPECT_EQ(parseDecimal("+64"), 64.0);
    EXPECT_EQ(parseDecimal("1e-3"), 1e-3);
    for (const char* bad : {"1,5", " 1.5", "1.5 ", "0x10", "inf", "nan", "", ".", "1e", "1e400"})
        EXPECT_FALSE(parseDecimal(bad)) << bad;
    EXPECT_EQ(parseInteger("-12"), -12);
    for (const char* bad : {"1.000", "1,000", "12a", "+-1", ""})
        EXPECT_FALSE(parseInteger(bad)) << bad;
}

TEST_P(DecimalCommaLocale, StrategyNamesReadAndWriteAPoint) {
    const auto typed = parseStrategyForm("optimal:1.5");
    ASSERT_TRUE(typed) << "optimal:1.5 was refused";
    EXPECT_EQ(typed->budget_mib, 1.5);
    EXPECT_EQ(typed->name(), "optimal:1.5");
    EXPECT_EQ(makeStrategy(StrategyKind::Optimal, 0.25).name(), "optimal:0.25");
    EXPECT_EQ(parseStrategy("optimal:1.5", 8, BlockKind::Ffn).name(), "optimal:1.5");
    // A comma is never a decimal point in a strategy name: it separates list items.
    EXPECT_FALSE(parseStrategyForm("optimal:1,5"));
    EXPECT_EQ(parseNumberList("1.5, 2", "--budgets"), (std::vector<double>{1.5, 2}));
    EXPECT_EQ(parseIntList("1024, 2048", "--values", limits::seq), (std::vector<int>{1024, 2048}));
}

TEST_P(DecimalCommaLocale, ResultsFilesAreTheBytesOfTheClassicLocale) {
    const ResultSet set = sweep();
    const std::string json = underC([&] { return resultsToJson(set); });
    const std::string csv = underC([&] { return summaryCsv(set); });
    const std::string trace = underC([&] { return chromeTraceJson(set); });
    ASSERT_NE(json.find("\"optimal:1.5\""), std::string::npos);
    EXPECT_EQ(resultsToJson(set), json);
    EXPECT_EQ(summaryCsv(set), csv);
    EXPECT_EQ(chromeTraceJson(set), trace);

    // Written and read back under the locale: the same runs, the same bytes.
    const fs::path dir = fs::temp_directory_path() / ("ckptlab_locale_" + std::string(GetParam()));
    fs::create_directories(dir);
    saveResults(set, (dir / "r.json").string());
    saveSummaryCsv(set, (dir / "r.csv").string());
    EXPECT_EQ(readFile(dir / "r.json"), json);
    EXPECT_EQ(readFile(dir / "r.csv"), csv);
    const ResultSet back = loadResults((dir / "r.json").string());
    fs::remove_all(dir);
    ASSERT_EQ(back.runs.size(), 2u);
    EXPECT_EQ(back.runs[1].strategy.name(), "optimal:1.5");
    EXPECT_EQ(back.runs[1].config.dropout, 0.1);
    EXPECT_EQ(back.runs[1].config.memory_limit_mib, 2.5);
    EXPECT_EQ(back.runs[1].metrics.step_samples_ms, set.runs[1].metrics.step_samples_ms);
    EXPECT_EQ(resultsToJson(back), json);
    EXPECT_EQ(back.runs[1].strategy.budget_mib, 1.5);
}

TEST_P(DecimalCommaLocale, LessonTextsUsePoints) {
    const ResultSet set = sweep();
    const RunResult& none = set.runs[0];
    const RunResult& optimal = set.runs[1];
    const SummaryRow row = summarizeRun(optimal, &none);
    ASSERT_TRUE(row.time_within_noise && *row.time_within_noise);
    for (const char* metric : {"time_added_pct", "saving_pct", "peak_mib", "max_abs_diff",
                               "recompute_vs_forward_pct", "total_saving_pct"}) {
        const auto expected =
            underC([&] { return teaching::runMetric(metric, optimal, &none, kLangEnglish).text; });
        ASSERT_TRUE(expected) << metric;
        EXPECT_EQ(teaching::runMetric(metric, optimal, &none, kLangEnglish).text, expected)
            << metric;
    }
    const auto interval = teaching::runMetric("time_added_pct", optimal, &none, kLangEnglish).text;
    ASSERT_TRUE(interval);
    const std::regex twoPointNumbers("≈ 0 \\[[-+][0-9]+\\.[0-9], [-+][0-9]+\\.[0-9]\\]");
    EXPECT_TRUE(std::regex_match(*interval, twoPointNumbers)) << *interval;
    EXPECT_EQ(teaching::configField("memory_limit_mib", optimal.config).text,
              std::optional<std::string>("2.5"));
}

TEST_P(DecimalCommaLocale, MessagesAndComparisonsUsePoints) {
    // Core's messages.
    ExperimentConfig bad;
    bad.time_limit_s = 0.5;
    bad.dropout = 0.95;
    std::string errors;
    for (const FieldError& e : validate(bad)) errors += e.message.english + "\n";
    EXPECT_NE(errors.find("got 0.5)"), std::string::npos) << errors;
    EXPECT_NE(errors.find("got 0.95)"), std::string::npos) << errors;
    EXPECT_NE(errors.find("between 0 and 0.9 "), std::string::npos) << errors;
    OutOfMemory oom;
    oom.requested_bytes = 3 * 1024 * 1024 / 2;
    oom.allocated_bytes = 5 * 1024 * 1024 / 2;
    EXPECT_NE(describe(oom).find("tried to allocate 1.50 MiB with 2.50 MiB"), std::string::npos)
        << describe(oom);
    EXPECT_EQ(requestedBytesIn("CUDA out of memory. Tried to allocate 2.50 MiB"),
              std::int64_t(5) * 1024 * 1024 / 2);
    ResultSet noisy = sweep();
    noisy.runs[1].metrics.step_samples_ms = {5, 10, 15, 20, 25, 30};
    const auto warnings = noiseWarnings(noisy);
    ASSERT_FALSE(warnings.empty());
    EXPECT_EQ(warnings.front().message,
              underC([&] { return noiseWarnings(noisy).front().message; }));
    // Unit numbers past 999 in a schedule: no thousands separator from the stream.
    const Plan blocks = makePlan(parseStrategy("every:2", 512, BlockKind::Transformer), 512);
    const Plan plan = toUnitLevel(blocks, 2);
    const std::string schedule = describeSchedule(plan);
    EXPECT_EQ(schedule, underC([&] { return describeSchedule(plan); }));
    EXPECT_NE(schedule.find("1023"), std::string::npos);

    // Two files that differ in dropout, compared: the same text, JSON and CSV as under "C".
    const std::vector<ComparisonInput> inputs = {{"a.json", sweep(0.1)}, {"b.json", sweep(0.25)}};
    const Comparison reference = underC([&] { return compareResults(inputs); });
    const Comparison here = compareResults(inputs);
    ASSERT_EQ(here.differences.size(), reference.differences.size());
    for (std::size_t i = 0; i < here.differences.size(); ++i)
        EXPECT_EQ(here.differences[i].values, reference.differences[i].values);
    EXPECT_EQ(comparisonToJson(here), underC([&] { return comparisonToJson(reference); }));
    EXPECT_EQ(comparisonCsv(here), underC([&] { return comparisonCsv(reference); }));
    // Several values of a field in one file, in numeric order.
    ResultSet mixed = sweep(0.25);
    mixed.runs[0].config.memory_limit_mib = 10;
    const Comparison limits = compareResults({{"a.json", sweep(0.1)}, {"b.json", mixed}});
    const auto limit =
        std::find_if(limits.differences.begin(), limits.differences.end(),
                     [](const ConfigDifference& d) { return d.field == "memory-limit"; });
    ASSERT_NE(limit, limits.differences.end());
    EXPECT_EQ(limit->values.at(1), "2.5 MiB,10 MiB");
}

INSTANTIATE_TEST_SUITE_P(Locales, DecimalCommaLocale,
                         ::testing::Values("de_DE.UTF-8", "fr_FR.UTF-8"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                             return std::string(info.param).substr(0, 2);
                         });

}  // namespace
