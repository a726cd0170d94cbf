// What the results were measured on, and what this build can run on.
#include <torch/cuda.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <dlfcn.h>

#include <ctime>
#include <fstream>
#include <sstream>

#include "ckptlab/estimate.h"
#include "ckptlab/runner.h"

namespace ckptlab {
namespace {

std::string firstLineWith(const std::string& path, const std::string& key) {
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line))
        if (line.rfind(key, 0) == 0) return line;
    return {};
}

std::string cpuModel() {
    std::string line = firstLineWith("/proc/cpuinfo", "model name");
    auto colon = line.find(':');
    return colon == std::string::npos ? "unknown CPU" : line.substr(colon + 2);
}

// The BLAS that libtorch's libblas.so.3 resolved to, read from this process's mappings:
// Debian switches it with alternatives, and the reference BLAS is ~20x slower.
std::string loadedBlas() {
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line)) {
        auto slash = line.find('/');
        if (slash == std::string::npos) continue;
        std::string path = line.substr(slash);
        if (path.find("blas") == std::string::npos) continue;
        if (path.find("openblas") != std::string::npos) {
            std::string variant = path.find("openmp") != std::string::npos    ? " (OpenMP)"
                                  : path.find("pthread") != std::string::npos ? " (pthreads)"
                                                                              : "";
            return "OpenBLAS" + variant;
        }
        if (path.find("blis") != std::string::npos) return "BLIS";
        if (path.find("mkl") != std::string::npos) return "MKL";
        if (path.find("atlas") != std::string::npos) return "ATLAS";
        return "reference BLAS (" + path.substr(path.rfind('/') + 1) + ")";
    }
    return "none loaded";
}

std::string nowUtc() {
    std::time_t t = std::time(nullptr);
    char buffer[32];
    std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return buffer;
}

}  // namespace

std::vector<std::string> availableDevices() {
    std::vector<std::string> devices{"cpu"};
    if (torch::cuda::is_available()) devices.push_back("cuda");
    return devices;
}

Environment describeEnvironment(const ExperimentConfig& config) {
    Environment env;
    env.ckptlab_version = CKPTLAB_VERSION;
    env.libtorch_version = TORCH_VERSION;
    env.device = config.device;
    env.dtype = toString(config.dtype);
    env.threads = at::get_num_threads();
    env.blas = loadedBlas();
    env.cuda_compiled = at::hasCUDA();
    env.created_utc = nowUtc();
    env.device_name = cpuModel();
    if (config.device != "cpu" && torch::cuda::is_available()) {
        env.device_name = "CUDA device " + config.device;
    }
    return env;
}

std::int64_t availableMemory(const std::string& device) {
    if (device == "cpu") {
        std::istringstream line(firstLineWith("/proc/meminfo", "MemAvailable:"));
        std::string key;
        std::int64_t kib = 0;
        line >> key >> kib;
        return kib * 1024;
    }
    if (!torch::cuda::is_available()) return 0;
    // The core compiles against CPU LibTorch too, so no CUDA headers: find the runtime's
    // cudaMemGetInfo in the already loaded CUDA LibTorch. 0 means unknown to callers.
    using MemGetInfo = int (*)(std::size_t*, std::size_t*);
    auto query = reinterpret_cast<MemGetInfo>(dlsym(RTLD_DEFAULT, "cudaMemGetInfo"));
    std::size_t freeBytes = 0, totalBytes = 0;
    if (query && query(&freeBytes, &totalBytes) == 0) return static_cast<std::int64_t>(freeBytes);
    return 0;
}

}  // namespace ckptlab
