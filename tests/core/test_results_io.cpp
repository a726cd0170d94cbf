// Results files: JSON round trip and strict rejection, the CSV summary, and Chrome traces.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ckptlab/formats/results_io.h"
#include "ckptlab/model/config_fields.h"
#include "ckptlab/model/summary.h"
#include "same_breakdown.h"
#include "strategy_text.h"
#include "test_configs.h"

using namespace ckptlab;
namespace fs = std::filesystem;
using Json = nlohmann::json;

namespace {

// Two runs with every field set to something other than its default, one of them failed.
ResultSet sampleResults() {
    ResultSet set;
    set.cancelled = true;
    Environment& env = set.environment;
    env.ckptlab_version = "0.1.0";
    env.libtorch_version = "1.13.1";
    env.device = "cpu";
    env.device_name = "Some CPU @ 2.0GHz";
    env.dtype = "bfloat16";
    env.threads = 2;
    env.blas = "libopenblas.so.0";
    env.cuda_compiled = true;
    env.created_utc = "2024-05-01T12:00:00Z";

    RunResult run;
    ExperimentConfig& c = run.config;
    c.block = BlockKind::Transformer;
    c.depth = 6;
    c.width = 64;
    c.seq = 32;
    c.batch = 3;
    c.heads = 8;
    c.dropout = 0.25;
    c.dtype = DType::BFloat16;
    c.device = "cuda:1";
    c.optimizer = Optimizer::Adam;
    c.seed = 18446744073709551615ull;
    c.threads = 2;
    c.warmup = 2;
    c.repeats = 5;
    run.strategy = test::strategy("every:2");
    run.metrics = {123456789, 2345678, 987654, 12.5, 4.25, 7.75, 1.5, 0.5, 3, {12.5, 11.0, 13.25}};
    run.grad_check.checked = true;
    run.grad_check.max_abs_diff = 1.5e-7;
    run.grad_check.tolerance = 1e-5;
    run.breakdown = {1000, 2000, 3000, 4000, 5000, 6000};
    run.blocks = {{0, Phase::Forward, 0.5, 9.5, 4096}, {4, Phase::Recompute, 6.25, 6.75, 8192}};
    run.timeline = {{0.001, 4096, 4096, Phase::Forward, 0},
                    {0.5, -1024, 3072, Phase::Loss, -1},
                    {1.25, 8192, 11264, Phase::Recompute, 5},
                    {2.0, -11264, 0, Phase::Optimizer, -1}};
    run.phases = {{Phase::Forward, 0, 0.0, 0.4},
                  {Phase::Loss, -1, 0.4, 0.6},
                  {Phase::Backward, 5, 0.6, 1.0},
                  {Phase::Idle, -1, 1.0, 1.1}};
    run.prediction = PredictedMetrics{123000000, 2345000, 11.75, 10.5};
    c.memory_limit_mib = 4096.5;
    // A transformer block is two units (attention, FFN): 12 units for depth 6.
    run.schedule = "ckpt[0,2){0 1} 2 3 4 5 ckpt[6,12){ckpt[6,8){6 7} 8 9 10 11}";
    run.forward_counts = {2, 2, 1, 1, 1, 1, 3, 3, 2, 2, 2, 2};
    run.metrics.minor_faults_per_step = 12998.5;
    run.prediction->reserved_peak_bytes = 148897792;
    run.allocator =
        AllocatorStats{AllocatorSource::CachingModel, 8806400, 144090624, 23068672, 148897792};
    AllocatorTrace trace;
    trace.segments = {{2097152, true, std::nullopt, std::nullopt},
                      {20971520, false, 0.25, 3.5},
                      {125829120, false, 1.0, std::nullopt}};
    trace.blocks = {{0, 0, 512, 8, std::nullopt, std::nullopt, Phase::Idle, -1},
                    {1, 1048576, 4194304, 4194300, 0.25, 1.5, Phase::Forward, 0},
                    {2, 0, 125829120, 125829120, 1.0, std::nullopt, Phase::Recompute, 5},
                    {0, 512, 1536, 1100, 2.0, 2.0, Phase::Optimizer, -1}};
    trace.unlisted_blocks = 3;
    run.allocator_trace = trace;
    set.runs.push_back(run);

    RunResult failed;
    failed.strategy = test::strategy("full");
    failed.config.depth = 4;
    failed.grad_check.max_abs_diff = std::numeric_limits<double>::quiet_NaN();
    failed.metrics.step_samples_ms = {std::numeric_limits<double>::infinity()};
    failed.grad_check.note = "NaN in 12 of 4096 elements of block 3 ffn.up.weight";
    failed.error = "CUDA out of memory: \"tried\" to allocate\n2 GiB";
    failed.out_of_memory = OutOfMemory{2147483648, 1073741824, 0, Phase::Recompute, 2, 3.25};
    set.runs.push_back(failed);
    set.notes = {"the \"vs optimal\" comparison was skipped", "second note"};
    return set;
}

void expectSameDouble(double a, double b, const char* what) {
    if (std::isnan(a)) {
        EXPECT_TRUE(std::isnan(b)) << what;
    } else {
        EXPECT_EQ(a, b) << what;
    }
}

void expectSameRun(const RunResult& a, const RunResult& b) {
    for (const ConfigField& field : configFields())
        EXPECT_EQ(valueOf(field, a.config), valueOf(field, b.config)) << field.key;
    EXPECT_EQ(a.strategy, b.strategy);

    const Metrics &m = a.metrics, &n = b.metrics;
    EXPECT_EQ(m.peak_bytes, n.peak_bytes);
    EXPECT_EQ(m.activation_bytes, n.activation_bytes);
    EXPECT_EQ(m.baseline_bytes, n.baseline_bytes);
    expectSameDouble(m.step_ms, n.step_ms, "step_ms");
    expectSameDouble(m.forward_ms, n.forward_ms, "forward_ms");
    expectSameDouble(m.backward_ms, n.backward_ms, "backward_ms");
    expectSameDouble(m.recompute_ms, n.recompute_ms, "recompute_ms");
    expectSameDouble(m.optimizer_ms, n.optimizer_ms, "optimizer_ms");
    EXPECT_EQ(m.recomputed_blocks, n.recomputed_blocks);
    ASSERT_EQ(m.step_samples_ms.size(), n.step_samples_ms.size());
    for (std::size_t i = 0; i < m.step_samples_ms.size(); ++i)
        expectSameDouble(m.step_samples_ms[i], n.step_samples_ms[i], "step_samples_ms");

    EXPECT_EQ(a.grad_check.checked, b.grad_check.checked);
    expectSameDouble(a.grad_check.max_abs_diff, b.grad_check.max_abs_diff, "max_abs_diff");
    expectSameDouble(a.grad_check.tolerance, b.grad_check.tolerance, "tolerance");
    EXPECT_EQ(a.grad_check.passed(), b.grad_check.passed());
    EXPECT_EQ(a.grad_check.note, b.grad_check.note);

    expectSameBreakdown(a.breakdown, b.breakdown);

    ASSERT_EQ(a.blocks.size(), b.blocks.size());
    for (std::size_t i = 0; i < a.blocks.size(); ++i) {
        EXPECT_EQ(a.blocks[i].block, b.blocks[i].block);
        EXPECT_EQ(a.blocks[i].phase, b.blocks[i].phase);
        EXPECT_EQ(a.blocks[i].saved_ms, b.blocks[i].saved_ms);
        EXPECT_EQ(a.blocks[i].freed_ms, b.blocks[i].freed_ms);
        EXPECT_EQ(a.blocks[i].bytes, b.blocks[i].bytes);
    }
    ASSERT_EQ(a.timeline.size(), b.timeline.size());
    for (std::size_t i = 0; i < a.timeline.size(); ++i) {
        EXPECT_EQ(a.timeline[i].t_ms, b.timeline[i].t_ms);
        EXPECT_EQ(a.timeline[i].delta, b.timeline[i].delta);
        EXPECT_EQ(a.timeline[i].total, b.timeline[i].total);
        EXPECT_EQ(a.timeline[i].phase, b.timeline[i].phase);
        EXPECT_EQ(a.timeline[i].block, b.timeline[i].block);
    }
    ASSERT_EQ(a.phases.size(), b.phases.size());
    for (std::size_t i = 0; i < a.phases.size(); ++i) {
        EXPECT_EQ(a.phases[i].phase, b.phases[i].phase);
        EXPECT_EQ(a.phases[i].block, b.phases[i].block);
        EXPECT_EQ(a.phases[i].begin_ms, b.phases[i].begin_ms);
        EXPECT_EQ(a.phases[i].end_ms, b.phases[i].end_ms);
    }
    ASSERT_EQ(a.prediction.has_value(), b.prediction.has_value());
    if (a.prediction) {
        EXPECT_EQ(a.prediction->peak_bytes, b.prediction->peak_bytes);
        EXPECT_EQ(a.prediction->activation_bytes, b.prediction->activation_bytes);
        expectSameDouble(a.prediction->step_ms, b.prediction->step_ms, "prediction step_ms");
        ASSERT_EQ(a.prediction->optimal_step_ms.has_value(),
                  b.prediction->optimal_step_ms.has_value());
        if (a.prediction->optimal_step_ms) {
            expectSameDouble(*a.prediction->optimal_step_ms, *b.prediction->optimal_step_ms,
                             "optimal_step_ms");
        }
    }
    EXPECT_EQ(a.schedule, b.schedule);
    EXPECT_EQ(a.forward_counts, b.forward_counts);
    EXPECT_EQ(a.error, b.error);
    ASSERT_EQ(a.out_of_memory.has_value(), b.out_of_memory.has_value());
    if (a.out_of_memory) {
        const OutOfMemory &o = *a.out_of_memory, &p = *b.out_of_memory;
        EXPECT_EQ(o.requested_bytes, p.requested_bytes);
        EXPECT_EQ(o.allocated_bytes, p.allocated_bytes);
        EXPECT_EQ(o.limit_bytes, p.limit_bytes);
        EXPECT_EQ(o.phase, p.phase);
        EXPECT_EQ(o.block, p.block);
        EXPECT_EQ(o.t_ms, p.t_ms);
    }
    EXPECT_EQ(m.minor_faults_per_step, n.minor_faults_per_step);
    if (a.prediction && b.prediction)
        EXPECT_EQ(a.prediction->reserved_peak_bytes, b.prediction->reserved_peak_bytes);
    ASSERT_EQ(a.allocator.has_value(), b.allocator.has_value());
    if (a.allocator) {
        EXPECT_EQ(a.allocator->source, b.allocator->source);
        EXPECT_EQ(a.allocator->allocated_start, b.allocator->allocated_start);
        EXPECT_EQ(a.allocator->allocated_peak, b.allocator->allocated_peak);
        EXPECT_EQ(a.allocator->reserved_start, b.allocator->reserved_start);
        EXPECT_EQ(a.allocator->reserved_peak, b.allocator->reserved_peak);
    }
    ASSERT_EQ(a.allocator_trace.has_value(), b.allocator_trace.has_value());
    if (a.allocator_trace) {
        const AllocatorTrace &s = *a.allocator_trace, &t = *b.allocator_trace;
        EXPECT_EQ(s.unlisted_blocks, t.unlisted_blocks);
        ASSERT_EQ(s.segments.size(), t.segments.size());
        for (std::size_t i = 0; i < s.segments.size(); ++i) {
            EXPECT_EQ(s.segments[i].size, t.segments[i].size);
            EXPECT_EQ(s.segments[i].small_pool, t.segments[i].small_pool);
            EXPECT_EQ(s.segments[i].created_ms, t.segments[i].created_ms);
            EXPECT_EQ(s.segments[i].released_ms, t.segments[i].released_ms);
        }
        ASSERT_EQ(s.blocks.size(), t.blocks.size());
        for (std::size_t i = 0; i < s.blocks.size(); ++i) {
            const SegmentBlock &x = s.blocks[i], &y = t.blocks[i];
            EXPECT_EQ(x.segment, y.segment);
            EXPECT_EQ(x.offset, y.offset);
            EXPECT_EQ(x.size, y.size);
            EXPECT_EQ(x.requested, y.requested);
            EXPECT_EQ(x.allocated_ms, y.allocated_ms);
            EXPECT_EQ(x.freed_ms, y.freed_ms);
            EXPECT_EQ(x.phase, y.phase);
            EXPECT_EQ(x.block, y.block);
        }
    }
    ASSERT_EQ(a.shard.has_value(), b.shard.has_value());
    if (a.shard) {
        EXPECT_EQ(a.shard->position, b.shard->position);
        EXPECT_EQ(a.shard->owned, b.shard->owned);
    }
    EXPECT_EQ(a.machine, b.machine);
}

void expectSameResults(const ResultSet& a, const ResultSet& b) {
    const Environment &e = a.environment, &f = b.environment;
    EXPECT_EQ(e.ckptlab_version, f.ckptlab_version);
    EXPECT_EQ(e.libtorch_version, f.libtorch_version);
    EXPECT_EQ(e.device, f.device);
    EXPECT_EQ(e.device_name, f.device_name);
    EXPECT_EQ(e.dtype, f.dtype);
    EXPECT_EQ(e.threads, f.threads);
    EXPECT_EQ(e.blas, f.blas);
    EXPECT_EQ(e.cuda_compiled, f.cuda_compiled);
    EXPECT_EQ(e.created_utc, f.created_utc);
    EXPECT_EQ(a.cancelled, b.cancelled);
    EXPECT_EQ(a.notes, b.notes);
    ASSERT_EQ(a.runs.size(), b.runs.size());
    for (std::size_t i = 0; i < a.runs.size(); ++i) {
        SCOPED_TRACE("run " + std::to_string(i));
        expectSameRun(a.runs[i], b.runs[i]);
    }
    ASSERT_EQ(a.shard.has_value(), b.shard.has_value());
    if (a.shard) {
        EXPECT_EQ(a.shard->sweep_id, b.shard->sweep_id);
        EXPECT_EQ(a.shard->index, b.shard->index);
        EXPECT_EQ(a.shard->count, b.shard->count);
        EXPECT_EQ(a.shard->work_items, b.shard->work_items);
        EXPECT_EQ(a.shard->work_id, b.shard->work_id);
    }
    ASSERT_EQ(a.merged.has_value(), b.merged.has_value());
    if (a.merged) {
        EXPECT_EQ(a.merged->sweep_id, b.merged->sweep_id);
        EXPECT_EQ(a.merged->count, b.merged->count);
        EXPECT_EQ(a.merged->missing, b.merged->missing);
    }
    ASSERT_EQ(a.machines.size(), b.machines.size());
    for (std::size_t i = 0; i < a.machines.size(); ++i) {
        EXPECT_EQ(a.machines[i].device_name, b.machines[i].device_name);
        EXPECT_EQ(a.machines[i].device, b.machines[i].device);
        EXPECT_EQ(a.machines[i].threads, b.machines[i].threads);
        EXPECT_EQ(a.machines[i].created_utc, b.machines[i].created_utc);
    }
    ASSERT_EQ(a.machine_baselines.size(), b.machine_baselines.size());
    for (std::size_t i = 0; i < a.machine_baselines.size(); ++i) {
        SCOPED_TRACE("machine baseline " + std::to_string(i));
        expectSameRun(a.machine_baselines[i], b.machine_baselines[i]);
    }
}

// The message resultsFromJson throws, or "" when it accepts the text.
std::string rejection(const std::string& text) {
    try {
        resultsFromJson(text);
    } catch (const ResultsFileError& e) {
        return e.what();
    }
    return "";
}

std::string rejectionOf(const Json& doc) { return rejection(doc.dump()); }

Json sampleDocument() { return Json::parse(resultsToJson(sampleResults())); }

// A fresh directory per test, removed afterwards.
class TempDir {
public:
    TempDir() {
        const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
        path_ = fs::temp_directory_path() / ("ckptlab-test-" + std::string(test->name()) + "-" +
                                             std::to_string(std::random_device{}()));
        fs::remove_all(path_);
        fs::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
    fs::path path_;
};

std::string readText(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

void writeText(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

}  // namespace

#define EXPECT_CONTAINS(text, part) \
    EXPECT_NE(std::string(text).find(part), std::string::npos) << "message: " << (text)

// ---------------------------------------------------------------- JSON round trip

TEST(ResultsJson, RoundTripKeepsEveryField) {
    const ResultSet original = sampleResults();
    const std::string text = resultsToJson(original);
    const ResultSet loaded = resultsFromJson(text);
    expectSameResults(original, loaded);
    EXPECT_EQ(resultsToJson(loaded), text);
}

// Every config field survives the file. The optional keys (kv_heads, memory_limit_mib, ...)
// are written only when set, so files of runs without them keep their bytes, and a file
// without them reads as their defaults.
TEST(ResultsJson, EveryConfigFieldRoundTripsAndOptionalKeysOnlyWhenSet) {
    ResultSet set;
    set.runs.emplace_back();  // a `none` run
    set.runs[0].config = test::everyFieldChanged();
    const std::string text = resultsToJson(set);
    const ResultSet back = resultsFromJson(text);
    ASSERT_EQ(back.runs.size(), 1u);
    for (const ConfigField& field : configFields())
        EXPECT_EQ(valueOf(field, back.runs[0].config), valueOf(field, set.runs[0].config))
            << field.key;
    EXPECT_EQ(resultsToJson(back), text);

    Json older = Json::parse(text);
    ASSERT_EQ(older["runs"][0]["config"]["kv_heads"], 2);
    older["runs"][0]["config"].erase("kv_heads");
    EXPECT_EQ(resultsFromJson(older.dump()).runs[0].config.kv_heads, 0);

    set.runs[0].config.kv_heads = 0;
    EXPECT_EQ(resultsToJson(set).find("kv_heads"), std::string::npos);
    EXPECT_EQ(resultsToJson(set), resultsToJson(resultsFromJson(older.dump())));
}

// A chain with ends (vocab) labels its embedding and LM head blocks -2 and -3 in the timeline,
// the spans, the lifetimes, the allocator's trace and out of memory; a run without ends cannot
// have written them, and a lifetime always belongs to a block.
TEST(ResultsJson, ChainEndsLabelsRoundTripOnlyWithEnds) {
    ResultSet set = sampleResults();
    RunResult& run = set.runs[0];
    run.config.vocab = 512;
    run.config.tie_embeddings = true;
    run.config.loss_chunks = 4;
    run.breakdown.logits = 7000;
    run.timeline[0].block = kEmbeddingBlock;
    run.timeline[1] = {0.5, -1024, 3072, Phase::Backward, kHeadBlock};
    run.phases[0].block = kEmbeddingBlock;
    run.phases[1] = {Phase::Recompute, kHeadBlock, 0.4, 0.6};
    run.blocks[0].block = kEmbeddingBlock;
    run.blocks.push_back({kHeadBlock, Phase::Recompute, 6.0, 6.5, 2048});
    run.allocator_trace->blocks[1].block = kHeadBlock;
    run.out_of_memory = OutOfMemory{8192, 1073741824, 1073745920, Phase::Backward, kHeadBlock, 3.0};
    const std::string text = resultsToJson(set);
    const ResultSet back = resultsFromJson(text);
    expectSameResults(set, back);
    EXPECT_EQ(back.runs[0].breakdown.logits, 7000);
    EXPECT_EQ(resultsToJson(back), text);

    Json withoutEnds = Json::parse(text);
    for (const char* key : {"vocab", "tie_embeddings", "loss_chunks"})
        withoutEnds["runs"][0]["config"].erase(key);
    EXPECT_EQ(rejectionOf(withoutEnds),
              "runs[0].blocks[0].block: expected a non-negative integer, got -2");
    withoutEnds["runs"][0]["blocks"] = Json::array();
    EXPECT_CONTAINS(rejectionOf(withoutEnds), "runs[0].timeline.block[0]: ");
    Json unlabelled = Json::parse(text);
    unlabelled["runs"][0]["blocks"][0]["block"] = -1;
    EXPECT_EQ(rejectionOf(unlabelled),
              "runs[0].blocks[0].block: expected a block from 0 to 5, the embedding (-2) or the "
              "LM head (-3), got -1");
}

// kv_heads is checked as the CLI checks it, and the error names its key in the file.
TEST(ResultsJson, KvHeadsThatDoNotDivideHeadsAreRefused) {
    ResultSet set;
    set.runs.emplace_back();
    set.runs[0].config = test::everyFieldChanged();  // 6 heads
    Json doc = Json::parse(resultsToJson(set));
    doc["runs"][0]["config"]["kv_heads"] = 4;
    EXPECT_EQ(rejectionOf(doc),
              "runs[0].config.kv_heads: kv-heads must divide heads (heads 6, kv-heads 4)");
    doc["runs"][0]["config"]["kv_heads"] = 300;
    EXPECT_EQ(rejectionOf(doc),
              "runs[0].config.kv_heads: kv-heads must be between 0 and 256 (got 300)");
    doc["runs"][0]["config"]["kv_heads"] = -1;
    EXPECT_CONTAINS(rejectionOf(doc), "runs[0].config.kv_heads: ");
}

// The allocator's tunables change CPU step times, so a file says which ones its runs saw; files
// from runs without them keep their old shape.
TEST(ResultsJson, MallocTunablesAreKeptOnlyWhenSet) {
    ResultSet set = sampleResults();
    EXPECT_EQ(resultsToJson(set).find("malloc_tunables"), std::string::npos);
    set.environment.malloc_tunables = "glibc.malloc.trim_threshold=1073741824";
    const ResultSet back = resultsFromJson(resultsToJson(set));
    EXPECT_EQ(back.environment.malloc_tunables, set.environment.malloc_tunables);
}

// A shard's file: its sweep and share, each run's place in the whole sweep.
ResultSet shardSample() {
    ResultSet set = sampleResults();
    set.shard = SweepShard{"0123456789abcdef", 1, 3, 7, "fedcba9876543210"};
    set.runs[0].shard = ShardPlace{4, true};
    set.runs[1].shard = ShardPlace{1, true};
    return set;
}

// A merged file: two of three shards, each run's machine, the other shard's none.
ResultSet mergedSample() {
    ResultSet set = sampleResults();
    set.merged = MergedShards{"0123456789abcdef", 3, {1}};
    Environment other = set.environment;
    other.device_name = "Other CPU";
    other.created_utc = "2024-05-01T12:03:00Z";
    set.machines = {set.environment, other};
    set.runs[0].machine = 0;
    set.runs[1].machine = 1;
    RunResult none;
    none.config.depth = 4;
    none.metrics.step_ms = 9.5;
    none.machine = 1;
    set.machine_baselines.push_back(none);
    return set;
}

// The keys of sharded sweeps round-trip, and other files are written as before: none of them
// appears in a file without shards.
TEST(ResultsJson, ShardAndMergedFilesRoundTripAndOtherFilesKeepTheirShape) {
    const std::string plain = resultsToJson(sampleResults());
    for (const char* key : {"\"shard\"", "\"merged\"", "\"machines\"", "\"machine_baselines\"",
                            "\"machine\"", "\"sweep_id\""})
        EXPECT_EQ(plain.find(key), std::string::npos) << key;
    for (const ResultSet& set : {shardSample(), mergedSample()}) {
        const std::string text = resultsToJson(set);
        const ResultSet back = resultsFromJson(text);
        expectSameResults(set, back);
        EXPECT_EQ(resultsToJson(back), text);
    }
    // An older reader ignores the keys it does not know: the environment stays a valid one.
    Json merged = Json::parse(resultsToJson(mergedSample()));
    EXPECT_EQ(merged["environment"]["device_name"], "Some CPU @ 2.0GHz");
    EXPECT_EQ(merged["machines"][1]["device_name"], "Other CPU");
    EXPECT_EQ(merged["runs"][1]["machine"], 1);
    EXPECT_EQ(merged["merged"]["missing"], Json::array({1}));
}

// What the program could not have written is refused, naming the place.
TEST(ResultsJson, ShardAndMergedKeysAreReadStrictly) {
    const Json shard = Json::parse(resultsToJson(shardSample()));
    const Json merged = Json::parse(resultsToJson(mergedSample()));
    const auto refusal = [](Json doc, const std::function<void(Json&)>& change) {
        change(doc);
        return rejectionOf(doc);
    };
    EXPECT_EQ(refusal(shard, [](Json& d) { d["shard"]["sweep_id"] = "XYZ"; }),
              "shard.sweep_id: expected 16 hex digits (0-9, a-f), got \"XYZ\"");
    EXPECT_CONTAINS(refusal(shard, [](Json& d) { d["shard"]["index"] = 3; }), "shard.index: ");
    EXPECT_CONTAINS(refusal(shard, [](Json& d) { d["shard"]["count"] = 1025; }), "shard.count: ");
    EXPECT_EQ(refusal(shard, [](Json& d) { d["runs"][1].erase("shard"); }),
              "runs[1]: missing \"shard\": every run of a shard's file has its place");
    EXPECT_EQ(refusal(shard, [](Json& d) { d["runs"][0]["shard"]["position"] = 7; }),
              "runs[0].shard.position: expected a position below the sweep's 7 work items, got 7");
    EXPECT_CONTAINS(refusal(shard, [](Json& d) { d["runs"][0]["shard"]["owned"] = 1; }),
                    "runs[0].shard.owned: expected true or false");
    EXPECT_EQ(refusal(shard, [&](Json& d) { d["merged"] = merged["merged"]; }),
              "merged: a file is one shard's or merged from shards, not both (it has \"shard\" "
              "too)");
    EXPECT_EQ(refusal(merged, [](Json& d) { d["runs"][1]["machine"] = 2; }),
              "runs[1].machine: expected an index into the file's 2 machines, got 2");
    EXPECT_EQ(refusal(merged, [](Json& d) { d["runs"][0].erase("machine"); }),
              "runs[0]: missing \"machine\": every run of a merged file names its shard's "
              "machine");
    EXPECT_EQ(refusal(merged, [](Json& d) { d["machines"].erase(1); }),
              "machines: expected one machine per merged shard (2), got 1");
    EXPECT_EQ(refusal(merged, [](Json& d) { d.erase("machines"); }),
              "missing \"machines\": a merged file lists its shards' machines");
    EXPECT_EQ(refusal(merged, [](Json& d) { d["machine_baselines"][0]["strategy"] = "full"; }),
              "machine_baselines[0].strategy: a machine baseline is a none run, got \"full\"");
    EXPECT_EQ(refusal(merged, [](Json& d) { d["machine_baselines"][0].erase("machine"); }),
              "machine_baselines[0]: missing \"machine\": every run of a merged file names its "
              "shard's machine");
    EXPECT_CONTAINS(refusal(merged,
                            [](Json& d) {
                                d["merged"]["missing"] = {2, 1};
                            }),
                    "merged.missing[1]: ");
    EXPECT_CONTAINS(refusal(merged,
                            [](Json& d) {
                                d["merged"]["missing"] = {0, 1, 2};
                            }),
                    "merged.missing");
    Json plain = Json::parse(resultsToJson(sampleResults()));
    plain["machines"] = merged["machines"];
    EXPECT_EQ(rejectionOf(plain),
              "machines: only a file merged from shards lists machines (no \"merged\")");
    plain.erase("machines");
    plain["runs"][0]["shard"] = {{"position", 0}, {"owned", true}};
    EXPECT_EQ(rejectionOf(plain),
              "runs[0].shard: a run's place in a shard, but the file is no shard's (it has no "
              "top-level \"shard\")");
}

// Which OpenBLAS kernels ran and who chose them; files from another BLAS and older files have
// none, and a choice of another name is refused naming the field.
TEST(ResultsJson, BlasKernelRoundTripsAndIsOptional) {
    ResultSet set = sampleResults();
    EXPECT_EQ(resultsToJson(set).find("blas_kernel"), std::string::npos);
    EXPECT_FALSE(resultsFromJson(resultsToJson(set)).environment.blas_kernel);

    set.environment.blas_kernel = BlasKernel{"SkylakeX", BlasKernelChoice::Lab, "Prescott", ""};
    ResultSet back = resultsFromJson(resultsToJson(set));
    ASSERT_TRUE(back.environment.blas_kernel);
    EXPECT_EQ(back.environment.blas_kernel->name, "SkylakeX");
    EXPECT_EQ(back.environment.blas_kernel->chosen_by, BlasKernelChoice::Lab);
    EXPECT_EQ(back.environment.blas_kernel->replaced, "Prescott");
    EXPECT_EQ(back.environment.blas_kernel->better, "");
    EXPECT_EQ(resultsToJson(back), resultsToJson(set));

    set.environment.blas_kernel = BlasKernel{"Prescott", BlasKernelChoice::User, "", "Haswell"};
    const std::string text = resultsToJson(set);
    EXPECT_EQ(text.find("\"replaced\""), std::string::npos);  // written only when set
    back = resultsFromJson(text);
    ASSERT_TRUE(back.environment.blas_kernel);
    EXPECT_EQ(back.environment.blas_kernel->chosen_by, BlasKernelChoice::User);
    EXPECT_EQ(back.environment.blas_kernel->better, "Haswell");

    std::string bad = text;
    const std::string user = "\"chosen_by\": \"user\"";
    const auto at = bad.find(user);
    ASSERT_NE(at, std::string::npos) << text;
    bad.replace(at, user.size(), "\"chosen_by\": \"me\"");
    try {
        resultsFromJson(bad);
        ADD_FAILURE() << "an unknown chosen_by was accepted";
    } catch (const ResultsFileError& e) {
        EXPECT_NE(std::string(e.what()).find("chosen_by"), std::string::npos) << e.what();
    }
}

TEST(ResultsJson, DocumentHasTheDocumentedShape) {
    const Json doc = sampleDocument();
    EXPECT_EQ(doc["schema"], "ckptlab.results/1");
    EXPECT_EQ(doc["cancelled"], true);
    const Json& run = doc["runs"][0];
    EXPECT_EQ(run["strategy"], "every:2");
    EXPECT_EQ(run["config"]["block"], "transformer");
    EXPECT_EQ(run["config"]["dtype"], "bfloat16");
    EXPECT_EQ(run["config"]["optimizer"], "adam");
    EXPECT_EQ(run["metrics"]["peak_bytes"], 123456789);
    EXPECT_EQ(run["grad_check"]["passed"], true);
    EXPECT_EQ(run["blocks"][1]["phase"], "recompute");
    EXPECT_EQ(run["phases"][1]["phase"], "loss");
    EXPECT_EQ(run["timeline"]["phase_codes"],
              Json::parse(R"(["idle","forward","loss","recompute","backward","optimizer"])"));
    EXPECT_EQ(run["timeline"]["phase"], Json::parse("[1,2,3,5]"));
    EXPECT_EQ(run["timeline"]["delta"], Json::parse("[4096,-1024,8192,-11264]"));
    EXPECT_TRUE(run["error"].is_null());
    const Json& failed = doc["runs"][1];
    EXPECT_EQ(failed["grad_check"]["max_abs_diff"], "nan");
    EXPECT_EQ(failed["metrics"]["step_samples_ms"][0], "inf");
    EXPECT_EQ(failed["error"], "CUDA out of memory: \"tried\" to allocate\n2 GiB");
}

TEST(ResultsJson, TheLoaderParsesEachRunsStrategyOnce) {
    const std::string json = resultsToJson(sampleResults());
    const std::uint64_t before = strategyParseCount();
    const ResultSet back = resultsFromJson(json);
    EXPECT_EQ(strategyParseCount() - before, back.runs.size());
    EXPECT_EQ(back.runs[0].strategy, (Strategy{StrategyKind::Every, 2}));
    // What is computed from a loaded file reads the parsed values, never the text again.
    (void)summarize(back);
    (void)summaryCsv(back);
    (void)resultsToJson(back);
    EXPECT_EQ(strategyParseCount() - before, back.runs.size());
}

TEST(ResultsJson, SaveAndLoadThroughAFile) {
    TempDir dir;
    const std::string path = dir.file("results.json");
    saveResults(sampleResults(), path);
    EXPECT_FALSE(fs::exists(path + ".tmp"));
    expectSameResults(sampleResults(), loadResults(path));

    ResultSet smaller = sampleResults();
    smaller.runs.pop_back();
    saveResults(smaller, path);  // replaces the file
    EXPECT_EQ(loadResults(path).runs.size(), 1u);
}

TEST(ResultsJson, InvalidUtf8IsSavedNotFatal) {
    ResultSet set = sampleResults();
    set.runs[1].error = std::string("bad byte \xff here");
    const ResultSet loaded = resultsFromJson(resultsToJson(set));
    ASSERT_TRUE(loaded.runs[1].error);
    EXPECT_EQ(loaded.runs[1].error->rfind("bad byte ", 0), 0u);
}

TEST(ResultsJson, UnknownExtraKeysAreIgnored) {
    Json doc = sampleDocument();
    doc["comment"] = "added by hand";
    doc["runs"][0]["metrics"]["future_metric"] = 1;
    EXPECT_EQ(rejectionOf(doc), "");
}

// ---------------------------------------------------------------- JSON rejection

TEST(ResultsJson, RejectsTextThatIsNotJson) {
    const std::string message = rejection("this is not json");
    EXPECT_CONTAINS(message, "not valid JSON at byte 2 (line 1, column 2)");
    EXPECT_CONTAINS(rejection("{\"schema\": \"ckptlab.results/1\",\n  \"runs\": [}"),
                    "(line 2, column");
    EXPECT_CONTAINS(rejection(std::string("\x89PNG\r\n\x1a\n\0\0", 10)), "not valid JSON");
    EXPECT_EQ(rejection(""), "not valid JSON: there is no text");
    EXPECT_EQ(rejection(" \n\t"), "not valid JSON: there is no text");
}

TEST(ResultsJson, RejectsForeignFiles) {
    EXPECT_EQ(rejectionOf(Json::parse(R"({"runs": []})")),
              "not a Checkpoint Lab results file: missing \"schema\"");
    EXPECT_EQ(rejectionOf(Json::parse(R"({"schema": "foo/2", "runs": []})")),
              "unsupported schema \"foo/2\" (expected ckptlab.results/1)");
    EXPECT_EQ(rejectionOf(Json::parse(R"({"schema": 1})")),
              "not a Checkpoint Lab results file: \"schema\" is an integer, not a string");
    EXPECT_EQ(rejectionOf(Json::parse(R"([1, 2, 3])")),
              "not a Checkpoint Lab results file: the top level is an array, not an object");
    EXPECT_EQ(rejectionOf(Json::parse(R"({"traceEvents": []})")),
              "not a Checkpoint Lab results file: missing \"schema\"");
}

TEST(ResultsJson, RejectsMissingSections) {
    Json doc = sampleDocument();
    doc.erase("runs");
    EXPECT_EQ(rejectionOf(doc), "missing \"runs\"");
    doc = sampleDocument();
    doc["runs"][1].erase("metrics");
    EXPECT_EQ(rejectionOf(doc), "runs[1]: missing \"metrics\"");
    doc = sampleDocument();
    doc["runs"][0]["timeline"].erase("phase_codes");
    EXPECT_EQ(rejectionOf(doc), "runs[0].timeline: missing \"phase_codes\"");
}

TEST(ResultsJson, RejectsWrongTypesNamingThePlace) {
    Json doc = sampleDocument();
    doc["runs"][1]["metrics"]["peak_bytes"] = "big";
    EXPECT_EQ(rejectionOf(doc), "runs[1].metrics.peak_bytes: expected an integer, got a string");
    doc = sampleDocument();
    doc["runs"][0]["metrics"]["peak_bytes"] = 1.5;
    EXPECT_EQ(rejectionOf(doc),
              "runs[0].metrics.peak_bytes: expected an integer, got a number with a fraction");
    doc = sampleDocument();
    doc["runs"] = Json::object();
    EXPECT_EQ(rejectionOf(doc), "runs: expected an array, got an object");
    doc = sampleDocument();
    doc["cancelled"] = "no";
    EXPECT_EQ(rejectionOf(doc), "cancelled: expected true or false, got a string");
    doc = sampleDocument();
    doc["runs"][0]["error"] = 5;
    EXPECT_EQ(rejectionOf(doc), "runs[0].error: expected null or a string, got an integer");
    doc = sampleDocument();
    doc["runs"][0]["grad_check"]["max_abs_diff"] = "tiny";
    EXPECT_EQ(rejectionOf(doc),
              "runs[0].grad_check.max_abs_diff: expected a number, got the string \"tiny\"");
    doc = sampleDocument();
    doc["runs"][0]["timeline"]["total"][2] = nullptr;
    EXPECT_EQ(rejectionOf(doc), "runs[0].timeline.total[2]: expected an integer, got null");
}

TEST(ResultsJson, RejectsImpossibleValues) {
    Json doc = sampleDocument();
    doc["runs"][0]["breakdown"]["gradients"] = -1;
    EXPECT_EQ(rejectionOf(doc),
              "runs[0].breakdown.gradients: expected a non-negative integer, got -1");
    doc = sampleDocument();
    doc["runs"][0]["metrics"]["step_ms"] = -3.0;
    EXPECT_EQ(rejectionOf(doc),
              "runs[0].metrics.step_ms: expected a duration of 0 ms or more, got -3.0");
    doc = sampleDocument();
    doc["runs"][0]["metrics"]["peak_bytes"] = 18446744073709551615ull;
    EXPECT_EQ(rejectionOf(doc),
              "runs[0].metrics.peak_bytes: integer 18446744073709551615 is too large");
    doc = sampleDocument();
    doc["runs"][0]["config"]["depth"] = 0;
    EXPECT_CONTAINS(rejectionOf(doc), "runs[0].config.depth: depth must be between 1 and 512");
    doc = sampleDocument();
    doc["runs"][0]["config"]["block"] = "rnn";
    EXPECT_EQ(rejectionOf(doc),
              "runs[0].config.block: unknown value \"rnn\" (expected ffn, transformer or llama)");
    doc = sampleDocument();
    doc["runs"][0]["config"]["seed"] = -1;
    EXPECT_EQ(rejectionOf(doc), "runs[0].config.seed: expected a non-negative integer, got -1");
    doc = sampleDocument();
    doc["runs"][0]["strategy"] = "";
    EXPECT_CONTAINS(rejectionOf(doc), "runs[0].strategy: expected a strategy name");
    // A run's strategy is parsed for its own model, once, here: a text that is not one (a
    // hand edit, damage) refuses the file, naming the field and the syntax.
    doc = sampleDocument();
    doc["runs"][1]["strategy"] = "every:9";  // that run is 4 blocks deep
    EXPECT_EQ(rejectionOf(doc),
              "runs[1].strategy: expected a strategy of this run's model, got \"every:9\": "
              "every:N needs N between 1 and 4 for depth 4 (got 9)");
    doc = sampleDocument();
    doc["runs"][0]["strategy"] = "everyother";
    EXPECT_CONTAINS(rejectionOf(doc),
                    "runs[0].strategy: expected a strategy of this run's model, got "
                    "\"everyother\": unknown strategy \"everyother\" (known: none, full, every:N");
    doc = sampleDocument();
    doc["runs"][1]["strategy"] = "attn";  // a transformer sub-block on an ffn model
    EXPECT_CONTAINS(rejectionOf(doc), "runs[1].strategy: expected a strategy of this run's model");
    doc = sampleDocument();
    doc["runs"][0]["blocks"][1]["block"] = 6;  // depth is 6
    EXPECT_EQ(rejectionOf(doc), "runs[0].blocks[1].block: expected an integer from 0 to 5, got 6");
    doc = sampleDocument();
    doc["runs"][0]["blocks"][0]["phase"] = "loss";
    EXPECT_EQ(rejectionOf(doc),
              "runs[0].blocks[0].phase: expected forward or recompute, got \"loss\"");
    doc = sampleDocument();
    doc["runs"][0]["phases"][0]["phase"] = "sleep";
    EXPECT_CONTAINS(rejectionOf(doc), "runs[0].phases[0].phase: unknown phase \"sleep\"");
}

TEST(ResultsJson, RejectsBrokenTimelines) {
    Json doc = sampleDocument();
    doc["runs"][0]["timeline"]["delta"].erase(1);
    EXPECT_EQ(rejectionOf(doc), "runs[0].timeline.delta: has 3 values but t_ms has 4");
    doc = sampleDocument();
    doc["runs"][0]["timeline"]["phase"][1] = 9;
    EXPECT_EQ(rejectionOf(doc),
              "runs[0].timeline.phase[1]: expected an integer from 0 to 5, got 9");
    doc = sampleDocument();
    doc["runs"][0]["timeline"]["block"][3] = -2;
    EXPECT_EQ(rejectionOf(doc),
              "runs[0].timeline.block[3]: expected an integer from -1 to 5, got -2");
    doc = sampleDocument();
    doc["runs"][0]["timeline"]["phase_codes"] = Json::array();
    EXPECT_EQ(rejectionOf(doc),
              "runs[0].timeline.phase_codes: is empty but the timeline has events");

    // The legend stored in the file decides what the codes mean.
    doc = sampleDocument();
    doc["runs"][0]["timeline"]["phase_codes"] = Json::parse(R"(["backward", "loss"])");
    doc["runs"][0]["timeline"]["phase"] = Json::parse("[0, 1, 1, 0]");
    const ResultSet loaded = resultsFromJson(doc.dump());
    EXPECT_EQ(loaded.runs[0].timeline[0].phase, Phase::Backward);
    EXPECT_EQ(loaded.runs[0].timeline[2].phase, Phase::Loss);
}

// Every leaf of a good document, swapped for a value of the wrong type or removed, must be
// refused with a message that starts with its place in the document.
TEST(ResultsJson, EveryFieldIsCheckedWithItsPath) {
    const Json good = sampleDocument();
    const Json flat = good.flatten();
    int checked = 0;
    for (const auto& [pointer, value] : flat.items()) {
        if (pointer == "/schema") continue;
        const Json::json_pointer ptr(pointer);
        std::string path;  // "/runs/0/metrics/peak_bytes" -> "runs[0].metrics.peak_bytes"
        std::string previous, beforePrevious;
        for (std::string rest = pointer; !rest.empty();) {
            const auto next = rest.find('/', 1);
            const std::string token = rest.substr(1, next == std::string::npos ? next : next - 1);
            rest = next == std::string::npos ? "" : rest.substr(next);
            const bool index = token.find_first_not_of("0123456789") == std::string::npos;
            // The allocator trace's rows are named by their columns: blocks[3].offset.
            const bool row = beforePrevious == "segments" || beforePrevious == "blocks";
            if (index && row && path.find("allocator_trace") != std::string::npos) {
                const std::string trace = pointer.substr(0, pointer.find("allocator_trace") + 15);
                const Json& header =
                    good[Json::json_pointer(trace)]
                        [beforePrevious == "blocks" ? "block_columns" : "segment_columns"];
                path += "." + header[std::stoul(token)].get<std::string>();
            } else {
                path += index ? "[" + token + "]" : (path.empty() ? "" : ".") + token;
            }
            beforePrevious = previous;
            previous = token;
        }
        Json doc = good;
        doc[ptr] = Json::object({{"x", 1}});
        const std::string message = rejectionOf(doc);
        EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << pointer << " -> " << message;

        Json parent = good[ptr.parent_pointer()];
        // Keys added after schema 1 shipped may be absent, so older files still open.
        const bool optional =
            ptr.back() == "prediction" || ptr.back() == "schedule" ||
            ptr.back() == "forward_counts" || ptr.back() == "optimal_step_ms" ||
            ptr.back() == "predicted_frontier" || ptr.back() == "memory_limit_mib" ||
            ptr.back() == "note" || ptr.back() == "out_of_memory" || ptr.back() == "notes" ||
            ptr.back() == "allocator" || ptr.back() == "allocator_trace" ||
            ptr.back() == "unlisted_blocks" || ptr.back() == "minor_faults_per_step" ||
            ptr.back() == "reserved_peak_bytes";
        if (parent.is_object() && !optional) {
            doc = good;
            doc[ptr.parent_pointer()].erase(ptr.back());
            const std::string parentPath = path.substr(0, path.rfind('.'));
            const std::string expected =
                (parentPath == path ? "" : parentPath + ": ") + "missing \"" + ptr.back() + "\"";
            EXPECT_EQ(rejectionOf(doc), expected) << pointer;
        }
        ++checked;
    }
    EXPECT_GT(checked, 100);
}

// The caching allocator's keys: written only when set (a run under the system allocator, and
// every older file, has none), read back exactly; the older "cuda_allocator" reads as CUDA's;
// what the program could not have written is refused with its place.
TEST(ResultsJson, AllocatorKeysRoundTripAndImpossibleTracesAreRefused) {
    ResultSet plain = sampleResults();
    for (RunResult& run : plain.runs) {
        run.allocator.reset();
        run.allocator_trace.reset();
        run.metrics.minor_faults_per_step.reset();
        if (run.prediction) run.prediction->reserved_peak_bytes.reset();
    }
    const std::string plainText = resultsToJson(plain);
    for (const char* key : {"\"allocator\": {", "allocator_trace", "cuda_allocator",
                            "minor_faults_per_step", "reserved_peak_bytes"})
        EXPECT_EQ(plainText.find(key), std::string::npos) << key;

    const Json good = sampleDocument();
    const Json& trace = good["runs"][0]["allocator_trace"];
    EXPECT_EQ(trace["blocks"][1], Json::parse("[1, 1048576, 4194304, 4194300, 0.25, 1.5, 1, 0]"));
    EXPECT_EQ(trace["segments"][0], Json::parse("[2097152, true, null, null]"));
    EXPECT_EQ(good["runs"][0]["allocator"]["source"], "caching-model");
    EXPECT_EQ(good["runs"][0]["metrics"]["minor_faults_per_step"], 12998.5);
    EXPECT_EQ(good["runs"][0]["prediction"]["reserved_peak_bytes"], 148897792);

    // A file from before the CPU model: CUDA's counts under their old name, no source.
    Json older = good;
    Json stats = older["runs"][0]["allocator"];
    stats.erase("source");
    older["runs"][0].erase("allocator");
    older["runs"][0]["cuda_allocator"] = stats;
    const ResultSet loaded = resultsFromJson(older.dump());
    ASSERT_TRUE(loaded.runs[0].allocator);
    EXPECT_EQ(loaded.runs[0].allocator->source, AllocatorSource::Cuda);
    EXPECT_EQ(loaded.runs[0].allocator->reserved_peak, 148897792);
    older["runs"][0]["allocator"] = good["runs"][0]["allocator"];
    EXPECT_CONTAINS(rejectionOf(older), "runs[0].cuda_allocator: ");

    const auto refused = [&](const char* pointer, const Json& value) {
        Json doc = good;
        doc[Json::json_pointer(pointer)] = value;
        return rejectionOf(doc);
    };
    EXPECT_EQ(refused("/runs/0/allocator_trace/blocks/3/2", -1536),
              "runs[0].allocator_trace.blocks[3].size: expected an integer from 1 to "
              "9007199254740992, got -1536");
    EXPECT_EQ(refused("/runs/0/allocator_trace/segments/1/0", -5),
              "runs[0].allocator_trace.segments[1].size: expected an integer from 1 to "
              "9007199254740992, got -5");
    EXPECT_EQ(refused("/runs/0/allocator_trace/blocks/3/1", 2097152 - 1024),
              "runs[0].allocator_trace.blocks[3].offset: a block of 1536 bytes at 2096128 ends "
              "past its segment 0 of 2097152 bytes");
    EXPECT_EQ(refused("/runs/0/allocator_trace/blocks/1/0", 3),
              "runs[0].allocator_trace.blocks[1].segment: expected an integer from 0 to 2, got 3");
    EXPECT_EQ(refused("/runs/0/allocator_trace/blocks/1/3", 4194305),
              "runs[0].allocator_trace.blocks[1].requested: expected an integer from 1 to "
              "4194304, got 4194305");
    EXPECT_EQ(refused("/runs/0/allocator_trace/blocks/1/5", 0.125),
              "runs[0].allocator_trace.blocks[1].freed_ms: expected allocated_ms (0.25) or "
              "later, got 0.125");
    EXPECT_EQ(refused("/runs/0/allocator_trace/blocks/2/7", 6),
              "runs[0].allocator_trace.blocks[2].block: expected an integer from -1 to 5, got 6");
    EXPECT_EQ(refused("/runs/0/allocator_trace/blocks/2", Json::parse("[2, 0, 512]")),
              "runs[0].allocator_trace.blocks[2]: expected 8 values, got 3");
    EXPECT_EQ(refused("/runs/0/allocator_trace/block_columns/1", "address"),
              "runs[0].allocator_trace.block_columns[1]: expected \"offset\": the columns are "
              "[\"segment\",\"offset\",\"size\",\"requested\",\"allocated_ms\",\"freed_ms\","
              "\"phase\",\"block\"]");
    EXPECT_EQ(refused("/runs/0/allocator/allocated_peak", 100),
              "runs[0].allocator.allocated_peak: expected at least allocated_start (8806400), "
              "got 100");
    EXPECT_EQ(refused("/runs/0/allocator/reserved_start", 100),
              "runs[0].allocator.reserved_start: expected at least allocated_start (8806400), "
              "got 100");
    EXPECT_EQ(refused("/runs/0/allocator/source", "jemalloc"),
              "runs[0].allocator.source: unknown value \"jemalloc\" (expected \"cuda\" or "
              "\"caching-model\")");
    EXPECT_CONTAINS(refused("/runs/0/metrics/minor_faults_per_step", -1),
                    "runs[0].metrics.minor_faults_per_step: expected a finite number of 0 or "
                    "more");
    EXPECT_CONTAINS(refused("/runs/0/allocator_trace/unlisted_blocks", 0),
                    "runs[0].allocator_trace.unlisted_blocks: ");
}

TEST(ResultsJson, TruncatedOrDamagedTextNeverEscapesAsAnotherError) {
    const std::string text = resultsToJson(sampleResults());
    EXPECT_CONTAINS(rejection(text.substr(0, text.size() / 2)), "is the file truncated?");
    for (std::size_t cut = 0; cut < text.size(); cut += 7) {
        EXPECT_THROW(resultsFromJson(text.substr(0, cut)), ResultsFileError) << "cut " << cut;
    }
    for (std::size_t at = 0; at < text.size(); at += 5) {
        std::string damaged = text;
        damaged[at] = static_cast<char>(damaged[at] ^ 0x5a);
        try {
            resultsFromJson(damaged);
        } catch (const ResultsFileError&) {
        } catch (const std::exception& e) {
            ADD_FAILURE() << "byte " << at << " gave " << e.what();
        }
    }
}

TEST(ResultsJson, DeepNestingIsRefusedWithoutCrashing) {
    const std::string deep = std::string(200000, '[') + std::string(200000, ']');
    EXPECT_EQ(rejection(deep),
              "not a Checkpoint Lab results file: the top level is an array, not an object");
    const std::string deepRuns = R"({"schema":"ckptlab.results/1","environment":)" +
                                 std::string(100000, '[') + std::string(100000, ']') + "}";
    EXPECT_EQ(rejection(deepRuns), "environment: expected an object, got an array");
}

// Every double the writer writes goes through its non-finite spelling: nlohmann alone would
// write NaN and Inf as null, which the reader refuses. The gradient check's difference and
// tolerance are NaN or +Inf when gradients are (core/src/engine/grad_check.cpp).
TEST(ResultsJson, NonFiniteDoublesAreWrittenAsStringsAndReadBack) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    ResultSet set = sampleResults();
    for (RunResult& run : set.runs) {
        Metrics& m = run.metrics;
        for (double* d :
             {&m.step_ms, &m.forward_ms, &m.backward_ms, &m.recompute_ms, &m.optimizer_ms}) {
            *d = nan;
        }
        m.step_samples_ms = {nan, inf, 1.0};
        run.grad_check.checked = true;
        run.grad_check.tolerance = inf;
        run.prediction = PredictedMetrics{1, 2, inf, nan};
    }
    set.runs[0].grad_check.max_abs_diff = nan;
    set.runs[1].grad_check.max_abs_diff = inf;
    set.predicted_frontier = {{1024, nan}, {2048, inf}};

    const std::string text = resultsToJson(set);
    // No number became null: the only null is the first run's absent error (and the allocator
    // trace's times outside the step, null by design).
    const Json doc = Json::parse(text);
    std::vector<std::string> nulls;
    const std::function<void(const Json&, const std::string&)> findNulls =
        [&](const Json& j, const std::string& at) {
            if (j.is_null() && at.find("/allocator_trace/") == std::string::npos)
                nulls.push_back(at);
            if (j.is_object())
                for (const auto& [key, value] : j.items()) findNulls(value, at + "/" + key);
            if (j.is_array())
                for (std::size_t i = 0; i < j.size(); ++i)
                    findNulls(j[i], at + "/" + std::to_string(i));
        };
    findNulls(doc, "");
    EXPECT_EQ(nulls, std::vector<std::string>{"/runs/0/error"});
    EXPECT_EQ(doc["runs"][0]["grad_check"]["max_abs_diff"], "nan");
    EXPECT_EQ(doc["runs"][1]["grad_check"]["max_abs_diff"], "inf");
    EXPECT_EQ(doc["runs"][0]["grad_check"]["tolerance"], "inf");
    EXPECT_EQ(doc["runs"][0]["grad_check"]["passed"], false);
    EXPECT_EQ(doc["runs"][0]["metrics"]["step_samples_ms"], Json::parse(R"(["nan","inf",1.0])"));
    EXPECT_EQ(doc["predicted_frontier"][1]["step_ms"], "inf");

    const ResultSet loaded = resultsFromJson(text);
    expectSameResults(set, loaded);
    EXPECT_TRUE(std::isnan(loaded.runs[0].grad_check.max_abs_diff));
    EXPECT_EQ(loaded.runs[1].grad_check.max_abs_diff, inf);
    EXPECT_FALSE(loaded.runs[0].grad_check.passed());
    EXPECT_FALSE(loaded.runs[1].grad_check.passed());
    EXPECT_TRUE(std::isnan(loaded.predicted_frontier[0].step_ms));
    EXPECT_EQ(resultsToJson(loaded), text);

    // A negative NaN is still "nan"; a negative difference or tolerance cannot be.
    set.runs[0].grad_check.max_abs_diff = -nan;
    EXPECT_EQ(Json::parse(resultsToJson(set))["runs"][0]["grad_check"]["max_abs_diff"], "nan");
    Json bad = Json::parse(text);
    bad["runs"][0]["grad_check"]["max_abs_diff"] = "-inf";
    EXPECT_EQ(
        rejectionOf(bad),
        "runs[0].grad_check.max_abs_diff: expected 0 or more (or \"nan\", \"inf\"), got -inf");
}

TEST(ResultsJson, RejectsDuplicateKeysNamingThem) {
    const std::string text = resultsToJson(sampleResults());
    std::string twice = text;
    twice.replace(twice.find("\"cancelled\": true"), 17,
                  "\"cancelled\": true, \"cancelled\": false");
    EXPECT_EQ(rejection(twice),
              "duplicate key \"cancelled\" (each key may appear once in an object)");
    twice = text;
    twice.replace(twice.find("\"peak_bytes\": 123456789"), 23,
                  "\"peak_bytes\": 1, \"peak_bytes\": 123456789");
    EXPECT_EQ(rejection(twice),
              "runs[0].metrics: duplicate key \"peak_bytes\" (each key may appear once in an "
              "object)");
    // In an object the reader ignores, too: the file is ambiguous either way.
    EXPECT_CONTAINS(rejection(R"({"schema": "ckptlab.results/1", "x": [{"a": 1, "a": 2}]})"),
                    "x[0]: duplicate key \"a\"");
}

TEST(ResultsJson, RejectsInvalidUtf8AndNulAtTheirByte) {
    std::string text = resultsToJson(sampleResults());
    const std::size_t at = text.find("Some CPU");
    std::string bad = text;
    bad[at] = '\xff';
    EXPECT_CONTAINS(rejection(bad), "not valid JSON at byte " + std::to_string(at + 1) + " (");
    EXPECT_CONTAINS(rejection(bad), "invalid UTF-8 (byte 0xff)");
    bad = text;
    bad.replace(at, 2, "\xc3\x28");  // a lead byte without its continuation
    EXPECT_CONTAINS(rejection(bad), "at byte " + std::to_string(at + 1) + " (");
    EXPECT_CONTAINS(rejection(bad), "invalid UTF-8 (byte 0xc3)");
    bad = text;
    bad.replace(at, 3, "\xed\xa0\x80");  // a UTF-16 surrogate, not a character
    EXPECT_CONTAINS(rejection(bad), "invalid UTF-8 (byte 0xed)");
    bad = text;
    bad[at] = '\0';
    EXPECT_CONTAINS(rejection(bad), "at byte " + std::to_string(at + 1) + " (");
    EXPECT_CONTAINS(rejection(bad), "a NUL byte");
    // Valid multi-byte text loads, and an escaped NUL is a character like any other.
    bad = text;
    bad.replace(at, 8, "\xc3\xbc \xe6\x97\xa5 \xf0\x9f\x99\x82 \\u0000");
    EXPECT_EQ(rejection(bad), "");
}

TEST(ResultsJson, RejectsNumbersOutsideWhatCanBeMeasured) {
    Json doc = sampleDocument();
    doc["runs"][0]["metrics"]["peak_bytes"] = (std::int64_t{1} << 53) + 1;
    EXPECT_EQ(rejectionOf(doc),
              "runs[0].metrics.peak_bytes: expected at most 2^53 bytes (8 PiB), "
              "got 9007199254740993");
    doc = sampleDocument();
    doc["runs"][0]["metrics"]["peak_bytes"] = std::int64_t{1} << 53;  // the largest accepted
    EXPECT_EQ(rejectionOf(doc), "");
    doc = sampleDocument();
    doc["runs"][0]["breakdown"]["other"] = std::numeric_limits<std::int64_t>::max();
    EXPECT_CONTAINS(rejectionOf(doc), "runs[0].breakdown.other: expected at most 2^53 bytes");
    doc = sampleDocument();
    doc["runs"][0]["metrics"]["step_ms"] = 2e12;
    EXPECT_EQ(
        rejectionOf(doc),
        "runs[0].metrics.step_ms: expected a duration of at most 1e12 ms, got 2000000000000.0");
    doc = sampleDocument();
    doc["runs"][0]["timeline"]["t_ms"][1] = "nan";
    EXPECT_EQ(rejectionOf(doc),
              "runs[0].timeline.t_ms[1]: expected a time from -1e12 to 1e12 ms, got nan");
    doc = sampleDocument();
    doc["runs"][0]["timeline"]["delta"][0] = std::numeric_limits<std::int64_t>::min();
    EXPECT_CONTAINS(rejectionOf(doc), "runs[0].timeline.delta[0]: expected an integer from");
    doc = sampleDocument();
    doc["runs"][0]["config"]["dropout"] = "nan";
    EXPECT_CONTAINS(rejectionOf(doc), "runs[0].config.dropout: dropout must be between 0 and 0.9");
    std::string text = resultsToJson(sampleResults());
    text.replace(text.find("\"step_ms\": 12.5"), 15, "\"step_ms\": 1e999");
    EXPECT_CONTAINS(rejection(text), "number overflow parsing '1e999'");
    text = resultsToJson(sampleResults());
    text.replace(text.find("\"peak_bytes\": 123456789"), 23,
                 "\"peak_bytes\": 123456789000000000000");
    EXPECT_EQ(rejection(text), "runs[0].metrics.peak_bytes: integer 1.23456789e+20 is too large");
}

TEST(ResultsJson, RejectsSchedulesThatDoNotDescribeTheModel) {
    Json doc = sampleDocument();
    doc["runs"][0]["schedule"] = "0 1 2 3";
    EXPECT_EQ(rejectionOf(doc), "runs[0].schedule: covers units 0..3 but the model has 12 units");
    doc["runs"][0]["schedule"] = "0 1 2 3 4 5 6 7 8 9 10 11 999999";
    EXPECT_CONTAINS(rejectionOf(doc), "runs[0].schedule: schedule: units must run 0, 1, 2");
    doc["runs"][0]["schedule"] = "ckpt[0,5){0}";
    EXPECT_CONTAINS(rejectionOf(doc), "runs[0].schedule: schedule: checkpoint body must cover");
    // Nested deeper than there are units: refused before the (recursive) parser sees it.
    std::string deep;
    for (int i = 0; i < 100000; ++i) deep += "ckpt[0,12){";
    deep += "0 1 2 3 4 5 6 7 8 9 10 11" + std::string(100000, '}');
    doc["runs"][0]["schedule"] = deep;
    EXPECT_EQ(rejectionOf(doc),
              "runs[0].schedule: checkpoints nested more than 12 deep, deeper "
              "than the model has units");
    doc = sampleDocument();
    doc["runs"][0]["forward_counts"] = Json::array({1, 2});
    EXPECT_EQ(rejectionOf(doc), "runs[0].forward_counts: has 2 values but the model has 12 units");
}

TEST(ResultsJson, RejectsMoreRunsThanASweepMakesWhileParsing) {
    // 10,001 minimal runs: refused at the first one too many, without reading every run.
    Json run = sampleDocument()["runs"][1];
    std::string text = R"({"schema": "ckptlab.results/1", "runs": [)";
    const std::string one = run.dump();
    for (int i = 0; i < 10001; ++i) text += (i ? "," : "") + one;
    text += "]}";
    EXPECT_EQ(rejection(text), "runs: more than 10000 runs; a results file holds at most 10000");
}

TEST(ResultsJson, NamesFilesFromANewerVersion) {
    Json doc = sampleDocument();
    doc["schema"] = "ckptlab.results/2";
    EXPECT_EQ(rejectionOf(doc),
              "unsupported schema \"ckptlab.results/2\" (expected "
              "ckptlab.results/1): the file is from a newer Checkpoint Lab");
    doc["schema"] = "ckptlab.results/1\nsecond line";  // echoed on one line
    EXPECT_EQ(rejectionOf(doc),
              "unsupported schema \"ckptlab.results/1?second line\" (expected "
              "ckptlab.results/1)");
}

TEST(ResultsJson, CutOffTextIsReportedWithoutParsingIt) {
    const std::string text = resultsToJson(sampleResults());
    const std::string cut = text.substr(0, 1000);
    const std::string message = rejection(cut);
    EXPECT_CONTAINS(message, "not valid JSON at byte 1000 (line ");
    EXPECT_CONTAINS(message, "is the file truncated?");
    EXPECT_CONTAINS(rejection(text + "x"), "the text ends without the '}'");
    EXPECT_EQ(rejection("\xEF\xBB\xBF" + text), "");  // a byte order mark is fine
}

// ---------------------------------------------------------------- files

TEST(ResultsFiles, LoadReportsFileProblems) {
    TempDir dir;
    const std::string missing = dir.file("missing.json");
    try {
        loadResults(missing);
        FAIL() << "loaded a missing file";
    } catch (const ResultsFileError& e) {
        EXPECT_EQ(std::string(e.what()), "cannot open " + missing + ": No such file or directory");
    }
    const std::string empty = dir.file("empty.json");
    writeText(empty, "");
    try {
        loadResults(empty);
        FAIL() << "loaded an empty file";
    } catch (const ResultsFileError& e) {
        EXPECT_EQ(std::string(e.what()), empty + ": the file is empty");
    }
    const std::string cut = dir.file("cut.json");
    const std::string text = resultsToJson(sampleResults());
    writeText(cut, text.substr(0, text.size() - 40));
    try {
        loadResults(cut);
        FAIL() << "loaded a truncated file";
    } catch (const ResultsFileError& e) {
        EXPECT_CONTAINS(e.what(), cut + ": not valid JSON at byte");
        EXPECT_CONTAINS(e.what(), "truncated");
    }
    try {
        loadResults(dir.file(""));
        FAIL() << "loaded a directory";
    } catch (const ResultsFileError& e) {
        EXPECT_CONTAINS(e.what(), "it is a directory");
    }
    // A device never ends: refused before reading.
    try {
        loadResults("/dev/zero");
        FAIL() << "loaded /dev/zero";
    } catch (const ResultsFileError& e) {
        EXPECT_EQ(std::string(e.what()), "cannot open /dev/zero: not a regular file");
    }
}

TEST(ResultsFiles, SaveReportsFileProblemsAndLeavesNoTemporary) {
    TempDir dir;
    const std::string nowhere = dir.file("no-such-dir/results.json");
    try {
        saveResults(sampleResults(), nowhere);
        FAIL() << "saved into a missing directory";
    } catch (const ResultsFileError& e) {
        EXPECT_EQ(std::string(e.what()), "cannot write " + nowhere + ": No such file or directory");
    }
    // Renaming over a directory fails after the temporary is written: it must be cleaned up.
    const std::string directory = dir.file("taken");
    fs::create_directory(directory);
    EXPECT_THROW(saveResults(sampleResults(), directory), ResultsFileError);
    EXPECT_FALSE(fs::exists(directory + ".tmp"));
    EXPECT_THROW(saveSummaryCsv(sampleResults(), ""), ResultsFileError);
    EXPECT_THROW(saveChromeTrace(sampleResults(), nowhere), ResultsFileError);
}

// A symbolic link is written through to its target and stays a link; a replaced file keeps its
// permission bits; a new one gets 0666 less the umask; a name that is not UTF-8 is kept.
TEST(ResultsFiles, AtomicWritesKeepLinksPermissionsAndNames) {
    TempDir dir;
    const auto mode = [](const std::string& path) {
        return fs::status(path).permissions() & fs::perms::mask;
    };
    fs::create_directory(dir.file("real"));
    const std::string target = dir.file("real/r.csv");
    std::ofstream(target) << "old\n";
    fs::permissions(
        target, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);  // 0640
    const std::string link = dir.file("r.csv");
    fs::create_symlink("real/r.csv", link);  // relative to the link's folder
    saveSummaryCsv(sampleResults(), link);
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(readText(target).rfind("strategy,", 0), 0u) << readText(target);
    EXPECT_EQ(mode(target), fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);

    // A plain file its owner made 0604 stays 0604 when replaced.
    const std::string plain = dir.file("plain.json");
    std::ofstream(plain) << "old\n";
    fs::permissions(plain, fs::perms(0604));
    saveResults(sampleResults(), plain);
    EXPECT_EQ(mode(plain), fs::perms(0604));
    EXPECT_EQ(loadResults(plain).runs.size(), sampleResults().runs.size());

    // A dangling link: its target is created.
    const std::string dangling = dir.file("t.json");
    fs::create_symlink(dir.file("real/new-trace.json"), dangling);
    saveChromeTrace(sampleResults(), dangling);
    EXPECT_TRUE(fs::is_symlink(dangling));
    EXPECT_NE(readText(dir.file("real/new-trace.json")).find("traceEvents"), std::string::npos);

    // New files under two umasks.
    for (const auto& [mask, expected] :
         {std::pair{mode_t(027), fs::perms(0640)}, std::pair{mode_t(002), fs::perms(0664)}}) {
        const mode_t previous = ::umask(mask);
        const std::string fresh = dir.file("new-" + std::to_string(mask) + ".json");
        saveResults(sampleResults(), fresh);
        ::umask(previous);
        EXPECT_EQ(mode(fresh), expected) << "umask " << mask;
    }

    // Latin-1 "café": the byte 0xE9, not UTF-8, written under exactly that name.
    const std::string latin = dir.file("caf\xe9.json");
    saveResults(sampleResults(), latin);
    EXPECT_TRUE(fs::is_regular_file(latin));
    for (const auto& entry : fs::directory_iterator(dir.file("")))
        EXPECT_EQ(entry.path().filename().string().find("\xef\xbf\xbd"), std::string::npos)
            << "a name was rewritten to U+FFFD";
    // Nothing temporary left behind.
    for (const auto& entry : fs::recursive_directory_iterator(dir.file("")))
        EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << entry.path();
}

// ---------------------------------------------------------------- CSV

TEST(SummaryCsv, HeaderRowsAndQuoting) {
    ResultSet set;
    RunResult none;
    none.strategy = test::strategy("none");
    none.config.seq = 512;  // fixed here so the expected text does not follow the defaults
    none.metrics.peak_bytes = static_cast<std::int64_t>(100 * kMiB);
    none.metrics.activation_bytes = static_cast<std::int64_t>(80 * kMiB);
    none.metrics.step_ms = 200;
    none.grad_check = {true, 0.0, 1e-6};
    RunResult every = none;
    every.strategy = test::strategy("every:2");
    every.metrics.peak_bytes = static_cast<std::int64_t>(40 * kMiB);
    every.metrics.activation_bytes = static_cast<std::int64_t>(10.5 * kMiB);
    every.metrics.step_ms = 250;
    every.grad_check.max_abs_diff = 3.5e-3;
    every.prediction = PredictedMetrics{static_cast<std::int64_t>(42 * kMiB), 0, 200.0, 180.0};
    every.metrics.gflop_per_s = 12.5;
    // The caching allocator's counts and the forecast's, in bytes; page faults per step.
    every.allocator =
        AllocatorStats{AllocatorSource::CachingModel, 10485760, 52428800, 12582912, 62914560};
    every.prediction->reserved_peak_bytes = 65011712;
    every.metrics.minor_faults_per_step = 3.5;
    RunResult failed = none;
    failed.strategy = test::strategy("from:10");
    failed.config.block = BlockKind::Transformer;
    failed.config.dtype = DType::BFloat16;
    failed.grad_check = {};
    failed.error = "out of memory: \"big\"\nsecond line";
    set.runs = {none, every, failed};

    const std::string csv = summaryCsv(set);
    const std::string expected =
        "strategy,peak_mib,activations_mib,step_ms,memory_saved_pct,time_added_pct,"
        "saved_per_added,predicted_peak_mib,peak_error_pct,predicted_step_ms,step_error_pct,"
        "optimal_step_ms,slower_than_optimal_pct,grad_check,max_abs_diff,error,block,depth,width,"
        "seq,batch,dtype,device,gflop_per_s,step_ci_low_ms,step_ci_high_ms,step_ci_95,"
        "step_cv_pct,step_fastest_ms,step_cpu_ms,time_added_low_pct,time_added_high_pct,"
        "time_within_noise,reserved_start_bytes,reserved_peak_bytes,"
        "predicted_reserved_peak_bytes,minor_faults_per_step\n"
        "none,100.000,80.000,200.000,0.00,0.00,,,,,,,,pass,0,,ffn,20,256,512,2,float32,cpu,"
        ",,,,,200.000,,,,,,,,\n"
        "every:2,40.000,10.500,250.000,60.00,25.00,2.400,42.000,5.00,200.000,-20.00,180.000,"
        "11.11,fail,0.0035,,ffn,20,256,512,2,float32,cpu,12.50,,,,,250.000,,,,,"
        "12582912,62914560,65011712,3.5\n"
        "from:10,100.000,80.000,200.000,,,,,,,,,,not checked,,"
        "\"out of memory: \"\"big\"\"\nsecond line\",transformer,20,256,512,2,bfloat16,cpu,"
        ",,,,,,,,,,,,,\n";
    EXPECT_EQ(csv, expected);

    TempDir dir;
    const std::string path = dir.file("summary.csv");
    saveSummaryCsv(set, path);
    EXPECT_EQ(readText(path), expected);
}

// ---------------------------------------------------------------- Chrome trace

namespace {

std::vector<Json> eventsOf(const Json& trace, int pid, const std::string& ph) {
    std::vector<Json> found;
    for (const Json& e : trace["traceEvents"]) {
        if (e["pid"] == pid && e["ph"] == ph) found.push_back(e);
    }
    return found;
}

const Json* named(const std::vector<Json>& events, const std::string& name) {
    for (const Json& e : events) {
        if (e["name"] == name) return &e;
    }
    return nullptr;
}

}  // namespace

TEST(ChromeTrace, CountersAndSlicesWithMicrosecondTimes) {
    const ResultSet set = sampleResults();
    const Json trace = Json::parse(chromeTraceJson(set));
    EXPECT_EQ(trace["displayTimeUnit"], "ms");
    ASSERT_TRUE(trace["traceEvents"].is_array());

    const auto meta = eventsOf(trace, 1, "M");
    ASSERT_NE(named(meta, "process_name"), nullptr);
    EXPECT_EQ((*named(meta, "process_name"))["args"]["name"], "every:2");
    EXPECT_EQ((*named(eventsOf(trace, 2, "M"), "process_name"))["args"]["name"], "full");

    const auto counters = eventsOf(trace, 1, "C");
    ASSERT_EQ(counters.size(), set.runs[0].timeline.size());
    EXPECT_EQ(counters[2]["name"], "allocated");
    EXPECT_DOUBLE_EQ(counters[2]["ts"].get<double>(), 1250.0);
    EXPECT_DOUBLE_EQ(counters[2]["args"]["MiB"].get<double>(), 11264.0 / kMiB);
    EXPECT_DOUBLE_EQ(counters[0]["ts"].get<double>(), 1.0);

    const auto slices = eventsOf(trace, 1, "X");
    ASSERT_EQ(slices.size(), set.runs[0].phases.size() + set.runs[0].blocks.size());
    const Json* forward = named(slices, "forward block 0");
    ASSERT_NE(forward, nullptr);
    EXPECT_EQ((*forward)["cat"], "forward");
    EXPECT_EQ((*forward)["tid"], 1);
    EXPECT_DOUBLE_EQ((*forward)["ts"].get<double>(), 0.0);
    EXPECT_DOUBLE_EQ((*forward)["dur"].get<double>(), 400.0);
    const Json* loss = named(slices, "loss");
    ASSERT_NE(loss, nullptr);
    EXPECT_EQ((*loss)["cat"], "loss");
    EXPECT_DOUBLE_EQ((*loss)["ts"].get<double>(), 400.0);
    EXPECT_DOUBLE_EQ((*loss)["dur"].get<double>(), 200.0);
    ASSERT_NE(named(slices, "backward block 5"), nullptr);

    const Json* kept = named(slices, "block 0 activations (forward)");
    ASSERT_NE(kept, nullptr);
    EXPECT_EQ((*kept)["tid"], 2);
    EXPECT_EQ((*kept)["cat"], "activations");
    EXPECT_DOUBLE_EQ((*kept)["ts"].get<double>(), 500.0);
    EXPECT_DOUBLE_EQ((*kept)["dur"].get<double>(), 9000.0);
    EXPECT_EQ((*kept)["args"]["bytes"], 4096);
    const Json* again = named(slices, "block 4 activations (recompute)");
    ASSERT_NE(again, nullptr);
    EXPECT_EQ((*again)["tid"], 2);  // nested inside block 0's lifetime
    EXPECT_DOUBLE_EQ((*again)["dur"].get<double>(), 500.0);

    EXPECT_TRUE(eventsOf(trace, 2, "C").empty());
    EXPECT_TRUE(eventsOf(trace, 2, "X").empty());
}

TEST(ChromeTrace, CrossingLifetimesMoveToAnotherThread) {
    ResultSet set;
    RunResult run;
    run.strategy = test::strategy("none");
    run.blocks = {{0, Phase::Forward, 1.0, 5.0, 10},
                  {1, Phase::Forward, 2.0, 8.0, 10},
                  {2, Phase::Forward, 3.0, 4.0, 10}};
    set.runs = {run};
    const Json trace = Json::parse(chromeTraceJson(set));
    const auto slices = eventsOf(trace, 1, "X");
    ASSERT_EQ(slices.size(), 3u);
    EXPECT_EQ((*named(slices, "block 0 activations (forward)"))["tid"], 2);
    EXPECT_EQ((*named(slices, "block 1 activations (forward)"))["tid"], 102);
    EXPECT_EQ((*named(slices, "block 2 activations (forward)"))["tid"], 2);
    int threadNames = 0;
    for (const Json& e : eventsOf(trace, 1, "M")) threadNames += e["name"] == "thread_name";
    EXPECT_EQ(threadNames, 2);
}

TEST(ChromeTrace, SavedFileMatchesText) {
    TempDir dir;
    const std::string path = dir.file("trace.json");
    saveChromeTrace(sampleResults(), path);
    EXPECT_EQ(readText(path), chromeTraceJson(sampleResults()));
}
