// Prints which CPU kernels this process runs, for run_kernel_matrix.sh to check that a
// requested OPENBLAS_CORETYPE or ATEN_CPU_CAPABILITY took effect: both fall back silently
// (OpenBLAS to the detected core on an unknown name, ATen to the best the CPU has).
#include <ATen/Version.h>
#include <dlfcn.h>
#include <torch/torch.h>

#include <iostream>
#include <map>
#include <regex>
#include <string>

int main() {
    // OpenBLAS is LibTorch's BLAS in Debian's build; look it up rather than link it, so the
    // report says so when another BLAS is in use.
    using CoreName = char* (*)();
    auto coreName = reinterpret_cast<CoreName>(dlsym(RTLD_DEFAULT, "openblas_get_corename"));
    std::cout << "openblas_core: " << (coreName ? coreName() : "none (not OpenBLAS)") << "\n";

    // oneDNN runs the bfloat16 matmuls; its ISA codes (dnnl_types.h, not installed by Debian).
    using EffectiveIsa = int (*)();
    auto isa = reinterpret_cast<EffectiveIsa>(dlsym(RTLD_DEFAULT, "dnnl_get_effective_cpu_isa"));
    const std::map<int, std::string> isaNames{{0x1, "SSE41"},
                                              {0x3, "AVX"},
                                              {0x7, "AVX2"},
                                              {0x27, "AVX512_CORE"},
                                              {0x67, "AVX512_CORE_VNNI"},
                                              {0xe7, "AVX512_CORE_BF16"},
                                              {0x3e7, "AVX512_CORE_AMX"},
                                              {0x407, "AVX2_VNNI"}};
    const auto isaName = isa ? isaNames.find(isa()) : isaNames.end();
    std::cout << "onednn_isa: "
              << (!isa                        ? "none (no oneDNN)"
                  : isaName != isaNames.end() ? isaName->second
                                              : "other")
              << "\n";

    std::smatch match;
    const std::string config = at::show_config();
    const std::regex capability("CPU capability usage: ([A-Za-z0-9_]+)");
    std::string used = std::regex_search(config, match, capability) ? match[1].str() : "unknown";
    if (used == "NO") used = "DEFAULT";  // printed as "NO AVX"
    std::cout << "aten_capability: " << used << "\n";

    // One float32 matmul through the BLAS, so a refused core fails here rather than in a test.
    auto a = torch::ones({64, 64});
    std::cout << "sgemm_check: "
              << (a.mm(a).sum().item<double>() == 64.0 * 64 * 64 ? "ok" : "WRONG") << "\n";
    return 0;
}
