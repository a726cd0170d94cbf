// The noisy-machine check (noise.h).
#include "ckptlab/noise.h"

#include <algorithm>
#include <cstdio>

#include "ckptlab/step_stats.h"

namespace ckptlab {
namespace {

std::string format(const char* pattern, double a, double b) {
    char buffer[256];
    std::snprintf(buffer, sizeof buffer, pattern, a, b);
    return buffer;
}

}  // namespace

std::vector<NoiseWarning> noiseWarnings(const ResultSet& results, const NoiseThresholds& t) {
    std::vector<NoiseWarning> warnings;
    for (const RunResult& run : results.runs) {
        if (run.error) continue;
        const StepStats stats = stepStats(run.metrics);
        if (stats.samples < 2) continue;
        const double cvPct = stats.cv * 100.0;
        if (cvPct > t.cv_pct) {
            NoiseWarning w{NoiseWarning::Kind::Cv, run.strategy, cvPct, t.cv_pct, {}};
            w.message = run.strategy + format(": step times vary by %.1f%% (CV above %.0f%%); "
                                              "compare its time by its interval",
                                              cvPct, t.cv_pct);
            warnings.push_back(std::move(w));
        }
    }
    if (const auto& load = results.environment.load) {
        const double steal = std::max(load->steal_pct_before, load->steal_pct_during);
        if (steal > t.steal_pct) {
            NoiseWarning w{NoiseWarning::Kind::Steal, {}, steal, t.steal_pct, {}};
            w.message = format("CPU steal time %.1f%% (above %.0f%%): the hypervisor gave this "
                               "machine's CPUs to others during the sweep",
                               steal, t.steal_pct);
            warnings.push_back(std::move(w));
        }
        if (load->cpus > 0 && load->load_before >= load->cpus) {
            NoiseWarning w{NoiseWarning::Kind::Load, {}, load->load_before,
                           static_cast<double>(load->cpus), {}};
            w.message = format("load average %.2f on %.0f CPUs when the sweep began: other work "
                               "was competing for the CPUs",
                               load->load_before, static_cast<double>(load->cpus));
            warnings.push_back(std::move(w));
        }
    }
    return warnings;
}

}  // namespace ckptlab
