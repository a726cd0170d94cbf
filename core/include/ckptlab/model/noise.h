#pragma once
// Is the machine too noisy for its step times to be trusted? One check for the CLI's warning
// lines and the app's status bar.

#include <string>
#include <vector>

#include "ckptlab/model/result.h"

namespace ckptlab {

struct NoiseThresholds {
    double cv_pct = 10;    // a run's coefficient of variation above this is noisy
    double steal_pct = 3;  // CPU steal time above this means another guest took our CPUs
};

struct NoiseWarning {
    // GenericBlasKernel: OpenBLAS ran its generic kernels on a CPU with better ones
    // (Environment::blas_kernel), so every matmul ran several times slower than it can.
    enum class Kind { Cv, Steal, Load, GenericBlasKernel };
    Kind kind = Kind::Cv;
    std::string strategy;  // the run, for Kind::Cv
    double value = 0;      // the CV in %, the steal in %, or the load average
    double threshold = 0;  // the threshold passed (for Load: the number of CPUs)
    std::string message;   // English, one line
    // For Kind::GenericBlasKernel: the kernel that ran ("Prescott") and the instructions the
    // CPU has beyond it ("AVX-512").
    std::string kernel, instructions;
};

// Runs whose step times spread more than `cv_pct`, steal time above `steal_pct` before or
// during the rounds, and a load average already at the number of CPUs when the sweep began
// (other work was competing for them), and OpenBLAS's generic kernels on a CPU with better
// ones. Empty for a quiet machine.
std::vector<NoiseWarning> noiseWarnings(const ResultSet& results, const NoiseThresholds& = {});

}  // namespace ckptlab
