// Which OpenBLAS kernels run the matmuls, and the switch away from a generic fallback
// (ckptlab/engine/blas_kernels.h).
#include "ckptlab/engine/blas_kernels.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace ckptlab {
namespace {

std::string lowercase(std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
}

std::string variable(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

// OpenBLAS's names (driver/others/dynamic.c) of the kernels without AVX: what it falls back to
// on a CPU model it does not know, or runs on old CPUs. Compared in lower case, since a build
// without DYNAMIC_ARCH reports its core in capitals.
bool isGenericKernel(const std::string& core) {
    static const std::set<std::string> generic{
        "unknown", "katmai",        "coppermine", "northwood",  "prescott", "banias",
        "atom",    "core2",         "penryn",     "dunnington", "nehalem",  "athlon",
        "opteron", "opteron(sse3)", "barcelona",  "nano",       "bobcat"};
    return generic.count(lowercase(core)) > 0;
}

bool hasFlags(const std::string& cpuFlags, std::initializer_list<const char*> wanted) {
    std::istringstream words(cpuFlags);
    std::set<std::string> flags;
    for (std::string word; words >> word;) flags.insert(word);
    for (const char* flag : wanted)
        if (!flags.count(flag)) return false;
    return true;
}

// OpenBLAS takes OPENBLAS_CORETYPE only when built to choose its kernels at load time.
bool switchesAtLoad(const BlasLibrary& blas) {
    return blas.config.find("DYNAMIC_ARCH") != std::string::npos;
}

}  // namespace

BlasLibrary loadedBlasLibrary() {
    using Text = char* (*)();
    BlasLibrary blas;
    if (auto core = reinterpret_cast<Text>(dlsym(RTLD_DEFAULT, "openblas_get_corename")))
        if (const char* name = core()) blas.core = name;
    if (auto config = reinterpret_cast<Text>(dlsym(RTLD_DEFAULT, "openblas_get_config")))
        if (const char* text = config()) blas.config = text;
    return blas;
}

std::string cpuFlags() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("flags", 0) != 0) continue;
        const auto colon = line.find(':');
        return colon == std::string::npos ? std::string() : line.substr(colon + 1);
    }
    return {};
}

BlasKernelVariables blasKernelVariables() {
    return {variable("OPENBLAS_CORETYPE"), variable(kKeepBlasKernelVariable),
            variable(kReplacedBlasKernelVariable)};
}

std::string betterBlasKernel(const std::string& core, const std::string& flags) {
    if (!isGenericKernel(core)) return {};
    if (hasFlags(flags, {"avx512f", "avx512bw", "avx512vl", "avx512dq"})) return "SkylakeX";
    if (hasFlags(flags, {"avx2", "fma"})) return "Haswell";
    if (hasFlags(flags, {"avx"})) return "Sandybridge";
    return {};
}

std::string blasKernelToSwitchTo(const BlasLibrary& blas, const std::string& flags,
                                 const BlasKernelVariables& v) {
    if (blas.core.empty() || !switchesAtLoad(blas)) return {};
    if (!v.coretype.empty() || !v.replaced.empty() || v.keep == "1") return {};
    return betterBlasKernel(blas.core, flags);
}

std::optional<BlasKernel> describeBlasKernel(const BlasLibrary& blas, const std::string& flags,
                                             const BlasKernelVariables& v) {
    if (blas.core.empty()) return std::nullopt;
    BlasKernel kernel;
    kernel.name = blas.core;
    // OpenBLAS matches OPENBLAS_CORETYPE ignoring case and detects the CPU itself on a name it
    // does not know: a variable that did not take effect chose nothing.
    if (!v.coretype.empty() && lowercase(v.coretype) == lowercase(blas.core)) {
        kernel.chosen_by = v.replaced.empty() ? BlasKernelChoice::User : BlasKernelChoice::Lab;
        if (!v.replaced.empty()) kernel.replaced = v.replaced;
    }
    kernel.better = betterBlasKernel(blas.core, flags);
    return kernel;
}

void useFittingBlasKernel(int /*argc*/, char** argv) {
    const std::string kernel =
        blasKernelToSwitchTo(loadedBlasLibrary(), cpuFlags(), blasKernelVariables());
    if (kernel.empty()) return;
    // Set before the exec: OpenBLAS reads its variable while loading, before main.
    ::setenv("OPENBLAS_CORETYPE", kernel.c_str(), 1);
    ::setenv(kReplacedBlasKernelVariable, loadedBlasLibrary().core.c_str(), 1);
    ::execv("/proc/self/exe", argv);
    // The exec failed (no /proc, a seccomp filter): run on with the kernels as they are, and
    // take the variables back, so the results do not claim a switch.
    ::unsetenv("OPENBLAS_CORETYPE");
    ::unsetenv(kReplacedBlasKernelVariable);
}

std::string blasKernelSwitchNote() {
    const auto kernel = describeBlasKernel(loadedBlasLibrary(), cpuFlags(), blasKernelVariables());
    if (!kernel || kernel->chosen_by != BlasKernelChoice::Lab) return {};
    const std::string instructions = blasKernelInstructions(kernel->name);
    return "OpenBLAS picked its generic " + kernel->replaced + " kernels on a CPU with " +
           (instructions.empty() ? std::string("better ones") : instructions) + "; switched to " +
           kernel->name + " (" + kKeepBlasKernelVariable + "=1 keeps OpenBLAS's choice)";
}

}  // namespace ckptlab
