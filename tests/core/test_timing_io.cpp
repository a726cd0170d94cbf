// The timing fields in the results file and the CSV: a run's sample rounds, the median's
// interval, the CV and the thread CPU time; the machine's load; the set's rounds; the config's
// adaptive repeats. Round trips, older files without them, and bad values named by their path.
#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "ckptlab/formats/results_io.h"
#include "ckptlab/model/summary.h"
#include "strategy_text.h"

using namespace ckptlab;
using Json = nlohmann::json;

namespace {

RunResult timed(const std::string& strategy, std::vector<double> samples, double stepMs) {
    RunResult run;
    run.strategy = test::strategy(strategy);
    run.config.depth = 4;
    run.config.repeats = static_cast<int>(samples.size());
    run.metrics.peak_bytes = 4 << 20;
    run.metrics.step_ms = stepMs;
    run.metrics.step_samples_ms = samples;
    for (std::size_t i = 0; i < samples.size(); ++i)
        run.metrics.step_sample_rounds.push_back(static_cast<int>(i));
    recordStepSpread(run.metrics);
    run.metrics.step_cpu_ms = stepMs * 0.9;
    run.grad_check = {true, 0.0, 1e-6};
    return run;
}

ResultSet timedSet() {
    ResultSet set;
    set.environment.device = "cpu";
    set.environment.load = MachineLoad{2, 1.25, 3.5, 0.25, 4.75, 17};
    set.timing = TimingRounds{7, true, 30, RoundsStop::TimeLimit, 12.5};
    RunResult none = timed("none", {100, 101, 102, 103, 104, 105, 106}, 103);
    none.config.repeats_auto = true;
    none.config.time_limit_s = 30;
    RunResult full = timed("full", {103, 104, 105, 106, 108, 109, 110}, 106);
    full.config = none.config;
    set.runs = {none, full};
    return set;
}

std::string rejection(const Json& doc) {
    try {
        resultsFromJson(doc.dump());
    } catch (const ResultsFileError& e) {
        return e.what();
    }
    return "accepted";
}

}  // namespace

TEST(TimingJson, NewFieldsRoundTrip) {
    const ResultSet set = timedSet();
    const Json doc = Json::parse(resultsToJson(set));
    const Json& m = doc["runs"][1]["metrics"];
    EXPECT_EQ(m["step_sample_rounds"], Json::parse("[0,1,2,3,4,5,6]"));
    EXPECT_EQ(m["step_ms_ci"], Json::parse("[103.0,110.0]"));  // n = 7: [x(1), x(7)]
    EXPECT_EQ(m["step_ms_ci_95"], true);
    EXPECT_TRUE(m["step_ms_cv"].is_number());
    EXPECT_EQ(doc["environment"]["load"]["steal_pct_during"], 4.75);
    EXPECT_EQ(doc["timing"]["stopped_by"], "time limit");
    EXPECT_EQ(doc["timing"]["interleaved"], true);
    EXPECT_EQ(doc["runs"][0]["config"]["repeats_auto"], true);

    const ResultSet back = resultsFromJson(resultsToJson(set));
    ASSERT_EQ(back.runs.size(), 2u);
    for (std::size_t i = 0; i < 2; ++i) {
        const Metrics& a = set.runs[i].metrics;
        const Metrics& b = back.runs[i].metrics;
        EXPECT_EQ(a.step_sample_rounds, b.step_sample_rounds);
        ASSERT_TRUE(b.step_ms_ci && b.step_ms_cv && b.step_cpu_ms);
        EXPECT_EQ(a.step_ms_ci->low, b.step_ms_ci->low);
        EXPECT_EQ(a.step_ms_ci->high, b.step_ms_ci->high);
        EXPECT_EQ(a.step_ms_ci->is95, b.step_ms_ci->is95);
        EXPECT_DOUBLE_EQ(*a.step_ms_cv, *b.step_ms_cv);
        EXPECT_DOUBLE_EQ(*a.step_cpu_ms, *b.step_cpu_ms);
        EXPECT_TRUE(back.runs[i].config.repeats_auto);
        EXPECT_EQ(back.runs[i].config.time_limit_s, 30);
    }
    ASSERT_TRUE(back.environment.load && back.timing);
    EXPECT_EQ(back.environment.load->cpus, 2);
    EXPECT_EQ(back.environment.load->samples, 17);
    EXPECT_DOUBLE_EQ(back.environment.load->load_during_max, 3.5);
    EXPECT_EQ(back.timing->rounds, 7);
    EXPECT_EQ(back.timing->stopped_by, RoundsStop::TimeLimit);
    EXPECT_TRUE(back.timing->auto_repeats);
    EXPECT_DOUBLE_EQ(back.timing->seconds, 12.5);
    // The same verdict from the file as from the measurement.
    EXPECT_EQ(summarize(back)[1].time_within_noise, summarize(set)[1].time_within_noise);
}

TEST(TimingJson, OlderFilesWithoutThemLoadAndGetIntervalsFromTheirSamples) {
    Json doc = Json::parse(resultsToJson(timedSet()));
    doc.erase("timing");
    doc["environment"].erase("load");
    for (Json& run : doc["runs"]) {
        for (const char* key :
             {"step_sample_rounds", "step_ms_ci", "step_ms_ci_95", "step_ms_cv", "step_cpu_ms"})
            run["metrics"].erase(key);
        run["config"].erase("repeats_auto");
        run["config"].erase("time_limit_s");
    }
    const ResultSet old = resultsFromJson(doc.dump());
    EXPECT_FALSE(old.timing);
    EXPECT_FALSE(old.environment.load);
    EXPECT_FALSE(old.runs[1].metrics.step_ms_ci);
    EXPECT_FALSE(old.runs[1].config.repeats_auto);
    const SummaryRow row = summarize(old)[1];
    ASSERT_TRUE(row.step_ci_low_ms);  // computed from the samples
    EXPECT_EQ(*row.step_ci_low_ms, 103);
    EXPECT_TRUE(row.step_ci_95);
    ASSERT_TRUE(row.time_within_noise);
    EXPECT_TRUE(*row.time_within_noise);
}

TEST(TimingJson, BadValuesAreRefusedNamingTheField) {
    const Json good = Json::parse(resultsToJson(timedSet()));
    Json doc = good;
    doc["runs"][0]["metrics"]["step_sample_rounds"] = Json::parse("[0,1]");
    EXPECT_NE(rejection(doc).find("runs[0].metrics.step_sample_rounds: has 2 values but "
                                  "step_samples_ms has 7"),
              std::string::npos)
        << rejection(doc);
    doc = good;
    doc["runs"][1]["metrics"]["step_ms_ci"] = Json::parse("[110, 103]");
    EXPECT_NE(rejection(doc).find("runs[1].metrics.step_ms_ci: expected finite low <= high"),
              std::string::npos)
        << rejection(doc);
    doc = good;
    doc["runs"][1]["metrics"]["step_ms_ci"] = Json::parse("[103]");
    EXPECT_NE(rejection(doc).find("runs[1].metrics.step_ms_ci: expected [low, high]"),
              std::string::npos);
    doc = good;
    doc["runs"][0]["metrics"]["step_ms_cv"] = -0.5;
    EXPECT_NE(rejection(doc).find("runs[0].metrics.step_ms_cv: expected a number from 0"),
              std::string::npos)
        << rejection(doc);
    doc = good;
    doc["environment"]["load"]["steal_pct_during"] = 140;
    EXPECT_NE(rejection(doc).find("environment.load.steal_pct_during: expected a number from 0.0 "
                                  "to 100.0, got 140.0"),
              std::string::npos)
        << rejection(doc);
    doc = good;
    doc["timing"]["stopped_by"] = "boredom";
    EXPECT_NE(rejection(doc).find("timing.stopped_by: unknown value \"boredom\""),
              std::string::npos)
        << rejection(doc);
    doc = good;
    doc["runs"][0]["config"]["time_limit_s"] = 0.5;
    EXPECT_NE(rejection(doc).find("time-limit must be between 1 and 86400 seconds (got 0.5)"),
              std::string::npos)
        << rejection(doc);
}

TEST(TimingCsv, IntervalCvAndNoiseColumns) {
    const std::string csv = summaryCsv(timedSet());
    std::istringstream lines(csv);
    std::string header, none, full;
    std::getline(lines, header);
    std::getline(lines, none);
    std::getline(lines, full);
    EXPECT_NE(header.find(",step_ci_low_ms,step_ci_high_ms,step_ci_95,step_cv_pct,"
                          "step_fastest_ms,step_cpu_ms,time_added_low_pct,time_added_high_pct,"
                          "time_within_noise"),
              std::string::npos)
        << header;
    // full: interval [103, 110] (95%), fastest 103, CPU 95.4; against none [100, 106]:
    // (103 - 106) / 103 = -2.91%, (110 - 100) / 103 = +9.71%, overlapping: within noise.
    EXPECT_NE(full.find(",103.000,110.000,95%,"), std::string::npos) << full;
    EXPECT_NE(full.find(",103.000,95.400,-2.91,9.71,yes"), std::string::npos) << full;
    EXPECT_NE(none.find(",100.000,106.000,95%,"), std::string::npos) << none;
}
