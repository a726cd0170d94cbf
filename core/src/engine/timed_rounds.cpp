// Interleaved timed rounds (timed_rounds.h): every strategy's timed steps, one of each per
// round, with the thread's CPU time beside the wall time, then the medians and their spread.
#include "engine/timed_rounds.h"

#include <sys/resource.h>
#include <time.h>

#include <chrono>
#include <cmath>
#include <limits>

#include "ckptlab/model/number_text.h"
#include "ckptlab/model/statistics.h"
#include "ckptlab/model/step_stats.h"

namespace ckptlab::engine {
namespace {

using Clock = std::chrono::steady_clock;

// Minor page faults of the whole process so far (every thread: intra-op threads touch fresh
// memory too); NaN where getrusage fails.
double processMinorFaults() {
    rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) != 0) return std::nan("");
    return static_cast<double>(usage.ru_minflt);
}

double threadCpuMs() {
    timespec t{};
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return std::nan("");
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

// One strategy's timed steps as they are taken.
struct Lane {
    RunResult* run = nullptr;
    const Plan* plan = nullptr;
    StepContext context;
    bool live = true;
    std::vector<StepTimes> times;
    std::vector<int> rounds;
    std::vector<double> cpuMs;
    std::vector<double> minorFaults;

    void dropRound(int round) {
        while (!rounds.empty() && rounds.back() == round) {
            rounds.pop_back();
            times.pop_back();
            cpuMs.pop_back();
            minorFaults.pop_back();
        }
    }
    std::vector<double> stepMs() const {
        std::vector<double> out;
        for (const StepTimes& t : times) out.push_back(t.step_ms);
        return out;
    }
};

void finishMetrics(Lane& lane, bool cpuDevice) {
    Metrics& m = lane.run->metrics;
    if (lane.times.empty()) {
        // Not timed (cancelled before a round ended): "not measured", never a made-up 0.
        const double nan = std::numeric_limits<double>::quiet_NaN();
        m.step_ms = m.forward_ms = m.backward_ms = m.recompute_ms = m.optimizer_ms = nan;
        return;
    }
    std::vector<double> forward, backward, recompute, optimizer;
    for (const StepTimes& t : lane.times) {
        forward.push_back(t.forward_ms);
        backward.push_back(t.backward_ms);
        recompute.push_back(t.recompute_ms);
        optimizer.push_back(t.optimizer_ms);
    }
    m.step_samples_ms = lane.stepMs();
    m.step_sample_rounds = lane.rounds;
    m.step_ms = median(m.step_samples_ms);
    m.forward_ms = median(forward);
    m.backward_ms = median(backward);
    m.recompute_ms = median(recompute);
    m.optimizer_ms = median(optimizer);
    m.recomputed_blocks = lane.times.back().recomputed_blocks;
    recordStepSpread(m);
    if (cpuDevice) {
        std::vector<double> cpu;
        for (double c : lane.cpuMs)
            if (std::isfinite(c)) cpu.push_back(c);
        if (!cpu.empty()) m.step_cpu_ms = median(cpu);
        // The memory a step page-faults in: what the allocator gave back and the step touched
        // again (glibc's malloc; not the caching allocator's kept segments).
        std::vector<double> faults;
        for (double f : lane.minorFaults)
            if (std::isfinite(f)) faults.push_back(f);
        if (!faults.empty()) m.minor_faults_per_step = median(faults);
    }
}

std::string fixed1(double value) { return formatFixed(value, 1); }

std::string roundsNote(const TimingRounds& t, const std::vector<Lane>& lanes) {
    const std::string taken = std::to_string(t.rounds) + " interleaved round" +
                              (t.rounds == 1 ? "" : "s") + " in " + fixed1(t.seconds) + " s";
    switch (t.stopped_by) {
    case RoundsStop::Precision:
        return "adaptive repeats: " + taken +
               ", stopped by precision: every median's 95% "
               "interval is within +-5% of it";
    case RoundsStop::TimeLimit:
    case RoundsStop::RoundLimit: {
        std::string loose;
        for (const Lane& lane : lanes)
            if (lane.live && !preciseEnough(lane.stepMs()))
                loose += (loose.empty() ? "" : ", ") + lane.run->strategy.name();
        const std::string limit =
            t.stopped_by == RoundsStop::TimeLimit
                ? "the " + fixed1(t.time_limit_s) + " s time limit"
                : "the limit of " + std::to_string(limits::repeats.max) + " rounds";
        return "adaptive repeats: " + taken + ", stopped by " + limit +
               (loose.empty() ? "" : " with the interval of " + loose + " wider than +-5%");
    }
    case RoundsStop::Cancelled:
        return t.rounds == 0 ? "cancelled before a timed round ended: the runs' memory was "
                               "measured, their times were not"
                             : "cancelled after " + taken + ": times are over those rounds";
    case RoundsStop::Repeats:
    case RoundsStop::Continue: break;
    }
    return {};
}

// One lane per run that has not failed, in the runs' order.
std::vector<Lane> makeLanes(const ExperimentConfig& config, ResultSet& results,
                            const std::vector<Plan>& plans, const RunnerHooks& hooks) {
    std::vector<Lane> lanes;
    for (std::size_t i = 0; i < results.runs.size() && i < plans.size(); ++i) {
        RunResult& run = results.runs[i];
        if (run.error) continue;
        Lane lane;
        lane.run = &run;
        lane.plan = &plans[i];
        lane.context.cancel = hooks.cancel;
        // The tutorial's protocol (keep_grads): every run but the baseline adds its gradients
        // into the previous step's, as in its traced step.
        lane.context.keepGradients = startsWithKeptGradients(config, run.strategy);
        lanes.push_back(std::move(lane));
    }
    return lanes;
}

// One timed step of a lane's run, with the thread's CPU time and the process's minor page
// faults. A failed step (out of memory
// among others) records its error and ends the lane; a cancel goes on up.
void timeStep(Workbench& bench, Lane& lane, int round) {
    try {
        const double faults0 = processMinorFaults();
        const double cpu0 = threadCpuMs();
        const StepTimes t = runStep(bench, *lane.plan, lane.context);
        const double cpu1 = threadCpuMs();
        const double faults1 = processMinorFaults();
        lane.times.push_back(t);
        lane.rounds.push_back(round);
        lane.cpuMs.push_back(cpu1 - cpu0);
        lane.minorFaults.push_back(faults1 - faults0);
    } catch (const Cancelled&) {
        throw;
    } catch (const std::exception& e) {
        // c10::Error messages carry a C++ backtrace after the first line.
        const std::string message = e.what();
        lane.run->error = message.substr(0, message.find('\n'));
        lane.live = false;
        bench.clearGradients();
    }
}

// Round `round` (from 0): one timed step of every live lane, in turn.
void takeRound(Workbench& bench, std::vector<Lane>& lanes, int round, ProgressCounter& progress) {
    const ExperimentConfig& config = bench.config;
    for (Lane& lane : lanes) {
        if (!lane.live) continue;
        const std::string name = lane.run->strategy.name();
        timeStep(bench, lane, round);
        if (!config.repeats_auto)
            progress.step({MessageCode::TimedStep,
                           {name, std::to_string(round + 1), std::to_string(config.repeats)}});
    }
}

// The part of the progress count the timed rounds take.
struct ProgressSpan {
    int start;
    int units;
};

// Progress of adaptive repeats: by the rounds taken and the time used, whichever is further.
void advanceAutoProgress(ProgressCounter& progress, const ProgressSpan& span, int round,
                         double seconds, double timeLimit) {
    const double fraction = std::min(0.99, std::max(seconds / timeLimit, round / (round + 4.0)));
    const int target = span.start + static_cast<int>(span.units * fraction);
    if (target > progress.done)
        progress.advance(target - progress.done,
                         {MessageCode::TimedRoundAuto, {std::to_string(round)}});
}

// Whether the rounds go on after `round` complete rounds; `elapsed()` reads the seconds taken
// so far (only adaptive repeats ask).
template <typename Elapsed>
RoundsStop stopAfterRound(const std::vector<Lane>& lanes, int round, const ExperimentConfig& config,
                          Elapsed elapsed, ProgressCounter& progress, const ProgressSpan& span) {
    std::vector<std::vector<double>> samples;
    for (const Lane& lane : lanes)
        if (lane.live) samples.push_back(lane.stepMs());
    if (samples.empty()) return RoundsStop::Repeats;  // every run failed: nothing left to time
    if (!config.repeats_auto)
        return round >= config.repeats ? RoundsStop::Repeats : RoundsStop::Continue;
    const double seconds = elapsed();
    const RoundsStop stop = autoRoundsStop(samples, round, seconds, config.time_limit_s,
                                           static_cast<int>(limits::repeats.max));
    advanceAutoProgress(progress, span, round, seconds, config.time_limit_s);
    return stop;
}

// The runs' timing metrics, the rounds' record and their note, into the results.
void recordRounds(ResultSet& results, std::vector<Lane>& lanes, const TimingRounds& timing,
                  bool cpuDevice, LoadMonitor& load) {
    for (Lane& lane : lanes) finishMetrics(lane, cpuDevice);
    if (const auto measured = load.finish()) results.environment.load = measured;
    results.timing = timing;
    if (const std::string note = roundsNote(timing, lanes); !note.empty())
        results.notes.push_back(note);
}

}  // namespace

int timedStepsPerRun(const ExperimentConfig& config) {
    return config.repeats_auto ? kAutoMinRounds : config.repeats;
}

void timeInRounds(Workbench& bench, ResultSet& results, const std::vector<Plan>& plans,
                  const RunnerHooks& hooks, ProgressCounter& progress, LoadMonitor& load) {
    const ExperimentConfig& config = bench.config;
    std::vector<Lane> lanes = makeLanes(config, results, plans, hooks);
    if (lanes.empty()) return;

    const bool cpuDevice = !bench.device.is_cuda();
    const int nominal = timedStepsPerRun(config);
    const ProgressSpan span{progress.done, nominal * static_cast<int>(lanes.size())};
    TimingRounds timing;
    timing.auto_repeats = config.repeats_auto;
    timing.time_limit_s = config.repeats_auto ? config.time_limit_s : 0;
    RoundsStop stop = results.cancelled ? RoundsStop::Cancelled : RoundsStop::Continue;
    int round = 0;
    load.roundsBegin();
    const auto start = Clock::now();
    auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
    try {
        while (stop == RoundsStop::Continue) {
            takeRound(bench, lanes, round, progress);
            ++round;
            load.afterRound();
            stop = stopAfterRound(lanes, round, config, elapsed, progress, span);
        }
    } catch (const Cancelled&) {
        results.cancelled = true;
        stop = RoundsStop::Cancelled;
        for (Lane& lane : lanes) lane.dropRound(round);  // the incomplete round
    }
    bench.clearGradients();
    timing.rounds = round;
    timing.stopped_by = stop;
    timing.seconds = elapsed();
    recordRounds(results, lanes, timing, cpuDevice, load);
    if (stop != RoundsStop::Cancelled && span.start + span.units > progress.done)
        progress.advance(span.start + span.units - progress.done,
                         CoreMessage(MessageCode::TimedRoundsDone));
}

}  // namespace ckptlab::engine
