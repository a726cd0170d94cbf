#pragma once
// Reads how busy the machine is from Linux's /proc (no LibTorch): the load average and the
// CPU steal time, sampled before and around the timed rounds into Environment::load.

#include <chrono>
#include <optional>
#include <string>

#include "ckptlab/model/result.h"

namespace ckptlab::engine {

// The 1-minute load average, the first field of /proc/loadavg ("0.52 0.58 0.59 1/389 12345").
std::optional<double> parseLoadAverage(const std::string& loadavg);

// The first ("cpu ") line of /proc/stat: jiffies of all CPUs together, and the steal column
// (the 8th number; kernels before 2.6.11 have none, then steal is 0).
struct CpuTimes {
    unsigned long long total = 0;
    unsigned long long steal = 0;
};
std::optional<CpuTimes> parseCpuTimes(const std::string& statLine);

// Steal in % of all CPU time between two readings; 0 when no time passed.
double stealPercent(const CpuTimes& before, const CpuTimes& after);

// Samples the machine through a sweep: begin() when it starts, roundsBegin() before the first
// timed round, afterRound() after each, finish() when the rounds end.
class LoadMonitor {
public:
    void begin();
    void roundsBegin();
    void afterRound();
    // Empty when /proc could not be read.
    std::optional<MachineLoad> finish();

private:
    bool ok_ = false;
    MachineLoad load_;
    CpuTimes start_, roundsStart_;
    bool roundsStarted_ = false;
    std::chrono::steady_clock::time_point lastSample_;
};

}  // namespace ckptlab::engine
