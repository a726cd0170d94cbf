// The full-size plan as values (recordOf) and as JSON, written and read (full_size_json.h).
#include "formats/full_size_json.h"

#include <cmath>
#include <limits>
#include <variant>

#include "ckptlab/model/config_fields.h"
#include "ckptlab/planning/full_size.h"
#include "ckptlab/planning/planner.h"
#include "ckptlab/planning/sweep_check.h"
#include "formats/config_json.h"

namespace ckptlab {

namespace {

FullSizePlanRow rowOf(const StrategyAtSize& s) {
    FullSizePlanRow row;
    row.strategy = s.strategy;
    row.allocated_bytes = s.allocated;
    row.reserved_bytes = s.reserved;
    row.peak_bytes = s.prediction.peak_bytes;
    row.baseline_bytes = s.prediction.baseline_bytes;
    row.weights = s.split.weights;
    row.weight_copies = s.split.weight_copies;
    row.gradients = s.split.gradients;
    row.optimizer_state = s.split.optimizer_state;
    row.activations = s.split.activations;
    row.logits = s.split.logits;
    row.other = s.split.other;
    row.fits = s.fits;
    row.margin_bytes = s.margin;
    row.step_ms = s.prediction.step_ms;
    row.largest_batch = s.largest_batch;
    row.longest_seq = s.longest_seq;
    row.step_ms_at_largest_batch = s.step_ms_at_largest_batch;
    row.tokens_per_s = s.tokens_per_s;
    row.least_peak_bytes = s.least_peak;
    return row;
}

}  // namespace

FullSizePlanRecord recordOf(const FullSizePlan& plan, const CostFit& fit, const std::string& model,
                            std::int64_t parameters, const std::string& timesLabel,
                            const std::optional<FullSizeTimeScale>& scaled) {
    FullSizePlanRecord record;
    record.model = model;
    record.parameters = parameters;
    record.config = plan.config;
    record.capacity_bytes = plan.capacity;
    record.state_bytes = plan.state_bytes;
    record.method = fit.method;
    record.check_shapes = fit.check_shapes;
    record.check_residual_bytes = fit.check_residual_bytes;
    record.times_label = timesLabel;
    record.scaled = scaled;
    for (const StrategyAtSize& s : plan.strategies) record.strategies.push_back(rowOf(s));
    if (plan.fastest && plan.fastest_at_size) {
        record.fastest = rowOf(*plan.fastest_at_size);
        record.fastest_schedule = describeSchedule(plan.fastest->plan);
    }
    if (plan.would_fit) record.would_fit = plan.would_fit->name;
    return record;
}

namespace detail {
namespace {

// A double as the CLI always wrote it; a value JSON has no number for reads back as the results
// file's "nan", "inf", "-inf".
OrderedJson number(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    return value;
}

// A row with no schedule at the asked size (FullSizePlanRow::least_peak_bytes): its least peak,
// and null for each number it has not, never a 0 that reads as a size.
OrderedJson infeasibleRowJson(const FullSizePlanRow& s) {
    return {
        {"strategy", s.strategy.name()},
        {"least_peak_bytes", *s.least_peak_bytes},
        {"allocated_bytes", nullptr},
        {"reserved_bytes", nullptr},
        {"peak_bytes", nullptr},
        {"baseline_bytes", nullptr},
        {"split", nullptr},
        {"fits", false},
        {"margin_bytes", nullptr},
        {"step_ms", nullptr},
        {"largest_batch", s.largest_batch},
        {"longest_seq", s.longest_seq},
        {"step_ms_at_largest_batch", number(s.step_ms_at_largest_batch)},
        {"tokens_per_s", number(s.tokens_per_s)},
    };
}

OrderedJson rowJson(const FullSizePlanRow& s) {
    if (s.least_peak_bytes) return infeasibleRowJson(s);
    return {
        {"strategy", s.strategy.name()},
        {"allocated_bytes", s.allocated_bytes},
        {"reserved_bytes", s.reserved_bytes},
        {"peak_bytes", s.peak_bytes},
        {"baseline_bytes", s.baseline_bytes},
        {"split",
         {{"weights", s.weights},
          {"weight_copies", s.weight_copies},
          {"gradients", s.gradients},
          {"optimizer_state", s.optimizer_state},
          {"activations", s.activations},
          {"logits", s.logits},
          {"other", s.other}}},
        {"fits", s.fits},
        {"margin_bytes", s.margin_bytes},
        {"step_ms", number(s.step_ms)},
        {"largest_batch", s.largest_batch},
        {"longest_seq", s.longest_seq},
        {"step_ms_at_largest_batch", number(s.step_ms_at_largest_batch)},
        {"tokens_per_s", number(s.tokens_per_s)},
    };
}

// The model's shape and the step's numerics, for scripts (the recording's "run_config" holds
// every field): the fields the registry shows for them (describeConfig), under their results
// JSON keys, derived values resolved.
OrderedJson summaryJson(const ExperimentConfig& c) {
    const ExperimentConfig effective = effectiveConfig(c);
    OrderedJson summary = OrderedJson::object();
    for (const DescribedField& d : describeConfig(c, kShownModel | kShownNumerics)) {
        const FieldValue value = valueOf(*d.field, effective);
        std::visit([&](const auto& v) { summary[d.field->json] = v; }, value);
    }
    return summary;
}

// The summary as files written before 2026-12-07 hold it: a fixed list, still read.
OrderedJson legacySummaryJson(const ExperimentConfig& c) {
    return {{"block", toString(c.block)},
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
}

// What every row has: its largest batch and longest sequence and the times there.
void readRowAtLargest(const Fields& f, const Path& at, FullSizePlanRow& row) {
    row.largest_batch = f.integer("largest_batch", 0, kIntMax);
    row.longest_seq = f.integer("longest_seq", 0, kIntMax);
    row.step_ms_at_largest_batch = f.duration("step_ms_at_largest_batch");
    row.tokens_per_s = f.number("tokens_per_s");
    if (!(row.tokens_per_s >= 0) || std::isinf(row.tokens_per_s))
        fail(at.member("tokens_per_s"),
             "expected a rate of 0 or more, got " + numberText(row.tokens_per_s));
}

// The numbers at the asked size of a row with no schedule there: each present and null.
void readInfeasible(const Fields& f, const Path& at, FullSizePlanRow& row) {
    row.least_peak_bytes = f.int64("least_peak_bytes", 1, kMaxBytes);
    for (const char* key : {"allocated_bytes", "reserved_bytes", "peak_bytes", "baseline_bytes",
                            "split", "margin_bytes", "step_ms"})
        if (!f.get(key).is_null())
            fail(at.member(key),
                 "must be null in a row with least_peak_bytes (no schedule at "
                 "the asked size), got " +
                     describe(f.get(key)));
    if (f.boolean("fits")) fail(at.member("fits"), "is true in a row with no schedule");
}

FullSizePlanRow readRow(const Json& j, const Path& at, const ExperimentConfig& config) {
    const Fields f(j, at);
    FullSizePlanRow row;
    const std::string name = f.string("strategy");
    std::string why;
    const auto strategy = tryParseStrategy(name, config.depth, config.block, &why);
    if (!strategy) fail(at.member("strategy"), why);
    row.strategy = *strategy;
    if (f.find("least_peak_bytes")) {
        readInfeasible(f, at, row);
        readRowAtLargest(f, at, row);
        return row;
    }
    row.allocated_bytes = f.bytes("allocated_bytes");
    row.reserved_bytes = f.bytes("reserved_bytes");
    row.peak_bytes = f.bytes("peak_bytes");
    row.baseline_bytes = f.bytes("baseline_bytes");
    const Fields split(f.get("split"), at.member("split"));
    row.weights = split.bytes("weights");
    row.weight_copies = split.bytes("weight_copies");
    row.gradients = split.bytes("gradients");
    row.optimizer_state = split.bytes("optimizer_state");
    row.activations = split.bytes("activations");
    row.logits = split.bytes("logits");
    row.other = split.bytes("other");
    row.fits = f.boolean("fits");
    row.margin_bytes = f.int64("margin_bytes", -kMaxBytes, kMaxBytes);
    row.step_ms = f.duration("step_ms");
    readRowAtLargest(f, at, row);
    if (row.fits != (row.margin_bytes >= 0))
        fail(at.member("fits"), std::string("is ") + (row.fits ? "true" : "false") +
                                    " but margin_bytes is " + std::to_string(row.margin_bytes));
    return row;
}

FullSizeTimeScale readScale(const Json& j, const Path& at) {
    const Fields f(j, at);
    FullSizeTimeScale s;
    s.machine = f.text("machine");
    s.ratio = f.number("ratio");
    if (!(s.ratio > 0) || std::isinf(s.ratio))
        fail(at.member("ratio"), "expected a ratio above 0, got " + numberText(s.ratio));
    s.measured_none_ms = f.duration("measured_none_ms");
    s.predicted_none_ms = f.duration("predicted_none_ms");
    s.batch = f.integer("batch", 1, kIntMax);
    s.seq = f.integer("seq", 1, kIntMax);
    s.depth = f.integer("depth", 1, kIntMax);
    return s;
}

FullSizePlanRecord readRecord(const Json& j, const Path& at) {
    const Fields f(j, at);
    FullSizePlanRecord r;
    r.config = configFromJson(f.get("run_config"), at.member("run_config"));
    // The summary is written from the whole config: a file whose two disagree was edited.
    const Json& summary = f.get("config");
    if (summary != Json::parse(summaryJson(r.config).dump()) &&
        summary != Json::parse(legacySummaryJson(r.config).dump()))
        fail(at.member("config"), "does not match \"run_config\" (expected " +
                                      clip(summaryJson(r.config).dump(), 300) + ")");
    r.model = f.text("model");
    r.parameters = f.int64("parameters", 0, kInt64Max);
    r.capacity_bytes = f.int64("capacity_bytes", 1, kMaxBytes);
    r.state_bytes = f.bytes("state_bytes");
    r.method = f.text("method");
    r.check_shapes = f.integer("check_shapes", 0, kIntMax);
    r.check_residual_bytes = f.bytes("check_residual_bytes");
    const Fields times(f.get("times"), at.member("times"));
    r.times_label = times.text("label");
    if (const Json* scaled = times.find("scaled"))
        r.scaled = readScale(*scaled, times.at().member("scaled"));
    const Path rowsAt = at.member("strategies");
    const Json& rows = arrayAt(f.get("strategies"), rowsAt);
    if (rows.size() > kMaxRuns) fail(rowsAt, "more than " + std::to_string(kMaxRuns) + " rows");
    std::vector<Strategy> planned;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        r.strategies.push_back(readRow(rows[i], rowsAt.item(i), r.config));
        planned.push_back(r.strategies.back().strategy);
    }
    // The rule sweep and plan --capacity refuse a list by, with their message.
    std::size_t repeat = 0;
    if (const std::optional<CoreMessage> twice = duplicateStrategyError(planned, &repeat))
        fail(rowsAt.item(repeat).member("strategy"), twice->english);
    f.get("fastest");  // present, null when nothing fits
    if (const Json* fastest = f.find("fastest")) {
        const Path fastestAt = at.member("fastest");
        r.fastest = readRow(*fastest, fastestAt, r.config);
        r.fastest_schedule = Fields(*fastest, fastestAt).text("schedule");
        if (!r.fastest->fits) fail(fastestAt.member("fits"), "the fastest that fits must fit");
    }
    f.get("would_fit");
    if (f.find("would_fit")) r.would_fit = f.text("would_fit");
    return r;
}

}  // namespace

OrderedJson fullSizePlanObject(const FullSizePlanRecord& record) {
    OrderedJson out = {
        {"model", record.model},
        {"parameters", record.parameters},
        {"config", summaryJson(record.config)},
        {"capacity_bytes", record.capacity_bytes},
        {"state_bytes", record.state_bytes},
        {"method", record.method},
        {"check_shapes", record.check_shapes},
        {"check_residual_bytes", record.check_residual_bytes},
        {"times", {{"label", record.times_label}}},
    };
    if (const auto& scale = record.scaled)
        out["times"]["scaled"] = {{"machine", scale->machine},
                                  {"ratio", number(scale->ratio)},
                                  {"measured_none_ms", number(scale->measured_none_ms)},
                                  {"predicted_none_ms", number(scale->predicted_none_ms)},
                                  {"batch", scale->batch},
                                  {"seq", scale->seq},
                                  {"depth", scale->depth}};
    OrderedJson rows = OrderedJson::array();
    for (const FullSizePlanRow& s : record.strategies) rows.push_back(rowJson(s));
    out["strategies"] = rows;
    out["fastest"] = nullptr;
    if (record.fastest) {
        OrderedJson fastest = rowJson(*record.fastest);
        fastest["schedule"] = record.fastest_schedule;
        out["fastest"] = fastest;
    }
    out["would_fit"] =
        record.would_fit.empty() ? OrderedJson(nullptr) : OrderedJson(record.would_fit);
    return out;
}

void writeFullSizePlan(const ResultSet& results, OrderedJson& doc) {
    if (!results.plan) return;
    OrderedJson plan = fullSizePlanObject(*results.plan);
    plan["run_config"] = configToJson(results.plan->config);
    doc["plan"] = std::move(plan);
}

void readFullSizePlan(const Fields& top, ResultSet& results) {
    if (const Json* plan = top.find("plan"))
        results.plan = readRecord(*plan, top.at().member("plan"));
}

}  // namespace detail

std::string fullSizePlanJson(const FullSizePlanRecord& record) {
    return detail::fullSizePlanObject(record).dump(2) + "\n";
}

}  // namespace ckptlab
