// Why is a kept block's backward slower than a recomputed one's? Times one block's backward
// of the project's own model under the conditions that differ between the two, with the
// minor page faults (getrusage) of each backward, so a hypothesis can be tested in seconds.
// Not a test: it asserts nothing and prints medians with their order-statistic 95% intervals.
//
//   build/release/bench/probes/kept_backward_probe [width seq batch depth repeats [tuned]]
//
// `tuned` (or CKPTLAB_MALLOC_TUNING=1) first sets glibc's trim threshold to 1 GiB and its mmap
// threshold to 32 MiB (its maximum), the lab's --malloc-tuning; compare two processes, one of
// each, run alternately (bench/probes/kept_backward.sh does). The findings: docs/MEASUREMENTS.md,
// "The kept-block backward".
#include <malloc.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ckptlab/engine/blas_kernels.h"
#include "engine/malloc_tuning.h"
#include "engine/model.h"

using namespace ckptlab;
using Clock = std::chrono::steady_clock;

namespace {

struct Sample {
    double ms = 0;
    double faults = 0;
};

// Median and the order-statistic 95% interval of the median (normal approximation).
void summarize(const char* name, std::vector<double> v, const char* unit) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    if (n == 0) return;
    const double half = 1.96 * std::sqrt(double(n)) / 2;
    const auto lo = static_cast<std::size_t>(std::max(0.0, std::floor(n / 2.0 - half)));
    const auto hi = static_cast<std::size_t>(std::min(double(n - 1), std::ceil(n / 2.0 + half)));
    std::printf("  %-52s %8.2f %s  [%.2f, %.2f]  (%zu samples)\n", name, v[n / 2], unit, v[lo],
                v[hi], n);
}

long minorFaults() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt;
}

template <typename F>
Sample measure(F&& f, double per = 1) {
    const long faults = minorFaults();
    const auto start = Clock::now();
    f();
    Sample s;
    s.ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count() / per;
    s.faults = (minorFaults() - faults) / per;
    return s;
}

// Microseconds per first touch of a fresh 4 KiB page (a minor fault and the kernel's zeroing):
// 64 MiB mapped, written one byte a page, unmapped; the median of 9.
double faultCostUs() {
    const std::size_t bytes = 64u << 20;
    std::vector<double> us;
    for (int r = 0; r < 9; ++r) {
        void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return 0;
        auto* c = static_cast<volatile char*>(p);
        const auto start = Clock::now();
        for (std::size_t i = 0; i < bytes; i += 4096) c[i] = 1;
        us.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count() /
                     (bytes / 4096));
        munmap(p, bytes);
    }
    std::sort(us.begin(), us.end());
    return us[us.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
    useFittingBlasKernel(argc, argv);  // the OpenBLAS kernels ckptlab-cli's runs use
    ExperimentConfig config;  // the app's default: the seed's ffn block at a CPU-sized shape
    const auto arg = [&](int i, int fallback) { return argc > i ? std::atoi(argv[i]) : fallback; };
    config.width = arg(1, config.width);
    config.seq = arg(2, config.seq);
    config.batch = arg(3, config.batch);
    config.depth = std::max(2, arg(4, config.depth));
    const int repeats = std::max(3, arg(5, 15));
    const bool tuned =
        (argc > 6 && std::strcmp(argv[6], "tuned") == 0) || engine::mallocTuningRequested();
    if (tuned && !engine::applyMallocTuning()) std::printf("mallopt failed\n");
    const torch::Device cpu(torch::kCPU);
    engine::Model model = engine::buildModel(config, cpu);
    torch::Tensor input = engine::buildInput(config, cpu).requires_grad_();
    torch::Tensor gradOut = torch::randn_like(input);
    auto clearGrads = [&] {
        input.mutable_grad().reset();
        for (auto& p : model.parameters()) p.mutable_grad().reset();
    };
    engine::Block& block = model.block(0);

    enum { kAlone, kChain, kChainTouched, kCount };
    const char* names[kCount] = {
        "one block: forward, then its backward (recomputed)",
        "chain of all blocks: backward per block (kept)",
        "chain, all activations read before the backward",
    };
    std::vector<std::vector<double>> ms(kCount), faults(kCount);
    for (int i = 0; i < repeats + 1; ++i) {
        for (int kind = 0; kind < kCount; ++kind) {  // interleaved: every kind each round
            clearGrads();
            Sample s;
            if (kind == kAlone) {
                torch::Tensor y = block.forwardPart(0, input);
                s = measure([&] { y.backward(gradOut); });
            } else {
                torch::Tensor x = input;
                std::vector<torch::Tensor> outputs;
                for (int b = 0; b < model.depth(); ++b)
                    for (int part = 0; part < model.partsPerBlock(); ++part)
                        outputs.push_back(x = model.block(b).forwardPart(part, x));
                if (kind == kChainTouched) {
                    // Every block's output, and through the graph's saved tensors nothing
                    // else: reads a sixth of the kept bytes, enough to see whether reading
                    // back helps at all.
                    double sink = 0;
                    for (auto& o : outputs) sink += o.sum().item<double>();
                    if (sink == 12345.678) std::printf(" ");
                }
                outputs.clear();
                s = measure([&] { x.backward(gradOut); }, config.depth);
            }
            if (i == 0) continue;  // warm-up round
            ms[kind].push_back(s.ms);
            faults[kind].push_back(s.faults);
        }
    }
    std::printf("block %s, width %d, seq %d, batch %d, %d blocks, malloc %s; medians [95%% CI]:\n",
                toString(config.block).c_str(), config.width, config.seq, config.batch,
                config.depth, tuned ? "tuned" : "default");
    std::printf("  one minor page fault costs %.2f us here (first touch of fresh pages)\n",
                faultCostUs());
    for (int k = 0; k < kCount; ++k) {
        summarize(names[k], ms[k], "ms    ");
        summarize("  minor page faults", faults[k], "faults");
    }
    return 0;
}
