// The noisy-machine check (noise.h).
#include "ckptlab/model/noise.h"

#include <algorithm>

#include "ckptlab/model/number_text.h"
#include "ckptlab/model/step_stats.h"

namespace ckptlab {
namespace {

std::string pct(double value, int decimals) { return formatFixed(value, decimals) + "%"; }

}  // namespace

std::vector<NoiseWarning> noiseWarnings(const ResultSet& results, const NoiseThresholds& t) {
    std::vector<NoiseWarning> warnings;
    for (const RunResult& run : results.runs) {
        if (run.error) continue;
        const StepStats stats = stepStats(run.metrics);
        if (stats.samples < 2) continue;
        const double cvPct = stats.cv * 100.0;
        if (cvPct > t.cv_pct) {
            NoiseWarning w{NoiseWarning::Kind::Cv, run.name(), cvPct, t.cv_pct, {}, {}, {}};
            w.message = run.name() + ": step times vary by " + pct(cvPct, 1) + " (CV above " +
                        pct(t.cv_pct, 0) + "); compare its time by its interval";
            warnings.push_back(std::move(w));
        }
    }
    if (const auto& load = results.environment.load) {
        const double steal = std::max(load->steal_pct_before, load->steal_pct_during);
        if (steal > t.steal_pct) {
            NoiseWarning w{NoiseWarning::Kind::Steal, {}, steal, t.steal_pct, {}, {}, {}};
            w.message = "CPU steal time " + pct(steal, 1) + " (above " + pct(t.steal_pct, 0) +
                        "): the hypervisor gave this machine's CPUs to others during the sweep";
            warnings.push_back(std::move(w));
        }
        if (load->cpus > 0 && load->load_before >= load->cpus) {
            NoiseWarning w{NoiseWarning::Kind::Load,
                           {},
                           load->load_before,
                           static_cast<double>(load->cpus),
                           {},
                           {},
                           {}};
            w.message = "load average " + formatFixed(load->load_before, 2) + " on " +
                        formatFixed(static_cast<double>(load->cpus), 0) +
                        " CPUs when the sweep began: other work was competing for the CPUs";
            warnings.push_back(std::move(w));
        }
    }
    if (const auto& kernel = results.environment.blas_kernel; kernel && !kernel->better.empty()) {
        NoiseWarning w{NoiseWarning::Kind::GenericBlasKernel, {}, 0, 0, {}, {}, {}};
        w.kernel = kernel->name;
        w.instructions = blasKernelInstructions(kernel->better);
        if (w.instructions.empty()) w.instructions = kernel->better + "'s instructions";
        w.message = "OpenBLAS ran its generic " + w.kernel + " kernels on a CPU with " +
                    w.instructions + ": matmuls are several times slower than this machine can do";
        warnings.push_back(std::move(w));
    }
    return warnings;
}

}  // namespace ckptlab
