// The matmul limit of this machine at the block's own shapes: the LibTorch matrix products a
// training step of the block runs (forward, and the two products of each backward: the
// gradient of the input and of the weight, in the layouts autograd uses), timed alone with
// warm-up and repeats. Not a test: it prints, and asserts only that its FLOP count agrees with
// the project's (core/include/ckptlab/planning/flops.h).
//
//   build/release/bench/roofline/roofline [--block ffn|transformer] [--width 256] [--seq 256]
//       [--batch 2] [--heads 4] [--threads 0] [--warmup 5] [--repeats 50]
//
// Each repeat runs the whole mix once (every product one block's step needs, forward once,
// backward twice as many FLOPs), each product into a preallocated output (`at::mm_out`,
// `at::bmm_out`: arithmetic only) and again allocating its output as a real step does
// (`at::mm`, `at::bmm`). The "mix" lines are the GFLOP/s of the whole mix: the ceiling a step
// of this block could reach if it did nothing but its matmuls. The last lines are for scripts:
//   RESULT mix_out_gflops median min max    RESULT mix_alloc_gflops median min max
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ckptlab/engine/blas_kernels.h"
#include "ckptlab/planning/flops.h"

using Clock = std::chrono::steady_clock;

namespace {

struct Options {
    ckptlab::ExperimentConfig config;
    int warmup = 5;
    int repeats = 50;
};

[[noreturn]] void usage(const char* why) {
    std::fprintf(stderr,
                 "roofline: %s\nusage: roofline [--block ffn|transformer] [--width N] [--seq N] "
                 "[--batch N] [--heads N] [--threads N] [--warmup N] [--repeats N]\n",
                 why);
    std::exit(2);
}

Options parse(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string key = argv[i];
        if (key == "-h" || key == "--help") usage("the matmul limit at the block's shapes");
        if (i + 1 >= argc) usage(("no value after " + key).c_str());
        const std::string value = argv[++i];
        const int n = std::atoi(value.c_str());
        if (key == "--block") {
            const auto kind = ckptlab::parseBlockKind(value);
            if (!kind) usage("--block is ffn or transformer");
            o.config.block = *kind;
        } else if (key == "--width")
            o.config.width = n;
        else if (key == "--seq")
            o.config.seq = n;
        else if (key == "--batch")
            o.config.batch = n;
        else if (key == "--heads")
            o.config.heads = n;
        else if (key == "--threads")
            o.config.threads = n;
        else if (key == "--warmup")
            o.warmup = n;
        else if (key == "--repeats")
            o.repeats = n;
        else
            usage(("unknown option " + key).c_str());
    }
    for (const auto& error : ckptlab::validate(o.config)) usage(error.message.english.c_str());
    if (o.warmup < 0 || o.repeats < 3) usage("--warmup 0 or more, --repeats 3 or more");
    return o;
}

// One product of the mix: C = A·B (batched when A is 3-D), with its FLOPs.
struct Product {
    std::string name;
    torch::Tensor a, b, out;
    double flops = 0;
    std::vector<double> outMs, allocMs;
};

Product matmul(const std::string& name, torch::Tensor a, torch::Tensor b) {
    Product p;
    p.name = name;
    const bool batched = a.dim() == 3;
    const double batch = batched ? static_cast<double>(a.size(0)) : 1.0;
    const double m = a.size(-2), k = a.size(-1), n = b.size(-1);
    p.flops = 2 * batch * m * k * n;
    p.out = batched ? torch::empty({a.size(0), a.size(1), b.size(2)})
                    : torch::empty({a.size(0), b.size(1)});
    p.a = std::move(a);
    p.b = std::move(b);
    return p;
}

// A linear layer y = x·Wᵀ, x [N, in], W [out, in]: the forward product and the two of its
// backward as LibTorch's addmm/mm backward runs them (grad·W for the input, gradᵀ·x for W).
void addLinear(std::vector<Product>& mix, const std::string& name, std::int64_t tokens,
               std::int64_t in, std::int64_t out) {
    const auto x = torch::randn({tokens, in});
    const auto w = torch::randn({out, in});
    const auto grad = torch::randn({tokens, out});
    mix.push_back(matmul(name + " fwd x*W^T", x, w.t()));
    mix.push_back(matmul(name + " bwd grad*W (input)", grad, w));
    mix.push_back(matmul(name + " bwd grad^T*x (weight)", grad.t(), x));
}

// Attention's two batched products over B·H heads: S = Q·Kᵀ and C = P·V, with their backward
// (for S: dS·K and dSᵀ·Q; for C: dC·Vᵀ and Pᵀ·dC).
void addAttention(std::vector<Product>& mix, std::int64_t heads, std::int64_t seq,
                  std::int64_t headDim) {
    const auto q = torch::randn({heads, seq, headDim}), k = torch::randn({heads, seq, headDim});
    const auto v = torch::randn({heads, seq, headDim});
    const auto p = torch::randn({heads, seq, seq}), dS = torch::randn({heads, seq, seq});
    const auto dC = torch::randn({heads, seq, headDim});
    mix.push_back(matmul("scores fwd Q*K^T", q, k.transpose(1, 2)));
    mix.push_back(matmul("scores bwd dS*K", dS, k));
    mix.push_back(matmul("scores bwd dS^T*Q", dS.transpose(1, 2), q));
    mix.push_back(matmul("context fwd P*V", p, v));
    mix.push_back(matmul("context bwd dC*V^T", dC, v.transpose(1, 2)));
    mix.push_back(matmul("context bwd P^T*dC", p.transpose(1, 2), dC));
}

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double quantile(std::vector<double> v, double q) {
    std::sort(v.begin(), v.end());
    const double at = q * static_cast<double>(v.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(at));
    const auto hi = std::min(lo + 1, v.size() - 1);
    return v[lo] + (v[hi] - v[lo]) * (at - static_cast<double>(lo));
}

double gflops(double flops, double ms) { return flops / (ms * 1e-3) / 1e9; }

}  // namespace

int main(int argc, char** argv) {
    // The same OpenBLAS kernels as ckptlab-cli's runs, or the limit is another machine's.
    ckptlab::useFittingBlasKernel(argc, argv);
    const Options o = parse(argc, argv);
    const ckptlab::ExperimentConfig& c = o.config;
    if (c.threads > 0) at::set_num_threads(c.threads);
    torch::manual_seed(0);
    torch::NoGradGuard noGrad;

    const std::int64_t tokens = static_cast<std::int64_t>(c.batch) * c.seq, d = c.width;
    std::vector<Product> mix;
    if (c.block == ckptlab::BlockKind::Transformer) {
        addLinear(mix, "qkv d->3d", tokens, d, 3 * d);
        addAttention(mix, static_cast<std::int64_t>(c.batch) * c.heads, c.seq, d / c.heads);
        addLinear(mix, "proj d->d", tokens, d, d);
    }
    addLinear(mix, "up d->4d", tokens, d, 4 * d);
    addLinear(mix, "down 4d->d", tokens, 4 * d, d);

    double mixFlops = 0;
    for (const auto& p : mix) mixFlops += p.flops;
    // The same count as the project's: forward once, backward twice, per block.
    const double expected = 3 * ckptlab::blockForwardFlops(c);
    if (std::fabs(mixFlops - expected) > 1e-9 * expected) {
        std::fprintf(stderr, "roofline: the mix has %.6g FLOPs, flops.h counts %.6g per block\n",
                     mixFlops, expected);
        return 1;
    }

    std::printf(
        "roofline: %s block, d=%d S=%d B=%d%s, float32, %d intra-op threads, "
        "LibTorch %s; warm-up %d, %d repeats\n",
        ckptlab::toString(c.block).c_str(), c.width, c.seq, c.batch,
        c.block == ckptlab::BlockKind::Transformer ? (" heads=" + std::to_string(c.heads)).c_str()
                                                   : "",
        at::get_num_threads(), TORCH_VERSION, o.warmup, o.repeats);
    const auto kernel = ckptlab::describeBlasKernel(
        ckptlab::loadedBlasLibrary(), ckptlab::cpuFlags(), ckptlab::blasKernelVariables());
    std::printf("OpenBLAS kernels: %s\n",
                kernel ? (kernel->name + " (chosen by " + toString(kernel->chosen_by) + ")").c_str()
                       : "none (another BLAS)");
    std::printf("one block's step matmuls: %.4g GFLOP (forward %.4g, backward %.4g)\n",
                mixFlops / 1e9, mixFlops / 3e9, 2 * mixFlops / 3e9);

    std::vector<double> mixOut, mixAlloc;
    for (int r = 0; r < o.warmup + o.repeats; ++r) {
        double outTotal = 0, allocTotal = 0;
        for (auto& p : mix) {
            auto start = Clock::now();
            if (p.a.dim() == 3)
                at::bmm_out(p.out, p.a, p.b);
            else
                at::mm_out(p.out, p.a, p.b);
            const double outMs = msSince(start);
            start = Clock::now();
            torch::Tensor fresh = p.a.dim() == 3 ? at::bmm(p.a, p.b) : at::mm(p.a, p.b);
            const double allocMs = msSince(start);
            fresh.reset();
            if (r < o.warmup) continue;
            p.outMs.push_back(outMs);
            p.allocMs.push_back(allocMs);
            outTotal += outMs;
            allocTotal += allocMs;
        }
        if (r >= o.warmup) {
            mixOut.push_back(outTotal);
            mixAlloc.push_back(allocTotal);
        }
    }

    std::printf("\n%-30s %22s %8s %8s %8s %13s %10s\n", "product", "shape", "GFLOP", "med ms",
                "GFLOP/s", "p10-p90 GF/s", "alloc GF/s");
    for (const auto& p : mix) {
        char shape[64];
        std::snprintf(shape, sizeof shape, "%s%ldx%ld*%ldx%ld",
                      p.a.dim() == 3 ? (std::to_string(p.a.size(0)) + "x").c_str() : "",
                      static_cast<long>(p.a.size(-2)), static_cast<long>(p.a.size(-1)),
                      static_cast<long>(p.b.size(-2)), static_cast<long>(p.b.size(-1)));
        const double med = quantile(p.outMs, 0.5);
        std::printf(
            "%-30s %22s %8.4f %8.3f %8.1f %6.1f-%-6.1f %10.1f\n", p.name.c_str(), shape,
            p.flops / 1e9, med, gflops(p.flops, med), gflops(p.flops, quantile(p.outMs, 0.9)),
            gflops(p.flops, quantile(p.outMs, 0.1)), gflops(p.flops, quantile(p.allocMs, 0.5)));
    }
    // Rates of the whole mix per repeat: the median, and the slowest and fastest repeat.
    auto summary = [&](const char* label, const std::vector<double>& ms) {
        const double med = quantile(ms, 0.5), slow = quantile(ms, 1.0), fast = quantile(ms, 0.0);
        std::printf("%s: %.1f GFLOP/s median (%.1f to %.1f over %d repeats; %.2f ms a mix)\n",
                    label, gflops(mixFlops, med), gflops(mixFlops, slow), gflops(mixFlops, fast),
                    static_cast<int>(ms.size()), med);
        return std::vector<double>{gflops(mixFlops, med), gflops(mixFlops, slow),
                                   gflops(mixFlops, fast)};
    };
    std::printf("\n");
    const auto out = summary("mix, into preallocated outputs", mixOut);
    const auto alloc = summary("mix, each output allocated   ", mixAlloc);
    std::printf("RESULT mix_out_gflops %.2f %.2f %.2f\n", out[0], out[1], out[2]);
    std::printf("RESULT mix_alloc_gflops %.2f %.2f %.2f\n", alloc[0], alloc[1], alloc[2]);
    std::printf("RESULT threads %d\n", at::get_num_threads());
    return 0;
}
