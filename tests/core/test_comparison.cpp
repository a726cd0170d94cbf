// Results files from several machines side by side (comparison.h): labels, config
// differences, ratios, missing strategies, failed runs, scaling sweeps matched by axis value.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "ckptlab/formats/comparison.h"
#include "ckptlab/model/summary.h"
#include "strategy_text.h"
#include "tolerance.h"

using namespace ckptlab;

namespace {

// A ratio of two MiB or ms values (whole MiB here, so bytes to MiB is exact): the quotient and
// the expected value's own rounding, of values up to the ratio.
double ratioSlack(double ratio) { return test::tolerance::formula(ratio, 3); }

ExperimentConfig smallConfig() {
    ExperimentConfig c;
    c.depth = 4;
    c.width = 16;
    c.seq = 8;
    c.batch = 1;
    return c;
}

RunResult makeRun(const std::string& strategy, double peakMiB, double stepMs,
                  ExperimentConfig config = smallConfig()) {
    RunResult run;
    run.config = config;
    run.strategy = test::strategy(strategy);
    run.metrics.peak_bytes = static_cast<std::int64_t>(peakMiB * kMiB);
    run.metrics.step_ms = stepMs;
    run.grad_check.checked = true;
    run.grad_check.tolerance = 1e-6;
    return run;
}

ResultSet makeSet(const std::string& device, const std::string& deviceName, int threads,
                  std::vector<RunResult> runs) {
    ResultSet set;
    set.environment.device = device;
    set.environment.device_name = deviceName;
    set.environment.threads = threads;
    set.environment.libtorch_version = "1.13.1";
    set.runs = std::move(runs);
    return set;
}

const ComparisonRow* findRow(const Comparison& c, const std::string& label) {
    for (const auto& row : c.rows)
        if (row.label() == label) return &row;
    return nullptr;
}

const ConfigDifference* findDifference(const Comparison& c, const std::string& field) {
    for (const auto& d : c.differences)
        if (d.field == field) return &d;
    return nullptr;
}

std::vector<const ComparisonNote*> notesOf(const Comparison& c, NoteKind kind) {
    std::vector<const ComparisonNote*> out;
    for (const auto& note : c.notes)
        if (note.kind == kind) out.push_back(&note);
    return out;
}

}  // namespace

TEST(Comparison, RatiosAreEachFileOverTheFirst) {
    const ResultSet cpu =
        makeSet("cpu", "Xeon", 2, {makeRun("none", 40, 100), makeRun("full", 10, 150)});
    const ResultSet gpu =
        makeSet("cuda:0", "H200", 0, {makeRun("none", 40, 4), makeRun("full", 10, 5)});
    const ResultSet laptop =
        makeSet("cpu", "Core i7", 8, {makeRun("none", 40, 50), makeRun("full", 12, 90)});
    const Comparison c =
        compareResults({{"cpu.json", cpu}, {"gpu.json", gpu}, {"laptop.json", laptop}});
    ASSERT_EQ(c.sources.size(), 3u);
    EXPECT_EQ(c.sources[0].letter, "A");
    EXPECT_EQ(c.sources[2].letter, "C");
    EXPECT_EQ(c.sources[1].label, "H200 (cuda:0)");
    EXPECT_TRUE(c.axes.empty());
    ASSERT_EQ(c.rows.size(), 2u);
    EXPECT_EQ(c.rows[0].strategy, "none");
    EXPECT_EQ(c.rows[1].strategy, "full");

    const ComparisonRow& full = c.rows[1];
    EXPECT_EQ(full.cells[0].state, CellState::Measured);
    EXPECT_FALSE(full.cells[0].peak_ratio);  // the reference has no ratio to itself
    ASSERT_TRUE(full.cells[1].peak_ratio && full.cells[1].step_ratio);
    EXPECT_NEAR(*full.cells[1].peak_ratio, 1.0, ratioSlack(1.0));
    EXPECT_NEAR(*full.cells[1].step_ratio, 5.0 / 150.0, ratioSlack(5.0 / 150.0));
    ASSERT_TRUE(full.cells[2].peak_ratio && full.cells[2].step_ratio);
    EXPECT_NEAR(*full.cells[2].peak_ratio, 1.2, ratioSlack(1.2));
    EXPECT_NEAR(*full.cells[2].step_ratio, 0.6, ratioSlack(0.6));
    EXPECT_NEAR(*c.rows[0].cells[2].step_ratio, 0.5, ratioSlack(0.5));

    // Other devices: time only as a ratio of the same work, said for each file.
    const auto devices = notesOf(c, NoteKind::OtherDevice);
    ASSERT_EQ(devices.size(), 2u);
    EXPECT_NE(devices[0]->text.find("ratio of the same work"), std::string::npos)
        << devices[0]->text;
    EXPECT_TRUE(notesOf(c, NoteKind::WorkDiffers).empty());

    // Another reference: the ratios turn around.
    const Comparison byGpu = compareResults({{"cpu.json", cpu}, {"gpu.json", gpu}}, 1);
    ASSERT_TRUE(byGpu.rows[1].cells[0].step_ratio);
    EXPECT_NEAR(*byGpu.rows[1].cells[0].step_ratio, 30.0, ratioSlack(30.0));
    EXPECT_FALSE(byGpu.rows[1].cells[1].step_ratio);
}

TEST(Comparison, DifferingFieldsAreListedAndWorkChangesStopTheRatios) {
    ExperimentConfig longer = smallConfig();
    longer.seq = 16;
    longer.threads = 2;
    longer.dtype = DType::BFloat16;
    const ResultSet a = makeSet("cpu", "Xeon", 1, {makeRun("none", 40, 100)});
    const ResultSet b = makeSet("cpu", "Xeon", 2, {makeRun("none", 70, 180, longer)});
    const Comparison c = compareResults({{"runs/a.json", a}, {"runs/b.json", b}});

    const ConfigDifference* seq = findDifference(c, "seq");
    ASSERT_NE(seq, nullptr);
    EXPECT_TRUE(seq->changes_work);
    EXPECT_EQ(seq->values, (std::vector<std::string>{"8", "16"}));
    const ConfigDifference* dtype = findDifference(c, "precision");
    ASSERT_NE(dtype, nullptr);
    EXPECT_EQ(dtype->values, (std::vector<std::string>{"float32", "bfloat16"}));
    const ConfigDifference* threads = findDifference(c, "threads");
    ASSERT_NE(threads, nullptr);
    EXPECT_FALSE(threads->changes_work);
    EXPECT_EQ(threads->values, (std::vector<std::string>{"1", "2"}));
    EXPECT_EQ(findDifference(c, "depth"), nullptr);
    EXPECT_EQ(findDifference(c, "width"), nullptr);
    EXPECT_EQ(findDifference(c, "heads"), nullptr);  // ffn blocks have none

    // Each value shown, nothing divided, and said why.
    const ComparisonCell& cell = c.rows.at(0).cells.at(1);
    EXPECT_EQ(cell.state, CellState::Measured);
    EXPECT_NEAR(cell.peak_mib, 70, ratioSlack(70));
    EXPECT_FALSE(cell.same_work);
    EXPECT_FALSE(cell.peak_ratio);
    EXPECT_FALSE(cell.step_ratio);
    const auto work = notesOf(c, NoteKind::WorkDiffers);
    ASSERT_EQ(work.size(), 1u);
    EXPECT_NE(work[0]->text.find("seq (16 vs 8)"), std::string::npos) << work[0]->text;
    EXPECT_NE(work[0]->text.find("precision (bfloat16 vs float32)"), std::string::npos);

    // Same machine: labels tell the files apart by their stems; the thread count is a note.
    EXPECT_EQ(c.sources[0].label, "Xeon (cpu) · a");
    EXPECT_EQ(c.sources[1].label, "Xeon (cpu) · b");
    EXPECT_EQ(notesOf(c, NoteKind::ThreadsDiffer).size(), 1u);
    EXPECT_TRUE(notesOf(c, NoteKind::OtherDevice).empty());

    // Same stem in two folders: the whole path.
    const Comparison stems = compareResults({{"x/r.json", a}, {"y/r.json", a}});
    EXPECT_EQ(stems.sources[1].label, "Xeon (cpu) · y/r.json");
    EXPECT_TRUE(stems.differences.empty());
}

TEST(Comparison, MissingStrategiesAreNoted) {
    const ResultSet a =
        makeSet("cpu", "Xeon", 2, {makeRun("none", 40, 100), makeRun("sqrt", 15, 130)});
    const ResultSet b =
        makeSet("cpu", "Epyc", 2, {makeRun("none", 40, 80), makeRun("every:2", 22, 95)});
    const Comparison c = compareResults({{"a.json", a}, {"b.json", b}});
    ASSERT_EQ(c.rows.size(), 3u);
    EXPECT_EQ(c.rows[1].strategy, "sqrt");
    EXPECT_EQ(c.rows[2].strategy, "every:2");
    EXPECT_EQ(c.rows[1].cells[1].state, CellState::Missing);
    EXPECT_EQ(c.rows[2].cells[0].state, CellState::Missing);
    EXPECT_FALSE(c.rows[2].cells[1].peak_ratio);  // no reference to divide by
    const auto missing = notesOf(c, NoteKind::MissingRun);
    ASSERT_EQ(missing.size(), 2u);
    EXPECT_EQ(missing[0]->text, "every:2 is not in A (a.json): no ratios for it");
    EXPECT_EQ(missing[1]->text, "sqrt is not in B (b.json): nothing to compare there");
    EXPECT_EQ(missing[1]->sources, std::vector<int>{1});
}

TEST(Comparison, FailedAndOutOfMemoryRunsAreNeverNumbers) {
    RunResult oom = makeRun("none", 2.6, 0);
    oom.error = "none: out of memory at forward of block 3";
    oom.out_of_memory = OutOfMemory{};
    RunResult failed = makeRun("full", 0, 0);
    failed.error = "full: something broke";
    RunResult wrong = makeRun("every:2", 20, 120);
    wrong.grad_check.max_abs_diff = 1.0;  // over the tolerance
    const ResultSet a =
        makeSet("cpu", "Xeon", 2,
                {makeRun("none", 40, 100), makeRun("full", 10, 150), makeRun("every:2", 20, 110)});
    const ResultSet b = makeSet("cpu", "Xeon", 2, {oom, failed, wrong});
    const Comparison c = compareResults({{"a.json", a}, {"b.json", b}});
    const ComparisonCell& none = findRow(c, "none")->cells[1];
    EXPECT_EQ(none.state, CellState::OutOfMemory);
    EXPECT_EQ(none.peak_mib, 0);  // the partial peak is not shown as a measurement
    EXPECT_FALSE(none.peak_ratio);
    EXPECT_FALSE(none.step_ratio);
    const ComparisonCell& full = findRow(c, "full")->cells[1];
    EXPECT_EQ(full.state, CellState::Failed);
    EXPECT_EQ(full.error, "full: something broke");
    EXPECT_FALSE(full.peak_ratio);
    // A finished run whose check failed is still a measurement, and said.
    const ComparisonCell& every = findRow(c, "every:2")->cells[1];
    EXPECT_EQ(every.state, CellState::Measured);
    EXPECT_FALSE(every.grad_ok);
    ASSERT_TRUE(every.step_ratio);
    EXPECT_NEAR(*every.step_ratio, 120.0 / 110.0, ratioSlack(120.0 / 110.0));

    ASSERT_EQ(notesOf(c, NoteKind::OutOfMemory).size(), 1u);
    EXPECT_NE(notesOf(c, NoteKind::OutOfMemory)[0]->text.find("none in B ran out of memory"),
              std::string::npos);
    ASSERT_EQ(notesOf(c, NoteKind::Failed).size(), 1u);
    ASSERT_EQ(notesOf(c, NoteKind::GradCheck).size(), 1u);
    EXPECT_EQ(notesOf(c, NoteKind::GradCheck)[0]->row, "every:2");

    // The reference's own failure leaves the other file's number without a ratio.
    const Comparison reversed = compareResults({{"b.json", b}, {"a.json", a}});
    const ComparisonCell& aNone = findRow(reversed, "none")->cells[1];
    EXPECT_EQ(aNone.state, CellState::Measured);
    EXPECT_FALSE(aNone.peak_ratio);
}

TEST(Comparison, ScalingSweepsMatchByAxisValue) {
    auto at = [](int seq) {
        ExperimentConfig c = smallConfig();
        c.seq = seq;
        return c;
    };
    // A scales seq over 8, 16, 32; B over 16, 32, 64 in another order; C is a plain sweep at 16.
    const ResultSet a = makeSet("cpu", "Xeon", 2,
                                {makeRun("none", 8, 10, at(8)), makeRun("full", 4, 12, at(8)),
                                 makeRun("none", 16, 20, at(16)), makeRun("full", 8, 24, at(16)),
                                 makeRun("none", 32, 40, at(32)), makeRun("full", 16, 48, at(32))});
    const ResultSet b = makeSet("cuda:0", "H200", 0,
                                {makeRun("full", 32, 4, at(64)), makeRun("full", 16, 2, at(32)),
                                 makeRun("none", 32, 1, at(32)), makeRun("full", 8, 1, at(16)),
                                 makeRun("none", 16, 0.5, at(16))});
    const ResultSet plain = makeSet(
        "cpu", "Xeon", 4, {makeRun("none", 16, 10, at(16)), makeRun("full", 8, 12, at(16))});
    const Comparison c = compareResults({{"a.json", a}, {"b.json", b}, {"c.json", plain}});
    ASSERT_EQ(c.axes, std::vector<ScalingAxis>{ScalingAxis::Seq});
    EXPECT_EQ(c.sources[0].axes, std::vector<ScalingAxis>{ScalingAxis::Seq});
    EXPECT_TRUE(c.sources[2].axes.empty());
    std::vector<std::string> labels;
    for (const auto& row : c.rows) labels.push_back(row.label());
    EXPECT_EQ(labels, (std::vector<std::string>{"none @ seq=8", "none @ seq=16", "none @ seq=32",
                                                "full @ seq=8", "full @ seq=16", "full @ seq=32",
                                                "full @ seq=64"}));
    const ComparisonRow* full32 = findRow(c, "full @ seq=32");
    ASSERT_NE(full32, nullptr);
    EXPECT_EQ(full32->cells[1].run, 1);
    ASSERT_TRUE(full32->cells[1].step_ratio && full32->cells[1].peak_ratio);
    EXPECT_NEAR(*full32->cells[1].step_ratio, 2.0 / 48.0, ratioSlack(2.0 / 48.0));
    EXPECT_NEAR(*full32->cells[1].peak_ratio, 1.0, ratioSlack(1.0));
    EXPECT_TRUE(full32->cells[1].same_work);  // seq differs in the file, not in this row
    EXPECT_EQ(full32->cells[2].state, CellState::Missing);
    const ComparisonRow* full16 = findRow(c, "full @ seq=16");
    ASSERT_TRUE(full16->cells[2].step_ratio);
    EXPECT_NEAR(*full16->cells[2].step_ratio, 0.5, ratioSlack(0.5));
    EXPECT_TRUE(notesOf(c, NoteKind::WorkDiffers).empty());

    const ConfigDifference* seq = findDifference(c, "seq");
    ASSERT_NE(seq, nullptr);
    EXPECT_EQ(seq->values, (std::vector<std::string>{"8,16,32", "16,32,64", "16"}));

    // Only the values a file lacks are named.
    bool saidB = false;
    for (const ComparisonNote* note : notesOf(c, NoteKind::MissingRun))
        if (note->text == "none at seq=8 is not in B (b.json): nothing to compare there")
            saidB = true;
    EXPECT_TRUE(saidB);
}

TEST(Comparison, BadInputIsRefusedByName) {
    const ResultSet a = makeSet("cpu", "Xeon", 2, {makeRun("none", 40, 100)});
    EXPECT_THROW(compareResults({{"a.json", a}}), ComparisonError);
    EXPECT_THROW(compareResults({{"a.json", a}, {"b.json", a}}, 2), ComparisonError);
    try {
        compareResults({{"a.json", a}, {"a.json", a}});
        FAIL() << "the same file twice was compared";
    } catch (const ComparisonError& e) {
        EXPECT_NE(std::string(e.what()).find("a.json is given twice"), std::string::npos);
    }
    // A file with no runs: a note, not an error, and no per-strategy noise about it.
    const Comparison empty = compareResults({{"a.json", a}, {"e.json", ResultSet{}}});
    EXPECT_EQ(notesOf(empty, NoteKind::NoRuns).size(), 1u);
    EXPECT_TRUE(notesOf(empty, NoteKind::MissingRun).empty());
    EXPECT_TRUE(empty.differences.empty());
}

TEST(Comparison, SameFileUnderTwoNamesIsRefused) {
    const auto dir = std::filesystem::temp_directory_path() / "ckptlab_test_comparison";
    std::filesystem::create_directories(dir);
    const std::string file = (dir / "r.json").string();
    std::ofstream(file) << "{}";
    EXPECT_EQ(checkComparisonFiles({file}), "compare needs at least two results files (got 1)");
    EXPECT_NE(checkComparisonFiles({file, file}).find("is given twice"), std::string::npos);
    const std::string other = (dir / "." / "r.json").string();
    EXPECT_NE(checkComparisonFiles({file, other}).find("are the same file"), std::string::npos);
    EXPECT_EQ(checkComparisonFiles({file, (dir / "missing.json").string()}), "");
    std::filesystem::remove_all(dir);
}

TEST(Comparison, JsonAndCsvCarryTheRatios) {
    const ResultSet a = makeSet("cpu", "Xeon", 2, {makeRun("none", 40, 100)});
    const ResultSet b = makeSet("cpu", "Epyc", 2, {makeRun("none", 20, 25)});
    const Comparison c = compareResults({{"a.json", a}, {"b.json", b}});
    const auto json = nlohmann::json::parse(comparisonToJson(c));
    EXPECT_EQ(json["schema"], kComparisonSchema);
    EXPECT_EQ(json["reference"], "A");
    EXPECT_EQ(json["sources"][1]["machine"], "Epyc (cpu)");
    EXPECT_DOUBLE_EQ(json["rows"][0]["cells"][1]["peak_ratio"].get<double>(), 0.5);
    EXPECT_DOUBLE_EQ(json["rows"][0]["cells"][1]["step_ratio"].get<double>(), 0.25);
    EXPECT_TRUE(json["rows"][0]["cells"][0]["peak_ratio"].is_null());
    EXPECT_EQ(json["notes"][0]["kind"], "other_device");
    const std::string csv = comparisonCsv(c);
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "strategy,at,source,label,state,peak_mib,step_ms,peak_ratio,step_ratio,same_work,"
              "grad_check,error,step_within_noise,reserved_peak_mib,reserved_ratio");
    EXPECT_NE(csv.find("none,,B,Epyc (cpu),measured,20.000,25.000,0.5000,0.2500,yes,pass,"),
              std::string::npos)
        << csv;
}

// The caching allocator's reserved peaks (whole) beside the peaks, with their ratio when both
// files have them; a file without them (system allocator, older files) has none, and no ratio.
TEST(Comparison, ReservedPeaksAndTheirRatio) {
    ResultSet a = makeSet("cpu", "Xeon", 2, {makeRun("none", 40, 100), makeRun("full", 10, 150)});
    ResultSet b = makeSet("cpu", "Epyc", 2, {makeRun("none", 40, 80), makeRun("full", 10, 120)});
    a.runs[0].allocator = AllocatorStats{AllocatorSource::CachingModel, 0, 0, 0, 64 * 1048576};
    b.runs[0].allocator = AllocatorStats{AllocatorSource::Cuda, 0, 0, 0, 48 * 1048576};
    b.runs[1].allocator = AllocatorStats{AllocatorSource::Cuda, 0, 0, 0, 20 * 1048576};
    const Comparison c = compareResults({{"a.json", a}, {"b.json", b}});
    const ComparisonCell& none = c.rows[0].cells[1];
    ASSERT_TRUE(none.reserved_peak_mib && none.reserved_ratio);
    EXPECT_DOUBLE_EQ(*none.reserved_peak_mib, 48.0);
    EXPECT_DOUBLE_EQ(*none.reserved_ratio, 0.75);
    EXPECT_FALSE(c.rows[0].cells[0].reserved_ratio);  // the reference
    EXPECT_FALSE(c.rows[1].cells[0].reserved_peak_mib);
    EXPECT_TRUE(c.rows[1].cells[1].reserved_peak_mib);
    EXPECT_FALSE(c.rows[1].cells[1].reserved_ratio);  // A's full has none to divide by
    const auto json = nlohmann::json::parse(comparisonToJson(c));
    EXPECT_DOUBLE_EQ(json["rows"][0]["cells"][1]["reserved_peak_mib"].get<double>(), 48.0);
    EXPECT_DOUBLE_EQ(json["rows"][0]["cells"][1]["reserved_ratio"].get<double>(), 0.75);
    EXPECT_FALSE(json["rows"][1]["cells"][0].contains("reserved_peak_mib"));
    const std::string csv = comparisonCsv(c);
    EXPECT_NE(csv.find("none,,B,Epyc (cpu),measured,40.000,80.000,1.0000,0.8000,yes,pass,,,"
                       "48.000,0.7500\n"),
              std::string::npos)
        << csv;
}

// Step-time ratios between files say when they are within noise: the same rule (overlapping
// median intervals) as "≈ 0" in a sweep's table.
TEST(Comparison, StepRatiosSayWhenTheyAreWithinNoise) {
    auto timed = [](const std::string& strategy, std::vector<double> samples) {
        std::vector<double> sorted = samples;
        std::sort(sorted.begin(), sorted.end());
        RunResult run = makeRun(strategy, 10, (sorted[2] + sorted[3]) / 2);
        run.metrics.step_samples_ms = samples;
        return run;
    };
    const ResultSet a = makeSet("cpu", "laptop", 2,
                                {timed("none", {100, 101, 102, 103, 104, 105}),
                                 timed("full", {130, 131, 132, 133, 134, 135})});
    const ResultSet b = makeSet(
        "cpu", "server", 2,
        {timed("none", {103, 104, 105, 106, 107, 108}), timed("full", {90, 91, 92, 93, 94, 95})});
    const Comparison c = compareResults({{"a.json", a}, {"b.json", b}});
    const ComparisonRow* none = findRow(c, "none");
    const ComparisonRow* full = findRow(c, "full");
    ASSERT_TRUE(none && full);
    EXPECT_EQ(none->cells[1].step_within_noise, std::optional<bool>(true));
    EXPECT_EQ(full->cells[1].step_within_noise, std::optional<bool>(false));
    EXPECT_FALSE(none->cells[0].step_within_noise);  // the reference has no ratio
    EXPECT_NE(comparisonCsv(c).find(",step_within_noise,"), std::string::npos);
    // Without samples (files written before step-time samples were recorded) nothing is claimed
    // either way.
    const Comparison old =
        compareResults({{"a.json", makeSet("cpu", "x", 2, {makeRun("none", 10, 100)})},
                        {"b.json", makeSet("cpu", "y", 2, {makeRun("none", 10, 101)})}});
    EXPECT_FALSE(findRow(old, "none")->cells[1].step_within_noise);
}

// Every field of the config registry is compared, the work's first. The seed is a difference
// but not one of the work: the ratios stay. kv-heads, which only the llama block reads, is no
// difference between two transformer runs.
TEST(Comparison, EveryConfigFieldIsComparedTheWorkFirst) {
    ExperimentConfig transformer = smallConfig();
    transformer.block = BlockKind::Transformer;
    ExperimentConfig grouped = transformer;
    grouped.kv_heads = 2;
    grouped.seed = 7;
    grouped.repeats_auto = true;
    const ResultSet a = makeSet("cpu", "Xeon", 2, {makeRun("none", 40, 100, transformer)});
    const ResultSet b = makeSet("cpu", "Xeon", 2, {makeRun("none", 40, 110, grouped)});
    const Comparison c = compareResults({{"a.json", a}, {"b.json", b}});
    EXPECT_EQ(findDifference(c, "kv-heads"), nullptr);
    const ConfigDifference* seed = findDifference(c, "seed");
    ASSERT_NE(seed, nullptr);
    EXPECT_EQ(seed->values, (std::vector<std::string>{"0", "7"}));
    EXPECT_FALSE(seed->changes_work);
    ASSERT_NE(findDifference(c, "repeats-auto"), nullptr);
    EXPECT_EQ(findDifference(c, "repeats-auto")->values, (std::vector<std::string>{"no", "yes"}));
    EXPECT_TRUE(notesOf(c, NoteKind::WorkDiffers).empty());
    ASSERT_TRUE(c.rows[0].cells[1].step_ratio);
    EXPECT_NEAR(*c.rows[0].cells[1].step_ratio, 1.1, ratioSlack(1.1));

    // A field of the work comes before the others and stops the ratios, named in the note.
    ExperimentConfig longer = grouped;
    longer.seq = 16;
    const ResultSet d = makeSet("cpu", "Xeon", 2, {makeRun("none", 80, 200, longer)});
    const Comparison e = compareResults({{"a.json", a}, {"d.json", d}});
    ASSERT_GE(e.differences.size(), 3u);
    EXPECT_EQ(e.differences.front().field, "seq");
    EXPECT_TRUE(e.differences.front().changes_work);
    for (std::size_t i = 1; i < e.differences.size(); ++i)
        EXPECT_FALSE(e.differences[i].changes_work) << e.differences[i].field;
    EXPECT_FALSE(e.rows[0].cells[1].step_ratio);
    const auto work = notesOf(e, NoteKind::WorkDiffers);
    ASSERT_EQ(work.size(), 1u);
    EXPECT_NE(work[0]->text.find("seq (16 vs 8)"), std::string::npos) << work[0]->text;
}

// Two full-size plans (lesson recordings of `plan --capacity`): their rows are predicted cells,
// a row with no schedule at the plan's size is Infeasible with its own note, and the plans'
// configs are told apart.
TEST(Comparison, PlansCompareTheirRowsAndConfigs) {
    auto planOf = [](int width, std::int64_t nonePeakMiB, bool fullInfeasible) {
        ResultSet set = makeSet("cpu", "Plan CPU", 2, {});
        FullSizePlanRecord plan;
        plan.model = "test";
        plan.config = smallConfig();
        plan.config.width = width;
        plan.capacity_bytes = 80'000'000'000LL;
        FullSizePlanRow none;
        none.strategy = test::strategy("none");
        none.peak_bytes = nonePeakMiB * static_cast<std::int64_t>(kMiB);
        none.step_ms = 10;
        FullSizePlanRow full;
        full.strategy = test::strategy("full");
        if (fullInfeasible)
            full.least_peak_bytes = 5 * static_cast<std::int64_t>(kMiB);
        else
            full.peak_bytes = 3 * static_cast<std::int64_t>(kMiB), full.step_ms = 12;
        plan.strategies = {none, full};
        set.plan = plan;
        return set;
    };
    const Comparison c =
        compareResults({{"a.json", planOf(16, 8, false)}, {"b.json", planOf(32, 16, true)}});
    const ComparisonRow* none = findRow(c, "none");
    ASSERT_NE(none, nullptr);
    EXPECT_EQ(none->cells[0].state, CellState::Planned);
    EXPECT_EQ(none->cells[1].state, CellState::Planned);
    EXPECT_DOUBLE_EQ(none->cells[1].peak_mib, 16.0);
    const ComparisonRow* full = findRow(c, "full");
    ASSERT_NE(full, nullptr);
    EXPECT_EQ(full->cells[1].state, CellState::Infeasible);
    const auto infeasible = notesOf(c, NoteKind::Infeasible);
    ASSERT_EQ(infeasible.size(), 1u);
    EXPECT_NE(infeasible[0]->text.find("infeasible"), std::string::npos) << infeasible[0]->text;
    EXPECT_TRUE(notesOf(c, NoteKind::Failed).empty());
    // The plans differ in width: said, not "the same in every file".
    bool widthNamed = false;
    for (const auto& difference : c.differences)
        widthNamed = widthNamed || difference.field == "width";
    EXPECT_TRUE(widthNamed);
}
