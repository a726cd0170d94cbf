#pragma once
// Which OpenBLAS kernels run LibTorch's float32 matmuls, and switching away from a generic
// fallback. OpenBLAS picks its kernels ("core") from the CPU model when it loads; on a model it
// does not know (e.g. a Xeon reported only as "Intel(R) Xeon(R) Processor") it falls back to
// Prescott's SSE3 kernels, several times slower than an AVX-512 or AVX2 CPU can run. It reads
// OPENBLAS_CORETYPE only when it loads, before main, so a switch means running the program again.

#include <optional>
#include <string>

#include "ckptlab/model/result.h"

namespace ckptlab {

// The BLAS as OpenBLAS reports itself (openblas_get_corename, openblas_get_config); both empty
// when the BLAS in use is not OpenBLAS.
struct BlasLibrary {
    std::string core;    // "Prescott", "SkylakeX"
    std::string config;  // "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH ... Prescott MAX_THREADS=64"
};

// The environment variables the decision reads; unset ones are empty.
struct BlasKernelVariables {
    std::string coretype;  // OPENBLAS_CORETYPE: the user's choice, or the lab's after a switch
    std::string keep;      // CKPTLAB_KEEP_BLAS_KERNEL: "1" keeps OpenBLAS's choice
    std::string replaced;  // CKPTLAB_BLAS_KERNEL_REPLACED: set with a switch, so it never loops
};

constexpr const char* kKeepBlasKernelVariable = "CKPTLAB_KEEP_BLAS_KERNEL";
constexpr const char* kReplacedBlasKernelVariable = "CKPTLAB_BLAS_KERNEL_REPLACED";

// This process's BLAS, looked up by name among the loaded libraries.
BlasLibrary loadedBlasLibrary();
// The "flags" line of /proc/cpuinfo (empty where unreadable).
std::string cpuFlags();
BlasKernelVariables blasKernelVariables();

// Pure decisions, testable without the machine:
// The kernel this CPU runs better than `core`, when `core` is one of OpenBLAS's generic
// (pre-AVX) kernels: "SkylakeX" with avx512f, avx512bw, avx512vl and avx512dq among `cpuFlags`,
// else "Haswell" with avx2 and fma, else "Sandybridge" with avx; empty otherwise.
std::string betterBlasKernel(const std::string& core, const std::string& cpuFlags);
// The kernel to run the program again with: the better kernel when OpenBLAS fell back to a
// generic one, the library switches kernels at load time (DYNAMIC_ARCH), and neither the user
// (OPENBLAS_CORETYPE, CKPTLAB_KEEP_BLAS_KERNEL) nor an earlier switch decided already. Empty:
// keep the kernels.
std::string blasKernelToSwitchTo(const BlasLibrary& blas, const std::string& cpuFlags,
                                 const BlasKernelVariables& variables);
// What the results' environment records; nullopt for another BLAS.
std::optional<BlasKernel> describeBlasKernel(const BlasLibrary& blas, const std::string& cpuFlags,
                                             const BlasKernelVariables& variables);

// Called first thing in main: when blasKernelToSwitchTo says so, sets OPENBLAS_CORETYPE and
// CKPTLAB_BLAS_KERNEL_REPLACED and executes /proc/self/exe again with the same arguments. Returns
// only when it keeps the kernels or the exec failed (the program then runs on as it is).
void useFittingBlasKernel(int argc, char** argv);

// After a switch, one English line saying so: "OpenBLAS picked its generic Prescott kernels on a
// CPU with AVX-512; switched to SkylakeX (CKPTLAB_KEEP_BLAS_KERNEL=1 keeps OpenBLAS's choice)".
// Empty without a switch.
std::string blasKernelSwitchNote();

}  // namespace ckptlab
