// Time and noise in the results file (timing_json.h).
#include "formats/timing_json.h"

#include <cmath>
#include <string>

namespace ckptlab::detail {
namespace {

OrderedJson number(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    return value;
}

// A finite number in [min, max].
double readIn(const Fields& f, const char* key, double min, double max) {
    const double value = f.number(key);
    if (!std::isfinite(value) || value < min || value > max)
        fail(f.at().member(key), "expected a number from " + numberText(min) + " to " +
                                     numberText(max) + ", got " + numberText(value));
    return value;
}

}  // namespace

void writeStepSpread(const Metrics& m, OrderedJson& metrics) {
    if (!m.step_sample_rounds.empty()) metrics["step_sample_rounds"] = m.step_sample_rounds;
    if (m.step_ms_ci) {
        metrics["step_ms_ci"] =
            OrderedJson::array({number(m.step_ms_ci->low), number(m.step_ms_ci->high)});
        metrics["step_ms_ci_95"] = m.step_ms_ci->is95;
    }
    if (m.step_ms_cv) metrics["step_ms_cv"] = number(*m.step_ms_cv);
    if (m.step_cpu_ms) metrics["step_cpu_ms"] = number(*m.step_cpu_ms);
}

void writeMachineLoad(const Environment& e, OrderedJson& environment) {
    if (!e.load) return;
    const MachineLoad& l = *e.load;
    environment["load"] = OrderedJson{{"cpus", l.cpus},
                                      {"load_before", number(l.load_before)},
                                      {"load_during_max", number(l.load_during_max)},
                                      {"steal_pct_before", number(l.steal_pct_before)},
                                      {"steal_pct_during", number(l.steal_pct_during)},
                                      {"samples", l.samples}};
}

void writeTiming(const ResultSet& results, OrderedJson& doc) {
    if (!results.timing) return;
    const TimingRounds& t = *results.timing;
    doc["timing"] = OrderedJson{{"rounds", t.rounds},
                                {"interleaved", true},
                                {"auto_repeats", t.auto_repeats},
                                {"time_limit_s", number(t.time_limit_s)},
                                {"stopped_by", toString(t.stopped_by)},
                                {"seconds", number(t.seconds)}};
}

void readStepSpread(const Fields& f, Metrics& m) {
    const Path& at = f.at();
    if (const Json* rounds = f.find("step_sample_rounds")) {
        const Path roundsAt = at.member("step_sample_rounds");
        const Json& list = arrayAt(*rounds, roundsAt);
        if (list.size() != m.step_samples_ms.size())
            fail(roundsAt, "has " + std::to_string(list.size()) +
                               " values but step_samples_ms has " +
                               std::to_string(m.step_samples_ms.size()));
        for (std::size_t i = 0; i < list.size(); ++i)
            m.step_sample_rounds.push_back(readInt(list[i], roundsAt.item(i), 0, kIntMax));
    }
    if (const Json* ci = f.find("step_ms_ci")) {
        const Path ciAt = at.member("step_ms_ci");
        const Json& pair = arrayAt(*ci, ciAt);
        if (pair.size() != 2)
            fail(ciAt, "expected [low, high], got " + std::to_string(pair.size()) + " values");
        MedianInterval interval;
        interval.low = readDuration(pair[0], ciAt.item(0));
        interval.high = readDuration(pair[1], ciAt.item(1));
        if (!std::isfinite(interval.low) || !std::isfinite(interval.high) ||
            interval.low > interval.high)
            fail(ciAt, "expected finite low <= high, got [" + numberText(interval.low) + ", " +
                           numberText(interval.high) + "]");
        if (f.find("step_ms_ci_95")) interval.is95 = f.boolean("step_ms_ci_95");
        m.step_ms_ci = interval;
    }
    if (f.find("step_ms_cv")) m.step_ms_cv = readIn(f, "step_ms_cv", 0, 1e6);
    if (f.find("step_cpu_ms")) m.step_cpu_ms = readIn(f, "step_cpu_ms", 0, kMaxMs);
}

void readMachineLoad(const Fields& environment, Environment& e) {
    const Json* load = environment.find("load");
    if (!load) return;
    const Fields f(*load, environment.at().member("load"));
    MachineLoad l;
    l.cpus = f.integer("cpus", 0, 1 << 20);
    l.load_before = readIn(f, "load_before", 0, 1e9);
    l.load_during_max = readIn(f, "load_during_max", 0, 1e9);
    l.steal_pct_before = readIn(f, "steal_pct_before", 0, 100);
    l.steal_pct_during = readIn(f, "steal_pct_during", 0, 100);
    l.samples = f.integer("samples", 0, kIntMax);
    e.load = l;
}

void readTiming(const Fields& top, ResultSet& results) {
    const Json* timing = top.find("timing");
    if (!timing) return;
    const Fields f(*timing, top.at().member("timing"));
    TimingRounds t;
    t.rounds = f.integer("rounds", 0, kIntMax);
    t.auto_repeats = f.boolean("auto_repeats");
    t.time_limit_s = readIn(f, "time_limit_s", 0, limits::timeLimitMaxS);
    t.stopped_by = f.choice("stopped_by", parseRoundsStop,
                            "repeats, precision, time limit, round limit or cancelled");
    t.seconds = readIn(f, "seconds", 0, kMaxMs);
    results.timing = t;
}

}  // namespace ckptlab::detail
