// What the results were measured on, and what this build can run on.
#include <torch/cuda.h>
#include <torch/torch.h>
#include <torch/version.h>

#include <dlfcn.h>

#ifdef CKPTLAB_WITH_CUDA
#include <ATen/cuda/CUDAContext.h>  // at::cuda::getDeviceProperties
#include <cstdlib>
#include <cstring>
#endif

#include <ctime>
#include <fstream>
#include <locale>
#include <sstream>

#include "ckptlab/engine/blas_kernels.h"
#include "ckptlab/engine/runner.h"
#include "ckptlab/planning/estimate.h"

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
        // Shared libraries only, by their file name: a program's own path may say "blas".
        const std::string file = path.substr(path.rfind('/') + 1);
        if (file.rfind("lib", 0) != 0 || file.find(".so") == std::string::npos) continue;
        if (file.find("blas") == std::string::npos) continue;
        if (path.find("cublas") != std::string::npos) continue;  // the GPU's, not the CPU BLAS
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

// The core compiles against CPU LibTorch too, so there are no CUDA headers: the runtime's
// functions are looked up in the CUDA LibTorch already loaded. Each returns cudaSuccess (0).
template <typename Fn>
Fn cudaFunction(const char* name) {
    return reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, name));
}

// Runs `query` with device `index` current, then puts the previous device back.
template <typename Query>
bool onCudaDevice(int index, Query query) {
    auto getDevice = cudaFunction<int (*)(int*)>("cudaGetDevice");
    auto setDevice = cudaFunction<int (*)(int)>("cudaSetDevice");
    int previous = 0;
    if (!getDevice || !setDevice || getDevice(&previous) != 0) return false;
    if (previous != index && setDevice(index) != 0) return false;
    const bool ok = query();
    if (previous != index) setDevice(previous);
    return ok;
}

// The GPU's marketing name. Built against a CUDA LibTorch, from LibTorch's own device
// properties; otherwise cudaDeviceProp starts with `char name[256]` in every CUDA version, and
// the buffer is larger than the struct has ever been.
std::string cudaDeviceName(int index) {
#ifdef CKPTLAB_WITH_CUDA
    if (const cudaDeviceProp* props = at::cuda::getDeviceProperties(index); props && props->name[0])
        return std::string(props->name, strnlen(props->name, sizeof props->name));
#endif
    using GetProperties = int (*)(void*, int);
    auto getProperties = cudaFunction<GetProperties>("cudaGetDeviceProperties_v2");
    if (!getProperties) getProperties = cudaFunction<GetProperties>("cudaGetDeviceProperties");
    alignas(16) static thread_local char properties[16384];
    if (!getProperties || getProperties(properties, index) != 0) return {};
    properties[255] = '\0';
    return properties;
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
    // The count the config's measurements run at (engine/measurement_scope.h), also when asked
    // outside one: the intra-op count of this thread is only LibTorch's default then.
    env.threads = config.threads > 0 ? config.threads : at::get_num_threads();
    env.blas = loadedBlas();
    env.blas_kernel = describeBlasKernel(loadedBlasLibrary(), cpuFlags(), blasKernelVariables());
    // LibTorch built with CUDA, GPU or not: at::hasCUDA() also needs a driver and a device.
    env.cuda_compiled = at::globalContext().hasCUDART();
    env.created_utc = nowUtc();
    if (const char* tunables = std::getenv("GLIBC_TUNABLES")) env.malloc_tunables = tunables;
    env.device_name = cpuModel();
    const int index = parseDeviceIndex(config.device).value_or(-1);
    if (index >= 0 && torch::cuda::is_available()) {
        const std::string name = cudaDeviceName(index);
        env.device_name = name.empty() ? "CUDA device " + std::to_string(index) : name;
    }
    return env;
}

std::int64_t availableMemory(const std::string& device) {
    if (device == "cpu") {
        std::istringstream line(firstLineWith("/proc/meminfo", "MemAvailable:"));
        line.imbue(std::locale::classic());
        std::string key;
        std::int64_t kib = 0;
        line >> key >> kib;
        return kib * 1024;
    }
    const auto index = parseDeviceIndex(device);
    if (!index || *index < 0 || !torch::cuda::is_available()) return 0;
    // 0 means unknown to callers.
    auto memGetInfo = cudaFunction<int (*)(std::size_t*, std::size_t*)>("cudaMemGetInfo");
    std::size_t freeBytes = 0, totalBytes = 0;
    const bool ok = memGetInfo &&
                    onCudaDevice(*index, [&] { return memGetInfo(&freeBytes, &totalBytes) == 0; });
    return ok ? static_cast<std::int64_t>(freeBytes) : 0;
}

}  // namespace ckptlab
