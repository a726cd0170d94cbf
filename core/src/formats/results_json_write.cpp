// Results as JSON (schema "ckptlab.results/1"): writing. Reading is in results_json_read.cpp.
//
// Layout notes beyond the obvious field names:
// - Non-finite doubles (a NaN gradient difference, say) have no JSON number, so every double
//   goes through number(), which writes them as the strings "nan", "inf" and "-inf"; the
//   reader reads them back where a run can hold them (durations, the gradient check).
// - Keys added after schema 1 first shipped are optional on reading ("prediction", "schedule",
//   "forward_counts", "predicted_frontier" and the ones below). The newest are written only
//   when they hold something, so other files read exactly as before: the config's optional
//   keys ("memory_limit_mib", "kv_heads", ...: config_json.cpp, by config_fields.h), the
//   gradient check's "note", a run's "out_of_memory" and the set's "notes"; a shard's and a
//   merged file's keys ("shard", "merged", "machines", "machine_baselines", a run's "shard" and
//   "machine": shard_json.h); the caching allocator's "allocator" (once "cuda_allocator") and
//   "allocator_trace" (allocator_json.h), "metrics.minor_faults_per_step" and
//   "prediction.reserved_peak_bytes"; a lesson's plan step's "plan" (full_size_json.h: the
//   object `plan --capacity --json` writes, with "run_config"), in a file whose "runs" is empty.
// - The timeline is stored as columns (t_ms, delta, total, phase, block) because it can hold
//   hundreds of thousands of events. Its "phase" column holds small integers that index the
//   "phase_codes" list stored beside it, so the file explains itself.
// - A "block" (timeline, spans, lifetimes, allocator trace, out of memory) is 0..depth-1, -1
//   for none (loss, optimizer), and, in a run whose config has "vocab", -2 for the token
//   embedding and -3 for the final norm, LM head and loss (result.h); a reader of an older
//   schema-1 file never meets those, and this reader refuses them in a run without "vocab".
#include "ckptlab/formats/results_io.h"

#include <cmath>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ckptlab/model/config.h"
#include "formats/allocator_json.h"
#include "formats/config_json.h"
#include "formats/file_io.h"
#include "formats/full_size_json.h"
#include "formats/shard_json.h"
#include "formats/timing_json.h"

namespace ckptlab {

namespace {

using OrderedJson = nlohmann::ordered_json;

constexpr Phase kAllPhases[] = {Phase::Idle,      Phase::Forward,  Phase::Loss,
                                Phase::Recompute, Phase::Backward, Phase::Optimizer};

OrderedJson number(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    return value;
}

OrderedJson environmentJson(const Environment& e) {
    OrderedJson environment{{"ckptlab_version", e.ckptlab_version},
                            {"libtorch_version", e.libtorch_version},
                            {"device", e.device},
                            {"device_name", e.device_name},
                            {"dtype", e.dtype},
                            {"threads", e.threads},
                            {"blas", e.blas},
                            {"cuda_compiled", e.cuda_compiled},
                            {"created_utc", e.created_utc}};
    if (!e.malloc_tunables.empty()) environment["malloc_tunables"] = e.malloc_tunables;
    if (const auto& kernel = e.blas_kernel) {
        OrderedJson k{{"name", kernel->name}, {"chosen_by", toString(kernel->chosen_by)}};
        if (!kernel->replaced.empty()) k["replaced"] = kernel->replaced;
        if (!kernel->better.empty()) k["better"] = kernel->better;
        environment["blas_kernel"] = std::move(k);
    }
    detail::writeMachineLoad(e, environment);  // timing_json.cpp, like the other issue-11 keys
    return environment;
}

OrderedJson metricsJson(const Metrics& m) {
    OrderedJson samples = OrderedJson::array();
    for (double sample : m.step_samples_ms) samples.push_back(number(sample));
    OrderedJson metrics{{"peak_bytes", m.peak_bytes},
                        {"activation_bytes", m.activation_bytes},
                        {"baseline_bytes", m.baseline_bytes},
                        {"step_ms", number(m.step_ms)},
                        {"forward_ms", number(m.forward_ms)},
                        {"backward_ms", number(m.backward_ms)},
                        {"recompute_ms", number(m.recompute_ms)},
                        {"optimizer_ms", number(m.optimizer_ms)},
                        {"recomputed_blocks", m.recomputed_blocks},
                        {"step_samples_ms", std::move(samples)}};
    // Only when set (flops.h), so files without them read as they always did.
    if (m.step_gflop) metrics["step_gflop"] = number(*m.step_gflop);
    if (m.gflop_per_s) metrics["gflop_per_s"] = number(*m.gflop_per_s);
    if (m.minor_faults_per_step) metrics["minor_faults_per_step"] = *m.minor_faults_per_step;
    detail::writeStepSpread(m, metrics);  // rounds, interval, CV, CPU time (timing_json.cpp)
    return metrics;
}

OrderedJson breakdownJson(const Breakdown& b) {
    OrderedJson j{{"parameters", b.parameters},           {"input", b.input},
                  {"optimizer_state", b.optimizer_state}, {"gradients", b.gradients},
                  {"activations", b.activations},         {"other", b.other}};
    // Written only when there are any, so files of chains without them read as before.
    if (b.weight_copies > 0) j["weight_copies"] = b.weight_copies;
    if (b.logits > 0) j["logits"] = b.logits;
    return j;
}

OrderedJson timelineJson(const std::vector<TimelineEvent>& events) {
    OrderedJson codes = OrderedJson::array();
    for (Phase phase : kAllPhases) codes.push_back(toString(phase));
    OrderedJson t = OrderedJson::array(), delta = OrderedJson::array(),
                total = OrderedJson::array(), phase = OrderedJson::array(),
                block = OrderedJson::array();
    for (const TimelineEvent& e : events) {
        t.push_back(number(e.t_ms));
        delta.push_back(e.delta);
        total.push_back(e.total);
        phase.push_back(static_cast<int>(e.phase));
        block.push_back(e.block);
    }
    return OrderedJson{{"phase_codes", std::move(codes)}, {"t_ms", std::move(t)},
                       {"delta", std::move(delta)},       {"total", std::move(total)},
                       {"phase", std::move(phase)},       {"block", std::move(block)}};
}

OrderedJson runJson(const RunResult& run) {
    OrderedJson blocks = OrderedJson::array();
    for (const BlockLifetime& b : run.blocks) {
        blocks.push_back(OrderedJson{{"block", b.block},
                                     {"phase", toString(b.phase)},
                                     {"saved_ms", number(b.saved_ms)},
                                     {"freed_ms", number(b.freed_ms)},
                                     {"bytes", b.bytes}});
    }
    OrderedJson phases = OrderedJson::array();
    for (const PhaseSpan& s : run.phases) {
        phases.push_back(OrderedJson{{"phase", toString(s.phase)},
                                     {"block", s.block},
                                     {"begin_ms", number(s.begin_ms)},
                                     {"end_ms", number(s.end_ms)}});
    }
    const GradCheck& g = run.grad_check;
    OrderedJson gradCheck{{"checked", g.checked},
                          {"max_abs_diff", number(g.max_abs_diff)},
                          {"tolerance", number(g.tolerance)},
                          {"passed", g.passed()}};
    if (!g.note.empty()) gradCheck["note"] = g.note;
    if (g.bitwise_equal) gradCheck["bitwise_equal"] = true;  // absent: older files, or not equal
    OrderedJson json{
        {"config", detail::configToJson(run.config)},
        {"strategy", run.strategy.name()},
        {"metrics", metricsJson(run.metrics)},
        // "passed" is derived; it is written for people and scripts, and recomputed on load.
        {"grad_check", std::move(gradCheck)},
        {"breakdown", breakdownJson(run.breakdown)},
        {"blocks", std::move(blocks)},
        {"timeline", timelineJson(run.timeline)},
        {"phases", std::move(phases)},
        {"prediction",
         run.prediction
             ? OrderedJson{{"peak_bytes", run.prediction->peak_bytes},
                           {"activation_bytes", run.prediction->activation_bytes},
                           {"step_ms", number(run.prediction->step_ms)},
                           {"optimal_step_ms", run.prediction->optimal_step_ms
                                                   ? number(*run.prediction->optimal_step_ms)
                                                   : OrderedJson(nullptr)}}
             : OrderedJson(nullptr)},
        {"schedule", run.schedule},
        {"forward_counts", run.forward_counts},
        {"error", run.error ? OrderedJson(*run.error) : OrderedJson(nullptr)}};
    if (run.prediction && run.prediction->reserved_peak_bytes)  // only when predicted
        json["prediction"]["reserved_peak_bytes"] = *run.prediction->reserved_peak_bytes;
    if (const auto& o = run.out_of_memory) {
        json["out_of_memory"] = OrderedJson{{"requested_bytes", o->requested_bytes},
                                            {"allocated_bytes", o->allocated_bytes},
                                            {"limit_bytes", o->limit_bytes},
                                            {"phase", toString(o->phase)},
                                            {"block", o->block},
                                            {"t_ms", number(o->t_ms)}};
    }
    detail::writeAllocator(run, json);  // "allocator", "allocator_trace" (allocator_json.h)
    detail::writeRunShard(run, json);   // a shard's or a merged file's (shard_json.cpp)
    return json;
}

std::string compact(const OrderedJson& j) {
    // Strings from LibTorch errors or /proc may not be valid UTF-8; never fail to save for that.
    return j.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

bool isFlat(const OrderedJson& j) {
    for (const OrderedJson& child : j) {
        if (child.is_structured()) return false;
    }
    return true;
}

// Indented like dump(2), except that arrays of scalars (the timeline columns) and flat objects
// inside arrays (blocks, phases) take one line each, so a big file stays readable and small.
void appendPretty(std::string& out, const OrderedJson& j, int depth) {
    if (!j.is_structured() || j.empty() || (j.is_array() && isFlat(j))) {
        out += compact(j);
        return;
    }
    const bool object = j.is_object();
    const std::string pad(2 * (depth + 1), ' ');
    out += object ? '{' : '[';
    for (auto it = j.begin(); it != j.end(); ++it) {
        out += it == j.begin() ? "\n" : ",\n";
        out += pad;
        if (object) {
            out += compact(OrderedJson(it.key()));
            out += ": ";
            appendPretty(out, *it, depth + 1);
        } else if (isFlat(*it)) {
            out += compact(*it);
        } else {
            appendPretty(out, *it, depth + 1);
        }
    }
    out += '\n';
    out.append(2 * depth, ' ');
    out += object ? '}' : ']';
}

}  // namespace

std::string resultsToJson(const ResultSet& results) {
    OrderedJson runs = OrderedJson::array();
    for (const RunResult& run : results.runs) runs.push_back(runJson(run));
    OrderedJson frontier = OrderedJson::array();
    for (const FrontierPoint& p : results.predicted_frontier)
        frontier.push_back(
            OrderedJson{{"peak_bytes", p.peak_bytes}, {"step_ms", number(p.step_ms)}});
    OrderedJson doc{{"schema", kResultsSchema},
                    {"environment", environmentJson(results.environment)},
                    {"cancelled", results.cancelled},
                    {"runs", std::move(runs)},
                    {"predicted_frontier", std::move(frontier)}};
    if (!results.notes.empty()) doc["notes"] = results.notes;
    detail::writeTiming(results, doc);
    detail::writeShards(results, doc, environmentJson, runJson);  // shard_json.cpp
    detail::writeFullSizePlan(results, doc);                      // full_size_json.cpp
    std::string text;
    appendPretty(text, doc, 0);
    text += '\n';
    return text;
}

void saveResults(const ResultSet& results, const std::string& path) {
    detail::writeFileAtomically(path, resultsToJson(results));
}

}  // namespace ckptlab
