// Interleaved timed rounds (timed_rounds.h): every strategy's timed steps, one of each per
// round, with the thread's CPU time beside the wall time, then the medians and their spread.
#include "engine/timed_rounds.h"

#include <time.h>

#include <chrono>
#include <cmath>
#include <limits>

#include "ckptlab/number_text.h"
#include "ckptlab/statistics.h"
#include "ckptlab/step_stats.h"

namespace ckptlab::engine {
namespace {

using Clock = std::chrono::steady_clock;

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

    void dropRound(int round) {
        while (!rounds.empty() && rounds.back() == round) {
            rounds.pop_back();
            times.pop_back();
            cpuMs.pop_back();
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
                loose += (loose.empty() ? "" : ", ") + lane.run->strategy;
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

}  // namespace

int timedStepsPerRun(const ExperimentConfig& config) {
    return config.repeats_auto ? kAutoMinRounds : config.repeats;
}

void timeInRounds(Workbench& bench, ResultSet& results, const std::vector<Plan>& plans,
                  const RunnerHooks& hooks, ProgressCounter& progress, LoadMonitor& load) {
    const ExperimentConfig& config = bench.config;
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
        const auto strategy = parseStrategyForm(run.strategy);
        lane.context.keepGradients = strategy && startsWithKeptGradients(config, *strategy);
        lanes.push_back(std::move(lane));
    }
    if (lanes.empty()) return;

    const bool cpuDevice = !bench.device.is_cuda();
    const int nominal = timedStepsPerRun(config);
    const int phaseStart = progress.done;
    const int phaseUnits = nominal * static_cast<int>(lanes.size());
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
            for (Lane& lane : lanes) {
                if (!lane.live) continue;
                const std::string& name = lane.run->strategy;
                try {
                    const double cpu0 = threadCpuMs();
                    const StepTimes t = runStep(bench, *lane.plan, lane.context);
                    const double cpu1 = threadCpuMs();
                    lane.times.push_back(t);
                    lane.rounds.push_back(round);
                    lane.cpuMs.push_back(cpu1 - cpu0);
                } catch (const Cancelled&) {
                    throw;
                } catch (const std::exception& e) {
                    // c10::Error messages carry a C++ backtrace after the first line.
                    const std::string message = e.what();
                    lane.run->error = message.substr(0, message.find('\n'));
                    lane.live = false;
                    bench.clearGradients();
                }
                if (!config.repeats_auto)
                    progress.step(name + ": timed step " + std::to_string(round + 1) + "/" +
                                  std::to_string(config.repeats));
            }
            ++round;
            load.afterRound();
            std::vector<std::vector<double>> samples;
            for (const Lane& lane : lanes)
                if (lane.live) samples.push_back(lane.stepMs());
            if (samples.empty()) {
                stop = RoundsStop::Repeats;  // every run failed: nothing left to time
            } else if (!config.repeats_auto) {
                if (round >= config.repeats) stop = RoundsStop::Repeats;
            } else {
                const double seconds = elapsed();
                stop = autoRoundsStop(samples, round, seconds, config.time_limit_s,
                                      static_cast<int>(limits::repeats.max));
                // Progress by the rounds taken and the time used, whichever is further.
                const double fraction =
                    std::min(0.99, std::max(seconds / config.time_limit_s, round / (round + 4.0)));
                const int target = phaseStart + static_cast<int>(phaseUnits * fraction);
                if (target > progress.done)
                    progress.advance(target - progress.done,
                                     "timed round " + std::to_string(round) + " (auto)");
            }
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
    for (Lane& lane : lanes) finishMetrics(lane, cpuDevice);
    if (const auto measured = load.finish()) results.environment.load = measured;
    results.timing = timing;
    if (const std::string note = roundsNote(timing, lanes); !note.empty())
        results.notes.push_back(note);
    if (stop != RoundsStop::Cancelled && phaseStart + phaseUnits > progress.done)
        progress.advance(phaseStart + phaseUnits - progress.done, "timed rounds done");
}

}  // namespace ckptlab::engine
